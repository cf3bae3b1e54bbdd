"""A player whose seat a moderator gives to someone else is told so, with the
moderator's reason: on his game page (as a spectator now, without the chat box
or "Resign"), on a private table's page, and by email (issue 27, 4)."""

import pytest
from django.core import mail

from moderation.services import games as moderation_actions
from tests.gameplay.conftest import client_for, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user("newcomer", password="pw-not-used-1", language="en")


def test_the_replaced_players_game_page_names_the_reason_and_is_a_spectators(joker_game, players, newcomer, moderator):
    moderation_actions.substitute_seat(joker_game.pk, 2, moderator, "Asked to leave the table", user=newcomer)
    page = client_for(players[2]).get(joker_game.get_absolute_url()).content.decode()
    assert "A moderator gave your seat in this game to another player. Reason: Asked to leave the table" in page
    assert 'class="chat-form"' not in page and 'class="resign' not in page


def test_a_seat_given_to_a_computer_says_so_in_russian(joker_game, players, moderator):
    players[1].language = "ru"
    players[1].save()
    moderation_actions.substitute_seat(joker_game.pk, 1, moderator, "Пропал на неделю")
    page = client_for(players[1]).get(joker_game.get_absolute_url()).content.decode()
    assert "Модератор отдал ваше место в этой партии компьютеру. Причина: Пропал на неделю" in page


def test_the_other_players_and_spectators_read_no_such_notice(joker_game, players, newcomer, moderator):
    moderation_actions.substitute_seat(joker_game.pk, 2, moderator, "Asked to leave the table", user=newcomer)
    for user in (players[0], newcomer):
        page = client_for(user).get(joker_game.get_absolute_url()).content.decode()
        assert "Asked to leave the table" not in page.split('id="seat-replaced"')[1].split("</p>")[0]


def test_a_private_tables_page_tells_the_replaced_player_why_he_cannot_follow_it(players, newcomer, moderator):
    game = started_game("joker", players, is_private=True)
    moderation_actions.substitute_seat(game.pk, 3, moderator, "Cheating suspected", user=newcomer)
    response = client_for(players[3]).get(game.get_absolute_url())
    assert response.status_code == 403
    assert "Reason: Cheating suspected" in response.content.decode()
    assert client_for(players[0]).get(game.get_absolute_url()).status_code == 200


def test_the_replaced_player_gets_an_email_with_the_reason(joker_game, players, newcomer, moderator, run_on_commit):
    players[2].email = "player2@example.com"
    players[2].save()
    with run_on_commit():
        moderation_actions.substitute_seat(joker_game.pk, 2, moderator, "Asked to leave the table", user=newcomer)
    sent = [m for m in mail.outbox if m.to == ["player2@example.com"]]
    assert len(sent) == 1
    assert "a moderator gave your seat to someone else" in sent[0].subject
    assert "Reason: Asked to leave the table" in sent[0].body and joker_game.get_absolute_url() in sent[0].body


def test_no_email_when_email_notifications_are_off(joker_game, players, newcomer, moderator, run_on_commit):
    players[2].email = "player2@example.com"
    players[2].email_notifications = False
    players[2].save()
    with run_on_commit():
        moderation_actions.substitute_seat(joker_game.pk, 2, moderator, "Asked to leave the table", user=newcomer)
    assert not [m for m in mail.outbox if m.to == ["player2@example.com"]]
