"""Domino Poker's rules as pure functions: tiles, strength, following, scoring, the draw,
stage 5's counting, options and the deal schedule. Expected values are worked out by hand."""

from __future__ import annotations

import pytest

from gameplay.engine.core import InvalidSetup
from gameplay.engine.domino_poker_rules import (
    allowed_tiles,
    bid_points,
    deal_points,
    deal_schedule,
    final_leader,
    final_points,
    final_positions,
    first_player_draw,
    is_trump,
    stage_schedule,
    trick_winner,
    validate_options,
    weakest,
)
from gameplay.engine.dominoes import TILES, halves, is_tile, make_set, pips, tile

# -- the tiles ---------------------------------------------------------------------------


def test_the_double_six_set_has_28_tiles_written_smaller_half_first():
    tiles = make_set()
    assert len(tiles) == len(set(tiles)) == 28
    assert tiles[:8] == ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6", "1-1"]
    assert tiles[-1] == "6-6"
    assert all(halves(code)[0] <= halves(code)[1] for code in tiles)
    assert sum(pips(code) for code in tiles) == 168
    assert tuple(tiles) == TILES


def test_tile_notation():
    assert tile(5, 0) == "0-5" and tile(3, 3) == "3-3"
    assert pips("2-5") == 7 and pips("0-0") == 0
    assert is_tile("0-5") and not is_tile("5-0") and not is_tile("0-7") and not is_tile(5) and not is_tile("")
    with pytest.raises(ValueError):
        tile(3, 7)


def test_trumps_are_the_tiles_with_a_blank_half_and_the_poker_is_not_one():
    assert [code for code in make_set() if is_trump(code)] == ["0-0", "0-1", "0-2", "0-3", "0-4", "0-5", "0-6"]
    assert not is_trump("1-1")


# -- strength -------------------------------------------------------------------------------


@pytest.mark.parametrize(("trick", "winner"), [
    (["0-0", "1-1"], 1),  # the poker beats everything, 0-0 included
    (["1-1", "0-0", "6-6"], 0),
    (["0-6", "0-0"], 1),  # 0-0 is the highest trump
    (["0-2", "0-5", "0-3"], 1),  # other trumps by pips
    (["6-6", "0-1"], 1),  # the lowest trump beats the highest ordinary tile
    (["5-6", "0-1", "6-6"], 1),
    (["2-3", "4-5", "1-6"], 1),  # ordinary tiles by pips: 9 beats 7
    (["3-4", "2-5", "1-6"], 0),  # equal pips: the earlier one wins
    (["1-2", "3-4", "2-5", "1-6"], 1),  # 3-4 (7) leads the 7s and beats the led 1-2 (3)
    (["1-3", "2-2"], 0),  # 4 and 4: the led tile
    (["1-1", "6-6", "5-6", "4-6"], 0),
])
def test_the_strongest_tile_wins_the_trick(trick, winner):
    assert trick_winner(trick) == winner


def test_an_empty_trick_has_no_winner():
    with pytest.raises(ValueError):
        trick_winner([])


# -- following ------------------------------------------------------------------------------


def test_the_leader_may_lead_any_tile():
    hand = ["1-1", "0-3", "6-6"]
    assert allowed_tiles(hand, None) == hand


def test_trump_led_a_player_with_trumps_must_play_a_trump_any_one():
    assert allowed_tiles(["0-2", "6-6", "0-5", "1-1"], "0-3") == ["0-2", "0-5"]
    assert allowed_tiles(["0-2", "6-6"], "0-0") == ["0-2"]


def test_trump_led_a_player_without_trumps_may_play_anything_the_poker_too():
    assert allowed_tiles(["1-1", "6-6", "2-3"], "0-4") == ["1-1", "6-6", "2-3"]


def test_poker_led_a_player_with_trumps_must_play_the_strongest_one():
    assert allowed_tiles(["0-2", "6-6", "0-5"], "1-1") == ["0-5"]
    assert allowed_tiles(["0-6", "0-0", "3-4"], "1-1") == ["0-0"]  # 0-0 is stronger than 0-6
    assert allowed_tiles(["0-1", "5-5"], "1-1") == ["0-1"]


def test_poker_led_a_player_without_trumps_may_play_anything():
    assert allowed_tiles(["2-2", "6-6", "1-5"], "1-1") == ["2-2", "6-6", "1-5"]


def test_an_ordinary_tile_led_allows_anything_trumps_included():
    assert allowed_tiles(["0-2", "6-6", "1-1"], "4-5") == ["0-2", "6-6", "1-1"]


