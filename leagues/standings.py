"""A division's standings from the database: its entries and its finished
league games read in a constant number of queries, then ranked by the pure
standings engine (`scoresheets.standings`), which the pages render.

A league game's result is its seats' places and points (set from
`engine.outcome` when it finished, or by a moderator's adjudication); in
pairs, a pair's place is its players' (they share it) and its game score the
sum of theirs. The seat that moves last in a game is its highest seat.
An aborted league game has no result and counts for nobody, neither as
played nor as scheduled.

A player who left (withdrew, or was withdrawn by a suspension), in a
league whose withdrawn players' games are lost (issues 24, 37): every game
of his that ended at or after his withdrawal (the games resigned for him
then) is a forfeit, and so is every table of his not started (round by
round, his later tables are never played), scored at once: both get the
same result, whatever the engine's outcome of the resigned game: he shares
the last place, the others share the first, nobody has a game score
(`forfeit_result`). A forfeit is a forfeit, whether the table had started.
Whether he is annulled counts the games he finished before leaving against
the games drawn for him (`Fixture.seats`, before any substitute took a
seat), and an annulled player's forfeits count for nobody.
In a league where a computer finishes his games and the results stay with
the seat's player, the computer's results are his (no forfeit) and he is
never annulled: his schedule is played out. Where the results pass to the
substitute, his games from then on count for nobody, and the annulment
measures what he finished against the games drawn for him.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from gameplay.models import Game, Seat
from leagues.models import Division, Entry, Fixture, League
from scoresheets import standings as engine


@dataclass
class DivisionStandings:
    division: Division
    rows: list  # scoresheets.standings.Row, best first
    entries: dict[int, Entry]
    # finished, and the tables scored as a withdrawn player's loss without being played, in round order
    games: list[tuple[Fixture, engine.GameResult]] = field(default_factory=list)
    fixtures: list[Fixture] = field(default_factory=list)


def division_standings(division: Division) -> DivisionStandings:
    league = division.season.league
    entries = {e.pk: e for e in Entry.objects.filter(division=division).select_related("user", "partner")}
    # Only what the standings and the schedule read of each game: building 5,000 whole Game objects cost most.
    fixtures = list(Fixture.objects.filter(division=division).select_related("game")
                    .only("id", "division_id", "round", "seats", "credits", "game_id", "game__id", "game__status",
                          "game__finished_at")
                    .order_by("round", "pk"))
    finished = [f for f in fixtures if f.game is not None and f.game.status == Game.Status.FINISHED]
    seats: dict[int, list[tuple[int, int | None, float | None]]] = {}
    for game_id, position, place, points in (Seat.objects.filter(game_id__in=[f.game_id for f in finished])
                                             .values_list("game_id", "position", "place", "points")):
        seats.setdefault(game_id, []).append((position, place, points))
    losses = league.on_withdrawal == League.OnWithdrawal.LOSSES
    games = []
    for fixture in fixtures:
        if fixture.game is not None and fixture.game.status == Game.Status.FINISHED:
            result = _result(fixture, seats.get(fixture.game_id, []), league.in_pairs)
            games.append((fixture, _with_forfeits(result, fixture, entries, league.in_pairs) if losses else result))
        elif fixture.game is None and losses and (forfeit := _unplayed_forfeit(fixture, entries, league.in_pairs)):
            games.append((fixture, forfeit))
    scheduled: dict[int, int] = {pk: 0 for pk in entries}
    drawn: dict[int, int] = {pk: 0 for pk in entries}
    for fixture in fixtures:
        if fixture.game is not None and fixture.game.status == Game.Status.ABORTED:
            continue  # void: neither played nor left to play (leagues.services' decisions)
        for pk in credited_entries(fixture, league.in_pairs):
            if pk is not None:
                scheduled[pk] = scheduled.get(pk, 0) + 1
        for pk in fixture.seats:
            drawn[pk] = drawn.get(pk, 0) + 1
    rows = engine.standings(
        [engine.Entry(id=e.pk, name=str(e), rating=e.rating_at_start or 0.0, withdrawn=e.withdrawn_at is not None)
         for e in entries.values()],
        [result for _fixture, result in games],
        scheduled=scheduled,
        drawn=drawn,
        chain=league.tiebreak_chain,
        seed=division.season.seed,
        points=engine.PointsRule(per_place=list(league.points_per_place) or None),
        annul_withdrawn_below_half=annuls_withdrawn(league),
    )
    for fixture in fixtures:
        fixture.names = [str(entries[pk]) if pk in entries else "?" for pk in fixture.seats]
    return DivisionStandings(division, rows, entries, games, fixtures)


def credited_entries(fixture: Fixture, in_pairs: bool) -> list[int | None]:
    """The entry each seat's result counts for, by seat position (in pairs, by
    pair): the scheduled one unless a substitute took it over with the results
    (`Fixture.credits`: his own entry, or None for nobody in the standings)."""
    entries: list[int | None] = list(fixture.seats)
    if not in_pairs:
        for position, entry in (fixture.credits or {}).items():
            entries[int(position)] = entry
    return entries


def annuls_withdrawn(league: League) -> bool:
    """Whether a player who left before finishing half his games is annulled:
    as the league says, except where a computer plays out his games with the
    results kept as his (nothing is left unplayed)."""
    played_out = (league.on_withdrawal == League.OnWithdrawal.COMPUTER
                  and league.substitute_results == League.SubstituteResults.ENTRY)
    return league.annul_below_half and not played_out


def _with_forfeits(result: engine.GameResult, fixture: Fixture, entries: dict[int, Entry],
                   in_pairs: bool) -> engine.GameResult:
    """The game's result, or, if it ended at or after the withdrawal of an
    entry at it (resigned for him), the forfeit's result, as if never played."""
    ended = fixture.game.finished_at
    forfeits = {pk for pk in result.places if pk in entries and entries[pk].withdrawn_at is not None
                and ended is not None and ended >= entries[pk].withdrawn_at}
    if not forfeits:
        return result
    return forfeit_result(fixture, forfeits, entries, in_pairs, game_id=fixture.game_id) or result


