"""From the database to the pure pairing modules and back: a tournament's
history as the Swiss library's TRF report (two-player tables,
`tournaments.swiss`) or as the seating's players (tables of 3 to 6,
`tournaments.seating`), and its standings (`tournaments.standings`).
Queries only; the services write."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from gameplay.models import Game
from tournaments import group_stage, seating, standings, swiss
from tournaments.models import Bye, Entry, Table, Tournament


# A game's stored state and records, never read here: not loaded with the tables (thousands of them).
GAME_BULK = ("game__state", "game__history", "game__options", "game__timer_seconds")


def _fraction(points: float) -> Fraction:
    return Fraction(points).limit_denominator(1000)


def history(tournament: Tournament) -> tuple[list[Entry], list[standings.Game], list[standings.Bye], list[Table]]:
    """Its entries (by starting number), the games that count (finished), the byes and every table."""
    entries = list(tournament.entries.select_related("user", "partner").order_by("number", "pk"))
    tables = list(Table.objects.filter(round__tournament=tournament).select_related("round", "game")
                  .defer(*GAME_BULK)
                  .prefetch_related("game__seats").order_by("round__number", "board"))
    games = []
    for table in tables:
        places = table_places(table)
        if places:
            games.append(standings.Game(table.round.number, places, frozenset(table.forfeits)))
    byes = [standings.Bye(b.round.number, b.entry_id, _fraction(b.points))
            for b in Bye.objects.filter(round__tournament=tournament).select_related("round")]
    return entries, games, byes, tables


def table_places(table: Table) -> dict[int, int] | None:
    """{entry id: place} of a finished table's game (None: not finished, or void). A game whose
    seats have their places is finished, even in the transaction that ends it, before its row is saved."""
    game = table.game
    if game is None or game.status == Game.Status.ABORTED:
        return None
    seats = {s.position: s.place for s in game.seats.all()}
    if any(place is None for place in seats.values()):
        return None
    if len(table.seats) == 2 and len(seats) == 4:  # pairs: pair A in seats 0 and 2, pair B in 1 and 3
        return {table.seats[0]: seats[0], table.seats[1]: seats[1]}
    return {entry: seats[position] for position, entry in enumerate(table.seats)}


def current_standings(tournament: Tournament) -> list[standings.Row]:
    return standings_of(tournament, history(tournament))


def standings_of(tournament: Tournament, its_history) -> list[standings.Row]:
    """The standings from a history already read (`history`)."""
    entries, games, byes, _tables = its_history
    players = [standings.Player(e.pk, str(e), e.number or 0, e.rating, bool(e.withdrawn_at)) for e in entries]
    rows = standings.standings(players, games, byes, tournament.rounds, tournament.tiebreak_chain,
                               tournament.table_size)
    if tournament.format == Tournament.Format.KNOCKOUT:
        in_groups = group_stage.places(tournament, its_history) if tournament.has_groups else {}
        rows = _cup_order(rows, entries, games, in_groups, tournament.group_rounds)
    return rows


def _cup_order(rows: list[standings.Row], entries: list[Entry], games: list[standings.Game],
               in_groups: dict[int, tuple[int, float]], group_rounds: int) -> list[standings.Row]:
    """A cup's order: the further a player went the higher, then (among those out in the same round)
    forfeiters last, then the points made in the round of going out (the place at a table of 3 to 6, the
    match's score), then the seed. Out in the groups: by the place in the group, then the share of the
    points possible."""
    by_id = {e.pk: e for e in entries}
    last_round: dict[int, int] = {}
    forfeited: dict[int, set[int]] = {}
    for game in games:
        for entry in game.places:
            last_round[entry] = max(last_round.get(entry, 0), game.round)
            if entry in game.forfeits:
                forfeited.setdefault(entry, set()).add(game.round)

    def key(row):
        entry = by_id[row.entry_id]
        reached = 1000 if entry.out_in_round is None and not entry.withdrawn_at else (entry.out_in_round or 0)
        exit_round = last_round.get(row.entry_id)
        if in_groups and entry.out_in_round is not None and entry.out_in_round <= group_rounds:
            place, share = in_groups.get(row.entry_id, (99, 0.0))
            return (-reached, place, -share, entry.number or 0)
        if exit_round is None:
            return (-reached, 1, 0.0, entry.number or 0)
        return (-reached, int(exit_round in forfeited.get(row.entry_id, ())), -row.by_round.get(exit_round, 0.0),
                entry.number or 0)
    ordered = sorted(rows, key=key)
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
        entry = by_id[row.entry_id]
        row.reached = entry.out_in_round
    return ordered


def pair_next(tournament: Tournament, number: int, playing: list[Entry]) -> tuple[list[list[int]], list[int]]:
    """Round `number`'s tables (entry ids by seat) and its pairing byes, for the `playing` entries."""
    if tournament.table_size == 2:
        return _pair_two(tournament, number, playing)
    return _seat_many(tournament, playing)


def trf_report(tournament: Tournament, number: int, playing: list[Entry]) -> str:
    """The TRF-16 report of the rounds before `number`, everyone not in `playing` absent from it."""
    entries, _games, _byes, tables = history(tournament)
    by_id = {e.pk: e for e in entries}
    results: dict[int, dict[int, swiss.RoundResult]] = defaultdict(dict)
    for table in tables:
        places = table_places(table)
        if places is None or len(table.seats) != 2:
            continue
        first, second = table.seats
        for me, other, sits_first in ((first, second, True), (second, first, False)):
            if table.forfeits:
                token = swiss.FORFEIT_LOSS if me in table.forfeits else swiss.FORFEIT_WIN
            else:
                token = (swiss.WIN if places[me] < places[other] else
                         swiss.DRAW if places[me] == places[other] else swiss.LOSS)
            results[me][table.round.number] = swiss.RoundResult(by_id[other].number, sits_first, token)
    for bye in Bye.objects.filter(round__tournament=tournament).select_related("round"):
        token = swiss.PAIRING_BYE if bye.kind == Bye.Kind.PAIRING else swiss.HALF_BYE
        results[bye.entry_id][bye.round.number] = swiss.RoundResult(None, False, token)
    playing_ids = {e.pk for e in playing}
    players = []
    for entry in entries:
        rounds = [results[entry.pk].get(r) or swiss.RoundResult(None, False, swiss.ABSENT) for r in range(1, number)]
        if entry.pk not in playing_ids:
            rounds.append(swiss.RoundResult(None, False, swiss.ABSENT))
        players.append(swiss.Player(entry.number, int(entry.rating), rounds))
    return swiss.trf_text(players, max(tournament.rounds, number), tournament.name)


def _pair_two(tournament: Tournament, number: int, playing: list[Entry]) -> tuple[list[list[int]], list[int]]:
    by_number = {e.number: e.pk for e in playing}
    pairs = swiss.pair(swiss.parse_trf(trf_report(tournament, number, playing)))
    tables = [[by_number[a], by_number[b]] for a, b in pairs if b]
    byes = [by_number[a] for a, b in pairs if not b]
    return tables, byes


def _seat_many(tournament: Tournament, playing: list[Entry]) -> tuple[list[list[int]], list[int]]:
    _entries, _games, _byes, tables = history(tournament)
    rows = {row.entry_id: row for row in current_standings(tournament)}
    met: dict[tuple[int, int], int] = defaultdict(int)
    first_seats: dict[int, int] = defaultdict(int)
    for table in tables:
        if table.game is None or table.game.status == Game.Status.ABORTED:
            continue
        first_seats[table.seats[0]] += 1
        for i, a in enumerate(table.seats):
            for b in table.seats[i + 1:]:
                met[seating.pair_key(a, b)] += 1
    pairing_byes: dict[int, int] = defaultdict(int)
    for entry_id in Bye.objects.filter(round__tournament=tournament, kind=Bye.Kind.PAIRING) \
            .values_list("entry_id", flat=True):
        pairing_byes[entry_id] += 1
    players = [seating.Seated(e.pk, _fraction(rows[e.pk].points), e.number or 0, pairing_byes[e.pk],
                              first_seats[e.pk]) for e in playing]
    result = seating.seat_round(players, tournament.table_size, met)
    return [list(t) for t in result.tables], result.byes
