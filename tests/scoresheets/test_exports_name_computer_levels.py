"""Game exports record each computer seat's level (issue 43): the published record (the JSON a player,
the API and the account's data export read) and the account's data export of a game in play."""

import pytest

from gameplay import services
from gameplay.models import Game
from pages.personal_data import games as exported_games
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def person(django_user_model):
    return django_user_model.objects.create_user("exporter", password="pw-not-used-1", language="en")


def table_with_computers(person) -> Game:
    game = services.create_game(person, "joker", players=4, rated=False)
    services.fill_with_bots(game.pk, person, [3, 1, 2])
    return game


def test_the_published_record_gives_each_computer_seat_its_level(person):
    game = table_with_computers(person)
    services.resign(game.pk, person)
    game.refresh_from_db()
    record = client_for(person).get(f"/sheets/{game.pk}/record.json").json()
    assert [(s["computer"], s["computer_level"]) for s in record["seats"]] == [
        (False, None), (True, 3), (True, 1), (True, 2)]


def test_the_account_data_export_names_the_levels_of_a_game_in_play(person):
    game = table_with_computers(person)
    (entry,) = exported_games(person)
    assert entry["game"] == game.pk and entry["status"] == Game.Status.ACTIVE
    assert entry["computer_seats"] == [{"seat": 1, "level": 3}, {"seat": 2, "level": 1}, {"seat": 3, "level": 2}]
