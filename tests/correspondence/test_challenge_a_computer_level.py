"""A player challenges a computer level directly (issue 43): naming the level's account, which
accepts at once and plays its seat at its level; the computers filling the seats nobody is named
for play at the level the challenger chose; a level that does not exist is refused."""

import pytest
from django.urls import reverse

from correspondence import services
from correspondence.models import Challenge
from gameplay.models import Game

from .conftest import client_for

pytestmark = pytest.mark.django_db

TABLE = {"time_preset": "correspondence"}


def seats(game: Game) -> list[tuple]:
    return [(s.user, s.is_bot, s.computer_level if s.is_bot else None) for s in game.seats.order_by("position")]


def test_a_challenge_to_a_computer_level_alone_starts_at_once_with_that_level_in_its_seat(players):
    me = players[0]
    sent = services.create_challenge(me, ["computer-level-3"], "durak", {}, TABLE)
    sent.refresh_from_db()
    assert sent.status == Challenge.Status.STARTED
    assert seats(sent.game) == [(me, False, None), (None, True, 3)]
    assert sent.game.status == Game.Status.ACTIVE


def test_a_computer_level_named_beside_a_person_waits_only_for_the_person(players):
    me, vera = players[0], players[1]
    sent = services.create_challenge(me, ["computer-level-2", "player1"], "durak", {}, TABLE,
                                     fill_with_bots=True, players=4, computer_level=3)
    assert sent.status == Challenge.Status.PENDING
    assert [(i.user.username, i.answer) for i in sent.invitations.order_by("position")] == [
        ("computer-level-2", "accepted"), ("player1", "waiting")]
    game = services.answer_challenge(sent.pk, vera, True).game
    assert seats(game) == [(me, False, None), (None, True, 2), (vera, False, None), (None, True, 3)]


def test_the_computers_filling_a_challenges_free_seats_play_at_the_level_chosen(players):
    me, a = players[0], players[1]
    sent = services.create_challenge(me, ["player1"], "joker", {}, TABLE, fill_with_bots=True, players=4,
                                     computer_level=2)
    game = services.answer_challenge(sent.pk, a, True).game
    assert seats(game)[2:] == [(None, True, 2), (None, True, 2)]


@pytest.mark.parametrize("level", [0, 4, "2", True, None])
def test_a_level_that_does_not_exist_is_refused_and_no_challenge_is_made(players, level):
    with pytest.raises(services.CorrespondenceError, match="There is no computer level"):
        services.create_challenge(players[0], ["player1"], "joker", {}, TABLE, fill_with_bots=True, players=4,
                                  computer_level=level)
    assert not Challenge.objects.exists()


def test_the_challenge_form_takes_the_computers_level_and_refuses_one_that_does_not_exist(players):
    client = client_for(players[0])
    form = {"usernames": "computer-level-1", "engine": "durak", "players": 3, "time_preset": "correspondence",
            "on_timeout": "autoplay", "fill_with_bots": "on", "expires_in": 72 * 3600}
    refused = client.post(reverse("new_challenge"), {**form, "computer_level": "8"})
    assert "There is no computer level 8." in refused.content.decode() and not Challenge.objects.exists()
    client.post(reverse("new_challenge"), {**form, "computer_level": "3"})
    game = Challenge.objects.get().game
    assert seats(game) == [(players[0], False, None), (None, True, 1), (None, True, 3)]
