"""League schedules: who sits at which table in which round (pure Python, no Django).

A schedule is a list of `Round`s; each round holds `Table`s, each table the
entry ids in seat order (seat 0 moves, leads or deals first). An entry is a
player, or for Durak 2×2 a registered pair (see `expand_pairs`). The league
stores a schedule as JSON (`to_json` / `from_json`) before play starts.

Decisions and guarantees:
- `round_robin` is the circle (Berger) method: every pair meets exactly
  `meetings` times, no entry plays twice in a round, with an odd count every
  entry has exactly one bye per cycle. Seat 0 (the first move) alternates
  between a pair's meetings, and across rounds each entry moves first in
  half of its games, rounded up or down (at most one break in alternation
  per cycle).
- `table_schedule` refuses a number of games that cannot fill whole tables
  (entries × games not a multiple of the table size): nobody can then play
  exactly that many, and the message names the numbers that work. When the
  entries do not divide into tables, each round seats as many full tables
  as it can and the others sit out (a bye); byes are spread so that every
  entry plays exactly `games_per_player` games and sits out the same number
  of rounds.
- Every entry plays the same number of games, never twice in a round, and
  sits in each seat position as evenly as possible: its counts per seat
  differ by at most 1 (an equitable edge colouring, which always exists).
- Pair meetings: a seeded local search (simulated annealing, then a
  steepest descent) minimises the sum of squared meeting counts, plus a
  surcharge for pairs meeting more than ⌈λ⌉ times (λ = games × (table size
  − 1) / (entries − 1)); the cost is lowest exactly when every pair meets
  ⌊λ⌋ or ⌈λ⌉ times. It stops as soon as it gets there, so the spread
  (max − min over pairs) is ≤ 1 whenever it finds such a schedule; when
  none exists (or it is not found in its fixed budget) the spread is small
  but not guaranteed (typically 2; e.g. 7 entries at tables of 3 for 3
  games cannot avoid it, as two tables a round are disjoint). Two-seat
  tables with an even count (or "everyone meets everyone") come from the
  round robin and always have spread ≤ 1.
- `games_per_player=None` ("everyone meets everyone") starts from the lower
  bound ⌈(entries − 1) / (table size − 1)⌉ games (raised to fill whole
  tables) and adds games until the search covers every pair. Guaranteed:
  every pair meets at least once and everyone plays the same number of
  games; that number is the lower bound whenever a schedule at the bound is
  found (e.g. 9 at tables of 3: 4 games; 15 at tables of 3: 7, Kirkman's
  schoolgirls; 10 at tables of 5: 4). Big divisions get more: 20 at tables
  of 4 play 8 games (bound 7), 40 at 4 play 17 (bound 13), 100 at 4 play 40
  (bound 33, and about 3 s of CPU: build it outside a web request).
- Everything is deterministic from `seed` (and the entries' order): a fixed
  number of search steps, nothing from time or the machine (Python's seeded
  `random`, so the same for a given Python; the league stores the result).
- Speed: a schedule with a given number of games takes at most 60,000
  search steps (100 entries, tables of 4, 20 games: about 0.15 s).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 6
MAX_GAMES_PER_PLAYER = 1000
# Local-search steps per table in the schedule (a fixed budget keeps the
# result independent of the machine's speed); the search stops earlier as
# soon as the pair meetings are as even as they can be.
_STEPS_PER_TABLE = 60
_MIN_STEPS = 20_000
_MAX_STEPS = 60_000
# "Everyone meets everyone": independent searches tried at each number of
# games before adding games, while the last one left at most
# _RETRY_IF_NEVER_MET pairs apart.
_COVER_ATTEMPTS = 4
_RETRY_IF_NEVER_MET = 4
# The annealing's temperature falls geometrically from the first to the last.
_FIRST_TEMPERATURE, _LAST_TEMPERATURE = 1.0, 0.1
# The cost of a pair that never meets, in "everyone meets everyone", and the
# weight of the squared excess of a pair meeting more than ⌈λ⌉ times (which
# gets the search out of local minima where two entries meet far too often).
_UNCOVERED = 8
_EXCESS = 2
# Passes of the final steepest descent over the pairs that meet too often.
_POLISH_PASSES = 5


@dataclass(frozen=True)
class Table:
    """One game: the entry ids by seat position (seat 0 first)."""

    seats: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "seats", tuple(self.seats))

    def to_json(self) -> dict[str, Any]:
        return {"seats": list(self.seats)}

    @classmethod
    def from_json(cls, data: Any) -> Table:
        if not isinstance(data, dict) or not isinstance(data.get("seats"), list):
            raise ValueError("A scheduled table must be an object with a list of seats.")
        seats = data["seats"]
        if not seats or not all(isinstance(s, int) and not isinstance(s, bool) for s in seats):
            raise ValueError("A scheduled table's seats must be entry ids (integers).")
        return cls(seats=tuple(seats))


@dataclass(frozen=True)
class Round:
    """The tables played in one round, numbered from 1; `byes` sit this round out."""

    number: int
    tables: tuple[Table, ...]
    byes: tuple[int, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", tuple(self.tables))
        object.__setattr__(self, "byes", tuple(self.byes))

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "tables": [t.to_json() for t in self.tables],
            "byes": list(self.byes),
        }

    @classmethod
    def from_json(cls, data: Any) -> Round:
        if not isinstance(data, dict):
            raise ValueError("A scheduled round must be an object.")
        number, tables, byes = data.get("number"), data.get("tables"), data.get("byes", [])
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise ValueError("A scheduled round's number must be a positive integer.")
        if not isinstance(tables, list) or not isinstance(byes, list):
            raise ValueError("A scheduled round must list its tables and byes.")
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in byes):
            raise ValueError("A scheduled round's byes must be entry ids (integers).")
        return cls(number=number, tables=tuple(Table.from_json(t) for t in tables), byes=tuple(byes))


def to_json(schedule: Sequence[Round]) -> list[dict[str, Any]]:
    """The schedule as JSON-able data (lists, dicts and ints)."""
    return [r.to_json() for r in schedule]


def from_json(data: Any) -> list[Round]:
    """The schedule back from `to_json`'s data; ValueError on malformed data."""
    if not isinstance(data, list):
        raise ValueError("A schedule must be a list of rounds.")
    return [Round.from_json(r) for r in data]


