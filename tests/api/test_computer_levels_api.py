"""The API's table creation takes the level of each computer seat (issue 43), and refuses one
that does not exist without making a table."""

import pytest

from gameplay.models import Game

from .conftest import api_for

pytestmark = pytest.mark.django_db


def test_a_table_is_created_with_the_levels_asked_for_its_computer_seats(players):
    api = api_for(players[0])
    made = api.post("/api/v1/games", {"engine": "durak", "players": 3, "rated": False,
                                       "computer_opponents": True, "computer_levels": [3, 2]})
    assert made.status_code == 200, made.content
    game = Game.objects.get(pk=made.json()["id"])
    assert {s.position: s.computer_level for s in game.seats.filter(is_bot=True)} == {1: 3, 2: 2}


@pytest.mark.parametrize("levels", [[5], [0], [1, 4]])
def test_a_level_that_does_not_exist_is_refused_and_no_table_is_made(players, levels):
    before = Game.objects.count()
    refused = api_for(players[0]).post("/api/v1/games", {"engine": "durak", "players": 3, "rated": False,
                                                          "computer_opponents": True, "computer_levels": levels})
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "bad_request" and "computer_levels" in refused.json()["message"]
    assert Game.objects.count() == before


def test_a_challenge_to_a_level_that_does_not_exist_is_refused(players):
    refused = api_for(players[0]).post("/api/v1/challenges", {
        "usernames": ["player1"], "engine": "joker", "players": 4, "computer_opponents": True, "computer_level": 7})
    assert refused.status_code == 400 and "computer_level" in refused.json()["message"]


def test_a_computer_level_is_challenged_by_its_name(players):
    made = api_for(players[0]).post("/api/v1/challenges", {"usernames": ["computer-level-2"], "engine": "durak"})
    assert made.status_code == 200, made.content
    assert made.json()["status"] == "started" and made.json()["game"]
    game = Game.objects.get(pk=made.json()["game"])
    assert [(s.is_bot, s.computer_level) for s in game.seats.order_by("position")][1] == (True, 2)
