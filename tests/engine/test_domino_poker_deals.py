"""Domino Poker through the engine contract: scripted deals with hand-computed results,
the blind stage, stage 5, clocks, refusals, the view, the sheet and the outcome."""

from __future__ import annotations

import json

import pytest

from gameplay.engine.core import IllegalMove, InvalidSetup
from gameplay.engine.domino_poker_rules import deal_schedule
from gameplay.engine.dominoes import make_set

from .domino_poker_helpers import (
    ENGINE,
    advance,
    bid_all,
    final_state,
    play,
    play_trick,
    scored,
    scripted,
    started,
    tile_codes_in,
    winner_of,
)

ROW = make_set()  # a row in the set's order: position 9 is 1-3, 14 is 2-3, 27 is 6-6


def refused(state: dict, seat: int, action: dict) -> str:
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove) as refusal:
        ENGINE.apply(state, seat, action)
    assert json.dumps(state, sort_keys=True) == before
    return refusal.value.message


# -- the start ---------------------------------------------------------------------------------


def test_the_draw_decides_who_starts_and_the_start_then_goes_clockwise():
    state = started(4, seed=4)  # the draw of seed 4: seats 2 and 3 tie on 9, then 3 draws 4-4 (8) over 0-3
    assert len(state["draw"]) == 2 and state["first_starter"] == 3
    assert (state["deal"], state["starter"], state["turn"], state["phase"]) == (1, 3, 3, "bid")
    view = ENGINE.view(state, 0)
    assert view["draw"] == state["draw"] and view["first_starter"] == 3
    assert ENGINE.sheet(state)["draw"] == state["draw"]
    state = advance(state, lambda s: s["deal"] == 2)
    assert (state["starter"], state["turn"]) == (0, 0)


def test_each_deal_is_dealt_from_the_seed_the_starter_taking_first():
    state = started(3, seed=7)
    from gameplay.engine.core import shuffled

    deck = shuffled(make_set(), 7, 1)
    starter = state["starter"]
    assert state["hands"][starter] == deck[:1]
    assert state["hands"][(starter + 1) % 3] == deck[1:2]
    assert state["hands"][(starter + 2) % 3] == deck[2:3]
    assert state["rest"] == deck[3:]


def test_a_game_plays_every_deal_of_its_schedule_with_the_starter_turning_clockwise():
    options = {"sevens": 1, "blind_deals": 1, "grab_deals": 1, "misere_deals": 1, "final_stage": True}
    state = advance(started(3, options, seed=11), lambda s: False)
    schedule = deal_schedule(3, options)
    assert [record["deal"] for record in state["history"]] == [deal["deal"] for deal in schedule]
    assert [record["starter"] for record in state["history"]] == [
        (state["first_starter"] + deal["deal"] - 1) % 3 for deal in schedule]
    assert ENGINE.is_over(state) and ENGINE.actors(state) == [] and ENGINE.timers(state) == []
    assert ENGINE.outcome(state)["scores"] == [sum(r["points"][s] for r in state["history"]) for s in range(3)]


# -- scripted deals: following and strength --------------------------------------------------------


def test_poker_led_forces_the_strongest_trump_and_wins():
    hands = [["1-1", "2-3"], ["0-4", "6-6"], ["0-0", "1-5"]]
    state = scripted(hands, starter=0, bids=[1, 1, 0])
    state, _ = play(state, 0, "1-1")
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "tile": "0-4"}]
    message = refused(state, 1, {"type": "play", "tile": "6-6"})
    assert message == "The poker was led: you must play your strongest trump, 0-4."
    state, _ = play(state, 1, "0-4")
    assert refused(state, 2, {"type": "play", "tile": "1-5"}).endswith("strongest trump, 0-0.")
    state, events = play(state, 2, "0-0")
    assert winner_of(events) == 0  # the poker beats 0-0
    # Trick 2: 2-3 (5), 6-6 (12), 1-5 (6): 6-6 wins.
    state, events = play_trick(state, (0, "2-3"), (1, "6-6"), (2, "1-5"))
    assert winner_of(events) == 1
    assert scored(events)["tricks"] == [1, 1, 0]
    assert scored(events)["points"] == [10, 10, 5]


def test_poker_led_without_trumps_any_tile_and_the_poker_still_wins():
    hands = [["1-1"], ["6-6"], ["5-6"]]
    state = scripted(hands, starter=0, bids=[1, 0, 1])
    assert ENGINE.legal_actions(play(state, 0, "1-1")[0], 1) == [{"type": "play", "tile": "6-6"}]
    state, events = play_trick(state, (0, "1-1"), (1, "6-6"), (2, "5-6"))
    assert winner_of(events) == 0
    assert scored(events)["points"] == [10, 5, -10]


