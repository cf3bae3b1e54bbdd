"""Moderators work through the open reports in the admin: each shows its
game, the chat around a reported message and the players' history of
reports, timeouts and resignations, and is resolved or dismissed with a
reason, in the admin and through its service, leaving one audit row."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from moderation import history
from moderation.services import people as services
from moderation.models import Report
from gameplay import services as game_services
from gameplay.models import Move
from gameplay.services.base import GameError
from moderation.models import AuditEntry

from .conftest import client_for, report_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def reported_message(joker_game, players):
    for n in range(7):
        game_services.post_chat(joker_game.pk, players[n % 2], f"line {n}")
    return joker_game.chat.get(text="line 3")


def test_the_queue_lists_the_open_reports_and_the_handled_ones_on_request(joker_game, players, moderator):
    waiting = report_of(players[0], player=players[1])
    handled = report_of(players[2], player=players[3])
    services.resolve_report(handled.pk, moderator, "warned")
    client = client_for(moderator)
    url = reverse("admin:moderation_report_changelist")
    queue = client.get(url)
    assert queue.status_code == 200
    assert list(queue.context["cl"].result_list) == [waiting]
    assert list(client.get(url + "?status=resolved").context["cl"].result_list) == [handled]
    assert set(client.get(url + "?status=all").context["cl"].result_list) == {waiting, handled}


def test_a_report_shows_the_chat_around_the_message_and_the_players_history(joker_game, players, moderator,
                                                                           reported_message):
    report = report_of(players[0], message=reported_message)
    report_of(players[2], player=players[1])
    game_services.resign(joker_game.pk, players[1])
    Move.objects.create(game=joker_game, seq=999, position=1, action={"type": "bid", "tricks": 0},
                        by=Move.By.TIMEOUT)
    page = client_for(moderator).get(reverse("admin:moderation_report_change", args=[report.pk])).text
    for n in range(7):
        assert f"line {n}" in page  # the message with the five before and after it
    assert joker_game.get_absolute_url() in page
    assert reverse("admin:moderation_player_change", args=[players[1].pk]) in page
    assert reverse("admin:moderation_report_resolve", args=[report.pk]) in page
    [reported] = history.player_histories([players[1]])
    assert (reported.reports_against, reported.resigned, reported.resigned_count, reported.timeouts) == (
        2, [joker_game.pk], 1, 1)


def test_a_moderator_resolves_a_report_in_the_admin_with_a_reason_and_one_audit_row(joker_game, players, moderator):
    report = report_of(players[0], game=joker_game)
    client = client_for(moderator)
    url = reverse("admin:moderation_report_resolve", args=[report.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"reason": ""}).status_code == 200  # the reason is required: the form again
    assert Report.objects.get().is_open and not AuditEntry.objects.exists()

    response = client.post(url, {"reason": "the player was warned"}, follow=True)

    report.refresh_from_db()
    assert "The report is resolved" in response.text
    assert (report.status, report.handled_by, report.resolution) == (
        Report.Status.RESOLVED, moderator, "the player was warned")
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.moderator, entry.reason, entry.game) == (
        AuditEntry.Action.RESOLVE_REPORT, moderator, "the player was warned", joker_game)


def test_a_moderator_dismisses_a_report_in_the_admin_and_the_reporter_sees_it(joker_game, players, moderator):
    report = report_of(players[0], player=players[1])
    client_for(moderator).post(reverse("admin:moderation_report_dismiss", args=[report.pk]), {"reason": "no insult"})
    report.refresh_from_db()
    assert report.status == Report.Status.DISMISSED
    assert AuditEntry.objects.get().action == AuditEntry.Action.DISMISS_REPORT
    page = client_for(players[0]).get(reverse("my_reports")).text
    assert "dismissed: no action needed" in page and "no insult" not in page  # the reason stays with the moderators


def test_resolving_and_dismissing_through_the_services_leave_one_audit_row_each(joker_game, players, moderator):
    first, second = report_of(players[0], game=joker_game), report_of(players[1], game=joker_game)
    services.resolve_report(first.pk, moderator, "aborted")
    services.dismiss_report(second.pk, moderator, "fine")
    assert list(AuditEntry.objects.order_by("pk").values_list("action", "reason")) == [
        ("resolve_report", "aborted"), ("dismiss_report", "fine")]


def test_a_handled_report_is_not_handled_again_and_a_reason_is_required(joker_game, players, moderator):
    report = report_of(players[0], game=joker_game)
    with pytest.raises(GameError, match="reason"):
        services.resolve_report(report.pk, moderator, "  ")
    services.dismiss_report(report.pk, moderator, "fine")
    with pytest.raises(GameError, match="already been handled"):
        services.resolve_report(report.pk, moderator, "changed my mind")
    assert AuditEntry.objects.count() == 1


def test_only_a_moderator_may_handle_a_report_through_the_service(joker_game, players, staff_user):
    report = report_of(players[0], game=joker_game)
    with pytest.raises(GameError, match="Only moderators"):
        services.resolve_report(report.pk, staff_user, "why not")
    assert Report.objects.get().is_open and not AuditEntry.objects.exists()


def queries_of(client, url: str) -> int:
    client.get(url)  # the process' caches filled: another test may have emptied the content types' cache
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries.captured_queries)


@pytest.mark.parametrize("page", ["admin:moderation_report_changelist", "admin:moderation_player_changelist"])
def test_the_queue_and_the_players_list_run_as_many_queries_with_twelve_reports_as_with_two(
        joker_game, players, moderator, page):
    client = client_for(moderator)
    for reporter in players[:2]:
        report_of(reporter, game=joker_game)
    few = queries_of(client, reverse(page))
    for reporter in players:
        report_of(reporter, player=players[(players.index(reporter) + 1) % 4])
    message = game_services.post_chat(joker_game.pk, players[1], "rude")
    for reporter in (players[0], players[2], players[3]):
        report_of(reporter, message=message)
    assert Report.objects.count() >= 9
    assert queries_of(client, reverse(page)) == few


def test_a_report_page_runs_as_many_queries_for_a_busy_game_as_for_a_quiet_one(joker_game, players, moderator):
    client = client_for(moderator)
    message = game_services.post_chat(joker_game.pk, players[1], "rude")
    report = report_of(players[0], message=message)
    few = queries_of(client, reverse("admin:moderation_report_change", args=[report.pk]))
    for n in range(12):
        game_services.post_chat(joker_game.pk, players[n % 4], f"line {n}")
    for target in players[:2]:
        report_of(players[2], player=target)
    game_services.resign(joker_game.pk, players[3])
    assert queries_of(client, reverse("admin:moderation_report_change", args=[report.pk])) == few
