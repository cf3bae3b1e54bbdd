"""A league table: points from the final places of the games, then tie-breaks.

Pure Python, no Django and no database: the services hand in plain
dataclasses (entries, game results, the schedule) and get back the table's
rows. Everything that decides an order is computed exactly (fractions kept
as integers over a common denominator, game scores summed as decimals),
so two entries that tie on paper tie here too; the rows carry floats for
display.

Points per game. Only the order of the place numbers counts: {a: 1, b: 1,
c: 3} and {a: 1, b: 1, c: 2} both mean a and b jointly occupy the first two
places and c the third. A game of n players gives place p (1 best) the
points (n - p) / (n - 1) by default (two players: 1 / ½ / 0), or the league's
explicit list (index 0 = 1st place); players who share places share the
points of the places they jointly occupy (the average).

Tie-breaks (`TIEBREAKS`), applied in the league's order after the points,
each one only inside the groups that every earlier key left tied, higher
values first except "lot":
- "wins": games the entry finished alone in first place (Baumbach); a shared
  first place (a two-player draw) is not a win.
- "sonneborn_berger": over every game, the sum over the opponents of the
  opponent's final league points x the result against him (1 finished
  ahead, ½ level, 0 behind): the chess Neustadtl score for two players.
- "direct": the mini-table of the tied group. Every game in which at least
  two members of the group played counts; the places of the members present
  (their relative order in that game) give them points by the league's rule
  for that many players (two present: 1 / ½ / 0; an explicit list: its
  first k values). It is computed once, for the group tied when the key is
  reached (not re-applied to what is still tied after it); an entry already
  alone in its group has no value (None).
  At tables of 3 to 6 the tied players seldom all meet at one table: each
  game counts for the members who sat at it, as a game of only them (the
  other players of the table, and the members absent from it, are left
  out), so two members at a table of four are scored as a two-player game
  by who finished ahead of whom, and three at one table as a three-player
  game. Worked example (tables of four, default points 1, ⅔, ⅓, 0; A, B
  and C tied on 2⅓ league points; X, Y, Z others):
      game 1: A 1st, B 2nd (X, Y 3rd, 4th)    -> A 1, B 0
      game 2: B 1st, C 2nd (X, Z)             -> B 1, C 0
      game 3: A 1st, C 2nd (Y, Z)             -> A 1, C 0
      game 4: C 1st, B 2nd, A 3rd (X 4th)     -> C 1, B ½, A 0
  mini-table: A 2, B 1½, C 1, so A is above B above C
  (tests/scoresheets/test_direct_encounters_at_bigger_tables.py). With an
  explicit list, such as 3, 1, 0, 0, two members present take its first two
  values (3 and 1) and three its first three (3, 1, 0).
- "game_score": the sum of the game scores given in the input (e.g. Joker
  points).
- "last_seat_results": the league points earned in the games where the
  entry sat in the seat that moves last (the analogue of "games with Black").
- "rating": the rating at the start of the season.
- "lot": sha256(f"{seed}:{entry_id}") as hex, ascending first; never ties.

Guests. A game may list places of players who are not entries of the table
(`GameResult.guests`: a seat given to a substitute from outside, whose
results pass to him). They count for the others' places and points as any
player (a guest ahead of you is a player ahead of you) and have no row; in
Sonneborn–Berger a guest's final league points are 0 (he has no standing).

Withdrawal. A game's `forfeits` are the entries whose result in it is a
forfeit for their withdrawal: a game they resigned on withdrawing, or a
table never started (`unplayed`) that the services score as their loss.
Either way the services hand in the same result (they share the last place,
everyone else the first, no game score): a forfeit is a forfeit, whether
its table had started. With `annul_withdrawn_below_half`, a withdrawn entry
that finished fewer than half the games drawn for it before withdrawing
(2 x (played - forfeits) < drawn) is annulled: it is removed from every game
it finished and the others keep their relative order in those games (shared
stays shared); every game that was its forfeit, and a game left with fewer
than two players, is void: it counts neither as played nor as scheduled for
the ones left. Annulled entries come last, unranked (rank None), with no
points; their row's `played` counts the games they finished. Otherwise a
withdrawn entry stays in the table with its games, the forfeits among them;
each row counts the games it lost and won by forfeit.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

POINTS = "points"
TIEBREAKS = ("wins", "sonneborn_berger", "direct", "game_score", "last_seat_results", "rating", "lot")
DEFAULT_CHAIN = ("wins", "sonneborn_berger", "direct", "game_score", "lot")


@dataclass(frozen=True)
class Entry:
    """A player, or a pair in a game of pairs, in one division's table."""

    id: int
    name: str = ""
    rating: float = 0.0
    withdrawn: bool = False


