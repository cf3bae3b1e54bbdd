"""Every state change of a game, one function each.

Each function runs in one transaction with the game row locked
(`select_for_update`; on SQLite the IMMEDIATE transaction mode takes the
write lock), and sends its broadcasts and queues its tasks only after the
commit (`transaction.on_commit`). Views and consumers stay thin: they parse
input, call one function here and render what it returns or raises.
"""

import math
import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import badge, broadcast, clocks, notifications
from gameplay.engine import ENGINES, get_engine
from gameplay.engine.core import IllegalMove
from gameplay.i18n import engine_message_text
from gameplay.models import ChatMessage, Game, Move, Seat, new_invite_code
from gameplay.records import RESIGN, RULES, TIMEOUT, apply_recorded

# After this many automatic moves in a row the late player forfeits (rules/joker.md "Time-outs").
AUTO_STREAK_LIMIT = 3


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


def _may_apply_stale(game: Game, position: int, action: dict, made_at: int) -> bool:
    """Some moves don't depend on what others did meanwhile (a Durak
    throw-in, a secret commitment): the engine says so, and then judges the
    move against the current state instead of refusing it as stale."""
    return get_engine(game.engine).accepts_stale(game.state, position, action, made_at=made_at)


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
    night_pause: bool | None = None,
    timer_seconds: dict | None = None,
    series_length: int = 1,
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
        engine.check_options_for_players(options, players)
    except ValueError as exc:
        raise GameError(engine_message_text(exc), code="bad_request") from None
    if not 1 <= series_length <= MAX_SERIES:
        raise GameError(_("A series has 1 to %(n)s games.") % {"n": MAX_SERIES}, code="bad_request")
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
        night_pause=preset.night_pause if night_pause is None else (night_pause and preset.night_pause),
        timer_seconds={k: int(v) for k, v in (timer_seconds or {}).items() if v},
        series_length=series_length,
    )
    teams = _teams(options, players)
    Seat.objects.bulk_create(
        Seat(game=game, position=p, reserve_seconds_left=game.reserve_seconds, team=teams[p]) for p in range(players)
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
    game.rules_version = game.state["rules"]
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.turn_started_at = now
    game.version = 0
    game.save(update_fields=["state", "rules_version", "status", "started_at", "turn_started_at", "version"])
    _update_clocks(game, engine, now, mover=None)


MAX_SERIES = 20


def _teams(options: dict, players: int) -> list[int | None]:
    """Pairs sit opposite each other: seats 0+2 against 1+3."""
    if options.get("teams"):
        return [p % 2 for p in range(players)]
    return [None] * players


def _start_next_in_series(game: Game, engine) -> None:
    """The next game of the series, with the same people in the same seats,
    starts as soon as one ends (its first dealer and attacker as the game's
    rules say, through the engine's `next_game_options`)."""
    if game.series_number >= game.series_length:
        return
    options = engine.next_game_options(game.options, engine.outcome(game.state))
    following = Game.objects.create(
        engine=game.engine, options=options, seats_count=game.seats_count, created_by=game.created_by,
        is_private=game.is_private, invite_code=new_invite_code(), time_preset=game.time_preset,
        move_seconds=game.move_seconds, reserve_seconds=game.reserve_seconds, on_timeout=game.on_timeout,
        night_pause=game.night_pause, timer_seconds=game.timer_seconds, series_length=game.series_length,
        series_first=game.series_first or game, series_number=game.series_number + 1,
    )
    Seat.objects.bulk_create(
        Seat(game=following, position=s.position, user=s.user, is_bot=s.is_bot, team=s.team,
             reserve_seconds_left=following.reserve_seconds)
        for s in game.seats.all()
    )
    _start_if_full(following)
    _after_table_change(following)


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
    if action["type"] == TIMEOUT:
        raise GameError(_("Only the clock can end a game on time."), code="bad_request")
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
            if expected_version > game.version or (
                expected_version < game.version and not _may_apply_stale(game, seat.position, action, expected_version)
            ):
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
    _update_clocks(game, get_engine(game.engine), game.finished_at, mover=None)
    _after_table_change(game)
    return game


# --- table chat -----------------------------------------------------------

CHAT_BURST = (5, timedelta(seconds=10))  # at most 5 messages in 10 seconds
CHAT_HOURLY = (120, timedelta(hours=1))


def post_chat(game_id: int, user, text: Any) -> ChatMessage:
    """A player's message to his table (read by the players, and by the
    spectators of a public table). Stored, rate-limited."""
    if not isinstance(text, str) or not text.strip():
        raise GameError(_("Write something first."), code="bad_request")
    text = text.strip()
    if len(text) > ChatMessage.MAX_LENGTH:
        raise GameError(_("A message may be at most %(n)s characters.") % {"n": ChatMessage.MAX_LENGTH},
                        code="bad_request")
    with transaction.atomic():
        game = _locked_game(game_id)
        if _seat_of(game, user) is None:
            raise GameError(_("Only the players at this table can write in its chat."), code="not_seated")
        now = timezone.now()
        for limit, window in (CHAT_BURST, CHAT_HOURLY):
            if ChatMessage.objects.filter(game=game, user=user, created_at__gt=now - window).count() >= limit:
                raise GameError(_("You are writing too fast; wait a moment."), code="rate_limited")
        message = ChatMessage.objects.create(game=game, user=user, text=text)
        broadcast.chat_on_commit(message.pk)
    return message


@transaction.atomic
def set_chat_hidden(message_id: int, hidden: bool) -> None:
    """A moderator hides a chat message (or shows it again)."""
    ChatMessage.objects.filter(pk=message_id).update(hidden=hidden)
    broadcast.chat_on_commit(message_id)


# --- clocks ---------------------------------------------------------------


@transaction.atomic
def expire_deadlines(game_id: int, version: int | None = None) -> int:
    """Enforce the deadlines of one game that really passed: a seat out of
    move time starts its reserve; a seat out of reserve gets the expiry (an
    automatic move, or the loss of the game). `version` (from a queued task)
    must still be current. Running it twice, late, or after a restart
    changes nothing more than running it once. Returns the expiries applied."""
    game = _locked_game(game_id)
    if game.status != Game.Status.ACTIVE or (version is not None and version != game.version):
        return 0
    now = timezone.now()
    engine = get_engine(game.engine)
    timers = {t["seat"]: t for t in engine.timers(game.state)}
    for seat in game.seats.select_related("user").filter(deadline__lte=now).order_by("deadline", "position"):
        if seat.position not in timers:
            continue
        if not seat.in_reserve and seat.clock_uses_reserve and seat.reserve_seconds_left > 0:
            _start_reserve(seat, game, now)
            if seat.deadline > now:
                continue
        _expire(game, engine, seat, timers[seat.position])
        return 1  # the state changed: the next deadlines are checked after this commit
    return 0


def _start_reserve(seat: Seat, game: Game, now: datetime) -> None:
    """The reserve runs from the move deadline, not from when this runs, so a
    late check gives no extra time."""
    seat.in_reserve = True
    seat.deadline = clocks.advance(seat.deadline, seat.reserve_seconds_left, pauses_for(seat, game, now))
    seat.save(update_fields=["in_reserve", "deadline"])
    game_id = game.pk
    broadcast.game_changed_on_commit(game_id)


def _expire(game: Game, engine, seat: Seat, timer: dict) -> None:
    """The engine says what expiry does; where it offers the automatic move
    and the game lets the table choose (Joker's `on_timeout`), a "forfeit"
    table loses the game instead."""
    table_forfeits = game.on_timeout == Game.OnTimeout.FORFEIT and engine.table_chooses_on_timeout
    if timer.get("expiry") == "forfeit" or table_forfeits:
        _apply(game, seat.position, {"type": TIMEOUT}, by=Move.By.TIMEOUT)
        return
    action = {**engine.auto_action(game.state, seat.position), "auto": True}
    _apply(game, seat.position, action, by=Move.By.TIMEOUT)
    seat.refresh_from_db(fields=["auto_streak"])
    seat.auto_streak += 1
    seat.save(update_fields=["auto_streak"])
    if seat.auto_streak >= AUTO_STREAK_LIMIT and game.status == Game.Status.ACTIVE:
        _apply(game, seat.position, {"type": TIMEOUT}, by=Move.By.TIMEOUT)


def overdue_game_ids(limit: int = 500) -> list[int]:
    """Active games with a deadline that has passed (for beat's sweep)."""
    overdue = (
        Seat.objects.filter(deadline__lte=timezone.now(), game__status=Game.Status.ACTIVE)
        .values("game_id")
        .annotate(first=Min("deadline"))
        .order_by("first")
    )
    return [row["game_id"] for row in overdue[:limit]]


@transaction.atomic
def take_vacation(user, starts_at: datetime, ends_at: datetime):
    """Stop the user's clocks in all his games from `starts_at` to `ends_at`
    (at most settings.VACATION_DAYS_PER_YEAR days in a calendar year)."""
    from django.conf import settings

    from accounts.models import Vacation

    now = timezone.now()
    if ends_at <= starts_at or starts_at < now - timedelta(minutes=5):
        raise GameError(_("A vacation must start now or later and end after it starts."), code="bad_request")
    if user.vacations.filter(starts_at__lt=ends_at, ends_at__gt=starts_at).exists():
        raise GameError(_("You already have a vacation at that time."), code="bad_request")
    taken = vacation_days_taken(user, starts_at.year)
    days = (ends_at - starts_at).total_seconds() / 86400
    if taken + days > settings.VACATION_DAYS_PER_YEAR + 1e-9:
        raise GameError(
            _("That is more than the %(limit)s vacation days a year: %(left)s left this year.")
            % {"limit": settings.VACATION_DAYS_PER_YEAR, "left": max(0, round(settings.VACATION_DAYS_PER_YEAR - taken, 1))},
            code="bad_request",
        )
    vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
    _reclock_user(user, now)
    return vacation


@transaction.atomic
def end_vacation(user) -> None:
    """End the current vacation now (and drop future ones)."""
    now = timezone.now()
    user.vacations.filter(starts_at__gt=now).delete()
    user.vacations.filter(starts_at__lte=now, ends_at__gt=now).update(ends_at=now)
    _reclock_user(user, now)


def vacation_days_taken(user, year: int) -> float:
    return sum(v.days for v in user.vacations.filter(starts_at__year=year))


def _reclock_user(user, now: datetime) -> None:
    """The user's pauses changed: recompute his running deadlines, game by game, each game locked."""
    game_ids = sorted(
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).values_list("game_id", flat=True)
    )
    for game_id in game_ids:
        game = _locked_game(game_id)
        seat = game.seats.select_related("user").get(user=user)
        _recompute_deadline(seat, game, now)
        seat.save(update_fields=["deadline", "warn_at"])
        version = game.version
        transaction.on_commit(lambda g=game_id, v=version: _after_clock_change(g, v, []))
        broadcast.game_changed_on_commit(game_id)


