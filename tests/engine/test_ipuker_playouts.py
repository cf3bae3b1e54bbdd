"""Random Ipuker games (Hypothesis): invariants checked after every action.

- Tokens balance: in every round what the players give and take sums to
  zero with the leader's take (given column == taken column).
- No view shows another player's uncommitted or unrevealed stake or count:
  changing those values in the state leaves every other seat's view (and the
  spectator's) exactly the same (only the leader sees committed counts).
- Events before the reveal carry no values; ``apply`` never changes its
  input; state, views and events are plain JSON; a game replays from its
  seed and moves.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.bots.ipuker import choose_ipuker_action
from gameplay.engine import IllegalMove
from gameplay.engine.ipuker import IpukerEngine

ENGINE = IpukerEngine()
SEEDS = st.integers(min_value=0, max_value=2**62)
CHOICES = st.integers(min_value=0, max_value=2**32).map(random.Random)
OPTIONS = st.fixed_dictionaries({
    "leader_order": st.sampled_from(["clockwise", "random"]),
    "min_stake": st.sampled_from([9, 1]),
    "max_stake": st.sampled_from([9, 12, 30, 60]),
    "overflow": st.sampled_from(["basic", "kids", "cards"]),
})


def dumps(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def hidden_from(state: dict, viewer: int | None) -> list[tuple[str, int]]:
    """The (list, seat) values of other players that ``viewer`` must not see."""
    hidden = []
    for other in range(4):
        if other == viewer:
            continue
        if not state["stakes_revealed"] and state["stakes"][other] is not None:
            hidden.append(("stakes", other))
        leader_sees = viewer == state["leader"] and state["phase"] == "cards"
        if state["counts"][other] is not None and not leader_sees:
            hidden.append(("counts", other))
    return hidden


def perturbed(state: dict, hidden: list[tuple[str, int]]) -> dict:
    changed = json.loads(json.dumps(state))
    for key, seat in hidden:
        changed[key][seat] = changed[key][seat] + 1000  # any other value: the view must not change
    return changed


def check_views_hide_what_they_must(state: dict) -> None:
    for viewer in (0, 1, 2, 3, None):
        view = ENGINE.view(state, viewer)
        assert json.loads(json.dumps(view)) == view
        assert "seed" not in view and "leader_plan" not in view
        hidden = hidden_from(state, viewer)
        if hidden:
            assert ENGINE.view(perturbed(state, hidden), viewer) == view, f"view of {viewer} leaks {hidden}"
        if state["phase"] in ("stake", "cards") and viewer is not None and viewer != state["leader"]:
            values = state["stakes"] if state["phase"] == "stake" else state["counts"]
            assert view["committed"] == [None if s == state["leader"] else values[s] is not None for s in range(4)]
    sheet = ENGINE.sheet(state)
    hidden = hidden_from(state, None)
    if hidden:
        assert ENGINE.sheet(perturbed(state, hidden)) == sheet


def check_events(events: list[dict], state: dict, seat: int, action: dict) -> None:
    assert json.loads(json.dumps(events)) == events
    for event in events:
        if event["type"] == "committed":
            assert set(event) == {"type", "seat", "phase"}
    revealing = {"stakes_revealed", "cards_revealed", "round_scored"}
    if not any(event["type"] in revealing for event in events):
        # Nothing revealed: the events are the same whatever the committed values were,
        # the mover's own included.
        assert all(event["type"] in {"committed", "leader_staked"} for event in events)
        if events[0]["type"] == "committed":
            hidden = hidden_from(state, None)
            other_value = dict(action)
            key = "tokens" if action["type"] == "stake" else "count"
            other_value[key] = ENGINE.auto_action(state, seat)[key]
            _, other_events = ENGINE.apply(perturbed(state, hidden), seat, other_value)
            assert other_events == events


def check_round_records(state: dict) -> None:
    for record in state["history"]:
        assert sum(record["given"]) == sum(record["taken"])
        assert sum(record["result"]) == 0
        assert all(v >= 0 for v in record["given"] + record["taken"])
        assert record["result"] == [t - g for t, g in zip(record["taken"], record["given"], strict=True)]
        leader = record["leader"]
        if record["stopped_early"]:
            assert record["bank"] < 27 and record["cards"] == [0, 0, 0, 0] and record["given"][leader] == 0
            continue
        assert record["bank"] == sum(record["stakes"]) >= 36
        assert record["cards"][leader] == record["fields"]
        assert record["free"] == record["fields"] - record["cards_total"]
        players = [s for s in range(4) if s != leader]
        if record["free"] >= 0:
            expected_wins = [record["counts"][s] * record["free"] for s in players]
            assert [record["wins"][s] for s in players] == expected_wins
            assert record["leader_take"] == record["bank"] - sum(expected_wins)
        elif record["overflow"] == "cards":
            assert sum(record["unplaced"]) == -record["free"]
            assert record["leader_take"] == record["bank"] + sum(record["unplaced"])
        elif record["overflow"] == "basic":
            assert [record["wins"][s] for s in players] == [record["counts"][s] * record["free"] for s in players]
            assert record["leader_take"] == record["bank"] - sum(record["wins"][s] for s in players)
        elif record["overflow"] == "kids":
            assert record["leader_take"] == record["bank"]


def play_random_game(seed: int, options: dict, rng: random.Random, *, bots: bool = False,
                     forfeit_at: int | None = None, check: bool = True) -> tuple[dict, list[tuple[int, dict]]]:
    state = ENGINE.start(players=4, options=options, seed=seed)
    moves: list[tuple[int, dict]] = []
    while not ENGINE.is_over(state):
        if forfeit_at is not None and len(moves) == forfeit_at:
            loser = rng.randrange(4)
            before = dumps(state)
            state = ENGINE.forfeit(state, loser)
            assert dumps(json.loads(before)) == before
            assert ENGINE.outcome(state)["places"][loser] == 4
            if check:
                check_views_hide_what_they_must(state)
            break
        actors = ENGINE.actors(state)
        assert actors and [t["seat"] for t in ENGINE.timers(state)] == actors
        for seat in range(4):
            legal = ENGINE.legal_actions(state, seat)
            assert bool(legal) == (seat in actors)
            if seat in actors:
                assert ENGINE.auto_action(state, seat) in legal
                simultaneous = state["phase"] in ("stake", "cards")
                assert ENGINE.accepts_stale(state, seat, legal[0]) == simultaneous
        if check:
            assert json.loads(json.dumps(state)) == state
            check_views_hide_what_they_must(state)
        seat = rng.choice(actors)
        legal = ENGINE.legal_actions(state, seat)
        if bots:
            action = choose_ipuker_action(ENGINE.view(state, seat), legal, rng)
            assert action in legal
        else:
            action = dict(rng.choice(legal))
        if rng.random() < 0.1:
            action = {**action, "auto": True}
        before = dumps(state)
        new_state, events = ENGINE.apply(state, seat, action)
        assert dumps(state) == before, "apply changed its input state"
        if check:
            check_events(events, state, seat, action)
            if new_state["phase"] == state["phase"] and new_state["round"] == state["round"]:
                try:  # a commitment is final
                    ENGINE.apply(new_state, seat, action)
                except IllegalMove as refusal:
                    assert refusal.message
                else:
                    raise AssertionError(f"seat {seat} committed twice")
        moves.append((seat, action))
        state = new_state
        check_round_records(state)
    return state, moves


def replay(seed: int, options: dict, moves: list[tuple[int, dict]]) -> dict:
    state = ENGINE.start(players=4, options=options, seed=seed)
    for seat, action in moves:
        state, _ = ENGINE.apply(state, seat, action)
    return state


def check_finished_game(state: dict) -> None:
    assert ENGINE.is_over(state) and ENGINE.actors(state) == []
    assert [r["round"] for r in state["history"]] == [1, 2, 3, 4]
    assert sorted(state["leaders"]) == [0, 1, 2, 3]
    outcome = ENGINE.outcome(state)
    sheet = ENGINE.sheet(state)
    assert sum(outcome["scores"]) == 0
    assert outcome["scores"] == sheet["result"] == sheet["balance"]
    assert all(circle["complete"] for circle in sheet["rounds"])
    for seat in range(4):
        assert outcome["places"][seat] == 1 + sum(1 for s in range(4) if outcome["scores"][s] > outcome["scores"][seat])
    assert outcome["winners"] == [s for s in range(4) if outcome["places"][s] == 1]
    assert sheet["ranking"][0] in outcome["winners"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, options=OPTIONS, rng=CHOICES)
def test_random_games_keep_every_invariant_and_replay_exactly(seed, options, rng):
    state, moves = play_random_game(seed, options, rng)
    check_finished_game(state)
    assert dumps(replay(seed, options, moves)) == dumps(state)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, options=OPTIONS, rng=CHOICES)
def test_bot_games_keep_every_invariant(seed, options, rng):
    state, moves = play_random_game(seed, options, rng, bots=True)
    check_finished_game(state)
    assert dumps(replay(seed, options, moves)) == dumps(state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, options=OPTIONS, rng=CHOICES, forfeit_at=st.integers(0, 30))
def test_forfeits_at_any_point_keep_secrets_and_rank_the_player_last(seed, options, rng, forfeit_at):
    state, _ = play_random_game(seed, options, rng, forfeit_at=forfeit_at)
    assert ENGINE.is_over(state)
    outcome = ENGINE.outcome(state)
    assert sum(outcome["scores"]) == 0
    if state["forfeited"] is not None:
        assert ENGINE.sheet(state)["ranking"][-1] == state["forfeited"]
