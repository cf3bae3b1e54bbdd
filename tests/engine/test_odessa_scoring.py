"""Odessa poker scoring: every case of a deal, every special, the sheet and the places (hand-computed)."""

from __future__ import annotations

import pytest

from gameplay.engine.odessa_scoring import bid_points, deal_points, places_of

from .odessa_helpers import ENGINE, play_trick, scored, scripted, started

# Two tricks, both won by seat 0 (the aces), nobody trumps (trump ♥).
ACES = [["AS", "AD"], ["KS", "KD"], ["QS", "QD"], ["JS", "JD"]]


def play_aces(state: dict) -> tuple[dict, list]:
    state, _ = play_trick(state, (0, "AS"), (1, "KS"), (2, "QS"), (3, "JS"))
    return play_trick(state, (0, "AD"), (1, "KD"), (2, "QD"), (3, "JD"))


def test_bid_made_short_and_passes_made():
    # Seat 0 bids 2 and takes 2: 10 × 2; seat 1 bids 1, takes 0: −10; seats 2 and 3 pass and take none: 5 each.
    state, events = play_aces(scripted(ACES, bids=[2, 1, 0, 0]))
    assert scored(events)["points"] == [20, -10, 5, 5]
    assert state["history"][-1]["tricks"] == [2, 0, 0, 0]


def test_over_and_a_broken_pass_and_two_short():
    # Seat 0 bids 1, takes 2 (перебор): 1 × 2; seat 1 bids 2, takes 0 (недобор of 2): −20.
    _, events = play_aces(scripted(ACES, bids=[1, 2, 0, 0]))
    assert scored(events)["points"] == [2, -20, 5, 5]
    # Seat 0 passes and takes 2: перебор, 2 points.
    _, events = play_aces(scripted(ACES, bids=[0, 1, 0, 1]))
    assert scored(events)["points"] == [2, -10, 5, -10]


def test_the_scoring_table():
    assert [bid_points(0, 0), bid_points(1, 1), bid_points(4, 4), bid_points(0, 3), bid_points(2, 5),
            bid_points(3, 1), bid_points(5, 0)] == [5, 10, 40, 3, 5, -20, -50]


@pytest.mark.parametrize("multiplier", [2, 3])
def test_blind_and_no_trump_deals_score_normally_times_the_multiplier(multiplier):
    options = {"max_hand": 2, "special_multiplier": multiplier}
    for special in ("blind", "no_trump"):
        _, events = play_aces(scripted(ACES, options=options, special=special, bids=[2, 1, 0, 1]))
        assert scored(events)["points"] == [20 * multiplier, -10 * multiplier, 5 * multiplier, -10 * multiplier]


@pytest.mark.parametrize("multiplier", [2, 3])
def test_golden_pays_and_miser_costs_ten_times_the_multiplier_a_trick(multiplier):
    options = {"max_hand": 2, "special_multiplier": multiplier}
    _, events = play_aces(scripted(ACES, options=options, special="golden", phase="play"))
    assert scored(events)["points"] == [20 * multiplier, 0, 0, 0]
    assert scored(events)["bids"] == [None] * 4
    _, events = play_aces(scripted(ACES, options=options, special="miser", phase="play"))
    assert scored(events)["points"] == [-20 * multiplier, 0, 0, 0]


def test_deal_points_of_each_special():
    assert [deal_points(None, 2, 2, 3), deal_points("blind", 2, 2, 3), deal_points("no_trump", 0, 0, 2),
            deal_points("golden", None, 3, 2), deal_points("miser", None, 3, 3)] == [20, 60, 10, 60, -90]


def test_equal_totals_share_a_place_and_the_next_is_skipped():
    assert places_of([50, 50, 10, 70]) == [2, 2, 4, 1]
    assert places_of([30, 30, 10]) == [1, 1, 3]
    assert places_of([30, 30, 10], forfeited=0) == [3, 1, 2]
    assert places_of([0, 0]) == [1, 1]


def test_the_sheet_has_a_row_per_deal_with_the_bid_and_the_running_total():
    state = started(2, {"max_hand": 2, "specials": ["golden"], "specials_mode": "once"}, seed=11)
    rows = ENGINE.sheet(state)["deals"]
    assert [(row["deal"], row["cards"], row["special"]) for row in rows] == [
        (1, 1, None), (2, 2, None), (3, 2, None), (4, 1, None), (5, 2, "golden")]
    assert all(not row["complete"] for row in rows)
    history = [
        {"deal": 1, "cards": 1, "special": None, "dealer": 0, "trump": "S", "trump_card": "9S", "bids": [0, 1],
         "tricks": [0, 1], "points": [5, 10], "auto": [False, True]},
        {"deal": 2, "cards": 2, "special": None, "dealer": 1, "trump": None, "trump_card": "7S", "bids": [2, 1],
         "tricks": [1, 1], "points": [-10, 10], "auto": [False, False]},
    ]
    state.update({"history": history, "deal": 3, "cards": 2, "bids": [1, None]})
    sheet = ENGINE.sheet(state)
    assert [[(cell["bid"], cell["total"]) for cell in row["cells"]] for row in sheet["deals"][:2]] == [
        [(0, 5), (1, 10)], [(2, -5), (1, 20)]]
    assert sheet["deals"][0]["cells"][1]["auto"] is True
    current = sheet["deals"][2]
    assert current["complete"] is False and [cell["bid"] for cell in current["cells"]] == [1, None]
    assert sheet["totals"] == [-5, 20] and sheet["places"] == [2, 1] and sheet["ranking"] == [1, 0]
    assert ENGINE.outcome(state) == {"scores": [-5, 20], "places": [2, 1], "winners": [1], "teams": None,
                                     "forfeited": None}
    assert ENGINE.view(state, 0)["totals"] == [-5, 20]


def test_a_finished_game_shares_first_place_on_equal_totals():
    state = started(3, {"max_hand": 2, "specials": []}, seed=2)
    state.update({"phase": "over", "turn": None, "history": [
        {"deal": 1, "cards": 1, "special": None, "dealer": 0, "trump": "S", "trump_card": "9S", "bids": [0, 0, 1],
         "tricks": [0, 0, 1], "points": [5, 5, 10], "auto": [False] * 3},
        {"deal": 2, "cards": 2, "special": None, "dealer": 1, "trump": "S", "trump_card": "9S", "bids": [1, 1, 1],
         "tricks": [1, 1, 0], "points": [10, 10, -10], "auto": [False] * 3}]})
    outcome = ENGINE.outcome(state)
    assert outcome["scores"] == [15, 15, 0] and outcome["places"] == [1, 1, 3]
    assert sorted(outcome["winners"]) == [0, 1]
