"""The final result of a game: the one source every page, message and email reads.

A result is `engine.outcome` (places and scores; a forfeiting seat is placed
last by the engine itself) plus the platform's record of how the game ended:

- the move that ended it for one seat: a resignation (``{"type": "resign"}``)
  or a loss on time (``{"type": "timeout"}``), see `gameplay.records`;
- a moderator's abort (`Game.abort_reason`, `Game.aborted_by`): no places;
- an adjudication (a moderator deciding the result of a game in play):
  the moderator's recorded move ``{"type": "adjudicate", ...}`` (reason,
  places, points; `moderation.services.games.adjudicate_game`), whose
  places and points are written to the seats; `adjudication_of` reads it.

Who a seat's result counts for: its holder at the end, except where a
moderator replaced a player (`replaced_players`): the ratings rate the player
who was replaced, as the one who left (ratings/services.py).

The places and points of a finished game are `engine.outcome(state)`; where a
list does not load the state (profile, emails), they are the seats' `place`
and `points`, which `services.moves._finish` copies from that same outcome in
the transaction that ends the game. Points are shown in the score sheet's
units (`Engine.sheet_points_per_unit`: Joker writes hundreds).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat
from gameplay.points import format_points
from gameplay.records import ADJUDICATE, RESIGN, SUBSTITUTE, TIMEOUT

# How a game ended.
IN_PLAY = "in_play"
FINISHED = "finished"
LOST_ON_TIME = "lost_on_time"
RESIGNED = "resigned"
ABORTED = "aborted"
ADJUDICATED = "adjudicated"
FORFEIT_ENDINGS = {TIMEOUT: LOST_ON_TIME, RESIGN: RESIGNED}


@dataclass(frozen=True)
class Standing:
    position: int
    name: str
    place: int | None
    points: float | None
    points_label: str  # in the sheet's units ("14.5" for 1450 Joker points), "–" when none


@dataclass(frozen=True)
class GameResult:
    ending: str  # IN_PLAY, FINISHED, LOST_ON_TIME, RESIGNED, ABORTED or ADJUDICATED
    seat: int | None = None  # whose resignation or loss on time
    seat_name: str = ""
    reason: str = ""  # the moderator's reason (abort, adjudication)
    standings: list[Standing] = field(default_factory=list)  # best first; none for an aborted game
    by_moderator: bool = True  # an abort: False when the table was given up (everyone left before the start)

    @property
    def is_over(self) -> bool:
        return self.ending != IN_PLAY

    @property
    def is_forfeit(self) -> bool:
        return self.ending in (LOST_ON_TIME, RESIGNED)

    def standing_of(self, position: int) -> Standing | None:
        return next((s for s in self.standings if s.position == position), None)

    def describe(self) -> str:
        """How the game ended, in one sentence of the active language."""
        if self.ending == LOST_ON_TIME:
            return _("%(who)s lost on time; the game ended.") % {"who": self.seat_name}
        if self.ending == RESIGNED:
            return _("%(who)s resigned; the game ended.") % {"who": self.seat_name}
        if self.ending == ABORTED and not self.by_moderator:  # everyone left before the start
            return " ".join(filter(None, [_("This table was given up."), self.reason]))
        if self.ending == ABORTED:
            if self.reason:
                return _("Aborted by a moderator: %(reason)s") % {"reason": self.reason}
            return _("Aborted by a moderator.")
        if self.ending == ADJUDICATED:
            return _("Adjudicated by a moderator: %(reason)s") % {"reason": self.reason}
        if self.ending == FINISHED:
            return _("The game was played to the end.")
        return ""

    def as_json(self) -> dict:
        """For the game page's state message (the game-over box reads it)."""
        return {
            "ending": self.ending, "seat": self.seat, "reason": self.reason or None,
            "standings": [{"position": s.position, "place": s.place, "points": s.points,
                           "points_label": s.points_label} for s in self.standings],
        }


