"""The audit: one row per moderator action, recorded inside the change's transaction, never changed or deleted."""

import pytest
from django.contrib.auth.models import Group
from django.db import transaction

from moderation.audit import record_action
from moderation.models import AuditEntry
from moderation.permissions import MODERATE_PERMISSION, MODERATORS_GROUP, is_moderator

pytestmark = pytest.mark.django_db


def test_the_moderators_group_holds_exactly_the_permissions_moderation_needs():
    perms = {f"{p.content_type.app_label}.{p.codename}" for p in Group.objects.get(name=MODERATORS_GROUP).permissions.all()}
    assert perms >= {MODERATE_PERMISSION, "moderation.view_auditentry", "gameplay.view_game", "gameplay.view_seat",
                     "gameplay.view_move", "gameplay.view_chatmessage"}
    assert not any(p.startswith(("auth.", "accounts.")) or p.startswith(("gameplay.delete", "gameplay.change", "gameplay.add")) for p in perms)


def test_a_member_of_the_group_and_a_superuser_are_moderators_and_staff_alone_is_not(
        moderator, staff_user, plain_user, django_user_model):
    boss = django_user_model.objects.create_superuser("boss", password="pw", email="b@example.com")
    assert is_moderator(moderator) and is_moderator(boss)
    assert not is_moderator(staff_user) and not is_moderator(plain_user)


def test_an_action_is_recorded_with_its_reason_and_its_before_and_after(moderator, plain_user):
    with transaction.atomic():
        entry = record_action(moderator, "mute", "  spam  ", target_user=plain_user, before={"muted": False},
                              after={"muted": True})
    entry.refresh_from_db()
    assert (entry.moderator, entry.action, entry.reason, entry.target_user) == (moderator, "mute", "spam", plain_user)
    assert (entry.before, entry.after) == ({"muted": False}, {"muted": True})


def test_an_action_without_a_reason_or_of_an_unknown_kind_is_refused(moderator):
    with pytest.raises(ValueError), transaction.atomic():
        record_action(moderator, "mute", "   ")
    with pytest.raises(ValueError), transaction.atomic():
        record_action(moderator, "no_such_action", "why")
    assert not AuditEntry.objects.exists()


def test_a_record_is_never_changed_nor_deleted(moderator):
    with transaction.atomic():
        entry = record_action(moderator, "mute", "spam")
    with pytest.raises(ValueError):
        entry.delete()
    entry.reason = "other"
    with pytest.raises(ValueError):
        entry.save()
    assert AuditEntry.objects.get().reason == "spam"
