"""The seats' clocks: charged and started after every state change, expired
by the deadline tasks and beat's sweep, paused by nights and vacations."""

import logging
import math
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Min
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from accounts.models import Vacation
from gameplay import clocks
from gameplay import events as game_events
from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat
from gameplay.records import TIMEOUT
from gameplay.services import moves
from gameplay.services.after_commit import game_changed
from gameplay.services.base import VACATION_LOOKBACK, GameError, locked_game, save_seats

log = logging.getLogger(__name__)


# After this many automatic moves in a row the late player forfeits (rules/joker.md "Time-outs").
AUTO_STREAK_LIMIT = 3


@transaction.atomic
def expire_deadlines(game_id: int, version: int | None = None) -> int:
    """Enforce the deadlines of one game that really passed: a seat out of
    move time starts its reserve; a seat out of reserve gets the expiry (an
    automatic move, or the loss of the game). `version` (from a queued task)
    must still be current. Running it twice, late, or after a restart
    changes nothing more than running it once. Returns the expiries applied."""
    game = locked_game(game_id, seats=True)
    if game.status != Game.Status.ACTIVE or (version is not None and version != game.version):
        return 0
    now = timezone.now()
    engine = get_engine(game.engine)
    timers = {t["seat"]: t for t in engine.timers(game.state)}
    overdue = sorted((s for s in game.seats.all() if s.deadline is not None and s.deadline <= now),
                     key=lambda s: (s.deadline, s.position))
    for seat in overdue:
        if seat.position not in timers:
            continue
        if not seat.in_reserve and seat.clock_uses_reserve and seat.reserve_seconds_left > 0:
            _start_reserve(seat, game, now)
            if seat.deadline > now:
                continue
        expire_seat(game, engine, seat, timers[seat.position])
        log.info("game %s: the deadline of seat %s expired; now at version %s", game_id, seat.position, game.version)
        return 1  # the state changed: the next deadlines are checked after this commit
    return 0


def _start_reserve(seat: Seat, game: Game, now: datetime) -> None:
    """The reserve runs from the move deadline, not from when this runs, so a
    late check gives no extra time."""
    seat.in_reserve = True
    seat.deadline = clocks.advance(seat.deadline, seat.reserve_seconds_left, pauses_for(seat, game, now))
    seat.save(update_fields=["in_reserve", "deadline"])
    game_changed(game)


