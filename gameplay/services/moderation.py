"""What moderators do to a game: abort it, adjudicate its result, give a seat
to another player or to a computer. (Hiding chat messages is in `chat`.)

Each action runs in one transaction with the game row locked, needs a reason,
and leaves exactly one `moderation.AuditEntry` written in that transaction.
Nothing is deleted: an adjudication and a substitution are recorded as the
moderator's moves of the game (`gameplay.records`: they leave the state as it
is), so the move log and the published record show them where they happened.

Who may do what is decided by the callers (the admin, through
`moderation.permissions.can_moderate`), as with every service: the services
record who acted. One rule is also kept here, whoever calls: nobody ends a
game he plays in (or played in before a substitution), whatever his role:
an abort or an adjudication by one of its players is refused
(`refuse_a_player_of`), since either decides a result he has a stake in
(issue 24).

Decisions (issue 14):
- An abort ends a game with no result; its league hears of it as of a
  finished game (`moves.tell_league_game_over`; what it means for the
  standings: `leagues.services`).
- An adjudication ends a game in play with the places (or points) the
  moderator gives, like any other result: the seats' places and points,
  the ratings and the league take it as they take the engine's outcome.
  Places given without points keep the points the sheet shows so far
  (the engine's provisional scores); points given without places rank the
  seats by them (more is better, equal points share the place). Partners
  share their place. An adjudicated game does not start the next game of
  its series: the moderator ended play at that table.
- A substitution gives a seat of a game in play to another account or to a
  computer; the game goes on from where it is. The seat's clock: the
  replaced player's time so far is charged, and the new holder starts a
  fresh move clock if the game waits for the seat. The seat's private
  settings (Durak's "done" said in advance) are cleared. The replaced
  player is told nothing of the seat from then on: the seat's views go to
  its new holder (an open socket of the replaced player is closed by the
  first broadcast, `GameConsumer.game_update`, and reconnects as a
  spectator of a public table or not at all). Ratings: see
  ratings/services.py; leagues: `leagues.services.seat_substituted`.
"""

from __future__ import annotations

import math

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat
from gameplay.records import ADJUDICATE, SUBSTITUTE
from gameplay.services import clocks as seat_clocks
from gameplay.services import tables
from gameplay.services.after_commit import game_changed
from gameplay.services.base import GameError, is_storable_text, locked_game
from gameplay.services.moves import finish_with_result, tell_league_game_over
from moderation.audit import record_action
from moderation.models import AuditEntry

MAX_REASON = 1000


def required_reason(reason, missing: str) -> str:
    """The moderator's reason, stripped; `missing` is the message when there is none."""
    if not isinstance(reason, str) or not reason.strip():
        raise GameError(missing, code="bad_request")
    reason = reason.strip()
    if len(reason) > MAX_REASON or not is_storable_text(reason):
        raise GameError(_("The reason is too long or holds characters that cannot be stored."), code="bad_request")
    return reason


@transaction.atomic
def abort_game(game_id: int, moderator, reason: str) -> Game:
    game = locked_game(game_id)
    if game.is_over:
        raise GameError(_("This game is already over."), code="not_active")
    refuse_a_player_of(game, moderator)
    reason = required_reason(reason, _("Give a reason for aborting the game."))
    before = {"status": game.status, "version": game.version}
    game.status = Game.Status.ABORTED
    game.abort_reason = reason
    game.aborted_by = moderator
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "abort_reason", "aborted_by", "finished_at"])
    record_action(moderator, AuditEntry.Action.ABORT, reason, game=game, before=before,
                  after={"status": game.status, "version": game.version})
    # Every open page of the game gets the abort and its reason (the state's "result") after the commit.
    game_changed(game)
    seat_clocks.update_clocks(game, get_engine(game.engine), game.finished_at, mover=None)
    tables.after_table_change(game)
    tell_league_game_over(game)  # as a finished game: the league's standings and rounds
    return game


def plays_in(game_id: int, user) -> bool:
    """Whether `user` holds a seat of the game, or held one before a
    moderator gave it to someone else (two small queries)."""
    if user is None or user.pk is None:
        return False
    return (Seat.objects.filter(game_id=game_id, user_id=user.pk).exists()
            or Move.objects.filter(game_id=game_id, action__type=SUBSTITUTE, user_id=user.pk).exists())


def refuse_a_player_of(game: Game, moderator) -> None:
    if plays_in(game.pk, moderator):
        raise GameError(_("You play in this game: another moderator must decide it."), code="forbidden")


# -- adjudication ------------------------------------------------------------------


@transaction.atomic
def adjudicate_game(game_id: int, moderator, reason: str, places_or_points: dict) -> Game:
    """End a game in play with the result the moderator sets:
    `{"places": [...]}` (1 = best, per seat), `{"points": [...]}`, or both."""
    game = locked_game(game_id, seats=True)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("Only a game in play can be adjudicated."), code="not_active")
    refuse_a_player_of(game, moderator)
    reason = required_reason(reason, _("Give a reason for the adjudication."))
    engine = get_engine(game.engine)
    seats = list(game.seats.all())
    places, points = adjudicated_result(engine, game.state, seats, places_or_points)
    before = {"status": game.status, "version": game.version}
    now = timezone.now()
    move = Move(game=game, seq=game.version + 1, position=None, by=Move.By.MODERATOR,
                action={"type": ADJUDICATE, "places": places, "points": points, "reason": reason})
    game.version += 1
    finish_with_result(game, places, points, now)
    game.save(update_fields=["version", "status", "finished_at"])
    move.save()
    seat_clocks.update_clocks(game, engine, now, mover=None)  # every clock stops
    record_action(moderator, AuditEntry.Action.ADJUDICATE, reason, game=game, before=before,
                  after={"status": game.status, "version": game.version, "places": places, "points": points})
    game_changed(game, finished=True)
    return game