def adjudication_of(game: Game, ending_move: Move | None | bool = False) -> str | None:
    """The moderator's reason when the game's result was decided by an
    adjudication (the places it gave are written to the seats), else None.
    `ending_move`: `ending_moves`' entry when the caller has it."""
    if ending_move is False:
        ending_move = ending_moves([game.pk]).get(game.pk)
    if ending_move is None or ending_move.action.get("type") != ADJUDICATE:
        return None
    return str(ending_move.action.get("reason") or "")


def replaced_players(game: Game) -> dict[int, int | None]:
    """{position: the user who held the seat when the game started} for every
    seat a moderator gave to someone else (None: a computer held it). One query."""
    first: dict[int, int | None] = {}
    substitutions = (Move.objects.filter(game_id=game.pk, action__type=SUBSTITUTE).order_by("seq")
                     .values_list("action", "user_id"))
    for action, user_id in substitutions:
        first.setdefault(action.get("seat"), user_id)
    return first


def points_label(engine_slug: str, points: float | None) -> str:
    """Points as the score sheet writes them ("–" for none)."""
    return format_points(engine_slug, points) or "–"


def ending_moves(game_ids: list[int]) -> dict[int, Move]:
    """{game id: the move that ended it (a resignation or a loss on time of
    one seat, or a moderator's adjudication)}, one query."""
    if not game_ids:
        return {}
    moves = (Move.objects.filter(game_id__in=game_ids, action__type__in=[*FORFEIT_ENDINGS, ADJUDICATE])
             .only("game_id", "seq", "position", "action", "by").order_by("seq"))
    return {m.game_id: m for m in moves}


def game_result(game: Game, seats: list[Seat] | None = None, ending_move: Move | None | bool = False) -> GameResult:
    """The final result of `game` (IN_PLAY while it runs). `seats` (with their
    users) and `ending_move` (`ending_moves`' entry, None for none) may be given
    by a caller that has them; else they are read (at most two queries)."""
    if game.status in (Game.Status.OPEN, Game.Status.ACTIVE):
        return GameResult(IN_PLAY)
    seats = list(seats) if seats is not None else list(game.seats.select_related("user"))
    names = {s.position: str(s.player_name) for s in seats}
    if game.status == Game.Status.ABORTED:
        return GameResult(ABORTED, reason=game.abort_reason, by_moderator=game.aborted_by_id is not None)
    if ending_move is False:
        ending_move = ending_moves([game.pk]).get(game.pk)
    standings = _standings(game, seats, names)
    adjudication = adjudication_of(game, ending_move)
    if adjudication is not None:
        return GameResult(ADJUDICATED, reason=adjudication, standings=standings)
    if ending_move is not None:
        kind = FORFEIT_ENDINGS[ending_move.action["type"]]
        return GameResult(kind, seat=ending_move.position, seat_name=names.get(ending_move.position, "?"),
                          standings=standings)
    return GameResult(FINISHED, standings=standings)


def _standings(game: Game, seats: list[Seat], names: dict[int, str]) -> list[Standing]:
    """Places and points, best first: from `engine.outcome` when the state is
    loaded, else from the seats (copied from that outcome when the game ended)."""
    places = {s.position: s.place for s in seats}
    points = {s.position: s.points for s in seats}
    if "state" in game.__dict__ and game.state is not None:
        engine = get_engine(game.engine)
        if engine.is_over(game.state):
            outcome = engine.outcome(game.state)
            places = dict(enumerate(outcome["places"]))
            points = dict(enumerate(outcome["scores"]))
    rows = [Standing(p, names.get(p, "?"), places.get(p), points.get(p), points_label(game.engine, points.get(p)))
            for p in sorted(names)]
    return sorted(rows, key=lambda s: (s.place is None, s.place or 0, s.position))


def game_results(games: list[Game]) -> dict[int, GameResult]:
    """{game id: result} of many games (a list's page): two queries, the
    seats and how the games ended, however many games."""
    over = [g for g in games if g.is_over]
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=[g.pk for g in over]).select_related("user"):
        seats.setdefault(seat.game_id, []).append(seat)
    endings = ending_moves([g.pk for g in over if g.status == Game.Status.FINISHED])
    return {g.pk: game_result(g, seats.get(g.pk, []), endings.get(g.pk)) for g in games}
