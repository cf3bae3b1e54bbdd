"""Only moderators reach the reports queue and the players' restrictions: a
staff member outside the moderators group and a plain player are turned
away from every page and every action, and change nothing."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from moderation.services import people as services
from moderation.models import Report
from gameplay.services.base import GameError
from moderation.models import AuditEntry

from .conftest import client_for, report_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def report(joker_game, players):
    return report_of(players[0], player=players[1])


def pages(report, target) -> list[str]:
    return [
        reverse("admin:moderation_report_changelist"),
        reverse("admin:moderation_report_change", args=[report.pk]),
        reverse("admin:moderation_report_resolve", args=[report.pk]),
        reverse("admin:moderation_report_dismiss", args=[report.pk]),
        reverse("admin:moderation_player_changelist"),
        reverse("admin:moderation_player_change", args=[target.pk]),
        reverse("admin:moderation_player_suspend", args=[target.pk]),
        reverse("admin:moderation_player_unsuspend", args=[target.pk]),
        reverse("admin:moderation_player_mute", args=[target.pk]),
        reverse("admin:moderation_player_unmute", args=[target.pk]),
    ]


def test_a_moderator_reaches_every_page(report, players, moderator):
    client = client_for(moderator)
    for url in pages(report, players[1]):
        assert client.get(url).status_code == 200, url
    assert reverse("admin:moderation_report_changelist") in client.get(reverse("admin:index")).text


@pytest.mark.parametrize("who", ["staff_user", "plain_user"])
def test_staff_outside_the_moderators_group_and_plain_players_reach_none_of_it(report, players, who, request):
    user = request.getfixturevalue(who)
    client = client_for(user)
    until = (timezone.localtime() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    for url in pages(report, players[1]):
        assert client.get(url).status_code in (302, 403, 404), url
        assert client.post(url, {"reason": "because", "until": until}).status_code in (302, 403, 404), url
    assert reverse("admin:moderation_report_changelist") not in client.get(reverse("admin:index")).text
    players[1].refresh_from_db()
    assert players[1].suspended_at is None and players[1].chat_muted_until is None
    assert Report.objects.get().is_open and not AuditEntry.objects.exists()


def test_the_services_refuse_anyone_but_a_moderator(report, players, staff_user, plain_user):
    for user in (staff_user, plain_user):
        for action in (lambda: services.suspend(players[1].pk, user, "x"),
                       lambda: services.mute(players[1].pk, user, "x", timezone.now() + timedelta(days=1)),
                       lambda: services.dismiss_report(report.pk, user, "x")):
            with pytest.raises(GameError, match="Only moderators"):
                action()
    assert not AuditEntry.objects.exists()


def test_a_moderator_cannot_restrict_another_moderator_but_a_superuser_can(players, moderator, django_user_model):
    from django.contrib.auth.models import Group

    colleague = django_user_model.objects.create_user("colleague", password="pw-not-used-1", is_staff=True)
    colleague.groups.add(Group.objects.get(name="moderators"))
    with pytest.raises(GameError, match="Only a superuser"):
        services.suspend(colleague.pk, moderator, "disagreement")
    boss = django_user_model.objects.create_superuser("boss", password="pw", email="boss@example.com")
    services.mute(colleague.pk, boss, "too loud", timezone.now() + timedelta(hours=1))
    assert AuditEntry.objects.get().moderator == boss
