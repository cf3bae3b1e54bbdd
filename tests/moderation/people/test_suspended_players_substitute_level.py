"""A suspended player's games outside leagues and tournaments go to a computer of the level the other
players at the table expect (issue 43): the level of the computers already at the table (the highest),
else the site's COMPUTER_SUBSTITUTE_LEVEL (2 unless set)."""

import pytest

from gameplay import services as game_services
from gameplay.models import Game
from moderation.services import people as services

from .conftest import two_player_game

pytestmark = pytest.mark.django_db


def test_with_no_computer_at_the_table_the_sites_substitute_level_takes_the_seat(players, moderator):
    game = two_player_game(players[:2])
    services.suspend(players[1].pk, moderator, "cheating")
    seat = game.seats.get(position=1)
    assert seat.is_bot and seat.computer_level == 2


def test_the_site_setting_chooses_another_level(players, moderator, settings):
    settings.COMPUTER_SUBSTITUTE_LEVEL = 3
    game = two_player_game(players[:2])
    services.suspend(players[1].pk, moderator, "cheating")
    assert game.seats.get(position=1).computer_level == 3


def test_a_table_that_already_plays_computers_gets_one_of_their_level(players, moderator):
    game = game_services.create_game(players[0], "joker", players=4, rated=False,
                                     on_timeout=Game.OnTimeout.AUTOPLAY)
    game_services.join_game(game.pk, players[1])
    game_services.fill_with_bots(game.pk, players[0], [1, 3])
    services.suspend(players[1].pk, moderator, "cheating")
    seat = game.seats.get(user=None, position=1)
    assert seat.is_bot and seat.computer_level == 3
