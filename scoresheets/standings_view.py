"""A division's standings as the page, the print and the CSV show them: the
table with a column per tie-break, "why A is above B" for every two players
next to each other, and the cross-table (the classic grid for two-player
leagues; for tables of more, each player's games with their places)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.utils.translation import gettext as _, gettext_lazy, ngettext, pgettext_lazy

from scoresheets.standings import PointsRule

# A tie-break named inside a sentence ("Olga is above Ivan on Sonneborn–Berger: ..."), as its own
# phrase in each language (a column's label, lower-cased, would spoil a proper name).
IN_SENTENCE = {
    "points": pgettext_lazy("ranked on", "points"),
    "wins": pgettext_lazy("ranked on", "the number of wins"),
    "sonneborn_berger": pgettext_lazy("ranked on", "the Sonneborn–Berger score"),
    "direct": pgettext_lazy("ranked on", "the direct encounters"),
    "game_score": pgettext_lazy("ranked on", "the game score"),
    "last_seat_results": pgettext_lazy("ranked on", "the results from the last seat"),
    "rating": pgettext_lazy("ranked on", "the rating at the start"),
}

# What each tie-break counts, said under the table.
MEANINGS = {
    "wins": gettext_lazy("games finished alone in first place; a shared first place (a draw) is not a win."),
    "sonneborn_berger": gettext_lazy("over every game, the opponents' final league points times the result "
                                     "against each (1 ahead, ½ level, 0 behind)."),
    "direct": gettext_lazy("the league points of the tied players' games against each other."),
    "game_score": gettext_lazy("the sum of the scores of the player's games."),
    "last_seat_results": gettext_lazy("the league points of the games where the player sat in the seat that moves last."),
    "rating": gettext_lazy("the player's rating at the start of the season."),
    "lot": gettext_lazy("drawn from the season's seed, see below; it never ties."),
}

# The standings CSV's columns: stable keys (the same in every language), numbers with a decimal
# point and an empty cell for none; the page says what each key means (`CSV_KEYS`).
CSV_FIXED = ("rank", "entry", "player", "played", "left", "points")
SUSPENDED = "suspended"  # leagues.models.Entry.Withdrawal.SUSPENDED: an entry withdrawn by a suspension

COLUMN_LABELS = {
    "points": gettext_lazy("Points"),
    "wins": gettext_lazy("Wins"),
    "sonneborn_berger": gettext_lazy("Sonneborn–Berger"),
    "direct": gettext_lazy("Direct encounters"),
    "game_score": gettext_lazy("Game score"),
    "last_seat_results": gettext_lazy("From the last seat"),
    "rating": gettext_lazy("Rating at the start"),
    "lot": gettext_lazy("Lot"),
}


@dataclass
class TableRow:
    rank: int | None
    entry_id: int
    name: str
    played: int
    left: int
    points: str
    values: list[str]
    why: str  # why the row above is above this one ("" when they share a rank or for the first row)
    withdrawn: bool
    annulled: bool
    suspended: bool = False  # withdrawn by a suspension of the account
    forfeits_lost: int = 0
    forfeits_won: int = 0
    cross: list = field(default_factory=list)  # grid cells (two players) or the player's games (more)


# The page shows the cross-table up to this size (its cells grow with the
# players squared and the games); a bigger one is a CSV download.
CROSS_TABLE_MAX_PLAYERS = 24
CROSS_TABLE_MAX_GAMES = 300


@dataclass
class StandingsTable:
    columns: list[tuple[str, str]]
    rows: list[TableRow]
    grid: bool  # a two-player league: the cross-table is a grid
    seed: str
    csv_header: list[str]
    csv_rows: list[list]
    cross_shown: bool = True  # the rows' `cross` are filled (False: too big for the page)
    lots: list[tuple[str, int, str]] = field(default_factory=list)  # (name, entry, lot) when the lot is a tie-break
    legend: list[tuple[str, str]] = field(default_factory=list)  # (label, what it counts) per tie-break


def cross_table_fits(standings) -> bool:
    return len(standings.rows) <= CROSS_TABLE_MAX_PLAYERS and len(standings.games) <= CROSS_TABLE_MAX_GAMES


def number(value) -> str:
    """1.5 → "1½", 2.0 → "2", 0.5 → "½"; text (the lot) as it is."""
    if value is None:
        return "—"
    if isinstance(value, str):
        return value[:8]
    value = Fraction(value).limit_denominator(1000)
    whole, rest = divmod(value, 1)
    if rest == Fraction(1, 2):
        return f"{int(whole)}½" if whole else "½"
    if rest == 0:
        return str(int(whole))
    return f"{float(value):.2f}"


def tiebreak_columns(league) -> list[tuple[str, str]]:
    """The standings' tie-break columns: (CSV key, label in the active language), in the league's order."""
    return [(key, str(COLUMN_LABELS[key])) for key in league.tiebreak_chain]


def standings_table(standings, *, cross: bool | None = None) -> StandingsTable:
    """`standings`: leagues.standings.DivisionStandings. `cross`: fill the
    cross-table (default: when it fits on the page, `cross_table_fits`)."""
    if cross is None:
        cross = cross_table_fits(standings)
    league = standings.division.season.league
    keys = list(league.tiebreak_chain)
    columns = tiebreak_columns(league)
    grid = league.players == 2 or league.in_pairs
    rule = PointsRule(per_place=tuple(league.points_per_place) or None)
    rows, previous = [], None
    suspended = {pk for pk, entry in standings.entries.items() if entry.withdrawn_for == SUSPENDED}
    for row in standings.rows:
        why = ""
        if previous is not None and row.separated_by:
            why = _why(previous, row, row.separated_by)
        rows.append(TableRow(
            rank=row.rank, entry_id=row.entry_id, name=row.name, played=row.played, left=row.left,
            points=number(row.points), values=[number(row.tiebreaks.get(key)) for key in keys], why=why,
            withdrawn=row.withdrawn, annulled=row.annulled, suspended=row.entry_id in suspended,
            forfeits_lost=row.forfeits_lost,
            forfeits_won=row.forfeits_won))
        previous = row
    if cross:
        _fill_cross(rows, standings.games, grid, rule)
    header = list(CSV_FIXED) + keys + ["lost_by_forfeit", "won_by_forfeit", "left_season", "annulled"]
    csv_rows = [[row.rank or "", row.entry_id, row.name, row.played, row.left, csv_number(row.points)]
                + [csv_number(row.tiebreaks.get(key)) for key in keys] + [row.forfeits_lost, row.forfeits_won]
                + [_left_season(row, suspended), int(row.annulled)]
                for row in standings.rows]
    lots = ([(row.name, row.entry_id, str(row.tiebreaks.get("lot") or "")) for row in standings.rows]
            if "lot" in keys else [])
    legend = [(str(COLUMN_LABELS[key]), str(MEANINGS[key])) for key in keys if key in MEANINGS]
    return StandingsTable(columns, rows, grid, standings.division.season.seed, header, csv_rows, cross,
                          lots=lots, legend=legend)


def _left_season(row, suspended: set[int]) -> str:
    """The CSV's `left_season`: "" (still in), "withdrew" or "suspended"."""
    if not row.withdrawn:
        return ""
    return SUSPENDED if row.entry_id in suspended else "withdrew"


