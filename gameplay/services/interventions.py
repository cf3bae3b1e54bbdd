"""Changes made to a game from outside its play: end it with a given result,
give a seat to someone else, abort it, hide a chat message. Moderation
(`moderation.services.games`) calls them; they do not know who calls them or
why: the caller checks who may, validates what was given, locks the game in
its transaction (`locked_game`) and records the reason.

Nothing is deleted: an adjudication and a substitution are recorded as moves
of the game by a moderator (`gameplay.records`: they leave the state as it
is), so the move log and the published record show them where they happened.

- `end_with_result`: the game ends with the places and points given, like
  any other result (the seats, the `game_finished` event: ratings and the
  league take it as they take the engine's outcome). It does not start the
  next game of its series: play at that table was stopped from outside.
- `replace_seat`: a seat of a game in play goes to another account or to a
  computer; the game goes on from where it is. The replaced player's time so
  far is charged; the new holder starts a fresh move clock if the game waits
  for the seat; the seat's private settings (Durak's "done" said in advance)
  are cleared. The replaced player is told nothing of the seat from then on:
  its views go to the new holder (an open socket of the replaced player is
  closed by the first broadcast, `GameConsumer.game_update`). Publishes
  `seat_replaced` (leagues decide whose result the seat's is).
- `abort`: the game ends with no result; publishes `game_aborted` (a league
  treats it as a game over with no result).
- `set_message_hidden`: a chat message is hidden, or shown again.
"""

from __future__ import annotations

from django.utils import timezone

from gameplay import broadcast
from gameplay import events as game_events
from gameplay.engine import get_engine
from gameplay.models import ChatMessage, Game, Move, Seat
from gameplay.records import ADJUDICATE, SUBSTITUTE
from gameplay.services import clocks as seat_clocks
from gameplay.services import tables
from gameplay.services import orders as standing_orders
from gameplay.services.after_commit import game_changed
from gameplay.services.moves import finish_with_result


def abort(game: Game, reason: str, by) -> None:
    """End the locked `game` with no result."""
    game.status = Game.Status.ABORTED
    game.abort_reason = reason
    game.aborted_by = by
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "abort_reason", "aborted_by", "finished_at"])
    # Every open page of the game gets the abort and its reason (the state's "result") after the commit.
    game_changed(game)
    seat_clocks.update_clocks(game, get_engine(game.engine), game.finished_at, mover=None)
    tables.after_table_change(game)
    game_events.publish(game_events.GAME_ABORTED, game, reason=reason)


def end_with_result(game: Game, places: list[int], points: list[float], reason: str, by) -> None:
    """End the locked `game` (its seats loaded) with these places and points per seat."""
    engine = get_engine(game.engine)
    now = timezone.now()
    move = Move(game=game, seq=game.version + 1, position=None, by=Move.By.MODERATOR, user=None,
                action={"type": ADJUDICATE, "places": places, "points": points, "reason": reason})
    game.version += 1
    finish_with_result(game, places, points, now)
    game.save(update_fields=["version", "status", "finished_at"])
    move.save()
    seat_clocks.update_clocks(game, engine, now, mover=None)  # every clock stops
    game_changed(game)


def replace_seat(game: Game, seat: Seat, user, reason: str, *, computer_level: int = 1) -> None:
    """Give `seat` of the locked `game` (its seats loaded) to `user`, or to a
    computer player of `computer_level` when `user` is None."""
    previous = seat.user
    _give_seat(game, seat, user, computer_level)
    action = {"type": SUBSTITUTE, "seat": seat.position, "computer": user is None, "reason": reason}
    if user is None:
        action["level"] = computer_level
    Move.objects.create(game=game, seq=game.version + 1, position=None, by=Move.By.MODERATOR, user=previous,
                        action=action)
    game.version += 1
    game.save(update_fields=["version"])
    engine = get_engine(game.engine)
    # The replaced player's time so far is charged; the new holder starts a fresh clock if the seat is waited for.
    seat_clocks.update_clocks(game, engine, timezone.now(), mover=seat.position)
    game_changed(game, turn_changed=[previous.pk if previous else None, user.pk if user else None])
    game_events.publish(game_events.SEAT_REPLACED, game, position=seat.position,
                        previous_user_id=previous.pk if previous else None,
                        user_id=user.pk if user else None, reason=reason)


def _give_seat(game: Game, seat: Seat, user, computer_level: int) -> None:
    seat.user = user
    seat.is_bot = user is None
    seat.computer_level = computer_level
    seat.ahead_scope = None  # the replaced player's private "done in advance"
    standing_orders.drop_orders(game, seat)  # and his standing orders: never for the new holder
    seat.seen_at = None
    seat.auto_streak = 0
    seat.has_vacations = True  # the new holder's vacations are read for the clock
    game.__dict__.pop("_vacations", None)
    seat.save(update_fields=["user", "is_bot", "computer_level", "ahead_scope", "seen_at", "auto_streak", "has_orders", "order_at"])


def set_message_hidden(message: ChatMessage, hidden: bool) -> None:
    """Hide the (locked) chat message, or show it again; its table sees it after the commit."""
    message.hidden = hidden
    message.save(update_fields=["hidden"])
    broadcast.chat_on_commit(message.pk)