def test_the_weakest_tile_is_the_lowest_ordinary_then_trumps_from_the_lowest_then_the_poker():
    assert weakest(["0-0", "6-6", "1-2"]) == "1-2"
    assert weakest(["0-0", "0-1", "1-1"]) == "0-1"
    assert weakest(["0-0", "1-1"]) == "0-0"
    assert weakest(["1-1"]) == "1-1"
    assert weakest(["2-5", "3-4", "1-6"]) == "1-6"  # equal pips: the earlier tile of the set


# -- scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("bid", "tricks", "points"), [
    (0, 0, 5),  # pass made
    (1, 1, 10), (2, 2, 20), (7, 7, 70),  # bid made: 10 × bid
    (3, 1, -20), (2, 0, -20), (1, 0, -10),  # under: −10 per missing trick
    (0, 2, 2), (1, 3, 3), (2, 7, 7),  # over: the tricks taken
])
def test_bidding_deal_scores(bid, tricks, points):
    assert bid_points(bid, tricks) == points
    assert deal_points("bidding", bid, tricks) == points
    assert deal_points("blind", bid, tricks) == points


def test_grab_scores_ten_per_trick_and_misere_minus_ten_per_trick():
    assert [deal_points("grab", None, tricks) for tricks in (0, 1, 3)] == [0, 10, 30]
    assert [deal_points("misere", None, tricks) for tricks in (0, 1, 3)] == [0, -10, -30]


def test_a_bidding_deal_needs_a_bid():
    with pytest.raises(ValueError):
        deal_points("bidding", None, 1)


@pytest.mark.parametrize(("shown", "points"), [
    # two players
    (["5-6", "0-2"], [30, -30]),
    (["0-2", None], [30, 0]),  # the only shower wins whatever the tile
    ([None, None], [0, 0]),
    (["3-4", "2-5"], [0, 0]),  # equal highest
    # three players
    (["0-1", None, None], [30, 0, 0]),
    (["4-5", "3-6", "1-2"], [0, 0, -30]),  # 9, 9 equal highest; 3 below
    (["6-6", "3-6", None], [30, -30, 0]),
    (["2-2", "1-2", "3-3"], [-30, -30, 30]),
    # four players
    ([None, None, None, None], [0, 0, 0, 0]),
    (["6-6", "0-3", None, "1-2"], [30, -30, 0, -30]),
    (["1-1", "0-2", "0-1", "5-6"], [-30, -30, -30, 30]),
    (["4-6", None, "5-5", None], [0, 0, 0, 0]),
])
def test_stage_5_scores(shown, points):
    assert final_points(shown) == points


# -- who starts ---------------------------------------------------------------------------


def test_the_draw_with_a_tie_draws_again_among_the_tied_only():
    # Seed 4, four players: 2-2 (4), 1-2 (3), 4-5 (9), 3-6 (9): seats 2 and 3 tie on 9 and draw
    # again from a fresh shuffle: 0-3 (3) and 4-4 (8); seat 3 starts.
    assert first_player_draw(4, 4) == [
        [{"seat": 0, "tile": "2-2"}, {"seat": 1, "tile": "1-2"}, {"seat": 2, "tile": "4-5"}, {"seat": 3, "tile": "3-6"}],
        [{"seat": 2, "tile": "0-3"}, {"seat": 3, "tile": "4-4"}],
    ]


def test_the_draw_of_three_players_all_tied_draws_again_with_all_three():
    # Seed 40: 2-6, 3-5 and 4-4 all have 8 pips; then 3-3 (6), 1-4 (5), 4-4 (8): seat 2.
    draw = first_player_draw(40, 3)
    assert draw == [
        [{"seat": 0, "tile": "2-6"}, {"seat": 1, "tile": "3-5"}, {"seat": 2, "tile": "4-4"}],
        [{"seat": 0, "tile": "3-3"}, {"seat": 1, "tile": "1-4"}, {"seat": 2, "tile": "4-4"}],
    ]


def test_the_draw_without_a_tie_has_one_round_and_the_most_pips_starts():
    draw = first_player_draw(1, 4)
    assert len(draw) == 1
    best = max(draw[0], key=lambda item: pips(item["tile"]))
    assert sum(pips(item["tile"]) == pips(best["tile"]) for item in draw[0]) == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_draw_ends_with_one_player_on_the_most_pips(players):
    for seed in range(200):
        draw = first_player_draw(seed, players)
        last = [pips(item["tile"]) for item in draw[-1]]
        assert last.count(max(last)) == 1
        for earlier, later in zip(draw, draw[1:], strict=False):
            most = max(pips(item["tile"]) for item in earlier)
            assert [item["seat"] for item in later] == [item["seat"] for item in earlier
                                                         if pips(item["tile"]) == most]


# -- stage 5 ---------------------------------------------------------------------------------


