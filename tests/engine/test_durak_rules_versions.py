"""Durak's rules versions: version 1's throwers' window stays reachable, and a version 1 game is upgraded
to version 2 only at the start of a bout."""

from __future__ import annotations

import pytest

from gameplay.engine import ENGINES
from gameplay.engine.core import InvalidSetup
from gameplay.records import apply_recorded

from .durak_helpers import ENGINE, act, beat, event_types, refused, scripted


def version_one(state: dict) -> dict:
    return {**state, "rules": 1}


def test_new_games_start_under_the_current_rules_and_older_versions_can_be_asked_for():
    assert ENGINE.rules_version == 2
    assert ENGINE.start(players=3, seed=5)["rules"] == 2
    assert ENGINE.start(players=3, seed=5, rules_version=1)["rules"] == 1
    for bad in (0, 3, "1", True, 1.0):
        with pytest.raises(InvalidSetup, match="rules version"):
            ENGINE.start(players=3, seed=5, rules_version=bad)


def test_every_engine_records_its_rules_version_in_the_state():
    for engine in ENGINES.values():
        state = engine.start(players=engine.max_players, options={}, seed=7)
        assert state["rules"] == engine.rules_version


def test_under_version_one_the_window_waits_only_for_throwers_with_a_card_that_fits():
    state = version_one(scripted([["7S", "7D", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]]))
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "9S")
    assert state["phase"] == "window" and ENGINE.actors(state) == [0]  # 7D; seat 2 holds no 7 or 9
    assert "nothing to throw in" in refused(state, 2, {"type": "done"})
    state, events = act(state, 0, "done")
    assert event_types(events) == ["done", "bout_end", "bout"]


def test_under_version_one_a_bout_nobody_can_add_to_ends_at_once():
    state = version_one(scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]]))
    state, _ = act(state, 0, "attack", "7S")
    state, events = beat(state, "7S", "9S")
    assert event_types(events) == ["beat", "bout_end", "bout"]


def test_a_version_one_game_is_upgraded_only_at_the_start_of_a_bout():
    state = version_one(scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]]))
    upgraded = ENGINE.upgrade(state)
    assert upgraded["rules"] == 2 and state["rules"] == 1  # pure: the input is untouched
    assert {k: v for k, v in upgraded.items() if k != "rules"} == {k: v for k, v in state.items() if k != "rules"}
    opened, _ = act(state, 0, "attack", "7S")
    assert ENGINE.upgrade(opened) is None  # the bout in progress finishes under version 1
    assert ENGINE.upgrade(upgraded) is None


def test_a_recorded_upgrade_is_refused_where_the_game_is_not_at_a_safe_point():
    state = version_one(scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]]))
    opened, _ = act(state, 0, "attack", "7S")
    with pytest.raises(Exception, match="rules can be upgraded"):
        apply_recorded(ENGINE, opened, None, {"type": "rules", "version": 2})
    upgraded, events = apply_recorded(ENGINE, state, None, {"type": "rules", "version": 2})
    assert upgraded["rules"] == 2 and events == [{"type": "rules", "version": 2}]


def test_saying_done_in_advance_is_for_throwers_while_the_bout_is_attacked_or_defended():
    state = scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]])
    assert ENGINE.ahead_scope(state) == state["bout"]
    assert ENGINE.may_order_ahead(state, 0) and ENGINE.may_order_ahead(state, 2)
    assert not ENGINE.may_order_ahead(state, 1)  # the defender
    state, _ = act(state, 0, "attack", "7S")
    assert ENGINE.may_order_ahead(state, 2)
    state, _ = beat(state, "7S", "9S")
    assert not ENGINE.may_order_ahead(state, 2)  # in the window he presses done himself
    assert not ENGINE.may_order_ahead(version_one(scripted([["7S"], ["9S"], ["TD"]])), 0)
