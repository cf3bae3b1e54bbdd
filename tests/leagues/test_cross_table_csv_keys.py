"""The cross-table CSV reads the same in every language, like the standings
CSV (issue 39, item 10): its header keys and its cells' words are English
whatever the reader's language; only the players' names are theirs."""

import csv
import io

import pytest
from django.test import Client

from gameplay import services as game_services
from leagues import services
from leagues.models import Fixture
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


def test_the_cross_table_csv_in_russian_has_the_same_keys_and_words_as_in_english(django_user_model):
    people = [django_user_model.objects.create_user(f"cx{i}", password="pw-not-used-1", language="ru",
                                                    display_name=f"Игрок {i}") for i in range(4)]
    league = services.create_league(people[0], name="Joker", engine="joker", players=4, division_size=4,
                                    games_per_player=1)
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    start(season.pk, people[0])
    fixture = Fixture.objects.get()
    game_services.resign(fixture.game_id, fixture.game.seats.get(position=1).user)
    russian = Client(headers={"Accept-Language": "ru"})
    assert "Лиги" in russian.get("/leagues/").content.decode()  # the pages are in Russian
    rows = list(csv.reader(io.StringIO(russian.get("/leagues/joker/1/1/cross-table.csv").content.decode())))
    assert rows[0] == ["player", "games"]
    assert {row[0] for row in rows[1:]} == {f"Игрок {i}" for i in range(4)}
    assert all(row[1].startswith(f"round 1, game #{fixture.game_id}: ") for row in rows[1:])
