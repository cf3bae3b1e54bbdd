"""What moderators do to a game: abort it, adjudicate its result, give a seat
to another player or to a computer, hide a chat message (or show it again).

Each action runs in one transaction with the game row locked, needs a reason,
and leaves exactly one `moderation.AuditEntry` written in that transaction.
The changes themselves are gameplay's primitives
(`gameplay.services.interventions`), which know nothing of moderators; this
module checks what the moderator gave, records the reason and the audit row
in the same transaction. Who may do what is decided by the callers (the
admin, the organizers' pages, through `moderation.permissions.can_moderate`).
One rule is also kept here, whoever calls: nobody ends a game he plays in
(or played in before a substitution), whatever his role: an abort or an
adjudication by one of its players is refused (`refuse_a_player_of`), since
either decides a result he has a stake in (issue 24).

Decisions (issue 14):
- An abort ends a game with no result; its league hears of it as of a
  finished game (the `game_aborted` event; what it means for the
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
  ratings/services.py; leagues: `leagues.services.seat_substituted` (the
  `seat_replaced` event).
"""

from __future__ import annotations

import math

from django.db import transaction
from django.utils.translation import gettext as _

from gameplay.computer_levels import DEFAULT_LEVEL, UnknownLevel, checked_level
from gameplay.engine import get_engine
from gameplay.models import ChatMessage, Game, Move, Seat
from gameplay.records import SUBSTITUTE
from gameplay.services import interventions
from gameplay.services.base import GameError, is_storable_text, locked_game
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
    interventions.abort(game, reason, by=moderator)
    record_action(moderator, AuditEntry.Action.ABORT, reason, game=game, before=before,
                  after={"status": game.status, "version": game.version})
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
    interventions.end_with_result(game, places, points, reason, by=moderator)
    record_action(moderator, AuditEntry.Action.ADJUDICATE, reason, game=game, before=before,
                  after={"status": game.status, "version": game.version, "places": places, "points": points})
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
def substitute_seat(game_id: int, position: int, moderator, reason: str, *, user=None,
                    computer_level: int = DEFAULT_LEVEL) -> Game:
    """Give seat `position` of a game in play to `user`, or to a computer
    player of `computer_level` when `user` is None. The game goes on from where it is."""
    try:
        computer_level = checked_level(computer_level)
    except UnknownLevel as exc:
        raise GameError(str(exc), code="bad_request") from None
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
    interventions.replace_seat(game, seat, user, reason, computer_level=computer_level)
    after = {"seat": position, "user": seat.user_id, "name": str(seat.player_name), "computer": seat.is_bot}
    if seat.is_bot:
        after["level"] = seat.computer_level
    record_action(moderator, AuditEntry.Action.SUBSTITUTE, reason, game=game, target_user=previous,
                  before=before, after=after)
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


# -- chat ----------------------------------------------------------------------------


@transaction.atomic
def set_chat_hidden(message_id: int, moderator, reason: str, hidden: bool) -> ChatMessage:
    """A moderator hides a chat message (or shows it again), with a reason;
    recorded in the moderation audit."""
    message = (ChatMessage.objects.select_for_update(of=("self",)).select_related("game", "user")
               .defer("game__state", "game__history").filter(pk=message_id).first())
    if message is None:
        raise GameError(_("There is no such message."), code="not_found")
    reason = required_reason(reason, _("Give a reason for hiding the message.") if hidden
                             else _("Give a reason for showing the message again."))
    if message.hidden == hidden:
        raise GameError(_("This message is already hidden.") if hidden else _("This message is not hidden."),
                        code="unchanged")
    interventions.set_message_hidden(message, hidden)
    record_action(moderator, AuditEntry.Action.HIDE_CHAT if hidden else AuditEntry.Action.UNHIDE_CHAT, reason,
                  game=message.game, target_user=message.user, chat_message=message,
                  before={"hidden": not hidden}, after={"hidden": hidden})
    return message