def forfeit_result(fixture: Fixture, withdrawn: set[int], entries: dict[int, Entry], in_pairs: bool, *,
                   game_id: int, unplayed: bool = False) -> engine.GameResult | None:
    """A table settled by the withdrawal of `withdrawn`: they share its last
    place, the others at it share the first; no game score, no last seat
    (None: nobody is left at it to win it)."""
    seated = [pk for pk in credited_entries(fixture, in_pairs) if pk is not None]
    staying = [pk for pk in seated if pk not in withdrawn]
    if not staying:
        return None
    places = {pk: (len(staying) + 1 if pk in withdrawn else 1) for pk in seated}
    return engine.GameResult(game_id=game_id, places=places, forfeits=frozenset(withdrawn & set(seated)),
                             unplayed=unplayed)


def _unplayed_forfeit(fixture: Fixture, entries: dict[int, Entry], in_pairs: bool) -> engine.GameResult | None:
    """A table not started with a withdrawn entry at it, scored as his loss
    (None: nobody withdrew from it, or nobody is left to win it)."""
    seated = [pk for pk in credited_entries(fixture, in_pairs) if pk is not None]
    withdrawn = {pk for pk in seated if pk in entries and entries[pk].withdrawn_at is not None}
    if not withdrawn:
        return None
    return forfeit_result(fixture, withdrawn, entries, in_pairs, game_id=-fixture.pk, unplayed=True)


def guest_id(game_id: int, position: int) -> int:
    """The standings' id of a seat whose result counts for nobody in them (never an entry's id)."""
    return -(game_id * 8 + position + 1)


def _result(fixture: Fixture, seats: list[tuple[int, int | None, float | None]], in_pairs: bool) -> engine.GameResult:
    """A finished league game as the standings engine reads it: entry id → place and game score."""
    credited = credited_entries(fixture, in_pairs)
    places: dict[int, int] = {}
    scores: dict[int, float] = {}
    guests: set[int] = set()
    for position, place, points in seats:
        entry = credited[position % 2] if in_pairs else credited[position]
        if entry is None:
            entry = guest_id(fixture.game_id, position)
            guests.add(entry)
        if place is not None:
            places[entry] = min(place, places.get(entry, place))
        scores[entry] = scores.get(entry, 0.0) + (points or 0.0)
    last_position = max((position for position, _place, _points in seats), default=None)
    last = None
    if last_position is not None:
        last = credited[last_position % 2] if in_pairs else credited[last_position]
        last = guest_id(fixture.game_id, last_position) if last is None else last
    return engine.GameResult(game_id=fixture.game_id, places=places, scores=scores, last_seat=last,
                             guests=frozenset(guests))
