"""League tie-breaks (issue 13): each key of the chain, on worked examples
where it separates entries that every earlier key leaves tied, and the
direct-encounter mini-table against its definition on any table.

Entries are called A, B, C... with ids 1, 2, 3...
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

from hypothesis import given, settings

from scoresheets.standings import DEFAULT_CHAIN, Entry, GameResult, PointsRule, lot_value, standings
from tests.scoresheets.standings_cases import (
    CYCLE,
    FOUR_PLAYER_GAMES,
    A,
    B,
    C,
    D,
    by_id,
    entries,
    game,
    reference_points,
    tables,
)


def double_round_robin(first: dict, second: dict) -> list[GameResult]:
    """Two-player games from {(x, y): winner} for each round."""
    games = []
    for round_winners in (first, second):
        for (x, y), winner in round_winners.items():
            games.append(game(len(games) + 1, winner, y if winner == x else x))
    return games


# ---------------------------------------------------------------- Sonneborn-Berger


def test_sonneborn_berger_reproduces_the_published_double_round_robin_example():
    # Sensei's Library, "Sonneborn-Berger" (https://senseis.xmp.net/?SonnebornBerger), also
    # fiveinline.com/sbps.html example 1: four players, two rounds, no draws.
    #         round 1   round 2   wins   beaten      S-B
    #     A   - 1 1 1   - 0 1 0    4     B C C D     4+3+3+1 = 11
    #     B   0 - 1 1   1 - 0 1    4     A C D D     4+3+1+1 =  9
    #     C   0 0 - 1   0 1 - 1    3     B D D       4+1+1   =  6
    #     D   0 0 0 -   1 0 0 -    1     A           4       =  4
    games = double_round_robin(
        {(A, B): A, (A, C): A, (A, D): A, (B, C): B, (B, D): B, (C, D): C},
        {(A, B): B, (A, C): A, (A, D): D, (B, C): C, (B, D): B, (C, D): C},
    )
    rows = standings(entries(A, B, C, D), games, dict.fromkeys((A, B, C, D), 6), DEFAULT_CHAIN, "s")
    assert [(row.entry_id, row.points, row.tiebreaks["sonneborn_berger"]) for row in rows] == [
        (A, 4, 11), (B, 4, 9), (C, 3, 6), (D, 1, 4)]
    # A and B have 4 points and 4 wins each: Sonneborn-Berger puts A first
    assert rows[0].tiebreaks["wins"] == rows[1].tiebreaks["wins"] == 4
    assert (rows[0].rank, rows[1].rank, rows[1].separated_by) == (1, 2, "sonneborn_berger")


def test_sonneborn_berger_ties_in_the_published_example_where_the_direct_games_go_round():
    # fiveinline.com/sbps.html example 2: A beat B twice, B beat D twice, D beat A twice, and
    # each of them beat C twice: 4 points and S-B 4+4+0+0 = 8 each. The mini-table of A, B, D
    # goes round as well (2 each), no game scores: the lot decides.
    games = double_round_robin(
        {(A, B): A, (A, C): A, (A, D): D, (B, C): B, (B, D): B, (C, D): D},
        {(A, B): A, (A, C): A, (A, D): D, (B, C): B, (B, D): B, (C, D): D},
    )
    rows = standings(entries(A, B, C, D), games, dict.fromkeys((A, B, C, D), 6), DEFAULT_CHAIN, "s")
    top = rows[:3]
    assert {row.entry_id for row in top} == {A, B, D}
    assert {(row.points, row.tiebreaks["wins"], row.tiebreaks["sonneborn_berger"], row.tiebreaks["direct"])
            for row in top} == {(4, 4, 8, 2)}
    assert [row.separated_by for row in top] == [None, "lot", "lot"]
    assert [row.rank for row in rows] == [1, 2, 3, 4]


def test_sonneborn_berger_weighs_every_opponent_of_a_multiplayer_game():
    rows = by_id(standings(entries(A, B, C, D), FOUR_PLAYER_GAMES, dict.fromkeys((A, B, C, D), 3)))
    # Final points: A 11/6, B 10/6, C 8/6, D 7/6 (see test_standings).
    # 1 x points of those finished behind, 1/2 x points of those level, per game:
    # A: G1 ahead of B, C, D: 25/6;  G2 last: 0;  G3 level with B: 5/6, ahead of C, D: 15/6  = 45/6
    # B: G1 level with C: 4/6, ahead of D: 7/6;  G2 ahead of A: 11/6;  G3 level with A: 11/12,
    #    ahead of C, D: 15/6  = 85/12
    # C: G1 level with B: 5/6, ahead of D: 7/6;  G2 ahead of B, A: 21/6;  G3 level with D: 7/12  = 73/12
    # D: G1 last: 0;  G2 ahead of all: 29/6;  G3 level with C: 4/6  = 33/6
    assert [rows[i].tiebreaks["sonneborn_berger"] for i in (A, B, C, D)] == [45 / 6, 85 / 12, 73 / 12, 33 / 6]


def test_sonneborn_berger_counts_half_the_points_of_a_drawn_opponent():
    # A draws B and beats C; B beats C: A 3/2, B 3/2, C 0.  S-B: A = 1/2 x 3/2 + 0 = 3/4; B the same.
    games = [game(1, (A, B)), game(2, A, C), game(3, B, C)]
    rows = standings(entries(A, B, C), games, dict.fromkeys((A, B, C), 2), ["sonneborn_berger"])
    assert [(row.entry_id, row.rank, row.tiebreaks["sonneborn_berger"]) for row in rows] == [
        (A, 1, 0.75), (B, 1, 0.75), (C, 3, 0.0)]


# ---------------------------------------------------------------- wins


def test_more_first_places_rank_a_player_above_one_with_the_same_points():
    # A beat C and lost to D: 1 point, 1 win.  B drew C and D: 1 point, no win.
    games = [game(1, A, C), game(2, D, A), game(3, (B, C)), game(4, (B, D))]
    rows = standings(entries(A, B, C, D), games, dict.fromkeys((A, B, C, D), 2), DEFAULT_CHAIN, "s")
    # D = 1 + 1/2 = 3/2;  A 1;  B 1/2 + 1/2 = 1;  C 0 + 1/2 = 1/2
    assert [(row.entry_id, row.points, row.tiebreaks["wins"]) for row in rows] == [
        (D, 1.5, 1), (A, 1.0, 1), (B, 1.0, 0), (C, 0.5, 0)]
    assert rows[2].separated_by == "wins"


# ---------------------------------------------------------------- direct encounters


def test_the_direct_game_separates_players_level_on_points_wins_and_sonneborn_berger():
    games = [game(1, A, C), game(2, D, A), game(3, A, C), game(4, D, B), game(5, C, A)]
    rows = standings(entries(A, B, C, D), games, dict.fromkeys((A, B, C, D), 4), DEFAULT_CHAIN, "s")
    # points: A beat C twice = 2, D beat A and B = 2, C beat A = 1, B 0;  wins: A 2, D 2
    # S-B: A = C + C = 1 + 1 = 2;  D = A + B = 2 + 0 = 2
    # direct between A and D: D won their only game: D 1, A 0
    assert [(row.entry_id, row.points, row.tiebreaks["wins"], row.tiebreaks["sonneborn_berger"],
             row.tiebreaks["direct"]) for row in rows[:2]] == [(D, 2, 2, 2, 1), (A, 2, 2, 2, 0)]
    assert rows[1].separated_by == "direct"
    # C and B were alone on their points: no mini-table
    assert rows[2].tiebreaks["direct"] is None and rows[3].tiebreaks["direct"] is None


def test_the_mini_table_of_three_tied_players_counts_only_their_order_among_themselves():
    games = [
        game(1, C, A, B),       # C 1, A 1/2, B 0
        game(2, A, (D, B)),     # A 1;  D, B share 2nd-3rd: (1/2 + 0) / 2 = 1/4
        game(3, D, (A, C)),     # D 1;  A, C 1/4
        game(4, (C, B, D)),     # all share: (1 + 1/2 + 0) / 3 = 1/2 each
    ]
    rows = standings(entries(A, B, C, D), games, dict.fromkeys((A, B, C, D), 3), ["direct", "lot"], "s")
    # points: A = 1/2 + 1 + 1/4 = 7/4;  C = 1 + 1/4 + 1/2 = 7/4;  D = 1/4 + 1 + 1/2 = 7/4;
    #         B = 0 + 1/4 + 1/2 = 3/4
    # mini-table of A, C, D (B left out of every game; the rule for as many of them as played):
    #   G1: C ahead of A (two present): C 1, A 0
    #   G2: A ahead of D: A 1, D 0
    #   G3: D first, A and C share 2nd-3rd of three: D 1, A, C (1/2 + 0) / 2 = 1/4
    #   G4: C and D level: 1/2 each
    #   A = 0 + 1 + 1/4 = 5/4;  C = 1 + 1/4 + 1/2 = 7/4;  D = 0 + 1 + 1/2 = 3/2
    assert [(row.entry_id, row.points, row.tiebreaks["direct"], row.separated_by) for row in rows] == [
        (C, 1.75, 1.75, None), (D, 1.75, 1.5, "direct"), (A, 1.75, 1.25, "direct"), (B, 0.75, None, "points")]


def test_the_mini_table_uses_the_leagues_points_list_for_the_players_present():
    # points (3, 1, 0):  G1: A 3, C 1, B 0;  G2: B 3, C 1, A 0;  G3: A 3, B 1;  G4: B 3, A 1;
    # G5: C 3, A and B share 2nd-3rd: (1 + 0) / 2 = 1/2.  A = 3 + 0 + 3 + 1 + 1/2 = 15/2 = B;  C = 5.
    # Mini-table of A and B, two present in every game, so the first two values (3, 1):
    # G1 A 3, B 1;  G2 B 3, A 1;  G3 A 3, B 1;  G4 B 3, A 1;  G5 level: (3 + 1) / 2 = 2 each  ->  10 each.
    games = [game(1, A, C, B), game(2, B, C, A), game(3, A, B), game(4, B, A), game(5, C, (A, B))]
    rows = standings(entries(A, B, C), games, dict.fromkeys((A, B, C), 5), ["direct"], "s",
                     PointsRule((3, 1, 0)))
    assert [(row.entry_id, row.points, row.tiebreaks["direct"], row.rank) for row in rows] == [
        (A, 7.5, 10.0, 1), (B, 7.5, 10.0, 1), (C, 5.0, None, 3)]


# ---------------------------------------------------------------- game score, lot


def test_the_game_score_separates_players_level_on_everything_before_it():
    # The cycle: A beat B, B beat C, C beat A: 1 point, 1 win, S-B 1, mini-table 1 each.
    games = [
        GameResult(1, {A: 1, B: 2}, {A: 5, B: 20}),
        GameResult(2, {B: 1, C: 2}, {B: 10, C: 15}),
        GameResult(3, {C: 1, A: 2}, {C: 5, A: 5}),
    ]
    rows = standings(entries(A, B, C), games, dict.fromkeys((A, B, C), 2), DEFAULT_CHAIN, "s")
    # game scores: A 5 + 5 = 10;  B 20 + 10 = 30;  C 15 + 5 = 20
    assert [(row.entry_id, row.tiebreaks["game_score"], row.separated_by) for row in rows] == [
        (B, 30, None), (C, 20, "game_score"), (A, 10, "game_score")]
    assert {(row.points, row.tiebreaks["wins"], row.tiebreaks["sonneborn_berger"], row.tiebreaks["direct"])
            for row in rows} == {(1, 1, 1, 1)}


def test_game_scores_are_added_as_written():
    # 0.1 + 0.2 is 0.3 here (in binary floats it is 0.30000000000000004)
    games = [GameResult(1, {A: 1, B: 1}, {A: 0.1, B: 0.3}), GameResult(2, {A: 1, B: 1}, {A: 0.2, B: 0})]
    rows = standings(entries(A, B), games, {A: 2, B: 2}, ["game_score"])
    assert [row.rank for row in rows] == [1, 1]


def test_the_lot_orders_by_the_sha256_of_the_seed_and_the_entry_ascending():
    rows = standings(entries(A, B, C), CYCLE, dict.fromkeys((A, B, C), 2), DEFAULT_CHAIN, "season-7")
    draws = {i: hashlib.sha256(f"season-7:{i}".encode()).hexdigest() for i in (A, B, C)}
    assert [row.entry_id for row in rows] == sorted(draws, key=draws.get)
    assert [row.tiebreaks["lot"] for row in rows] == sorted(draws.values())
    assert [row.separated_by for row in rows] == [None, "lot", "lot"]
    assert [row.rank for row in rows] == [1, 2, 3]
    assert lot_value("season-7", A) == draws[A]


def test_another_seed_draws_another_lot():
    orders = {tuple(row.entry_id for row in standings(entries(A, B, C), CYCLE, dict.fromkeys((A, B, C), 2),
                                                        ["lot"], f"season-{n}")) for n in range(10)}
    assert len(orders) > 1


# ---------------------------------------------------------------- last seat, rating


def test_results_from_the_last_seat_then_the_rating_break_the_cycle():
    table_entries = [Entry(A, "A", 1500), Entry(B, "B", 1600), Entry(C, "C", 1500)]
    games = [game(1, A, B, last=A), game(2, B, C, last=C), game(3, C, A, last=A)]
    rows = standings(table_entries, games, dict.fromkeys((A, B, C), 2), ["last_seat_results", "rating"])
    # from the last seat: A won G1 (1) and lost G3 (0) = 1;  C lost G2 = 0;  B never sat there = 0
    # B and C: ratings 1600 and 1500
    assert [(row.entry_id, row.tiebreaks["last_seat_results"], row.tiebreaks["rating"], row.separated_by)
            for row in rows] == [(A, 1, 1500, None), (B, 0, 1600, "last_seat_results"), (C, 0, 1500, "rating")]


def test_the_chain_order_decides_which_tie_break_counts():
    # A beat C and lost to D (1 win); B drew C and D (no win) but scored more.
    games = [GameResult(1, {A: 1, C: 2}, {A: 0}), GameResult(2, {D: 1, A: 2}, {A: 0}),
             GameResult(3, {B: 1, C: 1}, {B: 10}), GameResult(4, {B: 1, D: 1}, {B: 10})]
    schedule = dict.fromkeys((A, B, C, D), 2)
    first_two = {chain: [row.entry_id for row in standings(entries(A, B, C, D), games, schedule, chain)][1:3]
                 for chain in (("wins", "game_score"), ("game_score", "wins"))}
    assert first_two == {("wins", "game_score"): [A, B], ("game_score", "wins"): [B, A]}


# ---------------------------------------------------------------- the mini-table on any table


@settings(max_examples=200, deadline=None)
@given(tables())
def test_any_tied_group_gets_the_mini_table_of_its_own_games(table):
    table_entries, games, schedule, _, rule, _ = table
    rows = standings(table_entries, games, schedule, ["wins", "direct"], "seed", rule)
    groups: dict[tuple, set[int]] = {}
    for row in rows:
        groups.setdefault((row.points, row.tiebreaks["wins"]), set()).add(row.entry_id)
    for row in rows:
        group = groups[(row.points, row.tiebreaks["wins"])]
        if len(group) == 1:
            assert row.tiebreaks["direct"] is None
            continue
        among = [GameResult(g.game_id, {e: p for e, p in g.places.items() if e in group})
                 for g in games if len(group & set(g.places)) >= 2]
        assert row.tiebreaks["direct"] == float(reference_points(among, rule).get(row.entry_id, Fraction(0)))
