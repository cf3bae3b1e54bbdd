"""Players report a game, a player or a chat message (a reason from the list
and some words), see their own reports and their state, and nobody else's;
a second open report of the same thing says so; reports are rate-limited."""

import pytest
from django.test import Client
from django.urls import reverse

from moderation.services import people as services
from moderation.models import Report
from gameplay import services as game_services
from gameplay.services.base import GameError

from .conftest import client_for, report_of

pytestmark = pytest.mark.django_db


def report_url(**query) -> str:
    key, value = next(iter(query.items()))
    return f"{reverse('new_report')}?{key}={value}"


def test_a_player_reports_a_chat_message_and_sees_it_waiting_for_a_moderator(joker_game, players):
    message = game_services.post_chat(joker_game.pk, players[1], "you are all idiots")
    client = client_for(players[0])
    page = client.get(report_url(message=message.pk))
    assert page.status_code == 200 and "you are all idiots" in page.text

    response = client.post(report_url(message=message.pk), {"reason": "abuse", "text": "insults"}, follow=True)

    report = Report.objects.get()
    assert (report.reporter, report.subject, report.chat_message, report.target_user, report.game) == (
        players[0], Report.Subject.MESSAGE, message, players[1], joker_game)
    assert "your report has been sent" in response.text
    assert response.request["PATH_INFO"] == reverse("my_reports")
    assert "waiting for a moderator" in response.text and "insults or harassment" in response.text


def test_a_player_reports_a_game_and_another_player(joker_game, players, outsider):
    client = client_for(outsider)
    assert client.post(report_url(game=joker_game.pk), {"reason": "cheating"}).status_code == 302
    assert client.post(report_url(player=players[2].username), {"reason": "name", "text": ""}).status_code == 302
    assert set(Report.objects.values_list("subject", "game_id", "target_user_id")) == {
        ("game", joker_game.pk, None), ("player", None, players[2].pk)}


def test_a_second_open_report_of_the_same_thing_is_refused_and_says_so(joker_game, players):
    client = client_for(players[0])
    client.post(report_url(player=players[1].username), {"reason": "abuse"})
    response = client.post(report_url(player=players[1].username), {"reason": "spam"}, follow=True)
    assert "You have already reported this" in response.text
    assert Report.objects.count() == 1


def test_once_the_first_report_is_handled_the_same_thing_can_be_reported_again(joker_game, players, moderator):
    first = report_of(players[0], player=players[1])
    services.dismiss_report(first.pk, moderator, "nothing wrong")
    report_of(players[0], player=players[1])
    assert Report.objects.filter(status=Report.Status.OPEN).count() == 1


def test_a_player_cannot_report_their_own_message_or_themselves(joker_game, players):
    message = game_services.post_chat(joker_game.pk, players[0], "hello")
    with pytest.raises(GameError, match="your own message"):
        report_of(players[0], message=message)
    with pytest.raises(GameError, match="yourself"):
        report_of(players[0], player=players[0])
    assert not Report.objects.exists()


def test_a_reason_outside_the_list_or_a_missing_subject_is_refused(joker_game, players):
    with pytest.raises(GameError, match="reason"):
        services.send_report(players[0], "boredom", game=joker_game)
    with pytest.raises(GameError, match="one"):
        services.send_report(players[0], "abuse")
    response = client_for(players[0]).post(report_url(game=joker_game.pk), {"reason": "boredom"})
    assert response.status_code == 200 and not Report.objects.exists()  # the form again, with its error


def test_what_a_player_cannot_see_cannot_be_reported(joker_game, players, outsider):
    joker_game.is_private = True
    joker_game.save(update_fields=["is_private"])
    message = game_services.post_chat(joker_game.pk, players[1], "secret")
    client = client_for(outsider)
    for url in (report_url(game=joker_game.pk), report_url(message=message.pk), report_url(game="x"),
                report_url(player="nobody"), reverse("new_report")):
        assert client.get(url).status_code == 404
        assert client.post(url, {"reason": "abuse"}).status_code == 404
    assert not Report.objects.exists()


def test_reporting_needs_a_login(joker_game):
    assert Client().post(report_url(game=joker_game.pk), {"reason": "abuse"}).status_code == 302
    assert Client().get(reverse("my_reports")).status_code == 302
    assert not Report.objects.exists()


def test_a_player_sees_only_their_own_reports(joker_game, players):
    report_of(players[0], player=players[1])
    report_of(players[2], player=players[3])
    page = client_for(players[0]).get(reverse("my_reports")).text
    assert players[1].username in page and players[3].username not in page
    assert "You have not reported anything" in client_for(players[1]).get(reverse("my_reports")).text


def test_reports_are_rate_limited_with_a_page_that_says_when_to_try_again(joker_game, players, settings):
    settings.REPORTS_PER_USER = "2/h"
    client = client_for(players[0])
    for target in players[1:3]:
        assert client.post(report_url(player=target.username), {"reason": "abuse"}).status_code == 302
    refused = client.post(report_url(player=players[3].username), {"reason": "abuse"})
    assert refused.status_code == 429 and refused["Retry-After"]
    assert "sending more is paused" in refused.text
    assert Report.objects.count() == 2
    # Another player's counter is their own.
    assert client_for(players[1]).post(report_url(player=players[3].username), {"reason": "abuse"}).status_code == 302


def test_the_game_page_the_player_page_and_the_chat_have_small_report_links(joker_game, players):
    message = game_services.post_chat(joker_game.pk, players[1], "hi")
    client = client_for(players[0])
    game_page = client.get(joker_game.get_absolute_url()).text
    assert f'{reverse("new_report")}?game={joker_game.pk}' in game_page
    assert f'data-report-url="{reverse("new_report")}"' in game_page  # the chat's links, drawn by game.js
    assert f'{reverse("new_report")}?player={players[1].username}' in client.get(
        reverse("player", args=[players[1].username])).text
    assert "?player=" not in client.get(reverse("player", args=[players[0].username])).text  # not oneself
    assert reverse("my_reports") in client.get(reverse("profile")).text
    game_services.resign(joker_game.pk, players[2])  # a game that is over shows its chat in the page
    assert f'{reverse("new_report")}?message={message.pk}' in client.get(joker_game.get_absolute_url()).text


def test_my_reports_runs_as_many_queries_with_twelve_reports_as_with_two(joker_game, players,
                                                                        django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(players[0])
    for target in players[1:3]:
        report_of(players[0], player=target)
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("my_reports"))
    for n in range(10):
        message = game_services.post_chat(joker_game.pk, players[1 + n % 3], f"line {n}")
        report_of(players[0], message=message)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get(reverse("my_reports"))


def test_a_suspended_account_sends_no_report(joker_game, players, moderator, outsider):
    services.suspend(outsider.pk, moderator, "spam")
    client = client_for(type(outsider).objects.get(pk=outsider.pk))  # a session made after: the service's refusal
    response = client.post(report_url(game=joker_game.pk), {"reason": "abuse"}, follow=True)
    assert "Your account is suspended by a moderator." in response.text
    assert not Report.objects.exists()


def test_a_players_own_chat_messages_carry_no_report_link(joker_game, players):
    own = game_services.post_chat(joker_game.pk, players[0], "mine")
    other = game_services.post_chat(joker_game.pk, players[1], "theirs")
    game_services.resign(joker_game.pk, players[2])
    page = client_for(players[0]).get(joker_game.get_absolute_url()).text
    assert f"?message={other.pk}" in page and f"?message={own.pk}" not in page