def _apply(game: Game, position: int, action: dict, *, by: str, user=None, move_id: str | None = None) -> None:
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
    if engine.is_over(new_state):
        _finish(game, engine, now)
        fields += ["status", "finished_at"]
    game.save(update_fields=fields)
    used_seconds = _update_clocks(game, engine, now, mover=position)
    moves[0].time_used_ms = int(used_seconds * 1000)
    Move.objects.bulk_create(moves)
    if by == Move.By.PLAYER:
        game.seats.filter(position=position).update(auto_streak=0)
    broadcast.game_changed_on_commit(game.pk, events)
    _queue_bots_on_commit(game)
    if game.status == Game.Status.FINISHED:
        game_id = game.pk
        transaction.on_commit(lambda: notifications.game_over(game_id))
        _start_next_in_series(game, engine)


def _follow_up_moves(game: Game, engine, state: dict, events: list[dict], moves: list[Move]) -> dict:
    """The moves the site makes right after a move, each recorded as a move
    of its own so that replays repeat it: the upgrade of a game's rules at a
    safe point (`engine.upgrade`), and the "done" that throwers said in
    advance for this bout, applied once the game waits for it."""
    ordered: dict[int, Seat] | None = None
    while not engine.is_over(state):
        upgraded = engine.upgrade(state)
        if upgraded is not None:
            action, seat = {"type": RULES, "version": upgraded["rules"]}, None
            state, new_events = apply_recorded(engine, state, None, action)
            moves.append(Move(game=game, seq=game.version + len(moves) + 1, position=None, action=action,
                              by=Move.By.SYSTEM))
            events.extend(new_events)
            continue
        due = _ahead_due(engine, state)
        if not due:
            break
        if ordered is None:
            ordered = {s.position: s for s in game.seats.filter(ahead_scope=engine.ahead_scope(state))}
        seat = next((ordered[p] for p in due if p in ordered), None)
        if seat is None:
            break
        state, new_events = engine.apply(state, seat.position, dict(engine.ahead_action))
        moves.append(Move(game=game, seq=game.version + len(moves) + 1, position=seat.position,
                          action=dict(engine.ahead_action), by=Move.By.PLAYER, user_id=seat.user_id))
        events.extend(new_events)
    return state