def adjudicated_result(engine, state: dict, seats: list[Seat], given) -> tuple[list[int], list[float]]:
    """(places, points) per seat from what the moderator gave, checked."""
    if not isinstance(given, dict) or not ({"places", "points"} & given.keys()):
        raise GameError(_("Give the places or the points of every seat."), code="bad_request")
    count = len(seats)
    points = given.get("points")
    if points is not None:
        if not _numbers(points, count):
            raise GameError(_("Give a number of points for every seat."), code="bad_request")
        points = [float(p) for p in points]
    places = given.get("places")
    if places is None:
        places = [1 + sum(other > mine for other in points) for mine in points]
    elif not _ranking(places, count):
        raise GameError(_("The places must be a ranking: 1 for the best; seats that share a place share its "
                          "number and the next number is skipped (1, 1, 3, 4)."), code="bad_request")
    teams: dict[int, set[int]] = {}
    for seat in seats:
        if seat.team is not None:
            teams.setdefault(seat.team, set()).add(places[seat.position])
    if any(len(shared) > 1 for shared in teams.values()):
        raise GameError(_("Partners share their place."), code="bad_request")
    if points is None:
        points = [float(p) for p in engine.outcome(state)["scores"]]
    return list(places), points


def _numbers(values, count: int) -> bool:
    return (isinstance(values, list) and len(values) == count
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in values))


def _ranking(places, count: int) -> bool:
    """A competition ranking of `count` seats ("1224" style: ties share, the next place is skipped)."""
    if not isinstance(places, list) or len(places) != count:
        return False
    if not all(isinstance(p, int) and not isinstance(p, bool) for p in places):
        return False
    return all(place == 1 + sum(other < place for other in places) for place in places)


# -- substitution ------------------------------------------------------------------


@transaction.atomic
def substitute_seat(game_id: int, position: int, moderator, reason: str, *, user=None) -> Game:
    """Give seat `position` of a game in play to `user`, or to a computer
    player when `user` is None. The game goes on from where it is."""
    game = locked_game(game_id, seats=True)
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("Only a seat of a game in play can be given to someone else."), code="not_active")
    reason = required_reason(reason, _("Give a reason for the substitution."))
    seats = list(game.seats.all())
    seat = next((s for s in seats if s.position == position), None)
    if seat is None:
        raise GameError(_("There is no such seat."), code="bad_request")
    _check_substitute(seats, seat, user)
    previous = seat.user
    before = {"seat": position, "user": seat.user_id, "name": str(seat.player_name), "computer": seat.is_bot}
    _give_seat(game, seat, user)
    Move.objects.create(game=game, seq=game.version + 1, position=None, by=Move.By.MODERATOR, user=previous,
                        action={"type": SUBSTITUTE, "seat": position, "computer": user is None, "reason": reason})
    game.version += 1
    game.save(update_fields=["version"])
    engine = get_engine(game.engine)
    # The replaced player's time so far is charged; the new holder starts a fresh clock if the seat is waited for.
    seat_clocks.update_clocks(game, engine, timezone.now(), mover=position)
    after = {"seat": position, "user": seat.user_id, "name": str(seat.player_name), "computer": seat.is_bot}
    record_action(moderator, AuditEntry.Action.SUBSTITUTE, reason, game=game, target_user=previous,
                  before=before, after=after)
    game_changed(game, turn_changed=[previous.pk if previous else None, user.pk if user else None])
    _tell_league(game, position, previous, user)
    return game


def _check_substitute(seats: list[Seat], seat: Seat, user) -> None:
    if user is None:
        if seat.is_bot:
            raise GameError(_("A computer player already holds this seat."), code="bad_request")
        return
    if not user.is_active:
        raise GameError(_("This account is not active."), code="bad_request")
    if any(s.user_id == user.pk for s in seats):
        raise GameError(_("This player already has a seat at this table."), code="bad_request")


def _give_seat(game: Game, seat: Seat, user) -> None:
    seat.user = user
    seat.is_bot = user is None
    seat.ahead_scope = None  # the replaced player's private "done in advance"
    seat.seen_at = None
    seat.auto_streak = 0
    seat.has_vacations = True  # the new holder's vacations are read for the clock
    game.__dict__.pop("_vacations", None)
    seat.save(update_fields=["user", "is_bot", "ahead_scope", "seen_at", "auto_streak"])


def _tell_league(game: Game, position: int, previous_user, substitute_user) -> None:
    """A league decides whose result the seat's is (leagues build on these services: imported when needed)."""
    try:
        from leagues.services import seat_substituted
    except ImportError:
        return
    seat_substituted(game, position, previous_user, substitute_user)
