"""The queries of the hot path, a move, are counted so that a regression fails here.

A move is one locked transaction (the service) and its after-commit work
(the broadcast of every seat's view, the deadline task, "your turn"
notifications, badges). The counts are the ones measured when this test was
written; lower them when the work per move shrinks (issue: speed and scale).
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import services
from gameplay.engine import get_engine
from tests.engine.durak_helpers import scripted

from .conftest import JOKER, acting_player, started_game

DURAK = get_engine("durak")


def count_move(game, user, action, django_capture_on_commit_callbacks) -> tuple[int, int]:
    """(queries in the service's transaction, queries of its after-commit work)."""
    with CaptureQueriesContext(connection) as service:
        with django_capture_on_commit_callbacks() as callbacks:
            services.submit_move(game.pk, user, action, game.version)
    with CaptureQueriesContext(connection) as after:
        for callback in callbacks:
            callback()
    return len(service), len(after)


@pytest.mark.django_db
def test_a_joker_move_costs_a_known_number_of_queries(joker_game, players, django_capture_on_commit_callbacks):
    position, user = acting_player(joker_game, players)
    action = JOKER.legal_actions(joker_game.state, position)[0]
    assert count_move(joker_game, user, action, django_capture_on_commit_callbacks) == JOKER_MOVE


@pytest.mark.django_db
def test_a_durak_move_that_opens_the_throwers_window_costs_a_known_number_of_queries(
        players, django_capture_on_commit_callbacks):
    game = started_game("durak", players[:3])
    state, _ = DURAK.apply(scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]], talon=["8S", "QH"]), 0,
                           {"type": "attack", "cards": ["7S"]})
    game.state = state
    game.save(update_fields=["state"])
    services.update_clocks(game, DURAK, game.started_at, mover=None)
    action = {"type": "beat", "attack": "7S", "card": "9S"}
    assert count_move(game, players[1], action, django_capture_on_commit_callbacks) == DURAK_WINDOW_MOVE


JOKER_MOVE = (13, 6)
DURAK_WINDOW_MOVE = (16, 7)  # two throwers' clocks start; the seats that said "done" in advance are read