def csv_number(value) -> str:
    """A value for a spreadsheet: 6.5 → "6.5", 2.0 → "2", None → "", the lot's hex string whole."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    value = round(float(value), 6)
    return str(int(value)) if value == int(value) else repr(value)


def _fill_cross(rows: list[TableRow], games, grid: bool, rule: PointsRule) -> None:
    order = [r.entry_id for r in rows]
    games_of: dict[int, list] = {}
    for fixture, result in games:  # one pass over the games, not one per player
        for entry_id in result.places:
            games_of.setdefault(entry_id, []).append((fixture, result))
    for table_row in rows:
        mine = games_of.get(table_row.entry_id, [])
        table_row.cross = (_grid_cells(table_row.entry_id, order, mine, rule) if grid
                           else _games_of(table_row.entry_id, mine))


def cross_table_csv(table: StandingsTable) -> tuple[list[str], list[list]]:
    """The cross-table as CSV (header, rows), from a table filled with `cross=True`:
    the grid with a column per player, or each player's games as "round r, game #g: place p".
    Like the standings CSV, what is not a player's name is the same in every language
    (the keys "player" and "games", each game's words), for the programs that read it."""
    if table.grid:
        return ["player"] + [row.name for row in table.rows], [[row.name] + row.cross for row in table.rows]
    return ["player", "games"], [
        [row.name] + [("round %(r)s, game #%(g)s: %(p)s" if g else "round %(r)s, forfeit: %(p)s")
                      % {"r": r, "g": g, "p": p or "—"} for r, g, p in row.cross]
        for row in table.rows]


def _why(above, below, key: str) -> str:
    if key == "points":
        a, b = above.points, below.points
    else:
        a, b = above.tiebreaks.get(key), below.tiebreaks.get(key)
    if key == "lot":
        why = _("%(above)s is above %(below)s by the lot: %(a)s… against %(b)s… (the lower draws the better "
                "place).") % {"above": above.name, "below": below.name, "a": str(a)[:8], "b": str(b)[:8]}
    else:
        why = _("%(above)s is above %(below)s on %(what)s: %(a)s against %(b)s.") % {
            "above": above.name, "below": below.name, "what": IN_SENTENCE.get(key, key),
            "a": number(a), "b": number(b)}
    forfeits = [text for text in (_forfeits(above), _forfeits(below)) if text]
    return " ".join([why, *forfeits])


def _forfeits(row) -> str:
    """What forfeits a row's results hold, for a "why above" line ("" for none)."""
    parts = []
    if row.forfeits_lost:
        parts.append(ngettext("%(who)s lost %(n)s game by forfeit (withdrawal).",
                              "%(who)s lost %(n)s games by forfeit (withdrawal).", row.forfeits_lost)
                     % {"who": row.name, "n": row.forfeits_lost})
    if row.forfeits_won:
        parts.append(ngettext("%(who)s won %(n)s game by forfeit.", "%(who)s won %(n)s games by forfeit.",
                              row.forfeits_won) % {"who": row.name, "n": row.forfeits_won})
    return " ".join(parts)


def _grid_cells(entry_id: int, order: list[int], games, rule: PointsRule) -> list[str]:
    """The row's results against each player, in the table's order ("×" against himself)."""
    against: dict[int, list[str]] = {}
    for _fixture, result in games:
        if entry_id not in result.places or len(result.places) != 2:
            continue
        other = next(e for e in result.places if e != entry_id)
        against.setdefault(other, []).append(number(rule.game_points(result.places)[entry_id]))
    return ["×" if other == entry_id else " ".join(against.get(other, [])) for other in order]


def _games_of(entry_id: int, games) -> list[tuple[int, int | None, int | None]]:
    """(round, game id, place) of every finished game of the player (game id
    None: a table never played, scored as a withdrawn player's forfeit)."""
    return [(fixture.round, fixture.game_id, result.places.get(entry_id))
            for fixture, result in games if entry_id in result.places]