def test_trump_led_forces_a_trump_from_those_who_hold_one_and_the_highest_trump_wins():
    hands = [["0-3", "5-5"], ["0-1", "6-6"], ["0-6", "1-1"], ["2-2", "3-4"]]
    state = scripted(hands, starter=0, bids=[2, 0, 1, 0])
    state, _ = play(state, 0, "0-3")
    assert refused(state, 1, {"type": "play", "tile": "6-6"}) == (
        "A trump was led: you must play a trump (you hold 0-1).")
    state, _ = play(state, 1, "0-1")
    # The poker is not a trump: seat 2 must play 0-6.
    assert ENGINE.legal_actions(state, 2) == [{"type": "play", "tile": "0-6"}]
    state, _ = play(state, 2, "0-6")
    assert {action["tile"] for action in ENGINE.legal_actions(state, 3)} == {"2-2", "3-4"}  # no trump: anything
    state, events = play(state, 3, "3-4")
    assert winner_of(events) == 2
    assert state["turn"] == 2  # the winner leads the next trick
    state, events = play_trick(state, (2, "1-1"), (3, "2-2"), (0, "5-5"), (1, "6-6"))
    assert winner_of(events) == 2
    # Bids 2, 0, 1, 0; tricks 0, 0, 2, 0: under by 2, pass made, over (+2), pass made.
    assert scored(events)["points"] == [-20, 5, 2, 5]


def test_trump_led_without_trumps_the_poker_may_be_played_and_wins():
    hands = [["0-2"], ["1-1"]]
    state = scripted(hands, starter=0, bids=[1, 0])
    state, events = play_trick(state, (0, "0-2"), (1, "1-1"))
    assert winner_of(events) == 1
    assert scored(events)["points"] == [-10, 1]


def test_an_ordinary_lead_allows_any_tile_and_a_trump_beats_it():
    hands = [["6-6", "2-2"], ["0-1", "3-3"]]
    state = scripted(hands, starter=0, bids=[1, 1])
    state, _ = play(state, 0, "6-6")
    assert {action["tile"] for action in ENGINE.legal_actions(state, 1)} == {"0-1", "3-3"}
    state, events = play(state, 1, "0-1")
    assert winner_of(events) == 1


def test_equal_pips_the_earlier_tile_wins():
    hands = [["2-5"], ["3-4"], ["1-6"], ["1-2"]]
    state = scripted(hands, starter=1, bids=[0, 1, 0, 0])
    state, events = play_trick(state, (1, "3-4"), (2, "1-6"), (3, "1-2"), (0, "2-5"))
    assert winner_of(events) == 1
    assert scored(events)["points"] == [5, 10, 5, 5]


# -- scripted deals: stages 3 and 4 ------------------------------------------------------------


GRAB_HANDS = [["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"], ["1-1", "1-2", "1-3", "1-4", "1-5", "1-6", "2-2"]]


@pytest.mark.parametrize(("kind", "points"), [("grab", [60, 10]), ("misere", [-60, -10])])
def test_grab_and_misere_score_ten_per_trick_without_bids(kind, points):
    # Seat 0 holds every trump, seat 1 the poker and no trump: whatever is played, the poker takes
    # one trick and the trumps the other six.
    state = scripted(GRAB_HANDS, kind=kind, starter=0)
    assert state["phase"] == "play" and ENGINE.view(state, 0)["bidding"] is False
    events: list = []
    while not any(event["type"] == "deal_scored" for event in events):
        seat = ENGINE.actors(state)[0]
        state, events = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    assert scored(events)["tricks"] == [6, 1]
    assert scored(events)["points"] == points
    assert scored(events)["bids"] == [None, None]


# -- the blind stage ------------------------------------------------------------------------------


def blind_deal() -> dict:
    options = {"sevens": 0, "blind_deals": 1}
    return advance(started(2, options, seed=5), lambda s: s["kind"] == "blind")


