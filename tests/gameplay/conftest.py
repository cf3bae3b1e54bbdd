import pytest
from django.test import Client

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game

JOKER = get_engine("joker")


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en") for i in range(4)]


def started_game(engine: str, players, options: dict | None = None, **table) -> Game:
    """A table of `engine` created by the first player and joined by the
    others: it starts when the last one sits down."""
    game = services.create_game(players[0], engine, options, players=len(players), **table)
    for user in players[1:]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


@pytest.fixture
def joker_game(players) -> Game:
    """A started Joker game with four people."""
    return started_game("joker", players)


def acting_player(game: Game, players):
    position = JOKER.actors(game.state)[0]
    return position, players[position]


def a_legal_action(game: Game, position: int) -> dict:
    return JOKER.legal_actions(game.state, position)[0]


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
