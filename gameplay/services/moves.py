"""Moves: a player's move, a resignation, a computer player's move, and what
the site adds after a move (a rules upgrade); a "done" said in advance."""

import logging
import random
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import bots, broadcast
from gameplay import events as game_events
from gameplay.computer_levels import level_refusal
from gameplay.engine import get_engine
from gameplay.engine.core import IllegalMove
from gameplay.i18n import engine_message_text
from gameplay.models import Game, Move, PlayerTally, Seat
from gameplay.records import RESIGN, RULES, TIMEOUT, apply_recorded
from gameplay.services import clocks as seat_clocks
from gameplay.services import tables
from gameplay.services.after_commit import game_changed
from gameplay.services.base import (GameError, MoveResult, ensure_may_play, insert_rows, locked_game, save_rows,
                                    save_seats, seat_of, writes_sent_together)

log = logging.getLogger(__name__)


def submit_move(game_id: int, user, action: Any, expected_version: Any, move_id: str | None = None) -> MoveResult:
    """A player's move. Idempotent by `move_id`; refuses stale versions,
    other people's seats and illegal moves without changing anything."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise GameError(_("A move must be an object with a \"type\"."), code="bad_request")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise GameError(_("A move must say which version of the game it was made on."), code="bad_request")
    if move_id is not None and (not isinstance(move_id, str) or not 0 < len(move_id) <= 64):
        raise GameError(_("The move id must be a short string."), code="bad_request")
    action = {k: v for k, v in action.items() if k != "auto"}  # only the server marks automatic moves
    if action["type"] == TIMEOUT:
        raise GameError(_("Only the clock can end a game on time."), code="bad_request")
    try:
        with transaction.atomic():
            game = locked_game(game_id, seats=True)
            try:
                seat = _playing_seat(game, user)
                if expected_version > game.version or (expected_version < game.version and not _may_apply_stale(
                        game, seat.position, action, expected_version)):
                    raise GameError(_("The game has moved on; here is the current position."), code="stale",
                                    version=game.version)
                apply_move(game, seat.position, action, by=Move.By.PLAYER, user=user, move_id=move_id,
                           ends_transaction=True)
            except GameError:
                # A move sent again (its answer was lost) is refused as stale, illegal or too late:
                # if its id is known, it was applied, and that is the answer.
                if (earlier := _earlier_move(game_id, move_id, user)) is None:
                    raise
                return earlier
            return MoveResult(version=game.version)
    except IntegrityError:
        # The move's id is taken (the unique constraint checks it; a move sent twice at once, or
        # a Durak throw-in sent again that is still legal): report the move that has it.
        if (earlier := _earlier_move(game_id, move_id, user)) is None:
            raise
        return earlier


def _earlier_move(game_id: int, move_id: str | None, user) -> MoveResult | None:
    """The result of the move that already has this id, if any; refused if it was someone else's."""
    if move_id is None:
        return None
    earlier = Move.objects.filter(game_id=game_id, client_move_id=move_id).only("seq", "user_id").first()
    if earlier is None:
        return None
    if earlier.user_id != getattr(user, "pk", None):
        raise GameError(_("That move id was already used."), code="bad_request")
    return MoveResult(version=earlier.seq, duplicate=True)


def _playing_seat(game: Game, user) -> Seat:
    """The user's seat at a game in play; a refusal if he has none or the game is not in play."""
    seat = seat_of(game, user)
    if seat is None:
        raise GameError(_("You are not playing at this table."), code="not_seated")
    ensure_may_play(seat.user)  # the row this transaction just read: a suspension counts at once, for free
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("This game is not in play."), code="not_active", version=game.version)
    return seat


@transaction.atomic
def resign(game_id: int, user) -> MoveResult:
    game = locked_game(game_id, seats=True)
    seat = _playing_seat(game, user)
    apply_move(game, seat.position, {"type": RESIGN}, by=Move.By.PLAYER, user=user)
    return MoveResult(version=game.version)


@transaction.atomic
def play_bot_move(game_id: int, expected_version: int, position: int | None = None) -> bool:
    """The computer player whose turn it is moves at its level, if the game is
    still where the task was queued. Running it twice is harmless. With
    `position`, only that seat's computer: a seat that is not a computer's, or
    not waited for, is refused (GameError) and nothing changes."""
    game = locked_game(game_id, seats=True)
    if game.status != Game.Status.ACTIVE or game.version != expected_version:
        return False
    engine = get_engine(game.engine)
    computers = {s.position: s for s in game.seats.all() if s.is_bot}
    if position is not None and position not in computers:
        raise GameError(_("Seat %(n)s is not played by a computer.") % {"n": _seat_number(position)},
                        code="not_computer", version=game.version)
    acting = [p for p in engine.actors(game.state) if p in computers and position in (None, p)]
    if not acting:
        if position is not None:
            raise GameError(_("The computer in seat %(n)s has no move to make now.") % {"n": position + 1},
                            code="not_your_turn", version=game.version)
        return False
    seat = computers[acting[0]]
    if seat.computer_level not in bots.LEVELS:
        raise GameError(level_refusal(seat.computer_level), code="unknown_level", version=game.version)
    rng = random.Random(f"{game.seed}:{game.version}:{seat.position}")
    try:
        action = bots.choose_action(engine, game.state, seat.position, rng, level=seat.computer_level)
    except ValueError as exc:  # the player refuses (a budget of zero): the game stays as it is
        log.warning("the computer of game %s seat %s refused to move: %s", game_id, seat.position, exc)
        raise GameError(_("The computer in seat %(n)s cannot move now.") % {"n": seat.position + 1},
                        code="computer_refused", version=game.version) from None
    apply_move(game, seat.position, action, by=Move.By.BOT)
    return True


