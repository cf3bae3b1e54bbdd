"""Round-robin groups before a knockout cup (ICCF style). Pure Python, no
Django.

The organizer sets the players in a group and how many of each group go on
to the cup (fewer than a group holds).

- Groups are formed from the seeding (the starting numbers, best rating
  first), dealt snake-wise: with 8 players in groups of 4, group 1 holds
  seeds 1 4 5 8 and group 2 seeds 2 3 6 7. At two-player tables there are
  ⌈entrants / group size⌉ groups, so a group may hold one player fewer
  than the others; every group must hold more players than go on from it.
- Two-player tables: every pair of a group meets once, in one game, by the
  circle (Berger) schedule: a group of n plays n − 1 rounds (n even) or n
  rounds (n odd: each round one player sits out, without points). Who sits
  first: the fixed player of the circle in odd rounds, at the other tables
  the player on the circle's turning side; over the group each player sits
  first about half the games (in a group of 4: two players twice, two once;
  in an odd group exactly half).
- Tables of 3 to 6: a group is one table (the group size is the table's,
  and the entrants a multiple of it) that plays as many games as it has
  players, one per round, the seats turning by one each game so that
  everyone sits first once.
- The group stage's rounds are the tournament's first rounds; they start,
  end (deadlines, forfeits) and advance as every round does. A game of a
  withdrawn (or, that round, suspended) player that is still to come is not played (the other players
  sit out that round; at larger tables the whole table does).
- Group standings: the tournament's standings engine (points, then the
  organizer's tie-breaks) over the group's games.
- The cup: from each group its top `advance` go on, seeded by the group
  results: every group's winner first (among them the better share of the
  points possible, then the starting number), then the second places in
  the order of their groups' winners, and so on; the cup then draws them as
  a cup without groups draws its entrants (`tournaments.knockout.draw`).
  The runners-up following their winners' order means that in the first
  cup round a winner meets the runner-up of another group.

Worked example (tests/tournaments/test_cup_groups.py): 8 players, groups
of 4, the top 2 go on, two-player tables. Group 1 is seeds 1 4 5 8, group 2
is 2 3 6 7; each group plays 3 rounds. Group 1 ends 1: 3, 5: 2, 4: 1, 8: 0
points; group 2 ends 6: 3, 2: 2, 3: 1, 7: 0. The winners 1 and 6 both made
3 of 3, so 1 (the better starting number) is the cup's seed 1 and 6 its
seed 2; then 5 (seed 3) and 2 (seed 4). The cup's first round: 1 against 2
and 6 against 5.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def group_count(entrants: int, size: int, table_size: int) -> int:
    if table_size > 2:
        return entrants // size
    return -(-entrants // size)


def fits(entrants: int, size: int, advance: int, table_size: int) -> bool:
    """Whether `entrants` make groups of `size` from which `advance` go on (see the module)."""
    if table_size > 2:
        return size == table_size and entrants >= size and entrants % size == 0 and 1 <= advance < size
    if not 1 <= advance < size or entrants < 2:
        return False
    count = group_count(entrants, size, table_size)
    return min(len(g) for g in deal(list(range(entrants)), count)) > advance


def deal(seeds: Sequence[int], count: int) -> list[list[int]]:
    """The seeds (best first) dealt snake-wise into `count` groups."""
    groups: list[list[int]] = [[] for _ in range(count)]
    for i, seed in enumerate(seeds):
        lap, step = divmod(i, count)
        groups[step if lap % 2 == 0 else count - 1 - step].append(seed)
    return groups


def rounds_of(size: int, table_size: int) -> int:
    """Rounds a group of `size` plays."""
    if table_size > 2:
        return size
    return size - 1 if size % 2 == 0 else size


def schedule(members: Sequence[int], number: int, table_size: int) -> list[list[int]]:
    """Round `number`'s tables of a group (its members best seed first), by seat."""
    members = list(members)
    if table_size > 2:
        turn = (number - 1) % len(members)
        return [members[turn:] + members[:turn]] if number <= len(members) else []
    players: list[int | None] = ([None] if len(members) % 2 else []) + members  # odd: sitting out is fixed
    n = len(players)
    if number > n - 1:
        return []
    # The circle method: the first player fixed, the others turn by one each round.
    rest = players[1:]
    turn = (number - 1) % (n - 1)
    circle = [players[0]] + rest[turn:] + rest[:turn]
    tables = []
    for i in range(n // 2):
        a, b = circle[i], circle[n - 1 - i]
        if a is None or b is None:
            continue
        first_here = i > 0 or number % 2 == 1  # the fixed player alternates; the others as the circle turns
        tables.append([a, b] if first_here else [b, a])
    return tables


def cup_seeding(group_results: Sequence[Sequence[int]], share: Mapping[int, float], number: Mapping[int, int],
                advance: int) -> list[int]:
    """The cup's seeds, best first, from each group's order (best first): the winners by their share of
    the points possible, then the starting number; then each later place in the order of the winners."""
    filled = [list(result) for result in group_results if result]
    order = sorted(range(len(filled)), key=lambda g: (-share[filled[g][0]], number[filled[g][0]]))
    return [filled[g][place] for place in range(advance) for g in order if place < len(filled[g])]
