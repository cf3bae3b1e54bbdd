"""A level that does not exist, a budget of zero, a seat with nothing to do: a clear error, the game unharmed."""

from __future__ import annotations

import random

import pytest

from gameplay.bots import LEVELS, budget_for, choose_action
from gameplay.engine import get_engine
from gameplay.engine.core import clone
from tests.bots.worlds import GAMES


def started(slug: str) -> tuple:
    engine = get_engine(slug)
    state = engine.start(players=engine.min_players if slug != "durak" else 2, options={}, seed=11)
    return engine, state


@pytest.mark.parametrize("level", [0, 4, -1, True, "3", None, 2.0])
def test_a_level_that_does_not_exist_is_refused_and_the_game_is_unharmed(level):
    engine, state = started("durak")
    before = clone(state)
    with pytest.raises(ValueError, match="no computer level"):
        choose_action(engine, state, engine.actors(state)[0], random.Random(1), level)
    assert state == before


@pytest.mark.parametrize("budget", [0, -5, True, 1.5, "100"])
def test_a_budget_that_is_not_a_positive_number_of_rollouts_is_refused(budget):
    engine, state = started("joker")
    before = clone(state)
    with pytest.raises(ValueError, match="budget"):
        choose_action(engine, state, engine.actors(state)[0], random.Random(1), 3, budget=budget)
    assert state == before


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("slug", GAMES)
def test_a_seat_with_no_move_to_make_is_refused_at_every_level(slug, level):
    engine, state = started(slug)
    idle = next(seat for seat in range(state["players"]) if not engine.legal_actions(state, seat))
    with pytest.raises(ValueError, match="no move"):
        choose_action(engine, state, idle, random.Random(1), level)


@pytest.mark.parametrize("slug", GAMES)
def test_level_three_searches_more_than_level_two(slug):
    assert budget_for(slug, 3) > budget_for(slug, 2) > 0
