"""Every state change of a game, one function each.

Each function runs in one transaction with the game row locked
(`select_for_update`; on SQLite the IMMEDIATE transaction mode takes the
write lock), and sends its broadcasts and queues its tasks only after the
commit (`transaction.on_commit`). Views and consumers stay thin: they parse
input, call one function here and render what it returns or raises.
"""

import random
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import broadcast, clocks
from gameplay.engine import ENGINES, get_engine
from gameplay.engine.core import IllegalMove
from gameplay.models import Game, Move, Seat

# Actions that are not the engine's moves but end the game for one seat.
RESIGN = "resign"


class GameError(Exception):
    """A refused request, with a message for the player. Nothing was changed."""

    def __init__(self, message: str, code: str = "refused", version: int | None = None):
        super().__init__(message)
        self.message = message
        self.code = code
        self.version = version


@dataclass(frozen=True)
class MoveResult:
    version: int
    duplicate: bool = False


def _locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameError(_("There is no such game."), code="not_found") from None


def _seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    return game.seats.filter(user=user).first()


# --- tables ---------------------------------------------------------------


@transaction.atomic
def create_game(
    user,
    engine_slug: str,
    options: dict | None = None,
    *,
    players: int | None = None,
    time_preset: str = clocks.DEFAULT_PRESET,
    move_seconds: int | None = None,
    reserve_seconds: int | None = None,
    on_timeout: str = Game.OnTimeout.AUTOPLAY,
    is_private: bool = False,
) -> Game:
    """Create a table with its creator in seat 0."""
    if engine_slug not in ENGINES:
        raise GameError(_("Unknown game."), code="bad_request")
    engine = get_engine(engine_slug)
    players = players or engine.min_players
    if not engine.min_players <= players <= engine.max_players:
        raise GameError(_("This game is for %(a)s to %(b)s players.") % {"a": engine.min_players, "b": engine.max_players})
    try:
        options = engine.validate_options(options or {})
    except ValueError as exc:
        raise GameError(str(exc), code="bad_request") from None
    preset = clocks.PRESETS.get(time_preset) or clocks.PRESETS[clocks.DEFAULT_PRESET]
    game = Game.objects.create(
        engine=engine_slug,
        options=options,
        seats_count=players,
        created_by=user,
        is_private=is_private,
        time_preset=preset.slug,
        move_seconds=move_seconds or preset.move_seconds,
        reserve_seconds=reserve_seconds if reserve_seconds is not None else preset.reserve_seconds,
        on_timeout=on_timeout,
    )
    Seat.objects.bulk_create(
        Seat(game=game, position=p, reserve_seconds_left=game.reserve_seconds) for p in range(players)
    )
    game.seats.filter(position=0).update(user=user)
    return game


@transaction.atomic
def join_game(game_id: int, user, position: int | None = None) -> Game:
    """Take a free seat (the first one unless `position` is given); the game
    starts by itself when the last seat is taken."""
    game = _locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError(_("This table is no longer taking players."), code="not_open")
    if _seat_of(game, user):
        raise GameError(_("You already have a seat at this table."), code="already_seated")
    free = game.seats.filter(user__isnull=True, is_bot=False)
    if position is not None:
        free = free.filter(position=position)
    seat = free.order_by("position").first()
    if seat is None:
        raise GameError(_("That seat is taken."), code="seat_taken")
    seat.user = user
    seat.save(update_fields=["user"])
    _start_if_full(game)
    _after_table_change(game)
    return game


@transaction.atomic
def leave_game(game_id: int, user) -> Game:
    game = _locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError(_("The game has started: you can resign, not leave."), code="not_open")
    seat = _seat_of(game, user)
    if seat is None:
        raise GameError(_("You have no seat at this table."), code="not_seated")
    seat.user = None
    seat.save(update_fields=["user"])
    if not game.seats.filter(user__isnull=False).exists():
        game.status = Game.Status.ABORTED
        game.abort_reason = _("Everyone left the table.")
        game.save(update_fields=["status", "abort_reason"])
    _after_table_change(game)
    return game


@transaction.atomic
def fill_with_bots(game_id: int, user) -> Game:
    """Put computer players in every empty seat (the table's creator or a seated player only)."""
    game = _locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError(_("This table is no longer taking players."), code="not_open")
    if _seat_of(game, user) is None:
        raise GameError(_("Only a player at this table can invite computer players."), code="not_seated")
    game.seats.filter(user__isnull=True, is_bot=False).update(is_bot=True)
    _start_if_full(game)
    _after_table_change(game)
    return game


def _start_if_full(game: Game) -> None:
    seats = list(game.seats.all())
    if not all(seat.is_taken for seat in seats):
        return
    engine = get_engine(game.engine)
    now = timezone.now()
    game.state = engine.start(players=game.seats_count, options=game.options, seed=int(game.seed))
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.turn_started_at = now
    game.version = 0
    game.save(update_fields=["state", "status", "started_at", "turn_started_at", "version"])
    _set_deadlines(game, engine, now)


def _after_table_change(game: Game) -> None:
    broadcast.game_changed_on_commit(game.pk)
    if game.status == Game.Status.ACTIVE:
        _queue_bots_on_commit(game)


