import random

import pytest

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game


@pytest.fixture
def people(django_user_model):
    """Four English-speaking players, player0 to player3."""
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en")
            for i in range(4)]


def advance(game: Game, people, moves: int, seed: int = 1) -> Game:
    """Up to `moves` random legal moves through the services, each by the seat to move."""
    engine, rng = get_engine(game.engine), random.Random(seed)
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        position = engine.actors(game.state)[0]
        services.submit_move(game.pk, people[position], rng.choice(engine.legal_actions(game.state, position)),
                             game.version)
    game.refresh_from_db()
    return game
