"""League standings (issue 13): league points from the final places, ranks,
games played and left, withdrawal and annulment, bad input, and properties
that hold for any table. The tie-breaks have their own file
(test_tiebreaks.py).

Pure: no database. Entries are called A, B, C... with ids 1, 2, 3...
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoresheets.standings import DEFAULT_CHAIN, TIEBREAKS, Entry, GameResult, PointsRule, standings, validate_chain
from tests.scoresheets.standings_cases import (
    CYCLE,
    FOUR_PLAYER_GAMES,
    A,
    B,
    C,
    D,
    E,
    by_id,
    entries,
    game,
    reference_points,
    reference_sonneborn_berger,
    tables,
)

# ---------------------------------------------------------------- points rule


def test_a_two_player_game_gives_one_point_for_a_win_and_none_for_a_loss():
    assert PointsRule().game_points({A: 1, B: 2}) == {A: 1, B: 0}


def test_a_two_player_draw_gives_each_player_half_a_point():
    assert PointsRule().game_points({A: 1, B: 1}) == {A: Fraction(1, 2), B: Fraction(1, 2)}


def test_a_four_player_game_gives_n_minus_place_over_n_minus_one():
    # (4 - p) / 3 for p = 1..4: 3/3, 2/3, 1/3, 0
    assert PointsRule().game_points({A: 1, B: 2, C: 3, D: 4}) == {
        A: 1, B: Fraction(2, 3), C: Fraction(1, 3), D: 0}


def test_players_sharing_places_share_the_points_of_the_places_they_occupy():
    # B and C jointly occupy 2nd and 3rd: (2/3 + 1/3) / 2 = 1/2 each; D is 4th.
    assert PointsRule().game_points({A: 1, B: 2, C: 2, D: 4}) == {
        A: 1, B: Fraction(1, 2), C: Fraction(1, 2), D: 0}


def test_only_the_order_of_the_place_numbers_counts():
    # {1, 2, 2, 3} means the same finish as {1, 2, 2, 4}.
    assert PointsRule().game_points({A: 1, B: 2, C: 2, D: 3}) == PointsRule().game_points(
        {A: 1, B: 2, C: 2, D: 4})


def test_three_players_sharing_first_in_a_four_player_game_share_three_places():
    # (1 + 2/3 + 1/3) / 3 = 2/3 each; D last gets 0.
    assert PointsRule().game_points({A: 1, B: 1, C: 1, D: 4}) == {
        A: Fraction(2, 3), B: Fraction(2, 3), C: Fraction(2, 3), D: 0}


def test_a_league_may_list_its_points_per_place():
    rule = PointsRule((3, 1, 0))
    assert rule.game_points({A: 1, B: 2, C: 3}) == {A: 3, B: 1, C: 0}
    # B and C share 2nd-3rd: (1 + 0) / 2
    assert rule.game_points({A: 1, B: 2, C: 2}) == {A: 3, B: Fraction(1, 2), C: Fraction(1, 2)}
    # a two-player game uses the first two values
    assert rule.game_points({A: 2, B: 1}) == {A: 1, B: 3}


def test_listed_points_are_taken_as_written_decimals():
    # 0.1 is one tenth, not the binary float nearest to it: sharing 1st-2nd gives (0.3 + 0.1) / 2 = 1/5.
    assert PointsRule((0.3, 0.1, 0)).game_points({A: 1, B: 1, C: 3}) == {
        A: Fraction(1, 5), B: Fraction(1, 5), C: 0}


@pytest.mark.parametrize("per_place, message", [
    ((1,), "at least two"),
    ((0, 1), "must not grow"),
    ((1, "a"), "must be numbers"),
    ((1, float("nan")), "must be numbers"),
])
def test_a_points_list_that_makes_no_sense_is_refused(per_place, message):
    with pytest.raises(ValueError, match=message):
        PointsRule(per_place)


def test_a_game_with_more_players_than_listed_places_is_refused():
    with pytest.raises(ValueError, match="Game 7 has 4 players but the points per place list only 3 places"):
        standings(entries(A, B, C, D), [game(7, A, B, C, D)], dict.fromkeys((A, B, C, D), 1),
                  points=PointsRule((2, 1, 0)))


# ---------------------------------------------------------------- a four-player table


# FOUR_PLAYER_GAMES (standings_cases):
#   G1: A 1st;  B, C share 2nd-3rd;  D 4th
#   G2: D, C, B, A
#   G3: A, B share 1st-2nd;  C, D share 3rd-4th
def test_a_four_player_table_adds_up_the_shared_places():
    rows = standings(entries(A, B, C, D), FOUR_PLAYER_GAMES, dict.fromkeys((A, B, C, D), 3), seed="s")
    # A = 1 + 0 + 5/6 = 11/6;  B = 1/2 + 1/3 + 5/6 = 5/3;  C = 1/2 + 2/3 + 1/6 = 4/3;  D = 0 + 1 + 1/6 = 7/6
    assert [(row.entry_id, row.rank, row.points) for row in rows] == [
        (A, 1, 11 / 6), (B, 2, 5 / 3), (C, 3, 4 / 3), (D, 4, 7 / 6)]
    assert [row.separated_by for row in rows] == [None, "points", "points", "points"]
    # wins: only a first place held alone counts (G3's shared first is no win)
    assert [row.tiebreaks["wins"] for row in rows] == [1, 0, 0, 1]


def test_a_four_player_table_counts_played_and_left_games():
    scheduled = {A: 6, B: 6, C: 3, D: 4}
    rows = by_id(standings(entries(A, B, C, D), FOUR_PLAYER_GAMES, scheduled))
    assert [(rows[i].played, rows[i].left, rows[i].scheduled) for i in (A, B, C, D)] == [
        (3, 3, 6), (3, 3, 6), (3, 0, 3), (3, 1, 4)]


def test_an_entry_without_games_is_in_the_table_with_no_points():
    rows = standings(entries(A, B, C), [game(1, A, B)], {A: 2, B: 2, C: 2}, seed="s")
    assert [(row.entry_id, row.points, row.played, row.left) for row in rows] == [
        (A, 1.0, 1, 1), (B, 0.0, 1, 1), (C, 0.0, 0, 2)]
    # B and C tie on everything but the lot
    assert rows[2].separated_by == "lot"


def test_the_table_reads_a_custom_points_list():
    rule = PointsRule((5, 2, 1, 0))
    rows = standings(entries(A, B, C, D), FOUR_PLAYER_GAMES, dict.fromkeys((A, B, C, D), 3), points=rule)
    # G1: A 5, B, C (2 + 1) / 2 = 3/2, D 0;  G2: D 5, C 2, B 1, A 0;  G3: A, B (5 + 2) / 2 = 7/2, C, D 1/2
    # A = 5 + 0 + 7/2 = 17/2;  B = 3/2 + 1 + 7/2 = 6;  C = 3/2 + 2 + 1/2 = 4;  D = 0 + 5 + 1/2 = 11/2
    assert [(row.entry_id, row.points) for row in rows] == [(A, 8.5), (B, 6.0), (D, 5.5), (C, 4.0)]


# ---------------------------------------------------------------- shared ranks

# CYCLE (standings_cases): A beat B, B beat C, C beat A.

def test_entries_tied_on_the_whole_chain_share_their_rank():
    chain = ("wins", "sonneborn_berger", "direct", "game_score")
    rows = standings(entries(A, B, C, D), [*CYCLE, game(4, D, A)], dict.fromkeys((A, B, C, D), 3), chain)
    # A: beat B, lost to C and D = 1;  B: beat C = 1;  C: beat A = 1;  D: beat A = 1.
    # wins 1 each;  SB: A beat B (1), B beat C (1), C beat A (1), D beat A (1): 1 each;
    # direct among all four: the same games again, 1 each;  no game scores: 0 each.
    assert [row.rank for row in rows] == [1, 1, 1, 1]
    assert [row.separated_by for row in rows] == [None, None, None, None]
    assert [row.entry_id for row in rows] == [A, B, C, D]  # shared rank: by name


def test_a_shared_rank_skips_the_ranks_it_covers():
    chain = ("wins",)
    # A beat B and C = 2;  B beat C = 1;  C beat D = 1;  D 0.  B and C: one win each.
    games = [game(1, A, B), game(2, A, C), game(3, B, C), game(4, C, D)]
    rows = standings(entries(A, B, C, D), games, dict.fromkeys((A, B, C, D), 3), chain)
    assert [(row.entry_id, row.rank, row.separated_by) for row in rows] == [
        (A, 1, None), (B, 2, "points"), (C, 2, None), (D, 4, "points")]


# ---------------------------------------------------------------- withdrawal and annulment


# D withdraws after two of its five scheduled games (2 x 2 < 5: less than half).
WITHDRAWAL_GAMES = [
    game(1, D, (A, B), C),  # with D: D 1;  A, B (2/3 + 1/3) / 2 = 1/2;  C 0
                            # D annulled: A, B share 1st-2nd of 3: (1 + 1/2) / 2 = 3/4;  C 0
    game(2, C, A),          # C 1, A 0
    game(3, B, C, A),       # B 1, C 1/2, A 0
    game(4, D, A),          # D 1, A 0;  D annulled: void, A alone is left
]
WITHDRAWAL_SCHEDULE = dict.fromkeys((A, B, C, D), 5)


def test_an_annulled_entry_is_removed_from_its_games_and_listed_last():
    rows = standings(entries(A, B, C, D, D=True), WITHDRAWAL_GAMES, WITHDRAWAL_SCHEDULE,
                     annul_withdrawn_below_half=True)
    # A = 3/4 + 0 + 0 = 3/4;  B = 3/4 + 1 = 7/4;  C = 0 + 1 + 1/2 = 3/2
    assert [(row.entry_id, row.rank, row.points, row.annulled) for row in rows] == [
        (B, 1, 1.75, False), (C, 2, 1.5, False), (A, 3, 0.75, False), (D, None, 0.0, True)]
    assert rows[-1].withdrawn and rows[-1].separated_by is None
    assert set(rows[-1].tiebreaks.values()) == {None}


def test_a_game_left_with_one_player_by_an_annulment_is_neither_played_nor_scheduled():
    rows = by_id(standings(entries(A, B, C, D, D=True), WITHDRAWAL_GAMES, WITHDRAWAL_SCHEDULE,
                           annul_withdrawn_below_half=True))
    # A played G1-G4, but G4 (against D alone) is void: 3 played of 4 scheduled, 1 left
    assert (rows[A].played, rows[A].left, rows[A].scheduled) == (3, 1, 4)
    assert (rows[B].played, rows[B].left, rows[B].scheduled) == (2, 3, 5)
    # the annulled entry keeps its own count: it did play two games
    assert (rows[D].played, rows[D].left, rows[D].scheduled) == (2, 3, 5)


def test_an_annulment_keeps_the_others_relative_order_in_a_multiplayer_game():
    rows = by_id(standings(entries(A, B, C, D, D=True), [WITHDRAWAL_GAMES[0]], WITHDRAWAL_SCHEDULE,
                           annul_withdrawn_below_half=True))
    # A and B stay level, now sharing first of three; C stays last
    assert (rows[A].points, rows[B].points, rows[C].points) == (0.75, 0.75, 0.0)
    assert rows[C].rank == 3 and rows[C].separated_by == "points"


def test_without_annulment_a_withdrawn_entry_keeps_its_results():
    rows = standings(entries(A, B, C, D, D=True), WITHDRAWAL_GAMES, WITHDRAWAL_SCHEDULE)
    # D = 1 + 1 = 2;  B = 1/2 + 1 = 3/2;  C = 0 + 1 + 1/2 = 3/2;  A = 1/2 + 0 + 0 + 0 = 1/2
    # B and C: one win each;  SB: B = G1 (level with A: 1/2 x 1/2, ahead of C: 3/2) + G3 (C 3/2 + A 1/2)
    # = 1/4 + 3/2 + 2 = 15/4;  C = G2 (A 1/2) + G3 (A 1/2) = 1
    assert [(row.entry_id, row.rank, row.points) for row in rows] == [
        (D, 1, 2.0), (B, 2, 1.5), (C, 3, 1.5), (A, 4, 0.5)]
    assert rows[0].withdrawn and not rows[0].annulled
    assert rows[2].separated_by == "sonneborn_berger"
    assert (rows[1].tiebreaks["sonneborn_berger"], rows[2].tiebreaks["sonneborn_berger"]) == (3.75, 1.0)


def test_a_withdrawn_entry_that_played_half_its_games_is_not_annulled():
    schedule = {**WITHDRAWAL_SCHEDULE, D: 4}  # 2 of 4: not less than half
    rows = standings(entries(A, B, C, D, D=True), WITHDRAWAL_GAMES, schedule, annul_withdrawn_below_half=True)
    assert rows[0].entry_id == D and rows[0].rank == 1 and not rows[0].annulled


def test_only_a_withdrawn_entry_is_annulled():
    rows = standings(entries(A, B, C, D), WITHDRAWAL_GAMES, WITHDRAWAL_SCHEDULE, annul_withdrawn_below_half=True)
    assert not any(row.annulled for row in rows)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("chain, message", [
    (["wins", "buchholz"], "Unknown tie-break 'buchholz': choose from wins, sonneborn_berger"),
    (["wins", "points"], '"points" always comes first'),
    (["wins", "lot", "wins"], "Tie-break listed twice: wins"),
])
def test_a_chain_with_an_unknown_or_misplaced_key_is_refused(chain, message):
    with pytest.raises(ValueError, match=message):
        standings(entries(A, B), [], {A: 1, B: 1}, chain)


def test_a_chain_may_name_points_first():
    assert validate_chain(["points", "wins"]) == ("wins",)
    assert validate_chain(DEFAULT_CHAIN) == DEFAULT_CHAIN
    assert DEFAULT_CHAIN == ("wins", "sonneborn_berger", "direct", "game_score", "lot")


@pytest.mark.parametrize("games, schedule, message", [
    ([game(1, A, E)], None, "Game 1 names entry 5, which is not in the table"),
    ([GameResult(1, {A: 1})], None, "Game 1 has fewer than two players"),
    ([GameResult(1, {A: 0, B: 1})], None, "place of entry 1 must be a whole number from 1"),
    ([GameResult(1, {A: 1.5, B: 1})], None, "place of entry 1 must be a whole number from 1"),
    ([GameResult(1, {A: 1, B: 2}, {C: 3.0})], None, r"scores for entries without a place: \[3\]"),
    ([GameResult(1, {A: 1, B: 2}, {A: float("inf")})], None, "game score of entry 1 must be a number"),
    ([GameResult(1, {A: 1, B: 2}, {}, C)], None, "the last seat's entry 3 did not play it"),
    ([game(1, A, B), game(1, B, A)], None, "Game 1 is listed twice"),
    ([game(1, A, B), game(2, B, A)], {A: 1, B: 2, C: 2}, "Entry 1 played 2 games but has 1 scheduled"),
    ([], {A: 1, B: 1}, "No scheduled number of games for entry 3"),
])
def test_bad_input_is_refused_with_a_clear_message(games, schedule, message):
    with pytest.raises(ValueError, match=message):
        standings(entries(A, B, C), games, schedule or {A: 2, B: 2, C: 2})


def test_an_entry_listed_twice_is_refused():
    with pytest.raises(ValueError, match="Entry 1 is listed twice"):
        standings([Entry(A), Entry(A)], [], {A: 0})


def test_an_entry_without_a_numeric_rating_is_refused():
    with pytest.raises(ValueError, match="The rating of entry 1 must be a number"):
        standings([Entry(A, rating=float("nan"))], [], {A: 0})


# ---------------------------------------------------------------- any table


def _sort_value(key: str, value):
    return value if key == "lot" else -value


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_any_table_ranks_by_the_chain_in_lexicographic_order(table):
    table_entries, games, schedule, chain, rule, annul = table
    rows = standings(table_entries, games, schedule, chain, "seed", rule, annul)

    assert sorted(row.entry_id for row in rows) == [e.id for e in table_entries]
    assert all(row.played + row.left == row.scheduled for row in rows)
    assert all(row.left == schedule[row.entry_id] - sum(row.entry_id in g.places for g in games) for row in rows)
    ranked = [row for row in rows if not row.annulled]
    assert all(row.annulled for row in rows[len(ranked):])
    assert ranked == [] or ranked[0].rank == 1 and ranked[0].separated_by is None
    for above, below in zip(ranked, ranked[1:]):
        keys = [("points", above.points, below.points)] + [
            (key, above.tiebreaks[key], below.tiebreaks[key]) for key in chain]
        differing = [(key, a, b) for key, a, b in keys if a != b]
        if not differing:
            assert below.rank == above.rank and below.separated_by is None
            continue
        key, a, b = differing[0]
        assert below.separated_by == key
        assert _sort_value(key, a) < _sort_value(key, b)
        assert below.rank == ranked.index(below) + 1


@settings(max_examples=200, deadline=None)
@given(tables())
def test_any_table_has_the_points_and_sonneborn_berger_of_their_definitions(table):
    table_entries, games, schedule, _, rule, _ = table
    rows = standings(table_entries, games, schedule, ["sonneborn_berger"], "seed", rule)
    points = reference_points(games, rule)
    sb = reference_sonneborn_berger(games, points)
    for row in rows:
        assert row.points == float(points.get(row.entry_id, 0))
        assert row.tiebreaks["sonneborn_berger"] == float(sb.get(row.entry_id, 0))


@settings(max_examples=100, deadline=None)
@given(tables(), st.randoms(use_true_random=False))
def test_any_table_does_not_depend_on_the_order_of_its_input(table, rnd):
    table_entries, games, schedule, chain, rule, annul = table
    rows = standings(table_entries, games, schedule, chain, "seed", rule, annul)
    shuffled_entries, shuffled_games = list(table_entries), list(games)
    rnd.shuffle(shuffled_entries)
    rnd.shuffle(shuffled_games)
    assert standings(shuffled_entries, shuffled_games, schedule, chain, "seed", rule, annul) == rows


def test_a_hundred_entries_and_five_thousand_games_make_a_table():
    rng = random.Random(13)
    table_entries = [Entry(i, f"P{i}", rng.choice([1400.0, 1500.0]), withdrawn=i % 40 == 0) for i in range(100)]
    games = []
    for game_id in range(5000):
        players = rng.sample(range(100), rng.randint(2, 6))
        games.append(GameResult(game_id, {p: rng.randint(1, len(players)) for p in players},
                                {p: float(rng.randint(-50, 300)) for p in players}, rng.choice(players)))
    schedule = {i: sum(i in g.places for g in games) + 2 for i in range(100)}
    rows = standings(table_entries, games, schedule, (*TIEBREAKS[:-1], "lot"), "season-1",
                     annul_withdrawn_below_half=True)
    assert len(rows) == 100 and rows[0].rank == 1
    # a game of n hands out (n-1 + n-2 + ... + 0) / (n-1) = n/2 points; annulled entries lose theirs
    assert sum(row.points for row in rows) <= sum(len(g.places) for g in games) / 2


def test_the_standings_module_imports_only_the_standard_library():
    import ast
    import sys
    from pathlib import Path

    import scoresheets.standings as module

    tree = ast.parse(Path(module.__file__).read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import)
                for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
