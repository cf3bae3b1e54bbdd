"""The cross-table: for each player (in the order of the standings) and
each round, what happened: the game (who else sat at it, by their rank in
the standings, the points won and a link to its record), a bye, or
nothing. A cup match of several games is one cell: its first game's link,
and the points of all its games (its decider too) once they are all over. Read from one history (`tournaments.pairing.history`), so the page
costs the same few queries at 50 entrants as at 1,000."""

from __future__ import annotations

from dataclasses import dataclass, field

from gameplay.models import Game
from tournaments import pairing, standings
from tournaments.models import Bye, Tournament


@dataclass
class Cell:
    points: float | None = None  # None: not finished (in play, or void)
    others: list[int] = field(default_factory=list)  # the table-mates' ranks
    game_id: int | None = None
    finished: bool = False
    forfeit: bool = False
    bye: str = ""  # "pairing" or "late"


@dataclass
class Line:
    row: standings.Row
    cells: list[Cell | None]


def cross_table(tournament: Tournament) -> tuple[list[standings.Row], list[Line], list[int]]:
    """(the standings, a line per player, the round numbers)."""
    its_history = pairing.history(tournament)
    _entries, _games, _byes, tables = its_history
    rows = pairing.standings_of(tournament, its_history)
    rank = {row.entry_id: row.rank for row in rows}
    numbers = sorted({t.round.number for t in tables})
    cells: dict[tuple[int, int], Cell] = {}
    for table in tables:
        game = table.game
        finished = game is not None and game.status == Game.Status.FINISHED
        for entry in table.seats:
            earlier = cells.get((entry, table.round.number))
            if earlier is not None:  # a cup match of several games: one cell, its first game, the match's points
                earlier.finished = earlier.finished and finished
                earlier.forfeit = earlier.forfeit or entry in table.forfeits
                continue
            cells[(entry, table.round.number)] = Cell(
                others=sorted(rank[e] for e in table.seats if e != entry and e in rank),
                game_id=game.pk if game else None, finished=finished, forfeit=entry in table.forfeits)
    for bye in Bye.objects.filter(round__tournament=tournament).select_related("round"):
        cells[(bye.entry_id, bye.round.number)] = Cell(bye=bye.kind)
        numbers = sorted({*numbers, bye.round.number})
    lines = []
    for row in rows:
        line = []
        for number in numbers:
            cell = cells.get((row.entry_id, number))
            if cell is not None and (cell.finished or cell.bye):
                cell.points = row.by_round.get(number, 0.0)
            line.append(cell)
        lines.append(Line(row, line))
    return rows, lines, numbers
