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


def as_finished(game: Game) -> Game:
    """What `services.moves.finish_with_result` writes besides the game's
    status and the seats' places, for a finished game a test wrote directly:
    each seat's finished_at and its player's tally."""
    from django.utils import timezone

    from gameplay.services.moves import count_finished

    game.finished_at = game.finished_at or timezone.now()
    Game.objects.filter(pk=game.pk).update(finished_at=game.finished_at)
    game.seats.update(finished_at=game.finished_at)
    count_finished(game, list(game.seats.all()))
    return game
