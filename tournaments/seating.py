"""Seating a Swiss round at tables of 3 to 6: a documented optimisation.

Pure Python, no Django: `tournaments.pairing` hands in the players, their
scores and their history; this module gives back the tables (players by
seat, seat 0 first: he leads or deals first) and the byes.

1. Byes. With n players at tables of k, n mod k players sit out. They are
   the lowest-scored players who have not had a bye yet (ties: the lower
   starting rank, i.e. the larger starting number, sits out first). Only
   when every remaining player has had one does anyone get a second
   (fewest byes first, then the same order).
2. Tables, by three criteria in this order (lexicographic: a later one is
   never bought with an earlier one):
   a. scores first: the sum over the tables of (highest score - lowest score)
      at the table. Cutting the players, best score first, into consecutive
      groups of k is optimal for this criterion; equal-scored players are
      interchangeable, so the search below moves them freely.
   b. fewest repeated table-mates: the sum over the tables of, for every two
      players at it, the times they have already sat together.
   c. balanced first seat: the sum over the tables of the fewest first
      seats any player at the table has had (the table's first seat goes
      to him, so a lower sum means the first seats spread more evenly).
   The search starts from the consecutive cut and swaps two players of
   different tables (within a few tables of each other) whenever the swap
   lowers (a, b, c) lexicographically, until no swap does: a local optimum,
   never worse than the cut on any criterion taken in order. On small
   cases the test suite compares it with the exact optimum found by
   enumeration (tests/tournaments/test_seating.py).
3. Seats. At each table the player with the fewest first seats so far sits
   first (ties: the higher score, then the better starting rank); the
   others follow by score, then starting rank.

Worked example (tables of 3, round 2). After round 1 (A B C at one table,
D E F at the other) the scores are A 1, D 1, B ½, E ½, C 0, F 0. The cut
gives [A D B] [E C F]: criterion (a) = (1 - ½) + (½ - 0) = 1, (b) = 1 (E
and F met) + 1 (A and B met) = 2. Swapping B and E (both ½) keeps (a) at 1
and gives [A D E] [B C F]: (b) = 1 (D, E) + 1 (B, C), still 2; every
arrangement with (a) = 1 repeats two pairs, so the cut stays. Seat 0 at
[A D B] goes to whoever has sat first less often.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

WINDOW = 3  # tables apart that the search swaps between


@dataclass(frozen=True)
class Seated:
    id: int
    score: Fraction | float = 0
    number: int = 0  # starting rank: lower is better
    byes: int = 0  # byes already given
    first_seats: int = 0  # times he sat first


@dataclass(frozen=True)
class Seating:
    tables: list[tuple[int, ...]]  # player ids by seat
    byes: list[int]


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def choose_byes(players: list[Seated], count: int) -> list[int]:
    """The `count` players who sit out (rule 1)."""
    order = sorted(players, key=lambda p: (p.byes, p.score, -p.number))
    return [p.id for p in order[:count]]


def table_cost(table: list[Seated], met: Mapping[tuple[int, int], int]) -> tuple:
    scores = [p.score for p in table]
    repeats = sum(met.get(pair_key(a.id, b.id), 0) for a, b in combinations(table, 2))
    return (max(scores) - min(scores), repeats, min(p.first_seats for p in table))


def total_cost(tables: list[list[Seated]], met: Mapping[tuple[int, int], int]) -> tuple:
    costs = [table_cost(t, met) for t in tables]
    return tuple(sum(c[i] for c in costs) for i in range(3)) if costs else (0, 0, 0)


def seat_round(players: list[Seated], size: int, met: Mapping[tuple[int, int], int] | None = None) -> Seating:
    """Tables of `size` for these players (rules 1-3). `met`: times each pair
    (smaller id first) has sat at one table."""
    if not 2 <= size <= 6:
        raise ValueError("Tables seat 2 to 6 players.")
    met = met or {}
    byes = choose_byes(players, len(players) % size)
    playing = sorted((p for p in players if p.id not in byes), key=lambda p: (-p.score, p.number))
    tables = [playing[i:i + size] for i in range(0, len(playing), size)]
    tables = improve(tables, met)
    return Seating(tables=[seat_order(t) for t in tables], byes=byes)


def improve(tables: list[list[Seated]], met: Mapping[tuple[int, int], int]) -> list[list[Seated]]:
    """Swap players between nearby tables while a swap lowers the cost (rule 2)."""
    tables = [list(t) for t in tables]
    costs = [table_cost(t, met) for t in tables]
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, min(len(tables), i + 1 + WINDOW)):
                if _best_swap(tables, costs, i, j, met):
                    improved = True
    return tables


def _add(a: tuple, b: tuple) -> tuple:
    return tuple(x + y for x, y in zip(a, b))


def _best_swap(tables, costs, i: int, j: int, met) -> bool:
    before = _add(costs[i], costs[j])
    for x in range(len(tables[i])):
        for y in range(len(tables[j])):
            tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
            ci, cj = table_cost(tables[i], met), table_cost(tables[j], met)
            if _add(ci, cj) < before:
                costs[i], costs[j] = ci, cj
                return True
            tables[i][x], tables[j][y] = tables[j][y], tables[i][x]
    return False


def seat_order(table: list[Seated]) -> tuple[int, ...]:
    """Rule 3: the fewest first seats sits first, the others by score and rank."""
    first = min(table, key=lambda p: (p.first_seats, -p.score, p.number))
    rest = sorted((p for p in table if p is not first), key=lambda p: (-p.score, p.number))
    return (first.id, *(p.id for p in rest))
