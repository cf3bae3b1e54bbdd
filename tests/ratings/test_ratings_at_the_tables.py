"""Where a table shows its players' strength: the lobby's open tables and the waiting room."""

import pytest
from django.test import Client
from django.utils import timezone

from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.models import Game
from ratings.models import Rating
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"seated{i}", password="pw-not-used-1", language="en",
                                                  display_name=f"Seated {i}") for i in range(4)]


def rate(user, engine: str, mu: float, sigma: float, games: int) -> None:
    Rating.objects.create(user=user, engine=engine, mu=mu, sigma=sigma, games=games, updated_at=timezone.now())


def test_the_lobby_shows_each_seated_players_rating_in_that_game(people):
    rate(people[0], "durak", mu=1600, sigma=100, games=12)  # 1300, established
    rate(people[0], "joker", mu=900, sigma=100, games=12)  # another game's rating is not shown
    game = services.create_game(people[0], "durak", players=3)
    services.join_game(game.pk, people[1])
    page = client_for(people[2]).get("/").content.decode()
    row = page[page.index(f'href="/games/{game.pk}/"') - 1500:page.index(f'href="/games/{game.pk}/"')]
    assert "Seated 0" in row and "rating 1300<" in row and "rating 600" not in row
    assert "Seated 1" in row and "rating 0?" in row  # a newcomer: provisional


def test_the_lobby_reads_the_same_number_of_queries_for_one_open_table_or_many(people, django_assert_max_num_queries):
    client = client_for(people[3])
    services.create_game(people[0], "joker")
    with django_assert_max_num_queries(40) as one:
        client.get("/")
    for user in people[:3]:
        for engine in ("joker", "durak", "ipuker", "odessa"):
            rate(user, engine, 1500, 200, 3)
            services.create_game(user, engine, players=3 if engine == "durak" else None)
    with django_assert_max_num_queries(len(one.captured_queries)):
        client.get("/")


def test_the_waiting_room_shows_and_sends_the_seated_players_ratings(people):
    rate(people[0], "joker", mu=2000, sigma=200, games=7)
    game = services.create_game(people[0], "joker")
    services.join_game(game.pk, people[1])
    page = client_for(people[1]).get(game.get_absolute_url()).content.decode()
    assert "rating 1400<" in page and "rating 0?" in page
    payload = game_payload(Game.objects.get(pk=game.pk), None)
    ratings = {p["position"]: p.get("rating") for p in payload["players"]}
    assert ratings[0] == {"value": 1400, "provisional": False}
    assert ratings[1] == {"value": 0, "provisional": True}
    assert ratings[2] is None  # a free seat


def test_a_started_games_messages_carry_no_ratings(people):
    game = services.create_game(people[0], "joker")
    for user in people[1:]:
        services.join_game(game.pk, user)
    payload = game_payload(Game.objects.get(pk=game.pk), 0)
    assert payload["status"] == "active" and all("rating" not in p for p in payload["players"])


def test_a_visitor_sees_the_ratings_too(people):
    game = services.create_game(people[0], "joker")
    assert "rating 0?" in Client().get(game.get_absolute_url()).content.decode()