@dataclass(frozen=True)
class GameResult:
    """A finished game: each entry's final place (1 best, ties allowed)."""

    game_id: int
    places: Mapping[int, int]
    scores: Mapping[int, float] = field(default_factory=dict)
    last_seat: int | None = None  # the entry in the seat that moves last
    # Ids in `places` that are not entries of the table: a seat whose result
    # went to a substitute from outside (a computer, an outsider).
    guests: frozenset[int] = frozenset()
    # Entries whose result here is a forfeit for their withdrawal (see the module's "Withdrawal").
    forfeits: frozenset[int] = frozenset()
    unplayed: bool = False  # a table never started, scored as the forfeits' loss


@dataclass(frozen=True)
class PointsRule:
    """League points per place: (n - place) / (n - 1) unless `per_place` is given."""

    per_place: Sequence[float] | None = None  # kept as a tuple

    def __post_init__(self) -> None:
        if self.per_place is None:
            return
        values = tuple(self.per_place)
        if len(values) < 2:
            raise ValueError("The points per place need at least two places.")
        for value in values:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"The points per place must be numbers, not {value!r}.")
        if any(later > earlier for earlier, later in zip(values, values[1:])):
            raise ValueError("The points per place must not grow from one place to the next.")
        object.__setattr__(self, "per_place", values)

    def shares(self, sizes: tuple[int, ...]) -> tuple[Fraction, ...]:
        """The points of each group of players sharing places, best group first,
        in a game whose groups have these sizes (e.g. (1, 2, 1): one first, two
        sharing 2nd-3rd, one last)."""
        return _shares(self.per_place, sizes)  # type: ignore[arg-type]

    def game_points(self, places: Mapping[int, int]) -> dict[int, Fraction]:
        """Each entry's league points in one game, from its final places."""
        groups = _groups(places)
        shares = self.shares(tuple(len(group) for group in groups))
        return {entry: share for group, share in zip(groups, shares) for entry in group}


@dataclass(frozen=True)
class Row:
    """One line of the table. `separated_by`: the first key ("points" or a
    tie-break) that ranks the row above higher than this one; None for the
    first row, a row sharing the rank above, and annulled entries.
    `tiebreaks` has a value per key of the chain (floats; the lot's hex
    string; None for "direct" when the entry was already alone, and for
    every key of an annulled entry). `played` and `scheduled` leave out the
    games voided by an annulment."""

    entry_id: int
    name: str
    rank: int | None
    played: int
    left: int
    scheduled: int
    points: float
    tiebreaks: dict[str, float | str | None]
    separated_by: str | None
    withdrawn: bool = False
    annulled: bool = False
    forfeits_lost: int = 0  # games counted as lost by forfeit (the entry withdrew)
    forfeits_won: int = 0  # games whose result came from another entry's forfeit


def validate_chain(chain: Iterable[str]) -> tuple[str, ...]:
    """The tie-break keys in order; a leading "points" is allowed and dropped."""
    keys = list(chain)
    if keys and keys[0] == POINTS:
        keys = keys[1:]
    for key in keys:
        if key == POINTS:
            raise ValueError('"points" always comes first and only there in the tie-break chain.')
        if key not in TIEBREAKS:
            raise ValueError(f"Unknown tie-break {key!r}: choose from {', '.join(TIEBREAKS)}.")
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    if duplicates:
        raise ValueError(f"Tie-break listed twice: {', '.join(duplicates)}.")
    return tuple(keys)


def lot_value(seed: str, entry_id: int) -> str:
    """The entry's lot: lower draws the better place."""
    return hashlib.sha256(f"{seed}:{entry_id}".encode()).hexdigest()