# --- moves ----------------------------------------------------------------


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
    try:
        with transaction.atomic():
            game = _locked_game(game_id)
            if move_id is not None:
                earlier = game.moves.filter(client_move_id=move_id).first()
                if earlier is not None:
                    if earlier.user_id != getattr(user, "pk", None):
                        raise GameError(_("That move id was already used."), code="bad_request")
                    return MoveResult(version=earlier.seq, duplicate=True)
            seat = _seat_of(game, user)
            if seat is None:
                raise GameError(_("You are not playing at this table."), code="not_seated")
            if game.status != Game.Status.ACTIVE:
                raise GameError(_("This game is not in play."), code="not_active", version=game.version)
            if expected_version != game.version:
                raise GameError(
                    _("The game has moved on; here is the current position."), code="stale", version=game.version
                )
            _apply(game, seat.position, action, by=Move.By.PLAYER, user=user, move_id=move_id)
            return MoveResult(version=game.version)
    except IntegrityError:
        # A concurrent duplicate of the same move_id won the race: report its result.
        earlier = Move.objects.filter(game_id=game_id, client_move_id=move_id).first()
        if earlier is None:
            raise
        return MoveResult(version=earlier.seq, duplicate=True)


@transaction.atomic
def resign(game_id: int, user) -> MoveResult:
    game = _locked_game(game_id)
    seat = _seat_of(game, user)
    if seat is None:
        raise GameError(_("You are not playing at this table."), code="not_seated")
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("This game is not in play."), code="not_active", version=game.version)
    _apply(game, seat.position, {"type": RESIGN}, by=Move.By.PLAYER, user=user)
    return MoveResult(version=game.version)


@transaction.atomic
def play_bot_move(game_id: int, expected_version: int) -> bool:
    """The computer player whose turn it is moves, if the game is still where
    the task was queued. Running it twice is harmless."""
    from gameplay import bots

    game = _locked_game(game_id)
    if game.status != Game.Status.ACTIVE or game.version != expected_version:
        return False
    engine = get_engine(game.engine)
    bot_positions = set(game.seats.filter(is_bot=True).values_list("position", flat=True))
    acting = [p for p in engine.actors(game.state) if p in bot_positions]
    if not acting:
        return False
    position = acting[0]
    rng = random.Random(f"{game.seed}:{game.version}:{position}")
    action = bots.choose_action(engine, game.state, position, rng)
    _apply(game, position, action, by=Move.By.BOT)
    return True


@transaction.atomic
def abort_game(game_id: int, moderator, reason: str) -> Game:
    game = _locked_game(game_id)
    if game.is_over:
        raise GameError(_("This game is already over."), code="not_active")
    if not reason.strip():
        raise GameError(_("Give a reason for aborting the game."), code="bad_request")
    game.status = Game.Status.ABORTED
    game.abort_reason = reason.strip()
    game.aborted_by = moderator
    game.finished_at = timezone.now()
    game.save(update_fields=["status", "abort_reason", "aborted_by", "finished_at"])
    game.seats.update(deadline=None)
    _after_table_change(game)
    return game


def apply_action(engine, state: dict, position: int, action: dict) -> tuple[dict, list[dict]]:
    """The engine's move, or a resignation. Used by play and by replay alike."""
    if action.get("type") == RESIGN:
        return engine.forfeit(state, position), [{"type": "resigned", "seat": position}]
    return engine.apply(state, position, action)


def _apply(game: Game, position: int, action: dict, *, by: str, user=None, move_id: str | None = None) -> None:
    engine = get_engine(game.engine)
    try:
        new_state, events = apply_action(engine, game.state, position, action)
    except IllegalMove as exc:
        raise GameError(exc.message, code="illegal", version=game.version) from None
    now = timezone.now()
    Move.objects.create(
        game=game,
        seq=game.version + 1,
        position=position,
        action=action,
        by=by,
        user=user if by == Move.By.PLAYER else None,
        client_move_id=move_id,
        time_used_ms=clocks.time_used_ms(game.turn_started_at, now),
    )
    game.state = new_state
    game.version += 1
    game.turn_started_at = now
    fields = ["state", "version", "turn_started_at"]
    if engine.is_over(new_state):
        _finish(game, engine, now)
        fields += ["status", "finished_at"]
    game.save(update_fields=fields)
    if by == Move.By.PLAYER:
        game.seats.filter(position=position).update(auto_streak=0)
    _set_deadlines(game, engine, now)
    broadcast.game_changed_on_commit(game.pk, events)
    _queue_bots_on_commit(game)


def _finish(game: Game, engine, now) -> None:
    outcome = engine.outcome(game.state)
    game.status = Game.Status.FINISHED
    game.finished_at = now
    for seat in game.seats.all():
        seat.place = outcome["places"][seat.position]
        seat.points = outcome["scores"][seat.position]
        seat.deadline = None
        seat.save(update_fields=["place", "points", "deadline"])


def _set_deadlines(game: Game, engine, now) -> None:
    """Deadlines are rows: the seats on the clock get one, the others none.
    (Enforcement of deadlines is the clocks issue's work.)"""
    on_clock = {t["seat"] for t in engine.timers(game.state)} if game.status == Game.Status.ACTIVE else set()
    game.seats.exclude(position__in=on_clock).exclude(deadline=None).update(deadline=None)
    if on_clock:
        game.seats.filter(position__in=on_clock).update(deadline=clocks.deadline_for(now, game.move_seconds))


def _queue_bots_on_commit(game: Game) -> None:
    if game.status != Game.Status.ACTIVE:
        return
    engine = get_engine(game.engine)
    actors = set(engine.actors(game.state))
    if not game.seats.filter(is_bot=True, position__in=actors).exists():
        return
    from gameplay.tasks import queue_bot_move

    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: queue_bot_move(game_id, version))