def test_in_the_blind_stage_nobody_sees_his_tiles_until_every_bid_is_in():
    state = blind_deal()
    first, second = state["turn"], 1 - state["turn"]
    for seat in (0, 1):
        view = ENGINE.view(state, seat)
        assert view["hand"] == [] and view["hand_face_down"] and view["blind"]
        assert view["hand_sizes"] == [7, 7]
        assert tile_codes_in({**view, "draw": None, "last_trick": None}) == set()
    assert [action["tricks"] for action in ENGINE.legal_actions(state, first)] == list(range(8))
    state, _ = ENGINE.apply(state, first, {"type": "bid", "tricks": 2})
    assert ENGINE.view(state, first)["hand"] == [] and ENGINE.view(state, second)["hand"] == []
    state, events = ENGINE.apply(state, second, {"type": "bid", "tricks": 3})
    assert events[-1] == {"type": "bids_complete", "bids": [2, 3] if first == 0 else [3, 2]}
    for seat in (0, 1):
        view = ENGINE.view(state, seat)
        assert sorted(view["hand"]) == sorted(state["hands"][seat]) and not view["hand_face_down"]


def test_undealt_tiles_are_in_no_view():
    state = advance(started(2, {"sevens": 1}, seed=9), lambda s: s["tiles"] == 7)
    assert len(state["rest"]) == 14
    for seat in (None, 0, 1):
        view = ENGINE.view(state, seat)
        own = set(state["hands"][seat]) if seat is not None else set()
        public = {item["tile"] for draw in state["draw"] for item in draw} | set(state["played"])
        if state["last_trick"]:
            public |= {play["tile"] for play in state["last_trick"]["plays"]}
        assert tile_codes_in(view) <= own | public
        assert not set(state["rest"]) & (tile_codes_in(view) - public)
    assert not set(state["rest"]) & tile_codes_in(ENGINE.sheet(state))


# -- stage 5 --------------------------------------------------------------------------------------


def test_stage_5_three_players_pointing_right_dealing_and_the_secret_choice():
    state = final_state(3, ROW, totals=[10, 40, 20], starter=2)
    assert ENGINE.actors(state) == [1] and state["phase"] == "pick"  # the highest total points
    assert refused(state, 0, {"type": "pick", "index": 9, "direction": "right"}).startswith("The leader points")
    # 1-3 at 9 shows 4: skip 10..13; 14 (2-3) to the leader, 15 (2-4) to seat 2, 16 (2-5) to seat 0.
    state, events = ENGINE.apply(state, 1, {"type": "pick", "index": 9, "direction": "right"})
    assert events == [{"type": "picked", "seat": 1, "index": 9, "direction": "right", "tile": "1-3", "pips": 4,
                       "positions": [16, 14, 15], "auto": False}]
    assert [ENGINE.view(state, seat)["final_tiles"] for seat in range(3)] == [
        ["2-5", None, None], [None, "2-3", None], [None, None, "2-4"]]
    assert ENGINE.view(state, None)["final_tiles"] == [None, None, None]
    assert ENGINE.actors(state) == [0, 1, 2]
    state, events = ENGINE.apply(state, 0, {"type": "reveal", "show": True})
    assert events == [{"type": "committed", "seat": 0, "phase": "reveal"}]
    assert [timer["seat"] for timer in ENGINE.timers(state)] == [1, 2]
    other = ENGINE.view(state, 2)
    assert other["committed"] == [True, False, False] and other["choices"] == [None, None, None]
    assert ENGINE.view(state, 0)["choices"] == ["show", None, None]
    assert refused(state, 0, {"type": "reveal", "show": False}) == "You have already chosen; the choice is final."
    state, events = ENGINE.apply(state, 2, {"type": "reveal", "show": False, "auto": True})
    assert events == [{"type": "committed", "seat": 2, "phase": "reveal"}]  # not even whether the clock chose
    assert ENGINE.view(state, 0)["choices"] == ["show", None, None]
    state, events = ENGINE.apply(state, 1, {"type": "reveal", "show": True})
    revealed = next(event for event in events if event["type"] == "revealed")
    assert revealed["choices"] == ["show", "show", "hide"] and revealed["shown"] == ["2-5", "2-3", None]
    # 7 pips against 5: +30 and −30; the hidden tile scores 0.
    assert scored(events)["points"] == [30, -30, 0]
    assert ENGINE.outcome(state)["scores"] == [40, 10, 20]
    assert ENGINE.is_over(state)
    assert ENGINE.view(state, 0)["final_tiles"] == ["2-5", "2-3", None]  # the hidden 2-4 stays hidden
    assert "2-4" not in tile_codes_in(ENGINE.view(state, 0)) | tile_codes_in(ENGINE.sheet(state))
    row = ENGINE.sheet(state)["stages"][-1]["rows"][0]
    assert row["kind"] == "final" and row["leader"] == 1 and row["pick"]["tile"] == "1-3"
    assert [(cell["choice"], cell["tile"], cell["points"], cell["total"]) for cell in row["cells"]] == [
        ("show", "2-5", 30, 40), ("show", "2-3", -30, 10), ("hide", None, 0, 20)]