def standings(
    entries: Sequence[Entry],
    games: Iterable[GameResult],
    scheduled: Mapping[int, int],
    chain: Sequence[str] = DEFAULT_CHAIN,
    seed: str = "",
    points: PointsRule | None = None,
    annul_withdrawn_below_half: bool = False,
    drawn: Mapping[int, int] | None = None,
) -> list[Row]:
    """The table, best first: ranked entries (those sharing a rank by name,
    then id), then annulled ones. `scheduled` gives every entry's number of
    scheduled games (played ones included). `drawn`: the games the schedule
    gave each entry at the draw, before any went to a substitute (the
    measure of "half his games" for an annulment; default `scheduled`).
    ValueError on bad input."""
    keys = validate_chain(chain)
    rule = points or PointsRule()
    by_id = _entries_by_id(entries)
    games = list(games)
    raw_played = _validate_games(games, by_id, rule)
    _validate_schedule(by_id, scheduled, raw_played)
    forfeited = _DefaultZero()
    for game in games:
        for entry in game.forfeits:
            forfeited[entry] += 1
    annulled = {
        e.id for e in entries
        if annul_withdrawn_below_half and e.withdrawn
        and 2 * (raw_played[e.id] - forfeited[e.id]) < (drawn or scheduled).get(e.id, scheduled[e.id])
    }
    table = _Table(games, annulled, rule)
    ranked = [e for e in entries if e.id not in annulled]
    values, tied_groups = _rank(ranked, table, keys, seed)

    rows: list[Row] = []
    for group, separated_by in tied_groups:
        rank = len(rows) + 1
        for position, entry_id in enumerate(sorted(group, key=lambda i: (by_id[i].name, i))):
            entry = by_id[entry_id]
            rows.append(Row(
                entry_id=entry_id, name=entry.name, rank=rank,
                played=raw_played[entry_id] - table.voided[entry_id],
                left=scheduled[entry_id] - raw_played[entry_id],
                scheduled=scheduled[entry_id] - table.voided[entry_id],
                points=float(values[POINTS][entry_id]),  # type: ignore[arg-type]
                tiebreaks={key: _display(values[key].get(entry_id)) for key in keys},
                separated_by=separated_by if position == 0 else None,
                withdrawn=entry.withdrawn,
                forfeits_lost=table.forfeits_lost[entry_id], forfeits_won=table.forfeits_won[entry_id],
            ))
    for entry in sorted((by_id[i] for i in annulled), key=lambda e: (e.name, e.id)):
        rows.append(Row(
            entry_id=entry.id, name=entry.name, rank=None, played=raw_played[entry.id] - forfeited[entry.id],
            left=scheduled[entry.id] - raw_played[entry.id], scheduled=scheduled[entry.id],
            points=0.0, tiebreaks=dict.fromkeys(keys), separated_by=None,
            withdrawn=entry.withdrawn, annulled=True,
        ))
    return rows


def _display(value: object) -> float | str | None:
    if value is None or isinstance(value, str):
        return value
    return float(value)  # type: ignore[arg-type]


# ---------------------------------------------------------------- points rule


@lru_cache(maxsize=4096)
def _shares(per_place: tuple[float, ...] | None, sizes: tuple[int, ...]) -> tuple[Fraction, ...]:
    n = sum(sizes)
    if per_place is None:
        if n < 2:
            raise ValueError("A game needs at least two players.")
        place_points = [Fraction(n - 1 - i, n - 1) for i in range(n)]
    else:
        if n > len(per_place):
            raise ValueError(f"The points per place list {len(per_place)} places, but a game has {n} players.")
        place_points = [Fraction(str(value)) for value in per_place[:n]]
    shares, start = [], 0
    for size in sizes:
        shares.append(sum(place_points[start:start + size], Fraction(0)) / size)
        start += size
    return tuple(shares)


def _groups(places: Mapping[int, int]) -> list[list[int]]:
    """The entries in finishing order, those sharing a place together."""
    ordered = sorted(places.items(), key=lambda item: (item[1], item[0]))
    groups: list[list[int]] = []
    last = None
    for entry, place in ordered:
        if place != last:
            groups.append([])
            last = place
        groups[-1].append(entry)
    return groups


