"""Swiss standings: points, then the organizer's tie-breaks, in his order.

Pure Python, no Django. Points per game come from the standings engine of
the leagues (`scoresheets.standings.PointsRule`): a table of n players gives
place p the points (n - p) / (n - 1) (two players: 1 / ½ / 0; four: 1, ⅔,
⅓, 0); players sharing places share their points. A forfeit (time run out,
a player who left) is his loss: at a two-player table the opponent wins.
A bye is worth its points (`Bye.points`: a pairing bye a win at two-player
tables and the table average, ½, at larger ones; a late entry ½).

Tie-breaks (`TIEBREAKS`), each applied inside the groups that every earlier
one left tied, higher first:
- "buchholz": the sum of the final points of everyone he sat with (at a
  table of k, his k - 1 table-mates). A bye counts as a virtual opponent
  (FIDE 2012): one whose points are the player's own points before that
  round, plus what he did not get from the bye (1 - its points), plus ½
  for every round after it; at tables of k, k - 1 such table-mates.
- "median_buchholz": the same without the round that gave most and the
  round that gave least (with three rounds or more).
- "sonneborn_berger": over every table-mate (and virtual opponent), his
  final points times the result against him: 1 finished ahead, ½ level,
  0 behind (a bye: its points).
- "direct": among the tied group only, the points of the games between its
  members, each game scored as a game of the members present.
- "wins": games finished alone in first place (a forfeit win counts; a bye
  does not).
- "rating": the rating at entry.
Then the starting number (better rating first) so no two share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoresheets.standings import PointsRule

TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger", "direct", "wins", "rating")


@dataclass(frozen=True)
class Player:
    id: int
    name: str = ""
    number: int = 0
    rating: float = 0.0
    withdrawn: bool = False


@dataclass(frozen=True)
class Game:
    round: int
    places: Mapping[int, int]  # entry id -> place (1 best)
    forfeits: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Bye:
    round: int
    entry: int
    points: Fraction


@dataclass
class Row:
    entry_id: int
    name: str
    rank: int
    points: float
    tiebreaks: dict[str, float | None]
    played: int
    byes: int
    withdrawn: bool
    by_round: dict[int, float] = field(default_factory=dict)
    reached: int | None = None  # a knockout cup: the round he went out in


def validate_chain(chain: Sequence[str]) -> tuple[str, ...]:
    keys = tuple(chain)
    unknown = [k for k in keys if k not in TIEBREAKS]
    if unknown or len(set(keys)) != len(keys):
        raise ValueError(f"Unknown or repeated tie-break: {', '.join(unknown or keys)}.")
    return keys


def game_points(game: Game) -> dict[int, Fraction]:
    """Each entry's points in one game; a forfeiter is last, alone."""
    places = dict(game.places)
    if game.forfeits:
        worst = max(places.values()) + 1
        places = {e: (worst if e in game.forfeits else 1 if len(places) == 2 else p) for e, p in places.items()}
    return PointsRule().game_points(places)


def standings(players: Sequence[Player], games: Sequence[Game], byes: Sequence[Bye], rounds: int,
              chain: Sequence[str] = TIEBREAKS, table_size: int = 2) -> list[Row]:
    keys = validate_chain(chain)
    ids = {p.id for p in players}
    by_round: dict[int, dict[int, Fraction]] = defaultdict(dict)
    scored = [(g, game_points(g)) for g in games]
    for game, points in scored:
        for entry, value in points.items():
            if entry in ids:
                by_round[entry][game.round] = by_round[entry].get(game.round, 0) + value
    for bye in byes:
        by_round[bye.entry][bye.round] = by_round[bye.entry].get(bye.round, 0) + bye.points
    total = {p.id: sum(by_round[p.id].values(), Fraction(0)) for p in players}
    contributions = _contributions(players, scored, byes, total, by_round, rounds, table_size)
    values: dict[str, dict[int, Fraction | float]] = {
        "buchholz": {p.id: sum((c for _r, c, _s in contributions[p.id]), Fraction(0)) for p in players},
        "median_buchholz": {p.id: _median(contributions[p.id]) for p in players},
        "sonneborn_berger": {p.id: sum((s for _r, _c, s in contributions[p.id]), Fraction(0)) for p in players},
        "wins": {p.id: sum(1 for g, pts in scored if pts.get(p.id) == 1 and len(g.places) > 1
                           and list(pts.values()).count(1) == 1) for p in players},
        "rating": {p.id: p.rating for p in players},
    }
    order = _rank(list(players), total, values, keys, scored)
    rows = []
    for rank, (player, direct) in enumerate(order, start=1):
        tiebreaks = {k: (direct if k == "direct" else float(values[k][player.id])) for k in keys}
        rows.append(Row(entry_id=player.id, name=player.name, rank=rank, points=float(total[player.id]),
                        tiebreaks=tiebreaks, played=sum(1 for g, _p in scored if player.id in g.places),
                        byes=sum(1 for b in byes if b.entry == player.id), withdrawn=player.withdrawn,
                        by_round={r: float(v) for r, v in by_round[player.id].items()}))
    return rows


def _contributions(players, scored, byes, total, by_round, rounds, table_size):
    """{entry: [(round, Buchholz part, Sonneborn-Berger part)]}, one per round played or bye."""
    out: dict[int, list] = defaultdict(list)
    for game, points in scored:
        for entry in game.places:
            if entry not in total:
                continue
            buchholz = sonneborn = Fraction(0)
            for other in game.places:
                if other == entry or other not in total:
                    continue
                mine, theirs = points[entry], points[other]
                result = Fraction(1) if mine > theirs else Fraction(1, 2) if mine == theirs else Fraction(0)
                buchholz += total[other]
                sonneborn += total[other] * result
            out[entry].append((game.round, buchholz, sonneborn))
    for bye in byes:
        if bye.entry not in total:
            continue
        before = sum((v for r, v in by_round[bye.entry].items() if r < bye.round), Fraction(0))
        virtual = before + (1 - bye.points) + Fraction(1, 2) * max(0, rounds - bye.round)
        mates = table_size - 1
        out[bye.entry].append((bye.round, virtual * mates, virtual * bye.points * mates))
    return out


def _median(parts: list) -> Fraction:
    values = sorted(c for _r, c, _s in parts)
    if len(values) >= 3:
        values = values[1:-1]
    return sum(values, Fraction(0))


def _rank(players, total, values, keys, scored):
    """[(player, his direct-encounter value or None)] best first."""
    direct: dict[int, float | None] = {}

    def split(group: list, depth: int) -> list:
        if len(group) <= 1 or depth == len(keys):
            return sorted(group, key=lambda p: p.number or p.id)
        key = keys[depth]
        if key == "direct":
            mini = _direct(group, scored)
            direct.update({p.id: float(mini[p.id]) for p in group})
            score = mini
        else:
            score = values[key]
        out = []
        for value in sorted({score[p.id] for p in group}, reverse=True):
            out += split([p for p in group if score[p.id] == value], depth + 1)
        return out

    ordered = []
    for value in sorted(set(total.values()), reverse=True):
        ordered += split([p for p in players if total[p.id] == value], 0)
    return [(p, direct.get(p.id)) for p in ordered]


def _direct(group, scored) -> dict[int, Fraction]:
    members = {p.id for p in group}
    mini = {p.id: Fraction(0) for p in group}
    for game, _points in scored:
        present = {e: place for e, place in game.places.items() if e in members}
        if len(present) < 2:
            continue
        sub = Game(game.round, present, frozenset(game.forfeits) & members)
        for entry, value in game_points(sub).items():
            mini[entry] += value
    return mini
