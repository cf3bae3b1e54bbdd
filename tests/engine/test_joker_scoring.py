"""Joker scoring: the deal table, premiums, the sheet, totals, ranking, forfeits.

Every expected number below was computed by hand from rules/joker.md.
"""

from __future__ import annotations

import json

import pytest

from gameplay.engine import IllegalMove
from gameplay.engine.joker import deal_points, pulka_premium

from .helpers import ENGINE, play_trick, record, scripted, started, with_history

# -- one deal ------------------------------------------------------------------------


@pytest.mark.parametrize("bid, tricks, cards, points", [
    (0, 0, 5, 50),      # pass made
    (0, 0, 1, 50),      # pass made in a one-card deal
    (1, 1, 3, 100),     # b = t: 50 × 1 + 50
    (3, 3, 9, 200),     # b = t: 50 × 3 + 50
    (8, 8, 9, 450),     # b = t < n
    (1, 1, 1, 100),     # all of a one-card deal: 100 × 1
    (5, 5, 5, 500),     # the seed's example: bid and took 5 of 5
    (9, 9, 9, 900),     # all nine
    (1, 0, 3, -200),    # штанга
    (9, 0, 9, -200),    # штанга whatever the bid
    (2, 3, 5, 30),      # took more: 10 per trick
    (4, 1, 9, 10),      # took fewer (but not none): 10 per trick
    (0, 2, 4, 20),      # passed but took two
])
def test_a_deal_scores_by_the_table(bid, tricks, cards, points):
    assert deal_points(bid, tricks, cards) == points


def test_a_scripted_deal_scores_all_of_hand_pass_and_shtanga():
    # Trump ♥; seat 0 holds the three top trumps and takes every trick.
    hands = [["AH", "KH", "QH"], ["7S", "8S", "9S"], ["7D", "8D", "9D"], ["7C", "8C", "9C"]]
    state = scripted(hands, trump="H", dealer=3, bids=[3, 0, 1, 2])
    state, _ = play_trick(state, (0, "AH"), (1, "7S"), (2, "7D"), (3, "7C"))
    state, _ = play_trick(state, (0, "KH"), (1, "8S"), (2, "8D"), (3, "8C"))
    state, events = play_trick(state, (0, "QH"), (1, "9S"), (2, "9D"), (3, "9C"))
    scored = next(event for event in events if event["type"] == "deal_scored")
    assert scored == {"type": "deal_scored", "deal": 3, "bids": [3, 0, 1, 2], "tricks": [3, 0, 0, 0],
                      "points": [300, 50, -200, -200]}


def test_a_scripted_deal_scores_a_made_bid_a_miss_and_a_shtanga():
    hands = [["AS", "7D", "7C"], ["KS", "AD", "8C"], ["QS", "KD", "AC"], ["JS", "QD", "KC"]]
    state = scripted(hands, trump="H", dealer=3, bids=[1, 2, 0, 1])
    state, events = play_trick(state, (0, "AS"), (1, "KS"), (2, "QS"), (3, "JS"))
    assert events[-1]["winner"] == 0
    state, events = play_trick(state, (0, "7D"), (1, "AD"), (2, "KD"), (3, "QD"))
    assert events[-1]["winner"] == 1
    state, events = play_trick(state, (1, "8C"), (2, "AC"), (3, "KC"), (0, "7C"))
    types = [event["type"] for event in events]
    assert types == ["played", "trick", "deal_scored", "new_deal"]
    assert events[2]["tricks"] == [1, 1, 1, 0]
    assert events[2]["points"] == [100, 10, 10, -200]
    assert events[3]["deal"] == 4 and events[3]["dealer"] == 0 and events[3]["cards"] == 4

    row = ENGINE.sheet(state)["pulkas"][0]["deals"][2]
    assert row["complete"] and row["trump"] == "H" and row["dealer"] == 3
    assert [(c["bid"], c["tricks"], c["points"]) for c in row["cells"]] == [
        (1, 1, 100), (2, 1, 10), (0, 1, 10), (1, 0, -200)]
    assert [c["spoiled"] for c in row["cells"]] == [False, True, True, True]
    assert ENGINE.sheet(state)["totals"] == [100, 10, 10, -200]


