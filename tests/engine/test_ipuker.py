"""Ipuker rules: options, leader order, scripted rounds, secrecy, finality, time-outs, sheet, bot."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from gameplay.bots.ipuker import bracket_top, choose_ipuker_action
from gameplay.engine import IllegalMove
from gameplay.engine.core import InvalidSetup, deal_rng
from gameplay.engine.ipuker import IpukerEngine, cards_layout, fields_for, leader_plan

ENGINE = IpukerEngine()
SEED = 123456789


def dumps(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def started(seed: int = SEED, **options) -> dict:
    return ENGINE.start(players=4, options=options, seed=seed)


def others(state: dict) -> list[int]:
    """The non-leaders of the round in progress, clockwise from the leader's left."""
    return [(state["leader"] + k) % 4 for k in (1, 2, 3)]


def act(state: dict, seat: int, action: dict) -> tuple[dict, list]:
    before = dumps(state)
    new_state, events = ENGINE.apply(state, seat, action)
    assert dumps(state) == before, "apply changed its input state"
    return new_state, events


def stake_all(state: dict, stakes: list[int]) -> tuple[dict, list]:
    """The three non-leaders stake ``stakes`` (clockwise from the leader's left); returns the last events."""
    events: list = []
    for seat, tokens in zip(others(state), stakes, strict=True):
        state, events = act(state, seat, {"type": "stake", "tokens": tokens})
    return state, events


def pass_all(state: dict, counts: list[int]) -> tuple[dict, list]:
    events: list = []
    for seat, count in zip(others(state), counts, strict=True):
        state, events = act(state, seat, {"type": "cards", "count": count})
    return state, events


def play_round(state: dict, stakes: list[int], leader_stake: int | None, counts: list[int] | None
               ) -> tuple[dict, dict]:
    """Play one round; returns the new state and the round's record."""
    round_no = state["round"]
    state, _ = stake_all(state, stakes)
    if leader_stake is not None:
        state, _ = act(state, state["leader"], {"type": "stake", "tokens": leader_stake})
        state, _ = pass_all(state, counts or [0, 0, 0])
    record = state["history"][-1]
    assert record["round"] == round_no
    return state, record


def refused(state: dict, seat: object, action: object) -> str:
    before = dumps(state)
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.apply(state, seat, action)
    assert dumps(state) == before
    assert excinfo.value.message and excinfo.value.template
    return excinfo.value.message


def check_balanced(record: dict) -> None:
    assert sum(record["given"]) == sum(record["taken"])
    assert sum(record["result"]) == 0
    assert all(value >= 0 for value in record["given"] + record["taken"])


# -- registry data, options, start --------------------------------------------------


