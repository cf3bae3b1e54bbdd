"""The moderators' admin pages of challenges and follows: moderators read
them (a challenge with every challenged player's answer and reason), nobody
changes them there (the services do), other staff do not see them, private
notes have no page at all, and a list runs as many queries with many rows
as with a few."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from correspondence import services
from correspondence.models import Challenge, Follow, Note
from moderation.permissions import MODERATORS_GROUP

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    """A staff member of the moderators group (made by the migrations), not a superuser."""
    user = django_user_model.objects.create_user("moderator", password="pw-not-used-1", language="en",
                                                 is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return user


@pytest.fixture
def staff_user(django_user_model):
    """Staff with every permission of this app, but not a moderator."""
    user = django_user_model.objects.create_user("staffer", password="pw-not-used-1", language="en",
                                                 is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="correspondence"))
    return user


def a_declined_challenge(by, to) -> Challenge:
    challenge = services.create_challenge(by, [to.username], "durak", {}, {})
    return services.answer_challenge(challenge.pk, to, accept=False, reason="Busy this week, sorry")


def test_the_moderators_group_may_read_challenges_their_answers_and_follows():
    granted = set(Group.objects.get(name=MODERATORS_GROUP).permissions
                  .filter(content_type__app_label="correspondence").values_list("codename", flat=True))
    assert granted == {"view_challenge", "view_invitation", "view_follow"}


def test_a_moderator_reads_a_challenge_with_each_answer_and_its_reason(moderator, players):
    me, other, *_ = players
    challenge = a_declined_challenge(me, other)
    client = client_for(moderator)

    listing = client.get(reverse("admin:correspondence_challenge_changelist")).content.decode()
    page = client.get(reverse("admin:correspondence_challenge_change", args=[challenge.pk])).content.decode()

    assert f"{other.username} (declined)" in listing and "Durak" in listing
    assert "Busy this week, sorry" in page and other.username in page


def test_a_moderator_reads_who_follows_whom(moderator, players):
    me, other, *_ = players
    services.follow(me, other.username)
    listing = client_for(moderator).get(reverse("admin:correspondence_follow_changelist") + "?q=player1")
    assert listing.status_code == 200
    assert listing.context["cl"].result_count == 1


def test_nothing_is_added_changed_or_deleted_in_the_admin(moderator, players, django_user_model):
    me, other, *_ = players
    challenge = a_declined_challenge(me, other)
    follow = services.follow(me, other.username)
    boss = django_user_model.objects.create_superuser("boss", password="pw", email="boss@example.com")
    for user in (moderator, boss):
        client = client_for(user)
        for model, row in (("challenge", challenge), ("follow", follow)):
            assert client.get(reverse(f"admin:correspondence_{model}_add")).status_code == 403
            assert client.post(reverse(f"admin:correspondence_{model}_delete", args=[row.pk]),
                               {"post": "yes"}).status_code == 403
            client.post(reverse(f"admin:correspondence_{model}_change", args=[row.pk]), {"status": "started"})
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.DECLINED
    assert Follow.objects.filter(pk=follow.pk).exists()


def test_staff_outside_the_moderators_group_sees_none_of_it(staff_user, players):
    me, other, *_ = players
    challenge = a_declined_challenge(me, other)
    client = client_for(staff_user)
    assert client.get(reverse("admin:correspondence_challenge_changelist")).status_code == 403
    assert client.get(reverse("admin:correspondence_challenge_change", args=[challenge.pk])).status_code == 403
    assert client.get(reverse("admin:correspondence_follow_changelist")).status_code == 403
    assert "correspondence" not in client.get(reverse("admin:index")).content.decode()


def test_private_notes_have_no_admin_page():
    assert Note not in admin.site._registry


def _list_queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_lists_run_as_many_queries_with_many_rows_as_with_one(moderator, players):
    me, *others = players
    client = client_for(moderator)
    urls = [reverse("admin:correspondence_challenge_changelist"), reverse("admin:correspondence_follow_changelist")]
    services.create_challenge(me, [others[0].username], "durak", {}, {})
    services.follow(me, others[0].username)
    few = [_list_queries(client, url) for url in urls]
    for other in others[1:]:
        services.create_challenge(other, [me.username, others[0].username], "joker", {}, {}, players=4,
                                  fill_with_bots=True)
        services.follow(other, me.username)
    assert [_list_queries(client, url) for url in urls] == few
