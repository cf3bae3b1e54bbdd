"""A computer decides from its seat's view and the public record only, at every level.

Tested the way secrecy is: a state reached by random play is changed in
everything the deciding seat cannot see (``worlds.other_world``: other
hands, its own unseen cards, the talon's order, undealt tiles, stage 5's
row, secret stakes, counts and choices, the leaders to come, the seed); the
seat's view must stay the same (the change is consistent with it), and the
decision, asked with the same random seed, must be the same.
"""

from __future__ import annotations

import random

import pytest

from gameplay.bots import LEVELS, SEARCHES, choose_action
from gameplay.engine import get_engine
from tests.bots.worlds import GAMES, other_world, reachable_states, seats_to_move

SMALL_BUDGET = 12  # rollouts per decision: enough to make the search's choices depend on its worlds
TABLES_PER_GAME = 3
STATES_PER_TABLE = 4


def decision_pairs(slug: str, states_per_table: int = STATES_PER_TABLE):
    """(engine, state, other world, seat, seed) for states reached at random in every setup of the game."""
    engine = get_engine(slug)
    for table in range(TABLES_PER_GAME):
        rng = random.Random(f"{slug}:{table}")
        states = list(reachable_states(slug, seed=table))
        for state in rng.sample(states, min(states_per_table, len(states))):
            for seat in seats_to_move(engine, state):
                yield engine, state, other_world(engine, state, seat, rng), seat, rng.getrandbits(32)


@pytest.mark.parametrize("slug", GAMES)
def test_the_other_worlds_look_the_same_to_the_deciding_seat(slug):
    for engine, state, world, seat, _ in decision_pairs(slug, states_per_table=12):
        assert engine.view(world, seat) == engine.view(state, seat)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("slug", GAMES)
def test_a_computer_decides_the_same_whatever_it_cannot_see(slug, level):
    budget = None if level == 1 else SMALL_BUDGET
    for engine, state, world, seat, seed in decision_pairs(slug):
        here = choose_action(engine, state, seat, random.Random(seed), level, budget=budget)
        there = choose_action(engine, world, seat, random.Random(seed), level, budget=budget)
        assert here == there, (seat, state.get("phase"))


@pytest.mark.parametrize("slug", GAMES)
def test_the_search_levels_at_their_own_budgets_decide_the_same_whatever_they_cannot_see(slug):
    engine = get_engine(slug)
    rng = random.Random(slug)
    states = list(reachable_states(slug, seed=rng.randrange(100)))
    state = rng.choice(states)
    seat = rng.choice(seats_to_move(engine, state))
    world = other_world(engine, state, seat, rng)
    for level in (2, 3):
        assert (choose_action(engine, state, seat, random.Random(level), level)
                == choose_action(engine, world, seat, random.Random(level), level))


@pytest.mark.parametrize("slug", GAMES)
def test_a_sampled_world_keeps_the_seat_s_cards_and_the_public_record(slug):
    engine = get_engine(slug)
    for _, state, _, seat, seed in decision_pairs(slug):
        world = SEARCHES[slug].determinise(engine, state, seat, random.Random(seed))
        seen, sampled = engine.view(state, seat), engine.view(world, seat)
        for key in ("hand", "trick", "table", "taken", "played", "bids", "totals", "trump", "pick", "final_tiles"):
            assert sampled.get(key) == seen.get(key), key
        assert engine.legal_actions(world, seat) == engine.legal_actions(state, seat)
