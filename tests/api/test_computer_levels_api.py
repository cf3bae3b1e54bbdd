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
    assert "There is no computer level" in refused.json()["detail"] if "detail" in refused.json() else \
        "There is no computer level" in refused.content.decode()
    assert Game.objects.count() == before
