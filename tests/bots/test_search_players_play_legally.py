"""The search levels play whole stretches of every game legally, and a decision replays from its seed."""

from __future__ import annotations

import random

import pytest

from gameplay.bots import choose_action
from gameplay.engine import get_engine
from gameplay.engine.core import clone
from tests.bots.worlds import GAMES, SETUPS

SMALL_BUDGET = 4
MOVES = 160


@pytest.mark.parametrize("level", (2, 3))
@pytest.mark.parametrize("slug", GAMES)
def test_every_decision_of_a_search_level_is_a_legal_move(slug, level):
    engine = get_engine(slug)
    rng = random.Random(f"{slug}{level}")
    for players, options in SETUPS[slug]:
        state = engine.start(players=players, options=options, seed=rng.getrandbits(62))
        for _ in range(MOVES):
            if engine.is_over(state):
                break
            seat = rng.choice(engine.actors(state))
            action = choose_action(engine, state, seat, rng, level, budget=SMALL_BUDGET)
            assert action in engine.legal_actions(state, seat)
            state, _ = engine.apply(state, seat, action)


@pytest.mark.parametrize("slug", GAMES)
def test_a_search_decision_replays_from_its_seed_and_leaves_the_state_alone(slug):
    engine = get_engine(slug)
    rng = random.Random(slug)
    players, options = SETUPS[slug][0]
    state = engine.start(players=players, options=options, seed=rng.getrandbits(62))
    for _ in range(40):
        if engine.is_over(state):
            break
        seat = engine.actors(state)[0]
        before = clone(state)
        first = choose_action(engine, state, seat, random.Random(7), 3, budget=SMALL_BUDGET * 3)
        assert choose_action(engine, state, seat, random.Random(7), 3, budget=SMALL_BUDGET * 3) == first
        assert state == before
        state, _ = engine.apply(state, seat, first)