class _Scaled:
    """Points of many games as integers over one common denominator."""

    def __init__(self, rule: PointsRule, patterns: Iterable[tuple[int, ...]]):
        shares = {pattern: rule.shares(pattern) for pattern in set(patterns)}
        self.denominator = math.lcm(1, *(s.denominator for values in shares.values() for s in values))
        self.table = {
            pattern: tuple(s.numerator * (self.denominator // s.denominator) for s in values)
            for pattern, values in shares.items()
        }

    def fraction(self, scaled: int) -> Fraction:
        return Fraction(scaled, self.denominator)


# ---------------------------------------------------------------- validation


def _entries_by_id(entries: Sequence[Entry]) -> dict[int, Entry]:
    by_id: dict[int, Entry] = {}
    for entry in entries:
        if entry.id in by_id:
            raise ValueError(f"Entry {entry.id} is listed twice.")
        if isinstance(entry.rating, bool) or not isinstance(entry.rating, (int, float)) \
                or not math.isfinite(entry.rating):
            raise ValueError(f"The rating of entry {entry.id} must be a number.")
        by_id[entry.id] = entry
    return by_id


def _validate_games(games: list[GameResult], by_id: Mapping[int, Entry], rule: PointsRule) -> dict[int, int]:
    """How many games each entry played, after checking every game."""
    played = dict.fromkeys(by_id, 0)
    seen: set[int] = set()
    for game in games:
        if game.game_id in seen:
            raise ValueError(f"Game {game.game_id} is listed twice.")
        seen.add(game.game_id)
        if len(game.places) < 2:
            raise ValueError(f"Game {game.game_id} has fewer than two players.")
        if game.guests & by_id.keys() or not game.guests <= game.places.keys():
            raise ValueError(f"Game {game.game_id}: a guest must be a player of the game and not an entry.")
        for entry, place in game.places.items():
            if entry not in by_id and entry not in game.guests:
                raise ValueError(f"Game {game.game_id} names entry {entry}, which is not in the table.")
            if isinstance(place, bool) or not isinstance(place, int) or place < 1:
                raise ValueError(f"Game {game.game_id}: the place of entry {entry} must be a whole number from 1.")
            if entry in by_id:
                played[entry] += 1
        strangers = set(game.scores) - set(game.places)
        if strangers:
            raise ValueError(f"Game {game.game_id} has scores for entries without a place: {sorted(strangers)}.")
        for entry, score in game.scores.items():
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not math.isfinite(score):
                raise ValueError(f"Game {game.game_id}: the game score of entry {entry} must be a number.")
        if not game.forfeits <= game.places.keys() - game.guests:
            raise ValueError(f"Game {game.game_id}: a forfeit must be an entry that played it.")
        if game.last_seat is not None and game.last_seat not in game.places:
            raise ValueError(f"Game {game.game_id}: the last seat's entry {game.last_seat} did not play it.")
        if rule.per_place is not None and len(game.places) > len(rule.per_place):
            raise ValueError(
                f"Game {game.game_id} has {len(game.places)} players but the points per place "
                f"list only {len(rule.per_place)} places."
            )
    return played


def _validate_schedule(by_id: Mapping[int, Entry], scheduled: Mapping[int, int], played: Mapping[int, int]) -> None:
    for entry_id in by_id:
        if entry_id not in scheduled:
            raise ValueError(f"No scheduled number of games for entry {entry_id}.")
        count = scheduled[entry_id]
        if isinstance(count, bool) or not isinstance(count, int) or count < played[entry_id]:
            raise ValueError(
                f"Entry {entry_id} played {played[entry_id]} games but has {count!r} scheduled."
            )


# ---------------------------------------------------------------- the table


def _decimal(score: float) -> Decimal:
    """A game score as written (0.1 is one tenth), so that equal sums tie."""
    return Decimal(repr(score))


class _DefaultZero(dict):
    def __missing__(self, key: int) -> int:
        return 0


class _Table:
    """The games as they count (annulled entries removed, void games dropped),
    and every value that does not depend on who is tied with whom."""

    def __init__(self, games: list[GameResult], annulled: set[int], rule: PointsRule):
        self.rule = rule
        self.voided: dict[int, int] = _DefaultZero()
        self.forfeits_lost: dict[int, int] = _DefaultZero()
        self.forfeits_won: dict[int, int] = _DefaultZero()
        # (groups in finishing order, their sizes, game) for the games that count
        self.games: list[tuple[list[list[int]], tuple[int, ...], GameResult]] = []
        for game in games:
            places = {e: p for e, p in game.places.items() if e not in annulled} if annulled else game.places
            if len(places) < 2 or game.forfeits & annulled:
                for entry in places:
                    self.voided[entry] += 1
                continue
            for entry in places:
                if entry in game.forfeits:
                    self.forfeits_lost[entry] += 1
                elif game.forfeits - annulled:
                    self.forfeits_won[entry] += 1
            groups = _groups(places)
            self.games.append((groups, tuple(len(g) for g in groups), game))
        self.scaled = _Scaled(rule, (sizes for _, sizes, _ in self.games))
        self.games_of: dict[int, list[int]] = {}
        for index, (groups, _, _) in enumerate(self.games):
            for group in groups:
                for entry in group:
                    self.games_of.setdefault(entry, []).append(index)
        self._totals()

    def _totals(self) -> None:
        points: dict[int, int] = _DefaultZero()
        wins: dict[int, int] = _DefaultZero()
        last_seat: dict[int, int] = _DefaultZero()
        scores: dict[int, Decimal] = _DefaultZero()
        table = self.scaled.table
        for groups, sizes, game in self.games:
            shares = table[sizes]
            for group, share in zip(groups, shares):
                for entry in group:
                    points[entry] += share
                    if entry == game.last_seat:
                        last_seat[entry] += share
                    if entry in game.scores:
                        scores[entry] += _decimal(game.scores[entry])
            if len(groups[0]) == 1:
                wins[groups[0][0]] += 1
        for _, _, game in self.games:
            for guest in game.guests:
                points.pop(guest, None)  # no standing: 0 in everyone's Sonneborn–Berger
        # Sonneborn-Berger, doubled so that "level" (½) stays whole: one pass over
        # the games once the final points are known.
        sb2: dict[int, int] = _DefaultZero()
        for groups, _, _ in self.games:
            group_points = [sum(points[e] for e in group) for group in groups]
            behind = sum(group_points)
            for group, level in zip(groups, group_points):
                behind -= level
                for entry in group:
                    sb2[entry] += 2 * behind + (level - points[entry])
        denominator = self.scaled.denominator
        self.points = points
        self.values: dict[str, Callable[[int], object]] = {
            POINTS: lambda e: Fraction(points[e], denominator),
            "wins": lambda e: wins[e],
            "sonneborn_berger": lambda e: Fraction(sb2[e], 2 * denominator),
            "game_score": lambda e: scores[e],
            "last_seat_results": lambda e: Fraction(last_seat[e], denominator),
        }

    def direct(self, group: Sequence[int]) -> dict[int, Fraction]:
        """The mini-table of the group: its members' points in the games that at
        least two of them played, by their order among themselves."""
        members = set(group)
        counts: dict[int, int] = {}
        for entry in group:
            for index in self.games_of.get(entry, ()):
                counts[index] = counts.get(index, 0) + 1
        encounters = []
        for index, count in counts.items():
            if count < 2:
                continue
            groups = [kept for g in self.games[index][0] if (kept := [e for e in g if e in members])]
            encounters.append((groups, tuple(len(g) for g in groups)))
        scaled = _Scaled(self.rule, (sizes for _, sizes in encounters))
        totals = dict.fromkeys(group, 0)
        for groups, sizes in encounters:
            for kept, share in zip(groups, scaled.table[sizes]):
                for entry in kept:
                    totals[entry] += share
        return {entry: scaled.fraction(total) for entry, total in totals.items()}


# ---------------------------------------------------------------- ranking


def _rank(
    entries: Sequence[Entry], table: _Table, keys: tuple[str, ...], seed: str
) -> tuple[dict[str, dict[int, object]], list[tuple[list[int], str | None]]]:
    """Split the entries key by key, each key only inside the groups still tied.
    Returns every key's values and the final tied groups in order, each with
    the key that split it from the group above (None for the first)."""
    ids = [e.id for e in entries]
    values: dict[str, dict[int, object]] = {}
    for key in (POINTS, *keys):
        if key == "direct":
            values[key] = {}
        elif key == "rating":
            values[key] = {e.id: e.rating for e in entries}
        elif key == "lot":
            values[key] = {i: lot_value(seed, i) for i in ids}
        else:
            values[key] = {i: table.values[key](i) for i in ids}

    groups: list[tuple[list[int], str | None]] = [(sorted(ids), None)] if ids else []
    for key in (POINTS, *keys):
        refined: list[tuple[list[int], str | None]] = []
        for group, separated_by in groups:
            if len(group) == 1:
                refined.append((group, separated_by))
                continue
            if key == "direct":
                values[key].update(table.direct(group))
            refined.extend(_split(group, separated_by, key, values[key]))
        groups = refined
    return values, groups


def _split(
    group: list[int], separated_by: str | None, key: str, values: Mapping[int, object]
) -> list[tuple[list[int], str | None]]:
    """The group split by one key, best first; the first part keeps the
    group's own separation, the others were separated by this key."""
    order = (lambda i: values[i]) if key == "lot" else (lambda i: -values[i])  # type: ignore[operator]
    parts: list[tuple[list[int], str | None]] = []
    previous = None
    for entry in sorted(group, key=order):
        value = order(entry)
        if parts and value == previous:
            parts[-1][0].append(entry)
        else:
            parts.append(([entry], key if parts else separated_by))
        previous = value
    return parts
