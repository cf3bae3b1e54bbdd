"""The knockout cup: who meets whom, and who goes on. Pure Python, no Django.

Two-player matches (of one game or more, decided by `tournaments.matches`): the entrants in seeding order (their
starting numbers, best rating first) fill a bracket of the next power of
two; the best seeds have the byes it leaves (they go straight on), and the
others meet best against worst. Tables of 3 to 6: the entrants are dealt
into tables in seeding order, snake-wise (1 2 3 / 6 5 4 ...) so that every
table gets a strong and a weak seed; the best seeds left over sit out and go
straight on; from each table the top `advance` places go on.

Ties: a shared place at the cut (two players sharing the last place that
goes on) is settled by the seeding: the better seed goes on (a level
two-player match: `tournaments.matches`). A player who forfeited never goes on. When no more players
are left than a table seats, they play the final at one table; the cup ends
with it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def rounds_needed(entrants: int, size: int, advance: int) -> int:
    """Rounds until one table's final is played (everyone going on as seeded)."""
    rounds, left = 0, entrants
    if size == 2:
        while left > 1:
            left = (left + 1) // 2
            rounds += 1
        return max(rounds, 1)
    while left > size:
        tables, rest = divmod(left, size)
        left = tables * advance + rest
        rounds += 1
    return rounds + 1


def draw(seeds: Sequence[int], size: int) -> tuple[list[list[int]], list[int]]:
    """This round's tables (ids by seat, the better seed first) and the byes,
    for the entrants still in, best seed first."""
    seeds = list(seeds)
    if len(seeds) <= size:
        return ([seeds] if len(seeds) >= 2 else []), ([] if len(seeds) >= 2 else seeds)
    if size == 2:
        bracket = 1
        while bracket < len(seeds):
            bracket *= 2
        byes = seeds[:bracket - len(seeds)]
        rest = seeds[len(byes):]
        half = len(rest) // 2
        return [[rest[i], rest[-1 - i]] for i in range(half)], byes
    byes = seeds[:len(seeds) % size]
    rest = seeds[len(byes):]
    count = len(rest) // size
    tables: list[list[int]] = [[] for _ in range(count)]
    for i, entry in enumerate(rest):
        lap, step = divmod(i, count)
        tables[step if lap % 2 == 0 else count - 1 - step].append(entry)
    return tables, byes


def going_on(places: Mapping[int, int], advance: int, seed_of: Mapping[int, int],
             forfeits: frozenset[int] = frozenset()) -> list[int]:
    """Who goes on from one finished table: the top `advance` by place, the
    better seed first among shared places; never a forfeiter."""
    order = sorted((e for e in places if e not in forfeits), key=lambda e: (places[e], seed_of[e]))
    return order[:advance]