# --- two-player round robin ------------------------------------------------


def round_robin(entries: list[int], meetings: int = 1) -> list[Round]:
    """Berger tables: each pair meets `meetings` times, seat 0 moves first."""
    _check_entries(entries, 2)
    if not isinstance(meetings, int) or isinstance(meetings, bool) or meetings < 1:
        raise ValueError("Each pair must meet at least once.")
    cycle = _berger_cycle(list(entries))
    rounds: list[Round] = []
    for leg in range(meetings):
        for pairs, bye in cycle:
            tables = tuple(Table((b, a) if leg % 2 else (a, b)) for a, b in pairs)
            rounds.append(Round(len(rounds) + 1, tables, () if bye is None else (bye,)))
    return rounds


def _berger_cycle(entries: list[int]) -> list[tuple[list[tuple[int, int]], int | None]]:
    """One cycle of the circle method: per round, (first, second) pairs and the bye."""
    ids: list[int | None] = list(entries)
    if len(ids) % 2:
        ids.append(None)
    m = len(ids)
    fixed, ring = ids[-1], ids[:-1]
    cycle = []
    for r in range(m - 1):
        # The fixed entry alternates seats; the others alternate with their
        # distance from it, which gives each entry at most one break.
        candidates = [(fixed, ring[r]) if r % 2 else (ring[r], fixed)]
        for i in range(1, m // 2):
            x, y = ring[(r + i) % (m - 1)], ring[(r - i) % (m - 1)]
            candidates.append((x, y) if i % 2 == 0 else (y, x))
        pairs = [(a, b) for a, b in candidates if a is not None and b is not None]
        byes = [e for pair in candidates if None in pair for e in pair if e is not None]
        cycle.append((pairs, byes[0] if byes else None))
    return cycle


# --- tables of 2 to 6 --------------------------------------------------------


def table_schedule(
    entries: list[int], table_size: int, games_per_player: int | None, seed: int
) -> list[Round]:
    """Rounds of tables of `table_size` where every entry plays the same number of games.

    `games_per_player=None` means everyone meets everyone (see the module's
    docstring for what is guaranteed). ValueError with a clear message when
    the request cannot be met.
    """
    _check_table_size(table_size)
    _check_entries(entries, table_size)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("A schedule's seed must be an integer.")
    n = len(entries)
    if games_per_player is not None:
        _check_games(n, table_size, games_per_player)
    if table_size == 2 and (games_per_player is None or n % 2 == 0):
        return _pairs_from_round_robin(entries, games_per_player, seed)
    if games_per_player is not None:
        return _build(entries, table_size, games_per_player, seed)
    return _everyone_meets_everyone(entries, table_size, seed)


def check_feasible(entries: int, table_size: int, games_per_player: int | None) -> None:
    """ValueError if `table_schedule` would refuse `entries` entries at tables
    of `table_size` for `games_per_player` games (None: everyone meets
    everyone, always feasible with enough entries): the cheap checks, done
    before the schedule itself is searched for."""
    _check_table_size(table_size)
    if entries < table_size:
        raise ValueError(f"A table of {table_size} needs at least {table_size} entries; there are {entries}.")
    if games_per_player is not None:
        _check_games(entries, table_size, games_per_player)


def fitting_games(entries: int, table_size: int, near: int) -> tuple[int, int]:
    """The numbers of games per entry nearest `near` (below, above) that fill whole tables.

    `below` is 0 when there is none. Any multiple of table_size / gcd(entries,
    table_size) works.
    """
    step = table_size // math.gcd(entries, table_size)
    below = (near // step) * step
    if below == near:
        below -= step
    return max(below, 0), (near // step + 1) * step


def _check_table_size(table_size: int) -> None:
    if not isinstance(table_size, int) or not MIN_TABLE_SIZE <= table_size <= MAX_TABLE_SIZE:
        raise ValueError(f"Tables seat {MIN_TABLE_SIZE} to {MAX_TABLE_SIZE}; got {table_size!r}.")


def _check_entries(entries: Sequence[int], table_size: int) -> None:
    if not all(isinstance(e, int) and not isinstance(e, bool) for e in entries):
        raise ValueError("Entries must be ids (integers).")
    if len(set(entries)) != len(entries):
        raise ValueError("An entry appears twice in the list of entries.")
    if len(entries) < table_size:
        raise ValueError(
            f"A table of {table_size} needs at least {table_size} entries; there are {len(entries)}."
        )


def _check_games(n: int, table_size: int, games: int) -> None:
    if not isinstance(games, int) or isinstance(games, bool) or games < 1:
        raise ValueError("Each entry must play at least one game.")
    if games > MAX_GAMES_PER_PLAYER:
        raise ValueError(f"At most {MAX_GAMES_PER_PLAYER} games per entry can be scheduled.")
    if n * games % table_size:
        below, above = fitting_games(n, table_size, games)
        options = f"{below} or {above}" if below else f"{above}"
        raise ValueError(
            f"{n} entries playing {games} games each take {n * games} seats, which do not fill "
            f"tables of {table_size}: with {n} entries choose {options} games each "
            f"(any multiple of {table_size // math.gcd(n, table_size)})."
        )


def _pairs_from_round_robin(entries: list[int], games: int | None, seed: int) -> list[Round]:
    """Two-seat tables for an even count, or everyone meets everyone: Berger rounds."""
    shuffled = list(entries)
    random.Random(seed).shuffle(shuffled)
    n = len(entries)
    if games is None:
        return round_robin(shuffled)
    legs = -(-games // (n - 1))
    rounds = round_robin(shuffled, legs)[:games]
    if games % (n - 1) == 0:
        return rounds
    # A part of a cycle can leave someone moving first twice more than
    # second: even the seats out, keeping the pairings.
    index = {e: i for i, e in enumerate(shuffled)}
    tables = [[index[e] for e in t.seats] for r in rounds for t in r.tables]
    seat_counts = [[0, 0] for _ in shuffled]
    for t in tables:
        seat_counts[t[0]][0] += 1
        seat_counts[t[1]][1] += 1
    _equalize_seats(tables, seat_counts, 2)
    per_round = n // 2
    return [
        Round(r.number, tuple(Table(tuple(shuffled[i] for i in t)) for t in tables[start : start + per_round]))
        for r, start in zip(rounds, range(0, len(tables), per_round))
    ]


def _everyone_meets_everyone(entries: list[int], k: int, seed: int) -> list[Round]:
    n = len(entries)
    step = k // math.gcd(n, k)
    lower_bound = -(-(n - 1) // (k - 1))
    games = -(-lower_bound // step) * step
    while True:
        for attempt in range(_COVER_ATTEMPTS):
            rounds = _build(entries, k, games, _derived_seed(seed, games, attempt), cover=True)
            never_met = sum(c == 0 for c in describe_balance(rounds).meetings.values())
            if never_met == 0:
                return rounds
            if never_met > _RETRY_IF_NEVER_MET:
                break  # too far: another try at this number of games would fail too
        # Each game more roughly halves the pairs left apart: when many are
        # left, skip the numbers of games that would fail as well.
        games += step * max(1, never_met.bit_length() // 3)


def _derived_seed(seed: int, games: int, attempt: int) -> int:
    return seed * 1_000_003 + games * 101 + attempt if attempt else seed


def _build(entries: list[int], k: int, games: int, seed: int, cover: bool = False) -> list[Round]:
    rng = random.Random(seed)
    n = len(entries)
    order = list(entries)
    rng.shuffle(order)
    playing = _playing_sets(n, k, games, rng)
    counts = [[0] * n for _ in range(n)]
    rounds = [_greedy_round(players, k, counts, rng) for players in playing]
    byes = [sorted(set(range(n)) - set(players)) for players in playing]
    cap = -(-games * (k - 1) // (n - 1))
    _improve_meetings(rounds, byes, counts, _ideal_cost(n, k, games), cap, rng, cover)
    seated = _balance_seats(rounds, n, k, rng)
    return [
        Round(
            number,
            tuple(Table(tuple(order[i] for i in t)) for t in tables),
            tuple(sorted(order[i] for i in out)),
        )
        for number, (tables, out) in enumerate(zip(seated, byes), start=1)
    ]


def _playing_sets(n: int, k: int, games: int, rng: random.Random) -> list[list[int]]:
    """Who plays in each round: everyone, or full tables with balanced byes."""
    per_round = n // k
    total = n * games // k
    rounds = -(-total // per_round)
    tables = [total // rounds + (r < total % rounds) for r in range(rounds)]
    rng.shuffle(tables)
    byes_left = [rounds - games] * n
    last_bye = [-1] * n
    sets = []
    for r, t in enumerate(tables):
        out = n - t * k
        # Those owing the most byes first (always feasible: all owe the same
        # to within one), then those who sat out longest ago.
        ranked = sorted(range(n), key=lambda e: (-byes_left[e], last_bye[e], rng.random()))
        sitting = set(ranked[:out])
        for e in sitting:
            byes_left[e] -= 1
            last_bye[e] = r
        sets.append([e for e in range(n) if e not in sitting])
    return sets


def _greedy_round(players: list[int], k: int, counts: list[list[int]], rng: random.Random) -> list[list[int]]:
    """Fill tables one by one with those who have met the table's players least."""
    left = list(players)
    rng.shuffle(left)
    tables = []
    while left:
        table = [left.pop()]
        while len(table) < k:
            best = min(range(len(left)), key=lambda i: sum(counts[left[i]][x] for x in table))
            table.append(left.pop(best))
        for a, b in combinations(table, 2):
            counts[a][b] += 1
            counts[b][a] += 1
        tables.append(table)
    return tables


def _ideal_cost(n: int, k: int, games: int) -> int:
    total = n * games * (k - 1) // 2
    pairs = n * (n - 1) // 2
    low, extra = divmod(total, pairs)
    return (pairs - extra) * low * low + extra * (low + 1) * (low + 1)


def _improve_meetings(
    rounds: list[list[list[int]]],
    byes: list[list[int]],
    counts: list[list[int]],
    target: int,
    cap: int,
    rng: random.Random,
    cover: bool,
) -> None:
    """Simulated annealing over two moves that keep everyone's number of games.

    - swap two entries between tables of one round: at random, or (half
      the tries) one of the two at a table who have met each other most,
      or, when `cover`, to seat together two who have never met;
    - exchange a player and a bye in one round, and the same two the other
      way round in another round (the only move when a round has one table).
    Cost (`_Costs`): the sum over pairs of meetings squared, plus a
    surcharge above ⌈λ⌉, or when `cover` a penalty per pair that never
    meets instead; the search stops at the lowest possible
    value (every pair meets ⌊λ⌋ or ⌈λ⌉ times), else ends with `_polish`
    for pairs meeting more than `cap` (⌈λ⌉) times.
    """
    n = len(counts)
    costs = _Costs.make(len(rounds), cap, cover)  # no pair meets more often than there are rounds
    cost = costs.total(counts)
    swappable = [r for r, tables in enumerate(rounds) if len(tables) > 1]
    with_byes = [r for r, out in enumerate(byes) if out]
    if cost <= target or not (swappable or with_byes):
        return
    where = [[-1] * n for _ in rounds]  # round -> entry -> its table's index, -1 for a bye
    for r, tables in enumerate(rounds):
        for t, table in enumerate(tables):
            for e in table:
                where[r][e] = t
    steps = min(_MAX_STEPS, max(_MIN_STEPS, _STEPS_PER_TABLE * sum(len(r) for r in rounds)))
    temperature = _FIRST_TEMPERATURE
    cooling = (_LAST_TEMPERATURE / _FIRST_TEMPERATURE) ** (1 / steps)
    for _ in range(steps):
        if with_byes and (not swappable or rng.random() < 0.5):
            delta = _exchange_byes(rounds, byes, with_byes, where, counts, rng, costs, temperature)
        else:
            move = _pick_swap(rounds, swappable, where, counts, rng, cover)
            delta = None if move is None else _swap_seats(rounds, where, counts, move, rng, costs, temperature)
        if delta is not None:
            cost += delta
            if cost <= target:
                return
        temperature *= cooling
    if swappable:
        _polish(rounds, swappable, where, counts, cap, costs)


def _accept(delta: int, rng: random.Random, temperature: float) -> bool:
    return delta <= 0 or rng.random() < math.exp(-delta / temperature)


@dataclass(frozen=True)
class _Costs:
    """The cost of a pair's meetings: squares, more above `cap`, and when
    `cover` a penalty for never meeting; `gain[c]` / `loss[c]` are the
    changes when a pair meeting c times meets once more / once less."""

    cover: bool
    gain: list[int]
    loss: list[int]

    @classmethod
    def make(cls, most: int, cap: int, cover: bool) -> _Costs:
        # Covering every pair may need some to meet often: no excess cost then.
        excess = 0 if cover else _EXCESS

        def f(c: int) -> int:
            return c * c + excess * max(0, c - cap) ** 2 + (_UNCOVERED if cover and c == 0 else 0)

        top = most + 2
        return cls(cover, [f(c + 1) - f(c) for c in range(top)], [0] + [f(c - 1) - f(c) for c in range(1, top)])

    def total(self, counts: list[list[int]]) -> int:
        """The cost of all pairs (the running cost starts here)."""
        gain = self.gain
        # f(c) as a sum of gains from 0, minus f(0) for the entries' zeros with themselves.
        prefix = [0]
        for g in gain:
            prefix.append(prefix[-1] + g)
        n = len(counts)
        zero = _UNCOVERED if self.cover else 0
        return (sum(prefix[c] + zero for row in counts for c in row) - n * zero) // 2


_Swap = tuple[int, int, int, int, int]  # round, table a, seat in a, table b, seat in b


def _pick_swap(
    rounds: list[list[list[int]]],
    swappable: list[int],
    where: list[list[int]],
    counts: list[list[int]],
    rng: random.Random,
    cover: bool,
) -> _Swap | None:
    kind = rng.random()
    if cover and kind < 0.25:
        return _pick_meeting(rounds, swappable, where, counts, rng)
    r = rng.choice(swappable)
    tables = rounds[r]
    ta, tb = rng.sample(range(len(tables)), 2)
    table_a = tables[ta]
    if kind < 0.5:
        # Move one of the two at this table who have met each other most.
        a = max(table_a, key=lambda e: max(counts[e][x] for x in table_a if x != e))
        ia = table_a.index(a)
    else:
        ia = rng.randrange(len(table_a))
    return r, ta, ia, tb, rng.randrange(len(tables[tb]))


def _pick_meeting(
    rounds: list[list[list[int]]],
    swappable: list[int],
    where: list[list[int]],
    counts: list[list[int]],
    rng: random.Random,
) -> _Swap | None:
    """A swap that seats together, in some round, two entries who have never met."""
    a = rng.randrange(len(counts))
    row = counts[a]
    never_met = [b for b, c in enumerate(row) if c == 0 and b != a]
    if not never_met:
        return None
    b = rng.choice(never_met)
    apart = [r for r in swappable if where[r][a] != where[r][b] and where[r][a] >= 0 and where[r][b] >= 0]
    if not apart:
        return None
    r = rng.choice(apart)
    ta, tb = where[r][a], where[r][b]
    table_a = rounds[r][ta]
    ia = rng.choice([i for i, x in enumerate(table_a) if x != a])
    return r, ta, ia, tb, rounds[r][tb].index(b)


def _swap_seats(
    rounds: list[list[list[int]]],
    where: list[list[int]],
    counts: list[list[int]],
    move: _Swap,
    rng: random.Random,
    costs: _Costs,
    temperature: float,
) -> int | None:
    """Try swapping two entries of different tables; the cost's change if done."""
    r, ta, ia, tb, ib = move
    table_a, table_b = rounds[r][ta], rounds[r][tb]
    delta = _swap_delta(table_a, table_a[ia], table_b, table_b[ib], counts, costs)
    if not _accept(delta, rng, temperature):
        return None
    _apply_swap(rounds, where, counts, move)
    return delta


def _swap_delta(
    table_a: list[int], a: int, table_b: list[int], b: int, counts: list[list[int]], costs: _Costs
) -> int:
    row_a, row_b = counts[a], counts[b]
    gain, loss = costs.gain, costs.loss
    delta = 0
    for x in table_a:
        if x != a:
            delta += gain[row_b[x]] + loss[row_a[x]]
    for y in table_b:
        if y != b:
            delta += gain[row_a[y]] + loss[row_b[y]]
    return delta


def _apply_swap(rounds: list[list[list[int]]], where: list[list[int]], counts: list[list[int]], move: _Swap) -> None:
    r, ta, ia, tb, ib = move
    table_a, table_b = rounds[r][ta], rounds[r][tb]
    a, b = table_a[ia], table_b[ib]
    row_a, row_b = counts[a], counts[b]
    for x in table_a:
        if x != a:
            row_a[x] -= 1; counts[x][a] -= 1; row_b[x] += 1; counts[x][b] += 1  # noqa: E702
    for y in table_b:
        if y != b:
            row_b[y] -= 1; counts[y][b] -= 1; row_a[y] += 1; counts[y][a] += 1  # noqa: E702
    table_a[ia], table_b[ib] = b, a
    where[r][a], where[r][b] = tb, ta


def _polish(
    rounds: list[list[list[int]]],
    swappable: list[int],
    where: list[list[int]],
    counts: list[list[int]],
    cap: int,
    costs: _Costs,
) -> int:
    """Steepest descent for whoever still meets someone more than `cap` times.

    Tries every swap of such an entry within its round and makes the best
    one that lowers the cost; the total change of the cost.
    """
    change = 0
    for _ in range(_POLISH_PASSES):
        improved = False
        for r in swappable:
            tables = rounds[r]
            for ta, table_a in enumerate(tables):
                for ia in range(len(table_a)):
                    a = table_a[ia]
                    if max(counts[a][x] for x in table_a if x != a) <= cap:
                        continue
                    best, move = 0, None
                    for tb, table_b in enumerate(tables):
                        if tb != ta:
                            for ib, b in enumerate(table_b):
                                delta = _swap_delta(table_a, a, table_b, b, counts, costs)
                                if delta < best:
                                    best, move = delta, (r, ta, ia, tb, ib)
                    if move is not None:
                        _apply_swap(rounds, where, counts, move)
                        change += best
                        improved = True
        if not improved:
            break
    return change


def _exchange_byes(
    rounds: list[list[list[int]]],
    byes: list[list[int]],
    with_byes: list[int],
    where: list[list[int]],
    counts: list[list[int]],
    rng: random.Random,
    costs: _Costs,
    temperature: float,
) -> int | None:
    """Try: b plays for a in one round, a for b in another; the cost's change if done."""
    r = rng.choice(with_byes)
    tables = rounds[r]
    table = rng.choice(tables)
    i = rng.randrange(len(table))
    a, b = table[i], rng.choice(byes[r])
    others = [s for s in with_byes if a in byes[s] and b not in byes[s]]
    if not others:
        return None
    s = rng.choice(others)
    other = next(t for t in rounds[s] if b in t)
    j = other.index(b)
    delta = _replace(table, i, b, counts, costs) + _replace(other, j, a, counts, costs)
    if not _accept(delta, rng, temperature):
        _replace(other, j, b, counts, costs)
        _replace(table, i, a, counts, costs)
        return None
    byes[r][byes[r].index(b)] = a
    byes[s][byes[s].index(a)] = b
    where[r][b], where[r][a] = where[r][a], -1
    where[s][a], where[s][b] = where[s][b], -1
    return delta


def _replace(table: list[int], i: int, new: int, counts: list[list[int]], costs: _Costs) -> int:
    """Seat `new` in place of table[i]; the change of the cost."""
    old = table[i]
    row_old, row_new = counts[old], counts[new]
    delta = 0
    for x in table:
        if x != old:
            delta += costs.gain[row_new[x]] + costs.loss[row_old[x]]
            row_old[x] -= 1; counts[x][old] -= 1; row_new[x] += 1; counts[x][new] += 1  # noqa: E702
    table[i] = new
    return delta


def _balance_seats(
    rounds: list[list[list[int]]], n: int, k: int, rng: random.Random
) -> list[list[list[int]]]:
    """Order each table so every entry's counts per seat differ by at most one.

    Greedy first, then de Werra's method: while some entry sits at seat p at
    least twice more than at seat q, re-orient the (p, q) seats of every
    table along Euler circuits, which evens p and q for everyone at once.
    """
    seat_counts = [[0] * k for _ in range(n)]
    seated = []
    for tables in rounds:
        ordered = []
        for table in tables:
            order = [None] * k
            for e in sorted(table, key=lambda e: (-max(seat_counts[e]), rng.random())):
                free = [p for p in range(k) if order[p] is None]
                p = min(free, key=lambda p: (seat_counts[e][p], rng.random()))
                order[p] = e
                seat_counts[e][p] += 1
            ordered.append(order)
        seated.append(ordered)
    _equalize_seats([t for tables in seated for t in tables], seat_counts, k)
    return seated


def _equalize_seats(tables: list[list[int]], seat_counts: list[list[int]], k: int) -> None:
    while True:
        uneven = _uneven_seats(seat_counts, k)
        if uneven is None:
            return
        _even_two_seats(tables, seat_counts, *uneven)


def _uneven_seats(seat_counts: list[list[int]], k: int) -> tuple[int, int] | None:
    for row in seat_counts:
        hi, lo = max(range(k), key=row.__getitem__), min(range(k), key=row.__getitem__)
        if row[hi] - row[lo] >= 2:
            return hi, lo
    return None


def _even_two_seats(tables: list[list[int]], seat_counts: list[list[int]], p: int, q: int) -> None:
    """Orient each table's (p, q) seats so every entry's p and q counts differ by ≤ 1."""
    edges = [(t[p], t[q]) for t in tables]
    adjacency: dict[int, list[int]] = {}
    for i, (u, v) in enumerate(edges):
        adjacency.setdefault(u, []).append(i)
        adjacency.setdefault(v, []).append(i)
    dummy = -1
    ends = list(edges)
    for vertex in [v for v, es in adjacency.items() if len(es) % 2]:
        ends.append((vertex, dummy))
        adjacency[vertex].append(len(ends) - 1)
        adjacency.setdefault(dummy, []).append(len(ends) - 1)
    used = [False] * len(ends)
    pointer = dict.fromkeys(adjacency, 0)
    for start in list(adjacency):
        # Walk trails from `start` (Hierholzer without splicing: each walk is
        # closed, so every vertex is left as often as it is entered).
        while pointer[start] < len(adjacency[start]):
            vertex = start
            while True:
                edge_ids = adjacency[vertex]
                while pointer[vertex] < len(edge_ids) and used[edge_ids[pointer[vertex]]]:
                    pointer[vertex] += 1
                if pointer[vertex] == len(edge_ids):
                    break
                i = edge_ids[pointer[vertex]]
                used[i] = True
                u, v = ends[i]
                nxt = v if u == vertex else u
                if i < len(tables):
                    _orient(tables[i], seat_counts, p, q, first=vertex)
                vertex = nxt


def _orient(table: list[int], seat_counts: list[list[int]], p: int, q: int, first: int) -> None:
    if table[p] != first:
        a, b = table[p], table[q]
        table[p], table[q] = b, a
        seat_counts[a][p] -= 1; seat_counts[a][q] += 1  # noqa: E702
        seat_counts[b][q] -= 1; seat_counts[b][p] += 1  # noqa: E702


# --- Durak 2×2: pairs ----------------------------------------------------------


def expand_pair_table(table: Table, pairs: Mapping[int, Sequence[int]], turn: int = 0) -> Table:
    """A table of two pair entries as four player seats: pair A at 0 and 2, pair B at 1 and 3.

    `turn` picks which partner takes the pair's first seat (even: the first
    listed), so partners can take turns moving first.
    """
    if len(table.seats) != 2:
        raise ValueError("A pairs table seats exactly two pairs.")
    members = []
    for entry in table.seats:
        pair = pairs.get(entry)
        if pair is None or len(pair) != 2:
            raise ValueError(f"Entry {entry} is not a registered pair of two players.")
        members.append(tuple(pair) if turn % 2 == 0 else (pair[1], pair[0]))
    (a1, a2), (b1, b2) = members
    return Table((a1, b1, a2, b2))


def expand_pairs(schedule: Sequence[Round], pairs: Mapping[int, Sequence[int]]) -> list[Round]:
    """A pairs schedule as player seats; within each pair the partners alternate seats 0/1 and 2/3."""
    played: dict[int, int] = {}
    result = []
    for rnd in schedule:
        tables = []
        for table in rnd.tables:
            a, b = table.seats
            first = expand_pair_table(Table((a, b)), pairs, played.get(a, 0))
            second = expand_pair_table(Table((a, b)), pairs, played.get(b, 0))
            tables.append(Table((first.seats[0], second.seats[1], first.seats[2], second.seats[3])))
            played[a] = played.get(a, 0) + 1
            played[b] = played.get(b, 0) + 1
        result.append(Round(rnd.number, tuple(tables), rnd.byes))
    return result


# --- balance -------------------------------------------------------------------


@dataclass(frozen=True)
class Balance:
    """How even a schedule is: what tests and the league page show."""

    games: dict[int, int]  # entry -> games played
    byes: dict[int, int]  # entry -> rounds sat out
    meetings: dict[tuple[int, int], int]  # (lower id, higher id) -> times at one table
    seats: dict[int, tuple[int, ...]]  # entry -> games at seat 0, 1, ...
    twice_in_a_round: tuple[int, ...]  # entries seated twice in one round (should be none)

    @property
    def games_min(self) -> int:
        return min(self.games.values(), default=0)

    @property
    def games_max(self) -> int:
        return max(self.games.values(), default=0)

    @property
    def meetings_min(self) -> int:
        return min(self.meetings.values(), default=0)

    @property
    def meetings_max(self) -> int:
        return max(self.meetings.values(), default=0)

    @property
    def meetings_spread(self) -> int:
        return self.meetings_max - self.meetings_min

    @property
    def seat_spread(self) -> int:
        """The largest difference, for any entry, between its most and least used seats."""
        return max((max(c) - min(c) for c in self.seats.values()), default=0)


def describe_balance(schedule: Iterable[Round]) -> Balance:
    """Counts over a schedule: games and byes per entry, meetings per pair, seats per entry."""
    schedule = list(schedule)
    width = max((len(t.seats) for r in schedule for t in r.tables), default=0)
    seated = {e for r in schedule for t in r.tables for e in t.seats}
    entries = sorted(seated | {e for r in schedule for e in r.byes})
    games = dict.fromkeys(entries, 0)
    byes = dict.fromkeys(entries, 0)
    meetings = {pair: 0 for pair in combinations(entries, 2)}
    seats = {e: [0] * width for e in entries}
    twice: set[int] = set()
    for rnd in schedule:
        seen: set[int] = set()
        for e in rnd.byes:
            byes[e] += 1
        for table in rnd.tables:
            for position, e in enumerate(table.seats):
                games[e] += 1
                seats[e][position] += 1
                if e in seen:
                    twice.add(e)
                seen.add(e)
            for a, b in combinations(sorted(set(table.seats)), 2):
                meetings[a, b] += 1
        twice.update(seen & set(rnd.byes))
    return Balance(
        games=games,
        byes=byes,
        meetings=meetings,
        seats={e: tuple(c) for e, c in seats.items()},
        twice_in_a_round=tuple(sorted(twice)),
    )