def test_stage_5_three_players_pointing_left():
    state = final_state(3, ROW, totals=[10, 40, 20])
    state, events = ENGINE.apply(state, 1, {"type": "pick", "index": 9, "direction": "left"})
    # Skip 8..5; 4 (0-4) to the leader, 3 (0-3) to seat 2, 2 (0-2) to seat 0.
    assert events[0]["positions"] == [2, 4, 3]
    assert state["hands"] == [["0-2"], ["0-4"], ["0-3"]]


def test_stage_5_four_players_counting_left_round_the_circle():
    state = final_state(4, ROW, totals=[0, 0, 0, 0], starter=0)
    assert ENGINE.actors(state) == [0]  # all tied: the starter
    # 0-1 at 1 shows 1: skip 0, then 27, 26, 25, 24 to seats 0, 1, 2, 3.
    state, _ = ENGINE.apply(state, 0, {"type": "pick", "index": 1, "direction": "left"})
    assert state["hands"] == [["6-6"], ["5-6"], ["5-5"], ["4-6"]]
    for seat in range(4):
        state, events = ENGINE.apply(state, seat, {"type": "reveal", "show": True})
    assert scored(events)["points"] == [30, -30, -30, -30]


def test_stage_5_two_players_counting_right_round_the_circle():
    state = final_state(2, ROW, totals=[5, 50])
    assert ENGINE.actors(state) == [1]
    # 6-6 at 27 shows 12: skip 0..11, then 12 (1-6) to the leader (seat 1), 13 (2-2) to seat 0.
    state, _ = ENGINE.apply(state, 1, {"type": "pick", "index": 27, "direction": "right"})
    assert state["hands"] == [["2-2"], ["1-6"]]
    state, _ = ENGINE.apply(state, 1, {"type": "reveal", "show": False})
    state, events = ENGINE.apply(state, 0, {"type": "reveal", "show": True})
    assert scored(events)["points"] == [30, 0]  # the only one to show wins, whatever the tile


def test_stage_5_automatic_moves_point_at_0_to_the_right_and_hide():
    state = final_state(2, ROW)
    assert ENGINE.auto_action(state, 0) == {"type": "pick", "index": 0, "direction": "right"}
    state, _ = ENGINE.apply(state, 0, {**ENGINE.auto_action(state, 0), "auto": True})
    assert ENGINE.auto_action(state, 1) == {"type": "reveal", "show": False}


def test_stage_5_choice_made_on_an_older_version_is_accepted_only_in_the_reveal_and_before_choosing():
    state = final_state(3, ROW, totals=[0, 9, 0])
    reveal = {"type": "reveal", "show": True}
    assert not ENGINE.accepts_stale(state, 0, reveal)
    state, _ = ENGINE.apply(state, 1, {"type": "pick", "index": 0, "direction": "right"})
    since = state["phase_since"]
    assert ENGINE.accepts_stale(state, 0, reveal, made_at=since)
    assert not ENGINE.accepts_stale(state, 0, reveal, made_at=since - 1)
    assert not ENGINE.accepts_stale(state, 0, {"type": "bid", "tricks": 0})
    assert not ENGINE.accepts_stale(state, 7, reveal)
    state, _ = ENGINE.apply(state, 0, reveal)
    assert not ENGINE.accepts_stale(state, 0, reveal)


@pytest.mark.parametrize(("action", "message"), [
    ({"type": "pick", "index": 28, "direction": "right"}, "The position must be a whole number from 0 to 27."),
    ({"type": "pick", "index": "3", "direction": "right"}, "The position must be a whole number from 0 to 27."),
    ({"type": "pick", "index": 3, "direction": "up"}, 'The direction must be "left" or "right".'),
    ({"type": "pick", "index": 3}, 'Point at a tile: "index" from 0 to 27 and "direction" "left" or "right".'),
    ({"type": "reveal", "show": True}, "It is time for the leader to point at a tile of the row."),
])
def test_stage_5_bad_picks_are_refused(action, message):
    assert refused(final_state(2, ROW), 0, action) == message


def test_a_reveal_must_say_true_or_false():
    state, _ = ENGINE.apply(final_state(2, ROW), 0, {"type": "pick", "index": 0, "direction": "right"})
    assert refused(state, 1, {"type": "reveal", "show": "yes"}).startswith('Say "show": true')