def test_engine_identity_and_default_options():
    assert (ENGINE.slug, ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("ipuker", "Ipuker", 4, 4)
    assert ENGINE.default_options() == {"leader_order": "clockwise", "min_stake": 9, "max_stake": 30,
                                        "overflow": "basic"}
    assert started()["options"] == ENGINE.default_options()


@pytest.mark.parametrize("options", [
    {"leader_order": "anticlockwise"}, {"min_stake": 5}, {"min_stake": True}, {"max_stake": 8},
    {"max_stake": "30"}, {"max_stake": 101}, {"overflow": "adults"}, {"colour": "red"},
])
def test_invalid_options_are_refused(options):
    with pytest.raises(InvalidSetup):
        ENGINE.validate_options(options)
    with pytest.raises(ValueError):
        ENGINE.start(players=4, options=options, seed=1)


def test_valid_option_combinations_are_accepted():
    assert ENGINE.validate_options({"min_stake": 1, "max_stake": 9, "overflow": "cards", "leader_order": "random"}) == {
        "min_stake": 1, "max_stake": 9, "overflow": "cards", "leader_order": "random"}


def test_exactly_four_players_and_an_integer_seed():
    with pytest.raises(ValueError, match="exactly 4"):
        ENGINE.start(players=3, options={}, seed=1)
    with pytest.raises(ValueError, match="seed"):
        ENGINE.start(players=4, options={}, seed="x")


def test_start_is_a_plain_json_state_waiting_for_three_secret_stakes():
    state = started()
    assert json.loads(json.dumps(state)) == state
    assert state["phase"] == "stake" and state["round"] == 1
    assert ENGINE.actors(state) == sorted(others(state))
    assert ENGINE.timers(state) == [{"seat": s, "clock": "move", "expiry": "auto", "reserve": True}
                                    for s in sorted(others(state))]
    assert ENGINE.legal_actions(state, state["leader"]) == []
    assert ENGINE.legal_actions(state, others(state)[0]) == [{"type": "stake", "tokens": t} for t in range(9, 31)]


# -- leader order ----------------------------------------------------------------------


def test_clockwise_order_starts_from_a_leader_drawn_from_the_seed():
    firsts = set()
    for seed in range(40):
        plan = leader_plan(seed, "clockwise")
        assert plan[0] == deal_rng(seed, 0).randrange(4)
        assert plan == [(plan[0] + k) % 4 for k in range(4)]
        firsts.add(plan[0])
    assert firsts == {0, 1, 2, 3}


def test_random_leader_order_never_repeats_a_leader():
    orders = set()
    for seed in range(200):
        state = started(seed, leader_order="random")
        while not ENGINE.is_over(state):
            seat = ENGINE.actors(state)[0]
            state, _ = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
        assert sorted(state["leaders"]) == [0, 1, 2, 3]
        assert [record["leader"] for record in state["history"]] == state["leaders"]
        orders.add(tuple(state["leaders"]))
    assert len(orders) > 12  # not always the clockwise rotations


def test_random_order_shows_only_the_leaders_so_far():
    state = started(7, leader_order="random")
    assert ENGINE.view(state, 0)["leaders"] == [state["leader"]]
    assert [r["leader"] for r in ENGINE.sheet(state)["rounds"]][1:] == [None, None, None]
    clockwise = started(7)
    assert [r["leader"] for r in ENGINE.sheet(clockwise)["rounds"]] == clockwise["leader_plan"]


# -- scripted rounds -----------------------------------------------------------------


def test_stakes_under_27_give_the_leader_the_whole_bank_and_end_the_round():
    state = started(min_stake=1)
    leader = state["leader"]
    state, events = stake_all(state, [1, 10, 15])
    kinds = [event["type"] for event in events]
    assert kinds == ["committed", "stakes_revealed", "round_scored", "new_round"]
    record = state["history"][0]
    assert record["stopped_early"] and record["bank"] == 26 and record["fields"] is None
    assert record["cards"] == [0, 0, 0, 0]
    assert record["given"][leader] == 0 and record["taken"][leader] == 26
    for seat, stake in zip(others(started(min_stake=1)), [1, 10, 15], strict=True):
        assert record["given"][seat] == stake and record["taken"][seat] == 0
    check_balanced(record)
    assert state["round"] == 2 and state["phase"] == "stake"
    circle = ENGINE.sheet(state)["rounds"][0]
    assert circle["stopped_early"] and circle["complete"] and circle["fields"] is None
    assert [cell["cards"] for cell in circle["cells"]] == [0, 0, 0, 0]


def test_stakes_of_exactly_27_go_on_to_the_leaders_stake():
    state, _ = stake_all(started(min_stake=1), [1, 1, 25])
    assert state["phase"] == "leader_stake" and ENGINE.actors(state) == [state["leader"]]
    # With min_stake 1 the leader still stakes at least 9.
    assert ENGINE.legal_actions(state, state["leader"]) == [{"type": "stake", "tokens": t} for t in range(9, 31)]
    assert "9" in refused(state, state["leader"], {"type": "stake", "tokens": 8})


@pytest.mark.parametrize(("bank", "fields"), [
    (36, 12), (37, 12), (38, 13), (43, 13), (44, 14), (53, 14), (54, 15), (120, 15),
])
def test_field_brackets(bank, fields):
    assert fields_for(bank) == fields


@pytest.mark.parametrize(("stakes", "leader_stake", "fields"), [
    ([9, 9, 9], 9, 12), ([9, 9, 9], 10, 12), ([9, 9, 10], 10, 13), ([10, 12, 12], 9, 13),
    ([10, 12, 12], 10, 14), ([14, 15, 15], 9, 14), ([15, 15, 15], 9, 15),
])
def test_each_field_bracket_boundary_in_play(stakes, leader_stake, fields):
    state, _ = stake_all(started(), stakes)
    state, events = act(state, state["leader"], {"type": "stake", "tokens": leader_stake})
    bank = sum(stakes) + leader_stake
    assert events == [{"type": "leader_staked", "round": 1, "seat": state["leader"], "tokens": leader_stake,
                       "bank": bank, "fields": fields}]
    assert state["phase"] == "cards" and state["bank"] == bank and state["fields"] == fields
    assert ENGINE.view(state, None)["fields"] == fields
    assert ENGINE.sheet(state)["rounds"][0]["cells"][state["leader"]]["cards"] == fields
    state, _ = pass_all(state, [0, 0, 0])
    assert state["history"][0]["cards"][state["history"][0]["leader"]] == fields


def test_free_fields_pay_each_player_cards_times_free():
    state = started()
    leader, (a, b, c) = state["leader"], others(state)
    state, record = play_round(state, [9, 9, 9], 9, [3, 2, 4])  # B 36, F 12, C 9, free 3
    assert (record["fields"], record["cards_total"], record["free"], record["overflow"]) == (12, 9, 3, None)
    assert [record["wins"][s] for s in (a, b, c)] == [9, 6, 12]
    assert record["leader_take"] == 36 - 27
    assert [record["given"][s] for s in (a, b, c, leader)] == [9, 9, 9, 9]
    assert [record["taken"][s] for s in (a, b, c, leader)] == [9, 6, 12, 9]
    assert [record["cards"][s] for s in (a, b, c, leader)] == [3, 2, 4, 12]
    assert [record["result"][s] for s in (a, b, c, leader)] == [0, -3, 3, 0]
    check_balanced(record)


def test_no_free_field_wins_nothing_and_the_leader_takes_the_bank():
    state = started()
    leader = state["leader"]
    state, record = play_round(state, [9, 9, 9], 9, [4, 4, 4])
    assert record["free"] == 0 and record["overflow"] is None
    assert record["taken"][leader] == 36 and sum(record["taken"]) == 36
    check_balanced(record)


def test_basic_overflow_makes_each_player_pay_cards_times_overflow():
    state = started()
    leader, (a, b, c) = state["leader"], others(state)
    state, record = play_round(state, [9, 9, 9], 9, [5, 6, 2])  # F 12, C 13, free -1
    assert (record["free"], record["overflow"]) == (-1, "basic")
    assert [record["wins"][s] for s in (a, b, c)] == [-5, -6, -2]
    assert [record["given"][s] for s in (a, b, c)] == [14, 15, 11]
    assert [record["taken"][s] for s in (a, b, c)] == [0, 0, 0]
    assert record["taken"][leader] == 36 + 13 and record["given"][leader] == 9
    assert record["result"][leader] == 40
    check_balanced(record)


def test_kids_overflow_wins_nothing():
    state = started(overflow="kids")
    leader, (a, b, c) = state["leader"], others(state)
    state, record = play_round(state, [9, 9, 9], 9, [9, 9, 9])
    assert (record["free"], record["overflow"]) == (-15, "kids")
    assert [record["result"][s] for s in (a, b, c)] == [-9, -9, -9]
    assert record["taken"][leader] == 36 and record["result"][leader] == 27
    check_balanced(record)


def expected_layout(seed: int, round_no: int, owners: list[int]) -> list[int]:
    """The documented algorithm, written out again: SHA-256 of "seed:round" seeds a Mersenne Twister."""
    generator = random.Random(int.from_bytes(hashlib.sha256(f"{seed}:{round_no}".encode()).digest()[:8], "big"))
    shuffled = list(owners)
    generator.shuffle(shuffled)
    return shuffled


def test_cards_overflow_lays_out_the_cards_at_random_and_fines_each_unplaced_card():
    state = started(overflow="cards")
    leader, (a, b, c) = state["leader"], others(state)
    state, record = play_round(state, [9, 9, 9], 9, [6, 5, 4])  # F 12, C 15: 3 cards without a field
    assert (record["free"], record["overflow"]) == (-3, "cards")
    owners = [a] * 6 + [b] * 5 + [c] * 4
    assert record["layout"] == expected_layout(SEED, 1, owners)
    assert record["layout"] == cards_layout(SEED, 1, [6 if s == a else 5 if s == b else 4 if s == c else 0
                                                      for s in range(4)], leader)
    unplaced = record["layout"][12:]
    assert [record["unplaced"][s] for s in (a, b, c)] == [unplaced.count(s) for s in (a, b, c)]
    assert sum(record["unplaced"]) == 3 and record["unplaced"][leader] == 0
    assert [record["wins"][s] for s in (a, b, c)] == [0, 0, 0]
    assert [record["given"][s] for s in (a, b, c)] == [9 + unplaced.count(s) for s in (a, b, c)]
    assert record["taken"][leader] == 36 + 3
    check_balanced(record)
    assert ENGINE.sheet(state)["rounds"][0]["unplaced"] == record["unplaced"]


def test_the_cards_layout_depends_on_seed_and_round():
    counts = [9, 9, 9, 0]
    layouts = {tuple(cards_layout(seed, round_no, counts, 3)) for seed in (1, 2) for round_no in (1, 2)}
    assert len(layouts) == 4
    assert cards_layout(5, 2, counts, 3) == cards_layout(5, 2, counts, 3)


def test_the_leader_pays_what_the_bank_cannot():
    state = started()
    leader, (a, b, c) = state["leader"], others(state)
    state, record = play_round(state, [15, 15, 15], 9, [7, 1, 0])  # B 54, F 15, free 7: wins 49 + 7
    assert (record["bank"], record["fields"], record["free"]) == (54, 15, 7)
    assert record["leader_take"] == 54 - 56
    assert record["given"][leader] == 9 + 2 and record["taken"][leader] == 0
    assert record["result"][leader] == 45 - 56
    assert [record["taken"][s] for s in (a, b, c)] == [49, 7, 0]
    check_balanced(record)


def test_four_rounds_then_the_game_is_over_with_places_and_sheet():
    state = started()
    for _ in range(4):
        state, _ = play_round(state, [9, 9, 9], 9, [3, 3, 3])
    assert ENGINE.is_over(state) and ENGINE.actors(state) == [] and ENGINE.timers(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome["scores"] == [0, 0, 0, 0]  # everyone led once: symmetric
    assert outcome["places"] == [1, 1, 1, 1] and outcome["winners"] == [0, 1, 2, 3]
    assert outcome["teams"] is None and outcome["forfeited"] is None
    sheet = ENGINE.sheet(state)
    assert sheet["kind"] == "ipuker" and all(circle["complete"] for circle in sheet["rounds"])
    assert sheet["result"] == sheet["balance"] == outcome["scores"]
    refused(state, 0, {"type": "stake", "tokens": 9})


def test_equal_results_share_the_place():
    state = started()
    lead1 = state["leader"]
    state, _ = play_round(state, [9, 9, 9], 9, [0, 0, 0])  # the first leader +27, the others −9
    outcome = ENGINE.outcome(state)
    assert outcome["places"] == [1 if s == lead1 else 2 for s in range(4)]
    assert outcome["winners"] == [lead1]


# -- secrecy, finality, events ---------------------------------------------------------


def test_commitments_are_final():
    state = started()
    a, b, c = others(state)
    state, _ = act(state, a, {"type": "stake", "tokens": 20})
    assert "final" in refused(state, a, {"type": "stake", "tokens": 21})
    assert "final" in refused(state, a, {"type": "stake", "tokens": 20})
    assert a not in ENGINE.actors(state) and ENGINE.legal_actions(state, a) == []
    state, _ = act(state, b, {"type": "stake", "tokens": 9})
    state, _ = act(state, c, {"type": "stake", "tokens": 9})
    state, _ = act(state, state["leader"], {"type": "stake", "tokens": 9})
    state, _ = act(state, a, {"type": "cards", "count": 2})
    assert "final" in refused(state, a, {"type": "cards", "count": 3})
    assert "final" in refused(state, a, {"type": "stake", "tokens": 9})


@pytest.mark.parametrize(("action", "words"), [
    ({"type": "stake"}, "tokens"),
    ({"type": "stake", "tokens": "ten"}, "whole"),
    ({"type": "stake", "tokens": True}, "whole"),
    ({"type": "stake", "tokens": 8}, "9 to 30"),
    ({"type": "stake", "tokens": 31}, "9 to 30"),
    ({"type": "stake", "tokens": 10, "extra": 1}, "extra"),
    ({"type": "stake", "tokens": 10, "auto": "yes"}, "auto"),
    ({"type": "cards", "count": 1}, "stake"),
    ({"type": "bid", "tricks": 1}, "stake or cards"),
    ({"tokens": 10}, "stake or cards"),
    ("stake 10", "object"),
])
def test_malformed_or_out_of_range_stakes_are_refused(action, words):
    state = started()
    assert words in refused(state, others(state)[0], action)


def test_moves_out_of_turn_are_refused_with_reasons():
    state = started()
    leader, (a, _b, _c) = state["leader"], others(state)
    assert "leader" in refused(state, leader, {"type": "stake", "tokens": 9})
    assert "seat" in refused(state, 4, {"type": "stake", "tokens": 9})
    assert "seat" in refused(state, None, {"type": "stake", "tokens": 9})
    state, _ = stake_all(state, [9, 9, 9])
    assert "leader" in refused(state, a, {"type": "stake", "tokens": 9})
    assert "cards" in refused(state, leader, {"type": "cards", "count": 1})
    state, _ = act(state, leader, {"type": "stake", "tokens": 9})
    assert "leader" in refused(state, leader, {"type": "cards", "count": 1})
    assert "0 to 9" in refused(state, a, {"type": "cards", "count": 10})
    assert "0 to 9" in refused(state, a, {"type": "cards", "count": -1})
    assert "count" in refused(state, a, {"type": "cards"})


def test_events_before_the_reveal_carry_no_values():
    state = started()
    a, b, c = others(state)
    state, events = act(state, a, {"type": "stake", "tokens": 23, "auto": True})
    assert events == [{"type": "committed", "seat": a, "phase": "stake"}]
    state, events = act(state, b, {"type": "stake", "tokens": 17})
    assert events == [{"type": "committed", "seat": b, "phase": "stake"}]
    state, events = act(state, c, {"type": "stake", "tokens": 11})
    assert events[0] == {"type": "committed", "seat": c, "phase": "stake"}
    stakes = [None] * 4
    stakes[a], stakes[b], stakes[c] = 23, 17, 11
    assert events[1] == {"type": "stakes_revealed", "round": 1, "stakes": stakes, "sum": 51}
    state, _ = act(state, state["leader"], {"type": "stake", "tokens": 9})
    state, events = act(state, a, {"type": "cards", "count": 7})
    assert events == [{"type": "committed", "seat": a, "phase": "cards"}]
    state, events = act(state, b, {"type": "cards", "count": 5})
    assert events == [{"type": "committed", "seat": b, "phase": "cards"}]
    state, events = act(state, c, {"type": "cards", "count": 0})
    assert [e["type"] for e in events] == ["committed", "cards_revealed", "round_scored", "new_round"]
    assert events[1]["counts"][a] == 7 and events[1]["total"] == 12


def test_views_hide_uncommitted_and_unrevealed_stakes():
    state = started()
    leader, (a, b, c) = state["leader"], others(state)
    state, _ = act(state, a, {"type": "stake", "tokens": 23})
    for seat in (leader, b, c, None):
        view = ENGINE.view(state, seat)
        assert view["stakes"] == [None] * 4 and view["stakes_sum"] is None and view["bank"] is None
        assert "23" not in json.dumps({k: v for k, v in view.items() if k not in ("legal_actions", "options")})
        assert view["committed"][a] is True and view["committed"][b] is False and view["committed"][leader] is None
    mine = ENGINE.view(state, a)
    assert mine["stakes"][a] == 23 and [mine["stakes"][s] for s in (b, c, leader)] == [None] * 3
    state, _ = act(state, b, {"type": "stake", "tokens": 17})
    state, _ = act(state, c, {"type": "stake", "tokens": 11})
    for seat in (leader, a, b, c, None):
        view = ENGINE.view(state, seat)
        assert [view["stakes"][s] for s in (a, b, c)] == [23, 17, 11] and view["stakes_sum"] == 51
        assert view["bank"] == 51


def test_the_leader_sees_each_count_as_committed_and_nobody_else_does():
    state = started()
    leader, (a, b, c) = state["leader"], others(state)
    state, _ = stake_all(state, [9, 9, 9])
    state, _ = act(state, leader, {"type": "stake", "tokens": 9})
    state, _ = act(state, a, {"type": "cards", "count": 4})
    state, _ = act(state, b, {"type": "cards", "count": 6})
    leader_view = ENGINE.view(state, leader)
    assert [leader_view["counts"][s] for s in (a, b, c)] == [4, 6, None]
    assert leader_view["free_now"] == 12 - 10
    for seat in (a, b, c, None):
        view = ENGINE.view(state, seat)
        visible = {s: view["counts"][s] for s in (a, b, c) if view["counts"][s] is not None}
        assert visible == ({seat: state["counts"][seat]} if seat in (a, b) else {})
        assert view["free_now"] is None
        assert view["committed"] == [None if s == leader else s in (a, b) for s in range(4)]
    state, _ = act(state, c, {"type": "cards", "count": 1})
    for seat in (a, b, c, None):
        assert ENGINE.view(state, seat)["rounds"][0]["counts"][a] == 4


def test_a_round_in_progress_on_the_sheet_shows_only_what_is_public():
    state = started()
    leader, (a, b, c) = state["leader"], others(state)
    state, _ = act(state, a, {"type": "stake", "tokens": 23})
    circle = ENGINE.sheet(state)["rounds"][0]
    assert circle["started"] and not circle["complete"]
    assert all(cell == {"given": None, "cards": None, "taken": None, "auto": False} for cell in circle["cells"])
    state, _ = act(state, b, {"type": "stake", "tokens": 9})
    state, _ = act(state, c, {"type": "stake", "tokens": 9})
    circle = ENGINE.sheet(state)["rounds"][0]
    assert circle["bank"] == 41 and circle["cells"][a]["given"] == 23 and circle["cells"][leader]["given"] is None
    state, _ = act(state, leader, {"type": "stake", "tokens": 12})
    state, _ = act(state, a, {"type": "cards", "count": 4})
    circle = ENGINE.sheet(state)["rounds"][0]
    assert circle["bank"] == 53 and circle["fields"] == 14
    assert circle["cells"][leader] == {"given": 12, "cards": 14, "taken": None, "auto": False}
    assert circle["cells"][a]["cards"] is None


def test_view_keys_and_hand_sizes():
    state = started()
    leader, a = state["leader"], others(state)[0]
    view = ENGINE.view(state, a)
    for key in ("round", "leader", "leaders", "phase", "stakes_sum", "bank", "fields", "committed", "hand_size",
                "rounds", "balance", "options", "legal_actions", "stake_range"):
        assert key in view
    assert (view["hand_size"], view["jokers"]) == (9, 0)
    assert (ENGINE.view(state, leader)["hand_size"], ENGINE.view(state, leader)["jokers"]) == (11, 2)
    assert ENGINE.view(state, None)["hand_size"] is None and ENGINE.view(state, None)["legal_actions"] == []
    assert "seed" not in view and str(SEED) not in json.dumps(view)
    with pytest.raises(ValueError):
        ENGINE.view(state, 5)


# -- stale commitments, time-outs, forfeits ---------------------------------------------


def test_accepts_stale_only_for_simultaneous_commitments_of_the_current_phase():
    state = started()
    leader, (a, b, _c) = state["leader"], others(state)
    stake = {"type": "stake", "tokens": 12}
    assert ENGINE.accepts_stale(state, a, stake)
    assert not ENGINE.accepts_stale(state, leader, stake)
    assert not ENGINE.accepts_stale(state, a, {"type": "cards", "count": 1})
    assert not ENGINE.accepts_stale(state, a, "junk")
    state, _ = stake_all(state, [9, 9, 9])
    assert not ENGINE.accepts_stale(state, leader, stake)  # the leader's stake follows the sum: never stale-safe
    assert not ENGINE.accepts_stale(state, a, stake)
    state, _ = act(state, leader, stake)
    assert ENGINE.accepts_stale(state, b, {"type": "cards", "count": 1})
    assert not ENGINE.accepts_stale(state, leader, {"type": "cards", "count": 1})
    assert not ENGINE.accepts_stale(state, b, stake)
    # With the version the player saw: only commitments made during this phase.
    assert state["phase_since"] == 4 == state["moves"]
    assert ENGINE.accepts_stale(state, b, {"type": "cards", "count": 1}, made_at=4)
    assert not ENGINE.accepts_stale(state, b, {"type": "cards", "count": 1}, made_at=3)
    state, _ = act(state, a, {"type": "cards", "count": 1})
    assert ENGINE.accepts_stale(state, b, {"type": "cards", "count": 1}, made_at=4)


def test_a_commitment_made_on_an_older_version_applies_when_still_legal():
    state = started()
    a, b, c = others(state)
    seen_by_b = state
    state, _ = act(state, a, {"type": "stake", "tokens": 10})
    action = {"type": "stake", "tokens": 14}
    assert action in ENGINE.legal_actions(seen_by_b, b)
    assert ENGINE.accepts_stale(state, b, action, made_at=0)
    state, events = act(state, b, action)
    assert events == [{"type": "committed", "seat": b, "phase": "stake"}]


def test_timers_and_automatic_moves():
    state = started(min_stake=1)
    leader, (a, b, c) = state["leader"], others(state)
    assert ENGINE.auto_action(state, a) == {"type": "stake", "tokens": 1}
    with pytest.raises(IllegalMove):
        ENGINE.auto_action(state, leader)
    state, _ = stake_all(state, [9, 9, 9])
    assert ENGINE.timers(state) == [{"seat": leader, "clock": "move", "expiry": "auto", "reserve": True}]
    assert ENGINE.auto_action(state, leader) == {"type": "stake", "tokens": 9}
    state, _ = act(state, leader, {**ENGINE.auto_action(state, leader), "auto": True})
    assert ENGINE.auto_action(state, a) == {"type": "cards", "count": 0}
    state, _ = act(state, a, {"type": "cards", "count": 0, "auto": True})
    assert [t["seat"] for t in ENGINE.timers(state)] == sorted((b, c))
    state, _ = act(state, b, {"type": "cards", "count": 0})
    state, _ = act(state, c, {"type": "cards", "count": 0})
    cells = ENGINE.sheet(state)["rounds"][0]["cells"]
    assert [cells[s]["auto"] for s in (leader, a, b, c)] == [True, True, False, False]


def test_forfeit_ends_the_game_with_the_forfeiting_player_last():
    state = started()
    lead1 = state["leader"]
    state, _ = play_round(state, [9, 9, 9], 9, [0, 0, 0])  # the first leader is ahead by 27
    state, _ = act(state, others(state)[0], {"type": "stake", "tokens": 30})
    before = dumps(state)
    over = ENGINE.forfeit(state, lead1)
    assert dumps(state) == before
    assert ENGINE.is_over(over) and ENGINE.actors(over) == []
    outcome = ENGINE.outcome(over)
    assert outcome["forfeited"] == lead1 and outcome["places"][lead1] == 4
    assert sorted(outcome["places"][s] for s in range(4) if s != lead1) == [1, 1, 1]
    assert ENGINE.sheet(over)["ranking"][-1] == lead1
    # The unrevealed stake of the interrupted round stays hidden.
    assert all(cell["given"] is None for cell in ENGINE.sheet(over)["rounds"][1]["cells"])
    assert "30" not in dumps(ENGINE.view(over, None)["stakes"])
    with pytest.raises(IllegalMove):
        ENGINE.forfeit(over, 0)


# -- the bot ---------------------------------------------------------------------------


def bot_move(state: dict, seat: int, seed: int = 0) -> dict:
    return choose_ipuker_action(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), random.Random(seed))


def test_bot_stakes_around_the_middle():
    state = started()
    stakes = {bot_move(state, others(state)[0], seed)["tokens"] for seed in range(50)}
    assert min(stakes) >= 15 and max(stakes) <= 24 and len(stakes) > 3


def test_bot_leader_keeps_the_fewest_fields():
    for stakes in ([9, 9, 9], [10, 10, 10], [12, 12, 12], [15, 15, 15], [20, 20, 20]):
        state, _ = stake_all(started(), stakes)
        for seed in range(10):
            action = bot_move(state, state["leader"], seed)
            assert action in ENGINE.legal_actions(state, state["leader"])
            assert fields_for(sum(stakes) + action["tokens"]) == fields_for(sum(stakes) + 9)
    assert bracket_top(36) == 37 and bracket_top(44) == 53 and bracket_top(60) is None


def test_bot_passes_cards_aiming_at_free_fields():
    for overflow in ("basic", "kids", "cards"):
        state, _ = stake_all(started(overflow=overflow), [9, 9, 9])
        state, _ = act(state, state["leader"], {"type": "stake", "tokens": 9})  # 12 fields
        counts = [bot_move(state, others(state)[0], seed)["count"] for seed in range(20)]
        assert all(1 <= count <= 6 for count in counts)
        assert sum(counts) / len(counts) <= 5


def test_bot_games_finish_with_legal_moves():
    for seed in range(5):
        state = started(seed, overflow=("basic", "kids", "cards")[seed % 3], min_stake=(9, 1)[seed % 2])
        rng = random.Random(seed)
        while not ENGINE.is_over(state):
            for seat in ENGINE.actors(state):
                action = choose_ipuker_action(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
                assert action in ENGINE.legal_actions(state, seat)
                state, _ = ENGINE.apply(state, seat, action)
        assert len(state["history"]) == 4