def expire_seat(game: Game, engine, seat: Seat, timer: dict) -> None:
    """The engine says what expiry does; where it offers the automatic move
    and the game lets the table choose (Joker's `on_timeout`), a "forfeit"
    table loses the game instead. `game` comes from `locked_game(..., seats=True)`
    and `seat` is one of its `game.seats.all()`."""
    table_forfeits = game.on_timeout == Game.OnTimeout.FORFEIT and engine.table_chooses_on_timeout
    if timer.get("expiry") == "forfeit" or table_forfeits:
        moves.apply_move(game, seat.position, {"type": TIMEOUT}, by=Move.By.TIMEOUT)
        return
    action = {**engine.auto_action(game.state, seat.position), "auto": True}
    moves.apply_move(game, seat.position, action, by=Move.By.TIMEOUT)
    seat.auto_streak += 1
    seat.save(update_fields=["auto_streak"])
    if seat.auto_streak >= AUTO_STREAK_LIMIT and game.status == Game.Status.ACTIVE:
        moves.apply_move(game, seat.position, {"type": TIMEOUT}, by=Move.By.TIMEOUT)


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
    now = timezone.now()
    if ends_at <= starts_at or starts_at < now - timedelta(minutes=5):
        raise GameError(_("A vacation must start now or later and end after it starts."), code="bad_request")
    if user.vacations.filter(starts_at__lt=ends_at, ends_at__gt=starts_at).exists():
        raise GameError(_("You already have a vacation at that time."), code="bad_request")
    taken = vacation_days_taken(user, starts_at.year)
    days = (ends_at - starts_at).total_seconds() / 86400
    if taken + days > settings.VACATION_DAYS_PER_YEAR + 1e-9:
        raise GameError(
            ngettext("That is more than the %(limit)s vacation day a year: %(left)s left this year.",
                     "That is more than the %(limit)s vacation days a year: %(left)s left this year.",
                     settings.VACATION_DAYS_PER_YEAR)
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
        game = locked_game(game_id, seats=True)
        seat = next(s for s in game.seats.all() if s.user_id == user.pk)
        _recompute_deadline(seat, game, now)
        seat.save(update_fields=["deadline", "warn_at"])
        game_changed(game, clocks=True)


def pauses_for(seat: Seat, game: Game, now: datetime) -> clocks.Pauses:
    """When this seat's clock stops: its player's night window (if the table
    allows night pauses) and his vacations."""
    user = seat.user
    if user is None:
        return clocks.NO_PAUSES
    vacations = tuple(seat_vacations(game, now).get(user.pk, ()))
    night = (user.night_pause_start, user.night_pause_end) if game.night_pause else (None, None)
    return clocks.Pauses(user.time_zone, night[0], night[1], vacations)


def seat_vacations(game: Game, now: datetime) -> dict[int, list[tuple[datetime, datetime]]]:
    """{user id: [(start, end), ...]} of the recent and coming vacations of
    the game's players, read once per game object, in one query for all
    seats, and only for the players who have any (`has_vacations`, where
    `locked_game` marked the seats). The game row is locked, and vacations
    change clocks only through `take_vacation`/`end_vacation`, which lock
    the game after writing them."""
    known = game.__dict__.get("_vacations")
    if known is None:
        user_ids = [s.user_id for s in game.seats.all()
                    if s.user_id is not None and getattr(s, "has_vacations", True)]
        known = {}
        if user_ids:
            rows = Vacation.objects.filter(user_id__in=user_ids, ends_at__gt=now - VACATION_LOOKBACK)
            for user_id, start, end in rows.order_by("starts_at").values_list("user_id", "starts_at", "ends_at"):
                known.setdefault(user_id, []).append((start, end))
        game.__dict__["_vacations"] = known
    return known


def update_clocks(game: Game, engine, now: datetime, mover: int | None) -> float:
    """After a state change: charge the time of every seat leaving the clock
    (and of the mover), start the clock of every seat coming onto it (and of
    the mover if he must act again), stop the others. Returns the mover's
    running time for this move, in seconds."""
    on_clock = {t["seat"]: t for t in engine.timers(game.state)} if game.status == Game.Status.ACTIVE else {}
    used_by_mover = 0.0
    started = []
    turn_changed = []  # players whose "your move" badge may change
    changed = []
    for seat in game.seats.all():
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
        changed.append(seat)
        if seat.user_id is not None and was_on != (seat.clock_started_at is not None):
            turn_changed.append(seat.user_id)
    save_seats(changed, CLOCK_FIELDS)
    game_changed(game, clock_started=started, turn_changed=turn_changed, clocks=True)
    return used_by_mover


CLOCK_FIELDS = ["reserve_seconds_left", "clock_started_at", "clock_seconds", "clock_uses_reserve", "deadline",
                "in_reserve", "warn_at", "warned", "turn_notified", "order_at"]


def _start_clock(seat: Seat, game: Game, timer: dict, now: datetime, pauses: clocks.Pauses) -> None:
    seat.clock_started_at = now
    seat.clock_seconds = game.seconds_for(timer)
    seat.clock_uses_reserve = timer.get("reserve", True)
    seat.in_reserve = False
    seat.deadline = clocks.advance(now, seat.clock_seconds, pauses)
    seat.warn_at = clocks.advance(now, clocks.WARN_SHARE * (seat.clock_seconds + _reserve_of(seat)), pauses)
    seat.warned = False
    seat.turn_notified = False
    seat.order_at = order_release_at(seat, game, now)


def order_release_at(seat: Seat, game: Game, now: datetime) -> datetime | None:
    """When the seat's standing orders (and a Durak "done" said in advance for this bout) are
    looked at in the turn starting `now` (None: it has none, or a computer or nobody sits there):
    `clocks.release_delay`, a secret draw."""
    if not (seat.has_orders or said_ahead(seat, game)) or seat.is_bot or seat.user_id is None:
        return None
    delay = clocks.release_delay(settings.SECRET_KEY, game.pk, game.version, seat.position, seat.clock_seconds,
                                 settings.ORDER_RELEASE_MAX_SECONDS)
    return now + timedelta(seconds=delay)


def said_ahead(seat: Seat, game: Game) -> bool:
    """Whether the seat's player said his move in advance for the game's current stretch (Durak's
    "done for me in this bout")."""
    return seat.ahead_scope is not None and seat.ahead_scope == get_engine(game.engine).ahead_scope(game.state)


def _stop_clock(seat: Seat) -> None:
    seat.order_at = None
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


# -- the time warning ----------------------------------------------------------------


def expiry_forfeits(game: Game, position: int) -> bool:
    """Whether running out of time loses the game (else an automatic move is
    made): the same rule as `expire_seat`."""
    engine = get_engine(game.engine)
    if game.on_timeout == Game.OnTimeout.FORFEIT and engine.table_chooses_on_timeout:
        return True
    timers = {t["seat"]: t for t in engine.timers(game.state)}
    return timers.get(position, {}).get("expiry") == "forfeit"


def runs_out_at(seat: Seat, game: Game):
    """When the seat's time really runs out: its deadline, or, while the move
    time still runs, the end of the reserve that follows it."""
    if seat.in_reserve or not seat.clock_uses_reserve or seat.reserve_seconds_left <= 0:
        return seat.deadline
    return clocks.advance(seat.deadline, seat.reserve_seconds_left, pauses_for(seat, game, timezone.now()))


def send_time_warnings(game_id: int | None = None) -> int:
    """Mark the seats whose once-a-turn "less than 20% of your time left"
    warning is due (of one game, or of all), each publishing `clock_warning`
    (the email is `notifications`'). Returns how many seats were marked warned
    (computer players' seats are marked too)."""
    due = Seat.objects.filter(
        warn_at__lte=timezone.now(), warned=False, deadline__isnull=False, game__status=Game.Status.ACTIVE
    )
    if game_id is not None:
        due = due.filter(game_id=game_id)
    marked = 0
    for seat_game_id, position in due.order_by("warn_at").values_list("game_id", "position")[:1000]:
        try:
            marked += _warn(seat_game_id, position)
        except Exception:
            log.exception("the time warning of game %s seat %s failed", seat_game_id, position)
    return marked


@transaction.atomic
def _warn(game_id: int, position: int) -> int:
    """The game row, then the seat row, locked (the same order as a move, so
    no deadlock with one in progress): mark the seat warned, once a turn."""
    now = timezone.now()
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None or game.status != Game.Status.ACTIVE:
        return 0
    seat = Seat.objects.select_for_update().filter(game=game, position=position).first()
    if seat is None or seat.warned or seat.deadline is None or seat.warn_at is None or seat.warn_at > now:
        return 0
    seat.warned = True
    seat.save(update_fields=["warned"])
    if not seat.is_bot and seat.user_id is not None:
        game_events.publish(game_events.CLOCK_WARNING, game, position=position)
    return 1