# -- refusals ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seat", "action", "message"), [
    (1, {"type": "bid", "tricks": 1}, "It is not your turn."),
    (0, {"type": "bid", "tricks": 3}, "Bid from 0 to 2 tricks."),
    (0, {"type": "bid", "tricks": -1}, "Bid from 0 to 2 tricks."),
    (0, {"type": "bid", "tricks": True}, "A bid must be a whole number."),
    (0, {"type": "bid"}, 'Say how many tricks you bid: "tricks".'),
    (0, {"type": "play", "tile": "1-1"}, "It is time to bid."),
    (0, {"type": "dance"}, "Unknown kind of move 'dance': expected bid, play, pick or reveal."),
    (0, {"type": "bid", "tricks": 1, "tile": "1-1"}, "Unexpected field(s) in a bid move: tile."),
    (0, {"type": "bid", "tricks": 1, "auto": "yes"}, '"auto" must be true or false.'),
    (0, "bid", 'A move must be an object with a "type".'),
    (5, {"type": "bid", "tricks": 1}, "There is no seat 5 at this table."),
])
def test_bad_bids_are_refused_and_change_nothing(seat, action, message):
    state = scripted([["1-1", "2-3"], ["0-4", "6-6"]], starter=0)
    assert refused(state, seat, action) == message


@pytest.mark.parametrize(("action", "message"), [
    ({"type": "play", "tile": "6-6"}, "You do not hold 6-6."),
    ({"type": "play", "tile": "6-0"}, 'Name a tile to play, such as "0-5"; \'6-0\' is not a tile.'),
    ({"type": "play"}, 'Name a tile to play, such as "0-5"; None is not a tile.'),
    ({"type": "bid", "tricks": 0}, "It is time to play a tile."),
])
def test_bad_plays_are_refused(action, message):
    state = scripted([["1-1", "2-3"], ["0-4", "6-6"]], starter=0, bids=[1, 1])
    assert refused(state, 0, action) == message


def test_a_finished_game_refuses_moves_and_forfeits():
    state = ENGINE.forfeit(started(2), 1)
    assert refused(state, 0, {"type": "bid", "tricks": 0}) == "The game is over."
    with pytest.raises(IllegalMove):
        ENGINE.forfeit(state, 0)


# -- clocks and automatic moves ---------------------------------------------------------------------


def test_one_player_is_on_the_clock_while_bidding_and_playing_and_time_outs_play_automatically():
    state = scripted([["1-1", "2-3"], ["0-4", "6-6"]], starter=1)
    assert ENGINE.timers(state) == [{"seat": 1, "expiry": "auto"}]
    assert ENGINE.auto_action(state, 1) == {"type": "bid", "tricks": 0}
    with pytest.raises(IllegalMove):
        ENGINE.auto_action(state, 0)
    state = scripted([["1-1", "2-3"], ["0-4", "6-6"]], starter=0, bids=[1, 1])
    state, _ = play(state, 0, "2-3")
    assert ENGINE.auto_action(state, 1) == {"type": "play", "tile": "6-6"}  # weaker than any trump
    state = scripted([["1-1", "2-3"], ["0-4", "6-6"]], starter=0, bids=[1, 1])
    state, _ = play(state, 0, "1-1")
    assert ENGINE.auto_action(state, 1) == {"type": "play", "tile": "0-4"}  # the only legal tile


def test_an_automatic_move_is_marked_on_the_sheet():
    state = scripted([["1-1"], ["6-6"]], starter=0)
    state, events = ENGINE.apply(state, 0, {"type": "bid", "tricks": 0, "auto": True})
    assert events[0]["auto"] is True
    cells = ENGINE.sheet(state)["stages"][0]["rows"][0]["cells"]
    assert [cell["auto"] for cell in cells] == [True, False]


# -- the view, the sheet, the outcome ------------------------------------------------------------------


def test_the_view_shows_the_own_hand_strongest_first_and_no_other():
    hands = [["2-3", "0-4", "1-1", "0-0", "6-6", "0-6", "3-4"], ["1-2", "1-3", "1-4", "1-5", "1-6", "2-2", "2-4"]]
    state = scripted(hands, starter=0, options={"sevens": 1})
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["1-1", "0-0", "0-6", "0-4", "6-6", "3-4", "2-3"]
    assert tile_codes_in({**view, "draw": None}) == set(hands[0])
    assert ENGINE.view(state, None)["hand"] is None and ENGINE.view(state, None)["legal_actions"] == []
    with pytest.raises(ValueError):
        ENGINE.view(state, 2)