def test_the_sheet_marks_who_held_a_joker_once_it_is_public():
    hands = [["X1", "7D"], ["8S", "9D"], ["9S", "TD"], ["TS", "JD"]]
    state = scripted(hands, trump="H", dealer=3, bids=[2, 0, 0, 1])
    assert [c["joker"] for c in ENGINE.sheet(state)["pulkas"][0]["deals"][1]["cells"]] == [False] * 4
    state, _ = play_trick(state, (0, "X1", "high", "S"), (1, "8S"), (2, "9S"), (3, "TS"))
    assert [c["joker"] for c in ENGINE.sheet(state)["pulkas"][0]["deals"][1]["cells"]] == [True, False, False, False]
    state, _ = play_trick(state, (0, "7D"), (1, "9D"), (2, "TD"), (3, "JD"))
    row = ENGINE.sheet(state)["pulkas"][0]["deals"][1]
    assert row["complete"]
    assert [c["joker"] for c in row["cells"]] == [True, False, False, False]
    assert [c["points"] for c in row["cells"]] == [10, 50, 50, 100]


def test_an_automatic_move_is_marked_on_that_deals_cell():
    hands = [["7D"], ["8S"], ["9S"], ["TS"]]
    state = scripted(hands, trump="H", dealer=3, bids=[0, 0, 0, 0])
    for seat in range(4):
        action = ENGINE.auto_action(state, seat)
        state, _ = ENGINE.apply(state, seat, {**action, "auto": seat == 2})
    row = ENGINE.sheet(state)["pulkas"][0]["deals"][0]
    assert row["complete"]
    assert [c["auto"] for c in row["cells"]] == [False, False, True, False]


# -- premiums ----------------------------------------------------------------------------
# with_history() uses first dealer 3, so the sheet order is seats 0, 1, 2, 3.

SEED_EXAMPLE = [  # pulka 1; players 1, 2, 3 (seats 0, 1, 2) make every bid, player 4 misses every deal
    record(1, bids=[1, 0, 0, 1], tricks=[1, 0, 0, 0]),   # 100   50   50  -200
    record(2, bids=[1, 1, 0, 1], tricks=[1, 1, 0, 0]),   # 100  100   50  -200
    record(3, bids=[1, 0, 1, 0], tricks=[1, 0, 1, 1]),   # 100   50  100    10
    record(4, bids=[2, 1, 0, 0], tricks=[2, 1, 0, 1]),   # 150  100   50    10
    record(5, bids=[0, 2, 1, 0], tricks=[0, 2, 1, 2]),   #  50  150  100    20
    record(6, bids=[3, 1, 1, 0], tricks=[3, 1, 1, 1]),   # 200  100  100    10
    record(7, bids=[1, 2, 1, 4], tricks=[1, 2, 1, 3]),   # 100  150  100    30
    record(8, bids=[4, 1, 2, 0], tricks=[4, 1, 2, 1]),   # 250  100  150    10
]


def test_the_seed_example_three_neighbours_on_premium():
    state = with_history(SEED_EXAMPLE)
    pulka = ENGINE.sheet(state)["pulkas"][0]
    assert pulka["complete"]
    assert pulka["premium"] == [
        {"on_premium": True, "bonus": 200, "written_off": 0, "written_off_by": None},   # 1st: receives only
        {"on_premium": True, "bonus": 0, "written_off": 0, "written_off_by": None},     # 2nd: neither
        {"on_premium": True, "bonus": 0, "written_off": 0, "written_off_by": None},     # 3rd: writes off from 4th
        {"on_premium": False, "bonus": 0, "written_off": 30, "written_off_by": 2},      # 4th: loses his 30
    ]
    assert pulka["subtotal"] == [1050 + 200, 800, 700, -310 - 30]
    assert pulka["total"] == pulka["subtotal"]
    cells = {deal["deal"]: deal["cells"] for deal in pulka["deals"]}
    assert cells[6][0]["bonus_source"] and not any(cells[d][0]["bonus_source"] for d in (1, 2, 3, 4, 5, 7, 8))
    assert cells[8][0]["premium"] and not cells[8][1]["premium"] and not cells[8][2]["premium"]
    assert cells[7][3]["written_off_source"]
    assert sum(cells[d][3]["written_off_source"] for d in cells) == 1
    assert [cells[d][3]["spoiled"] for d in range(1, 9)] == [True] * 8
    assert not any(cells[d][s]["spoiled"] for d in range(1, 9) for s in (0, 1, 2))


ALL_MADE = [record(deal, bids=[1, 0, 2, 1], tricks=[1, 0, 2, 1]) for deal in range(9, 13)]


def test_when_all_four_are_on_premium_nobody_receives_or_writes_off():
    state = with_history(ALL_MADE)
    pulka = ENGINE.sheet(state)["pulkas"][1]
    assert [p["on_premium"] for p in pulka["premium"]] == [True] * 4
    assert [(p["bonus"], p["written_off"]) for p in pulka["premium"]] == [(0, 0)] * 4
    assert pulka["subtotal"] == [400, 200, 600, 400]
    rows = pulka["deals"]
    assert not any(c["premium"] or c["bonus_source"] or c["written_off_source"] for r in rows for c in r["cells"])