def _seat_number(position) -> str:
    return str(position + 1) if isinstance(position, int) and not isinstance(position, bool) else repr(position)


def _may_apply_stale(game: Game, position: int, action: dict, made_at: int) -> bool:
    """Some moves don't depend on what others did meanwhile (a Durak
    throw-in, a secret commitment): the engine says so, and then judges the
    move against the current state instead of refusing it as stale."""
    return get_engine(game.engine).accepts_stale(game.state, position, action, made_at=made_at)


def apply_move(game: Game, position: int, action: dict, *, by: str, user=None, move_id: str | None = None,
               ends_transaction: bool = False) -> None:
    """The move of this seat applied to the locked game and written, with the
    moves the site adds after it. `ends_transaction`: the caller does nothing
    more in its transaction, whose COMMIT may then go with the writes."""
    engine = get_engine(game.engine)
    try:
        new_state, events = apply_recorded(engine, game.state, position, action)
    except IllegalMove as exc:
        raise GameError(engine_message_text(exc), code="illegal", version=game.version) from None
    moves = [Move(game=game, seq=game.version + 1, position=position, action=action, by=by,
                  user=user if by == Move.By.PLAYER else None, client_move_id=move_id)]
    new_state = _follow_up_moves(game, engine, new_state, events, moves)
    now = timezone.now()
    game.state = new_state
    game.version += len(moves)
    game.turn_started_at = now
    fields = ["state", "version", "turn_started_at"]
    if game.keep_history():  # a deal ended: its record joins the stored history
        fields.append("history")
    if engine.is_over(new_state):
        _finish(game, engine, now)
        fields += ["status", "finished_at"]
    finished = game.status == Game.Status.FINISHED
    with writes_sent_together(last=ends_transaction and not finished):
        save_rows([game], fields)
        used_seconds = seat_clocks.update_clocks(game, engine, now, mover=position)
        moves[0].time_used_ms = int(used_seconds * 1000)
        insert_rows(moves)
        if by == Move.By.PLAYER:
            _end_auto_streak(game, position)
    game_changed(game, events=events)
    if finished:
        tables.start_next_in_series(game, engine)


def _end_auto_streak(game: Game, position: int) -> None:
    """The player moved himself: his automatic moves in a row start again from none."""
    seat = next(s for s in game.seats.all() if s.position == position)
    if seat.auto_streak:
        seat.auto_streak = 0
        save_seats([seat], ["auto_streak"])


def _follow_up_moves(game: Game, engine, state: dict, events: list[dict], moves: list[Move]) -> dict:
    """The moves the site makes right after a move, each recorded as a move
    of its own so that replays repeat it: the upgrade of a game's rules at a
    safe point (`engine.upgrade`). (A Durak "done" said in advance is not
    one of them: it waits for its seat's secret release time, like every
    standing order: `services.orders.release_orders`.)"""
    while not engine.is_over(state):
        upgraded = engine.upgrade(state)
        if upgraded is None:
            break
        action = {"type": RULES, "version": upgraded["rules"]}
        state, new_events = apply_recorded(engine, state, None, action)
        moves.append(Move(game=game, seq=game.version + len(moves) + 1, position=None, action=action,
                          by=Move.By.SYSTEM))
        events.extend(new_events)
    return state


@transaction.atomic
def order_ahead(game_id: int, user, on: Any) -> None:
    """A player says his "done" in advance for the current bout (`on`), or
    takes it back. Private: only his own seat is told. It is made at his
    secret release time once the throwers' window waits for him
    (`services.orders.release_orders`)."""
    if not isinstance(on, bool):
        raise GameError(_("Say true or false."), code="bad_request")
    game = locked_game(game_id, seats=True)
    seat = _playing_seat(game, user)
    engine = get_engine(game.engine)
    if on and not engine.may_order_ahead(game.state, seat.position):
        raise GameError(_("You cannot say that in advance now."), code="illegal", version=game.version)
    seat.ahead_scope = engine.ahead_scope(game.state) if on else None
    seat.save(update_fields=["ahead_scope"])
    broadcast.seat_changed_on_commit(game.pk, seat.position)


def _finish(game: Game, engine, now) -> None:
    outcome = engine.outcome(game.state)
    finish_with_result(game, outcome["places"], outcome["scores"], now)


def finish_with_result(game: Game, places: list, points: list, now) -> None:
    """The locked game ends with these places and points per seat (the
    engine's outcome, or a moderator's adjudication): the seats' result, the
    ratings and the league's next round, in the caller's transaction. The
    caller saves the game's status and finished_at."""
    game.status = Game.Status.FINISHED
    game.finished_at = now
    seats = list(game.seats.all())
    for seat in seats:
        seat.place = places[seat.position]
        seat.points = points[seat.position]
        seat.finished_at = now
    save_seats(seats, ["place", "points", "finished_at"])
    count_finished(game, seats)
    game_events.publish(game_events.GAME_FINISHED, game)


def count_finished(game: Game, seats: list[Seat]) -> None:
    """Add a finished game to its players' tallies (PlayerTally): one
    statement, the rows in the order of their ids (two games ending at once
    lock their shared players in the same order)."""
    rows = sorted({seat.user_id: (seat.user_id, 1 if seat.place == 1 else 0, 0 if game.is_private else 1)
                   for seat in seats if seat.user_id is not None}.values())
    if not rows:
        return
    table = connection.ops.quote_name(PlayerTally._meta.db_table)
    sql = (f"INSERT INTO {table} (user_id, finished, won, public_finished) VALUES (%s, 1, %s, %s) "
           f"ON CONFLICT (user_id) DO UPDATE SET finished = {table}.finished + 1, "
           f"won = {table}.won + excluded.won, public_finished = {table}.public_finished + excluded.public_finished")
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
