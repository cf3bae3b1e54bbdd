"""The lobby's "My games" says the right thing to a player without a game in
play: a newcomer has no games yet; a player whose games are all over is
told there is none in play and is led to his finished games."""

import pytest
from django.urls import reverse
from django.utils import timezone

from gameplay.models import Game, Seat

from .conftest import client_for

pytestmark = pytest.mark.django_db

NEWCOMER = "You have no games yet"
NONE_IN_PLAY = "No games in play"


def game_of(user, status: str) -> Game:
    game = Game.objects.create(engine="joker", seats_count=4, created_by=user, status=status,
                               finished_at=timezone.now() if status != "open" else None)
    Seat.objects.create(game=game, position=0, user=user, place=1 if status == "finished" else None,
                        points=120.0 if status == "finished" else None)
    return game


def test_a_player_who_never_played_is_told_he_has_no_games_yet(players):
    page = client_for(players[0]).get(reverse("lobby")).content.decode()
    assert NEWCOMER in page
    assert NONE_IN_PLAY not in page


@pytest.mark.parametrize("status", ["finished", "aborted"])
def test_a_player_whose_games_are_over_is_told_none_is_in_play_and_led_to_his_finished_games(players, status):
    game_of(players[0], status)
    page = client_for(players[0]).get(reverse("lobby")).content.decode()
    assert NEWCOMER not in page
    assert NONE_IN_PLAY in page
    assert f'href="{reverse("profile")}#finished-games"' in page


def test_a_player_with_a_game_in_play_sees_it_listed_rather_than_either_sentence(players):
    game_of(players[0], "finished")
    current = game_of(players[0], "open")
    page = client_for(players[0]).get(reverse("lobby")).content.decode()
    assert current.get_absolute_url() in page
    assert NEWCOMER not in page and NONE_IN_PLAY not in page


def test_the_lobby_in_russian_says_there_is_no_game_in_play(players):
    players[0].language = "ru"
    players[0].save()
    game_of(players[0], "finished")
    client = client_for(players[0])
    client.cookies["django_language"] = "ru"
    page = client.get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Нет партий в игре" in page