SINGLE_PREMIUM = [  # pulka 2 (9 cards); first dealer 1, so the sheet order is seats 2, 3, 0, 1
    record(9, bids=[1, 3, 2, 4], tricks=[1, 3, 3, 2]),    # 100  200   30   20
    record(10, bids=[2, 2, 3, 1], tricks=[1, 2, 4, 2]),   #  10  150   40   20
    record(11, bids=[0, 4, 0, 3], tricks=[0, 4, 2, 3]),   #  50  250   20  200
    record(12, bids=[2, 1, 5, 0], tricks=[1, 1, 5, 2]),   #  10  100  300   20
]


def test_a_single_premium_player_receives_his_best_and_writes_off_the_next_players_best():
    # Seat 1 is 4th in the sheet; the player after him is the 1st, seat 2.
    state = with_history(SINGLE_PREMIUM, first_dealer=1)
    sheet = ENGINE.sheet(state)
    assert sheet["order"] == [2, 3, 0, 1]
    pulka = sheet["pulkas"][1]
    assert [p["on_premium"] for p in pulka["premium"]] == [False, True, False, False]
    assert pulka["premium"][1]["bonus"] == 250                      # deal 11, not counting deal 12
    assert pulka["premium"][2]["written_off"] == 40                 # deal 10: his 300 in deal 12 does not count
    assert pulka["premium"][2]["written_off_by"] == 1
    assert pulka["subtotal"] == [170, 700 + 250, 390 - 40, 260]
    cells = {deal["deal"]: deal["cells"] for deal in pulka["deals"]}
    assert cells[11][1]["bonus_source"] and cells[12][1]["premium"]
    assert cells[10][2]["written_off_source"]
    assert not sheet["pulkas"][0]["complete"] and sheet["pulkas"][0]["premium"] is None
    assert sheet["totals"] == [170, 950, 350, 260]


NEGATIVE_VICTIM = [  # pulka 2; seat 0 on premium, seat 1 (after him) had штанги in deals 9-11
    record(9, bids=[2, 1, 3, 2], tricks=[2, 0, 4, 3]),    # 150 -200   40   30
    record(10, bids=[3, 2, 2, 3], tricks=[3, 0, 3, 3]),   # 200 -200   30  200
    record(11, bids=[1, 1, 4, 1], tricks=[1, 0, 4, 4]),   # 100 -200  250   40
    record(12, bids=[0, 2, 3, 1], tricks=[0, 3, 3, 3]),   #  50   30  200   30
]


def test_a_negative_best_score_is_not_written_off():
    state = with_history(NEGATIVE_VICTIM)
    pulka = ENGINE.sheet(state)["pulkas"][1]
    assert pulka["premium"][0] == {"on_premium": True, "bonus": 200, "written_off": 0, "written_off_by": None}
    assert pulka["premium"][1]["written_off"] == 0
    assert pulka["subtotal"] == [500 + 200, -570, 520, 300]
    assert not any(c["written_off_source"] for r in pulka["deals"] for c in r["cells"])


def test_a_zero_best_score_is_not_written_off():
    records = [
        {"deal": 9, "bids": [1, 1, 0, 1], "tricks": [1, 2, 0, 0], "points": [100, 0, 50, -200]},
        {"deal": 10, "bids": [1, 1, 0, 0], "tricks": [1, 3, 0, 0], "points": [100, -200, 50, 50]},
        {"deal": 11, "bids": [1, 1, 0, 0], "tricks": [1, 5, 0, 0], "points": [100, 500, 50, 50]},
    ]
    premium = pulka_premium(records, order=[0, 1, 2, 3])
    assert premium[1]["written_off"] == 0 and premium[1]["written_off_by"] is None
    assert premium[0]["bonus"] == 100 and premium[0]["bonus_deal"] == 9


def test_two_neighbours_on_premium_the_first_receives_and_the_second_writes_off():
    records = [
        {"deal": 9, "bids": [1, 1, 0, 0], "tricks": [1, 1, 3, 0], "points": [100, 100, 30, 50]},
        {"deal": 10, "bids": [2, 1, 0, 0], "tricks": [2, 1, 1, 1], "points": [150, 100, 10, 10]},
        {"deal": 11, "bids": [1, 1, 1, 1], "tricks": [1, 1, 0, 2], "points": [100, 100, -200, 20]},
        {"deal": 12, "bids": [1, 1, 1, 1], "tricks": [1, 1, 0, 2], "points": [100, 100, -200, 20]},
    ]
    premium = pulka_premium(records, order=[0, 1, 2, 3])
    assert [(p["bonus"], p["written_off"]) for p in premium] == [(150, 0), (0, 0), (0, 30), (0, 0)]
    assert premium[2]["written_off_by"] == 1 and premium[2]["written_off_deal"] == 9


