"""Swiss standings (tournaments/standings.py): points, Buchholz and median
Buchholz with a virtual opponent for byes, Sonneborn–Berger, direct
encounter, wins, rating, in the organizer's order. The worked example is
the rules page's (tests/tournaments/test_tournament_pages.py checks the
page says these numbers)."""

from fractions import Fraction

import pytest

from tournaments.standings import Bye, Game, Player, game_points, standings

A, B, C, D, E = 1, 2, 3, 4, 5
PLAYERS = [Player(A, "A", 1), Player(B, "B", 2), Player(C, "C", 3), Player(D, "D", 4), Player(E, "E", 5)]
GAMES = [
    Game(1, {A: 1, B: 2}), Game(1, {C: 1, D: 1}),
    Game(2, {A: 1, C: 2}), Game(2, {E: 2, D: 1}),
    Game(3, {A: 1, E: 2}), Game(3, {B: 1, D: 2}),
]
BYES = [Bye(1, E, Fraction(1)), Bye(2, B, Fraction(1)), Bye(3, C, Fraction(1))]


def _rows(chain):
    return {row.name: row for row in standings(PLAYERS, GAMES, BYES, 3, chain)}


def test_the_worked_example_points():
    rows = _rows(["buchholz"])
    assert {n: r.points for n, r in rows.items()} == {"A": 3, "B": 2, "C": 1.5, "D": 1.5, "E": 1}


def test_a_bye_counts_in_buchholz_as_a_virtual_opponent():
    rows = _rows(["buchholz", "median_buchholz", "sonneborn_berger"])
    # B's bye in round 2 of 3: 0 points before it + (1 - 1) + ½ x 1 round left = ½
    assert rows["B"].tiebreaks["buchholz"] == 3 + 0.5 + 1.5
    assert rows["C"].tiebreaks["buchholz"] == 1.5 + 3 + 0.5
    assert rows["D"].tiebreaks["buchholz"] == 1.5 + 1 + 2


def test_buchholz_first_puts_c_above_d():
    rows = _rows(["buchholz", "sonneborn_berger"])
    assert rows["C"].rank == 3 and rows["D"].rank == 4


def test_median_buchholz_ties_them_and_sonneborn_berger_puts_d_above_c():
    rows = _rows(["median_buchholz", "sonneborn_berger"])
    assert rows["C"].tiebreaks["median_buchholz"] == rows["D"].tiebreaks["median_buchholz"] == 1.5
    assert rows["C"].tiebreaks["sonneborn_berger"] == 1.25
    assert rows["D"].tiebreaks["sonneborn_berger"] == 1.75
    assert rows["D"].rank == 3 and rows["C"].rank == 4


def test_direct_encounter_ties_them_and_wins_put_d_above_c():
    rows = _rows(["direct", "wins"])
    assert rows["C"].tiebreaks["direct"] == rows["D"].tiebreaks["direct"] == 0.5
    assert rows["C"].tiebreaks["wins"] == 0 and rows["D"].tiebreaks["wins"] == 1  # a bye is no win
    assert rows["D"].rank == 3 and rows["C"].rank == 4


def test_rating_then_the_starting_number_settle_the_rest():
    players = [Player(1, "X", 1, rating=1400), Player(2, "Y", 2, rating=1600)]
    rows = standings(players, [Game(1, {1: 1, 2: 1})], [], 1, ["rating"])
    assert [r.name for r in rows] == ["Y", "X"]
    rows = standings(players, [Game(1, {1: 1, 2: 1})], [], 1, [])
    assert [r.name for r in rows] == ["X", "Y"]


def test_places_at_a_table_of_four_score_one_two_thirds_one_third_nothing():
    assert game_points(Game(1, {1: 1, 2: 2, 3: 3, 4: 4})) == {1: 1, 2: Fraction(2, 3), 3: Fraction(1, 3), 4: 0}


def test_a_forfeit_loses_alone_and_at_two_player_tables_the_opponent_wins():
    assert game_points(Game(1, {1: 1, 2: 1}, frozenset({2}))) == {1: 1, 2: 0}
    assert game_points(Game(1, {1: 2, 2: 1, 3: 3}, frozenset({2}))) == {1: 1, 2: 0, 3: Fraction(1, 2)}


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(ValueError):
        standings(PLAYERS, GAMES, BYES, 3, ["height"])