def _ahead_due(engine, state: dict) -> list[int]:
    """The seats the game waits for whose move said in advance is legal now."""
    if engine.ahead_action is None or engine.ahead_scope(state) is None:
        return []
    return [p for p in engine.actors(state) if engine.ahead_action in engine.legal_actions(state, p)]


@transaction.atomic
def order_ahead(game_id: int, user, on: Any) -> None:
    """A player says his "done" in advance for the current bout (`on`), or
    takes it back. Private: only his own seat is told."""
    if not isinstance(on, bool):
        raise GameError(_("Say true or false."), code="bad_request")
    game = _locked_game(game_id)
    seat = _seat_of(game, user)
    if seat is None:
        raise GameError(_("You are not playing at this table."), code="not_seated")
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("This game is not in play."), code="not_active", version=game.version)
    engine = get_engine(game.engine)
    if on and not engine.may_order_ahead(game.state, seat.position):
        raise GameError(_("You cannot say that in advance now."), code="illegal", version=game.version)
    seat.ahead_scope = engine.ahead_scope(game.state) if on else None
    seat.save(update_fields=["ahead_scope"])
    broadcast.seat_changed_on_commit(game.pk, seat.position)


def _finish(game: Game, engine, now) -> None:
    outcome = engine.outcome(game.state)
    game.status = Game.Status.FINISHED
    game.finished_at = now
    for seat in game.seats.all():
        seat.place = outcome["places"][seat.position]
        seat.points = outcome["scores"][seat.position]
        seat.save(update_fields=["place", "points"])