# -- the sheet's shape, totals and ranking -------------------------------------------------


def test_the_sheet_lists_all_24_deals_in_4_pulkas_from_the_start():
    sheet = ENGINE.sheet(started())
    assert sheet["kind"] == "joker"
    assert [len(p["deals"]) for p in sheet["pulkas"]] == [8, 4, 8, 4]
    assert [d["cards"] for p in sheet["pulkas"] for d in p["deals"]] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9]
    assert sheet["totals"] == [0, 0, 0, 0]
    first = sheet["pulkas"][0]["deals"][0]
    assert set(first) == {"deal", "cards", "dealer", "trump", "trump_card", "complete", "cells"}
    assert set(first["cells"][0]) == {"bid", "tricks", "points", "joker", "spoiled", "premium", "bonus_source",
                                      "written_off_source", "auto"}
    assert json.loads(json.dumps(sheet)) == sheet


TIED = [
    record(1, bids=[1, 0, 0, 1], tricks=[1, 0, 0, 0]),   # 100   50   50 -200
    record(2, bids=[0, 1, 1, 1], tricks=[0, 1, 0, 1]),   #  50  100 -200  100
]                                                        # 150  150 -150 -100


def test_equal_totals_are_ranked_by_sheet_order():
    state = with_history(TIED, first_dealer=1)       # order 2, 3, 0, 1: seat 0 is before seat 1
    assert ENGINE.sheet(state)["totals"] == [150, 150, -150, -100]
    assert ENGINE.sheet(state)["ranking"] == [0, 1, 3, 2]
    assert ENGINE.outcome(state)["places"] == [1, 2, 4, 3]
    state = with_history(TIED, first_dealer=0)       # order 1, 2, 3, 0: seat 1 is before seat 0
    assert ENGINE.sheet(state)["ranking"] == [1, 0, 3, 2]
    assert ENGINE.outcome(state)["places"] == [2, 1, 4, 3]
    assert ENGINE.outcome(state)["winners"] == [1]


def test_a_forfeiting_player_is_ranked_last_and_the_others_by_their_totals():
    state = with_history(TIED, first_dealer=1)
    over = ENGINE.forfeit(state, 0)
    assert ENGINE.is_over(over) and ENGINE.actors(over) == [] and ENGINE.timers(over) == []
    assert not ENGINE.is_over(state)
    assert ENGINE.outcome(over) == {"scores": [150, 150, -150, -100], "places": [4, 1, 3, 2], "winners": [1],
                                    "teams": None, "forfeited": 0}
    with pytest.raises(IllegalMove):
        ENGINE.apply(over, ENGINE.actors(state)[0], {"type": "bid", "tricks": 0})
    with pytest.raises(IllegalMove):
        ENGINE.forfeit(over, 1)
    assert ENGINE.view(over, 1)["finished"] is True
    assert ENGINE.view(over, 1)["outcome"]["forfeited"] == 0


def test_totals_are_kept_in_points_and_pulka_totals_run_on():
    records = SEED_EXAMPLE + [record(deal, bids=[1, 0, 2, 1], tricks=[1, 0, 2, 1]) for deal in range(9, 13)]
    sheet = ENGINE.sheet(with_history(records))
    assert sheet["pulkas"][0]["total"] == [1250, 800, 700, -340]
    assert sheet["pulkas"][1]["subtotal"] == [400, 200, 600, 400]
    assert sheet["pulkas"][1]["total"] == [1650, 1000, 1300, 60]
    assert sheet["pulkas"][2]["total"] == sheet["totals"] == [1650, 1000, 1300, 60]
    assert sheet["ranking"] == [0, 2, 1, 3]


def test_a_full_game_of_automatic_moves_ends_with_four_complete_pulkas():
    state = started()
    while not ENGINE.is_over(state):
        seat = ENGINE.actors(state)[0]
        state, events = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    assert events[-1] == {"type": "game_over"}
    sheet = ENGINE.sheet(state)
    assert all(p["complete"] and p["premium"] is not None for p in sheet["pulkas"])
    assert all(d["complete"] for p in sheet["pulkas"] for d in p["deals"])
    assert sheet["totals"] == sheet["pulkas"][3]["total"]
    outcome = ENGINE.outcome(state)
    assert sorted(outcome["places"]) == [1, 2, 3, 4]
    assert outcome["scores"] == sheet["totals"]
    assert outcome["winners"] == [sheet["ranking"][0]]
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.timers(state) == []