def test_the_sheet_has_one_row_per_deal_under_stage_headings_with_running_totals():
    hands = [["1-1", "2-3"], ["0-4", "6-6"], ["0-0", "1-5"]]
    state = scripted(hands, starter=0, bids=[1, 1, 0])
    state, _ = play_trick(state, (0, "1-1"), (1, "0-4"), (2, "0-0"), (0, "2-3"), (1, "6-6"), (2, "1-5"))
    sheet = ENGINE.sheet(state)
    assert [(stage["stage"], stage["kind"], len(stage["rows"])) for stage in sheet["stages"]] == [
        (1, "bidding", 16), (2, "blind", 1), (3, "grab", 1), (4, "misere", 1)]
    row = sheet["stages"][0]["rows"][1]  # deal 2: two tiles each
    assert row["deal"] == 2 and row["complete"]
    assert [(cell["bid"], cell["tricks"], cell["points"], cell["total"]) for cell in row["cells"]] == [
        (1, 1, 10, 10), (1, 1, 10, 10), (0, 0, 5, 5)]
    assert sheet["totals"] == [10, 10, 5] and sheet["ranking"] == [0, 1, 2]
    assert not sheet["stages"][0]["rows"][2]["complete"]


def test_the_sheet_shows_no_bid_on_grab_and_misere_deals():
    state = advance(started(2, {"sevens": 0, "blind_deals": 0}, seed=3), lambda s: False)
    rows = {stage["kind"]: stage["rows"] for stage in ENGINE.sheet(state)["stages"]}
    assert all(cell["bid"] is None for row in rows["grab"] + rows["misere"] for cell in row["cells"])
    assert all(cell["bid"] is not None for row in rows["bidding"] for cell in row["cells"])
    last = rows["misere"][-1]["cells"]
    assert [cell["total"] for cell in last] == ENGINE.outcome(state)["scores"]


def test_equal_totals_share_the_place_and_a_forfeit_places_the_player_last():
    state = scripted([["1-1"], ["6-6"], ["5-5"]], starter=0)
    state, _ = bid_all(state, {0: 1, 1: 0, 2: 0})
    state, _ = play_trick(state, (0, "1-1"), (1, "6-6"), (2, "5-5"))
    outcome = ENGINE.outcome(state)
    assert outcome["scores"] == [10, 5, 5] and outcome["places"] == [1, 2, 2] and outcome["winners"] == [0]
    forfeited = ENGINE.forfeit(state, 0)
    outcome = ENGINE.outcome(forfeited)
    assert outcome["places"] == [3, 1, 1] and outcome["winners"] == [1, 2] and outcome["forfeited"] == 0
    assert ENGINE.sheet(forfeited)["ranking"][-1] == 0


def test_apply_leaves_the_given_state_untouched():
    state = scripted([["1-1", "2-3"], ["0-4", "6-6"]], starter=0)
    before = json.dumps(state, sort_keys=True)
    ENGINE.apply(state, 0, {"type": "bid", "tricks": 1})
    assert json.dumps(state, sort_keys=True) == before


def test_the_draw_is_given_as_opening_events_round_by_round():
    state = started(4, seed=4)
    assert ENGINE.opening_events(state) == [
        {"type": "draw", "round": 1, "draws": state["draw"][0]},
        {"type": "draw", "round": 2, "draws": [{"seat": 2, "tile": "0-3"}, {"seat": 3, "tile": "4-4"}]},
        {"type": "first_starter", "seat": 3},
    ]


@pytest.mark.parametrize(("players", "options"), [
    (5, {}), (1, {}), (4, {"sevens": 11}), (3, {"final_stage": "yes"}), (2, {"jokers": 2}),
])
def test_a_game_cannot_start_with_other_numbers_of_players_or_invalid_options(players, options):
    with pytest.raises(InvalidSetup):
        ENGINE.start(players, options, seed=1)


def test_options_get_their_defaults_and_fit_every_number_of_players():
    options = ENGINE.validate_options({"final_stage": True})
    assert options == {"sevens": 4, "blind_deals": 1, "grab_deals": 1, "misere_deals": 1, "final_stage": True}
    assert all(ENGINE.check_options_for_players(options, players) == options for players in (2, 3, 4))
    assert ENGINE.start(2, {}, seed=1)["options"] == ENGINE.default_options()