def test_stage_5_counts_to_the_right_past_the_turned_tile():
    # Tile at 10 shows 5 pips: skip 11..15, deal 16, 17, 18, 19.
    assert final_positions(10, "right", 5, 4) == [16, 17, 18, 19]


def test_stage_5_counts_to_the_left_past_the_turned_tile():
    assert final_positions(10, "left", 5, 4) == [4, 3, 2, 1]


def test_stage_5_counts_round_the_circle_in_both_directions():
    assert final_positions(25, "right", 6, 3) == [4, 5, 6]  # 25 + 7 = 32 → 4
    assert final_positions(2, "left", 12, 4) == [17, 16, 15, 14]  # 2 − 13 = −11 → 17
    assert final_positions(27, "right", 0, 2) == [0, 1]  # a blank tile: no tile skipped
    assert final_positions(0, "left", 0, 2) == [27, 26]


def test_stage_5_leader_is_the_highest_total_ties_clockwise_from_the_starter():
    assert final_leader([10, 30, 5], 0) == 1
    assert final_leader([10, 30, 30, 5], 2) == 2
    assert final_leader([10, 30, 30, 5], 3) == 1
    assert final_leader([0, 0], 1) == 1


# -- options and the schedule ---------------------------------------------------------------------


def test_default_options():
    assert validate_options({}) == {"sevens": 4, "blind_deals": 1, "grab_deals": 1, "misere_deals": 1,
                                    "final_stage": False}
    assert validate_options(None) == validate_options({})


def test_the_default_schedule_has_19_deals_in_four_stages():
    deals = deal_schedule(4, {})
    assert [deal["tiles"] for deal in deals] == [1, 2, 3, 4, 5, 6, 7, 7, 7, 7, 6, 5, 4, 3, 2, 1, 7, 7, 7]
    assert [deal["stage"] for deal in deals] == [1] * 16 + [2, 3, 4]
    assert [deal["kind"] for deal in deals[-3:]] == ["blind", "grab", "misere"]
    assert [deal["deal"] for deal in deals] == list(range(1, 20))
    assert [deal["bidding"] for deal in deals] == [True] * 17 + [False, False]
    assert [deal["blind"] for deal in deals] == [False] * 16 + [True, False, False]
    assert deals[0] == {"deal": 1, "stage": 1, "kind": "bidding", "tiles": 1, "undealt": 24, "bidding": True,
                        "blind": False}


def test_the_schedule_follows_the_tables_counts():
    options = {"sevens": 0, "blind_deals": 2, "grab_deals": 0, "misere_deals": 3, "final_stage": True}
    stages = stage_schedule(2, options)
    assert [(stage["stage"], stage["kind"], [deal["tiles"] for deal in stage["deals"]]) for stage in stages] == [
        (1, "bidding", [1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1]),
        (2, "blind", [7, 7]),
        (4, "misere", [7, 7, 7]),
        (5, "final", [1]),
    ]
    final = stages[-1]["deals"][0]
    assert final["deal"] == 18 and final["undealt"] == 28 - 1 - 2 and not final["bidding"]


def test_undealt_tiles_by_number_of_players():
    assert [deal["undealt"] for deal in deal_schedule(2, {}) if deal["tiles"] == 7][:1] == [14]
    assert [deal["undealt"] for deal in deal_schedule(3, {}) if deal["tiles"] == 7][:1] == [7]
    assert [deal["undealt"] for deal in deal_schedule(4, {}) if deal["tiles"] == 7][:1] == [0]


@pytest.mark.parametrize(("options", "message"), [
    ({"sevens": 11}, "seven-tile deals of stage 1 must be a whole number from 0 to 10"),
    ({"sevens": -1}, "from 0 to 10"),
    ({"sevens": True}, "from 0 to 10"),
    ({"sevens": "4"}, "from 0 to 10"),
    ({"blind_deals": 5}, "blind deals (stage 2) must be a whole number from 0 to 4"),
    ({"grab_deals": 2.5}, "grab deals (stage 3)"),
    ({"misere_deals": None}, "misère deals (stage 4)"),
    ({"final_stage": 1}, "true or false"),
    ({"final": True}, "Unknown option(s): final"),
])
def test_invalid_options_are_refused_with_a_clear_message(options, message):
    with pytest.raises(InvalidSetup) as refusal:
        validate_options(options)
    assert message in refusal.value.message


def test_options_must_be_an_object():
    with pytest.raises(InvalidSetup):
        validate_options([("sevens", 4)])


@pytest.mark.parametrize("players", [1, 5, 6, True, "4"])
def test_the_schedule_refuses_other_numbers_of_players(players):
    with pytest.raises(InvalidSetup):
        deal_schedule(players, {})
