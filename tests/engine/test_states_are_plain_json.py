"""Every state, view, event and outcome an engine makes is plain JSON: it
equals its own JSON round trip (no tuples, no integer keys, nothing but
dicts, lists, strings, numbers, booleans and None). A state read back from
the database is then the very state the engine made, and `core.clone` may
copy with `marshal`, which keeps what JSON would have changed."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import ENGINES
from gameplay.engine.core import clone, clone_for_move

from .test_secrecy import CHOICES, HIDDEN_PLACES, SEEDS, random_move


def is_plain_json(value) -> bool:
    return json.loads(json.dumps(value)) == value


@pytest.mark.parametrize("slug", sorted(ENGINES))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), seed=SEEDS, choices=CHOICES)
def test_a_random_game_holds_nothing_but_plain_json(slug, data, seed, choices):
    engine, places = ENGINES[slug], HIDDEN_PLACES[slug]
    players, options = data.draw(st.sampled_from(places.setups), label="setup")
    state = engine.start(players, options, seed)
    for _ in range(places.playout_moves):
        assert is_plain_json(state)
        assert clone(state) == state and clone_for_move(state) == state
        for seat in [None, *range(players)]:
            assert is_plain_json(engine.view(state, seat))
        if engine.is_over(state):
            assert is_plain_json(engine.outcome(state))
            return
        state, events = engine.apply(state, *random_move(engine, state, choices))
        assert is_plain_json(events)


def test_a_clone_is_a_copy_that_shares_nothing():
    state = {"hands": [["AS", "KD"], []], "trick": {"plays": [{"seat": 0, "card": "7H"}]}, "n": 3, "x": None}
    copied = clone(state)
    copied["hands"][0].append("QC")
    copied["trick"]["plays"][0]["card"] = "8H"
    assert state == {"hands": [["AS", "KD"], []], "trick": {"plays": [{"seat": 0, "card": "7H"}]}, "n": 3, "x": None}