def pauses_for(seat: Seat, game: Game, now: datetime) -> clocks.Pauses:
    """When this seat's clock stops: its player's night window (if the table
    allows night pauses) and his vacations."""
    user = seat.user
    if user is None:
        return clocks.NO_PAUSES
    vacations = tuple(
        (v.starts_at, v.ends_at) for v in user.vacations.filter(ends_at__gt=now - timedelta(days=90))
    )
    night = (user.night_pause_start, user.night_pause_end) if game.night_pause else (None, None)
    return clocks.Pauses(user.time_zone, night[0], night[1], vacations)


def _update_clocks(game: Game, engine, now: datetime, mover: int | None) -> float:
    """After a state change: charge the time of every seat leaving the clock
    (and of the mover), start the clock of every seat coming onto it (and of
    the mover if he must act again), stop the others. Returns the mover's
    running time for this move, in seconds."""
    on_clock = {t["seat"]: t for t in engine.timers(game.state)} if game.status == Game.Status.ACTIVE else {}
    used_by_mover = 0.0
    started = []
    turn_changed = []  # players whose "your move" badge may change
    for seat in game.seats.select_related("user"):
        was_on = seat.clock_started_at is not None
        moved = seat.position == mover
        pauses = None
        if was_on and (moved or seat.position not in on_clock):
            pauses = pauses_for(seat, game, now)
            used = clocks.running_seconds(seat.clock_started_at, now, pauses)
            if seat.clock_uses_reserve:
                overtime = max(0.0, used - seat.clock_seconds)
                seat.reserve_seconds_left = max(0, seat.reserve_seconds_left - math.ceil(overtime))
            if moved:
                used_by_mover = used
        if seat.position in on_clock and (not was_on or moved or on_clock[seat.position].get("restart")):
            _start_clock(seat, game, on_clock[seat.position], now, pauses or pauses_for(seat, game, now))
            started.append(seat.position)
        elif seat.position not in on_clock and was_on:
            _stop_clock(seat)
        else:
            continue  # nothing changed for this seat
        seat.save(update_fields=CLOCK_FIELDS)
        if seat.user_id is not None and was_on != (seat.clock_started_at is not None):
            turn_changed.append(seat.user_id)
    game_id, version = game.pk, game.version
    transaction.on_commit(lambda: _after_clock_change(game_id, version, started))
    badge.badge_changed_on_commit(turn_changed)
    return used_by_mover


CLOCK_FIELDS = ["reserve_seconds_left", "clock_started_at", "clock_seconds", "clock_uses_reserve", "deadline",
                "in_reserve", "warn_at", "warned", "turn_notified"]


def _start_clock(seat: Seat, game: Game, timer: dict, now: datetime, pauses: clocks.Pauses) -> None:
    seat.clock_started_at = now
    seat.clock_seconds = game.seconds_for(timer)
    seat.clock_uses_reserve = timer.get("reserve", True)
    seat.in_reserve = False
    seat.deadline = clocks.advance(now, seat.clock_seconds, pauses)
    seat.warn_at = clocks.advance(now, clocks.WARN_SHARE * (seat.clock_seconds + _reserve_of(seat)), pauses)
    seat.warned = False
    seat.turn_notified = False


def _stop_clock(seat: Seat) -> None:
    seat.clock_started_at = None
    seat.deadline = None
    seat.in_reserve = False
    seat.warn_at = None
    seat.warned = False


def _recompute_deadline(seat: Seat, game: Game, now: datetime) -> None:
    """After the pauses changed (a vacation began or ended): the same running
    time, counted again from the start of the turn."""
    if seat.clock_started_at is None:
        return
    pauses = pauses_for(seat, game, now)
    budget = seat.clock_seconds + (seat.reserve_seconds_left if seat.in_reserve else 0)
    seat.deadline = clocks.advance(seat.clock_started_at, budget, pauses)
    seat.warn_at = clocks.advance(
        seat.clock_started_at, clocks.WARN_SHARE * (seat.clock_seconds + _reserve_of(seat)), pauses
    )


def _reserve_of(seat: Seat) -> int:
    return seat.reserve_seconds_left if seat.clock_uses_reserve else 0


def _after_clock_change(game_id: int, version: int, started: list[int]) -> None:
    from gameplay.tasks import queue_deadline_check

    queue_deadline_check(game_id, version)
    if started:
        notifications.turn_started(game_id, version, started)


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
