"""Tables: create, join, leave, computer players, the start, the next game of a series."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from gameplay import clocks
from gameplay.engine import ENGINES, Engine, get_engine
from gameplay.i18n import engine_message_text
from gameplay.models import Game, Seat, new_invite_code
from gameplay.services import clocks as seat_clocks
from gameplay.services.after_commit import game_changed, game_created
from gameplay.loading import cache_seats
from accounts import blocks, computers
from gameplay.computer_levels import DEFAULT_LEVEL, UnknownLevel, checked_level
from gameplay.services.base import GameError, ensure_verified, locked_game, seat_of


# Bounds of every time field of a table. Beyond the upper ones the clocks'
# arithmetic leaves the calendar, and no table needs more; the new-table form
# uses them too, with its own lower bound for people (5 s a move; the
# services take any whole second, as the tests' short clocks do).
MIN_MOVE_SECONDS = 5
MAX_MOVE_SECONDS = 30 * clocks.DAY
MAX_RESERVE_SECONDS = 60 * clocks.DAY


def players_refusal(engine) -> str:
    """Why a table of this game may not have that many players: its range, or its one size ("exactly 4")."""
    if engine.min_players == engine.max_players:
        return ngettext("This game is for exactly %(n)s player.", "This game is for exactly %(n)s players.",
                        engine.min_players) % {"n": engine.min_players}
    return _("This game is for %(a)s to %(b)s players.") % {"a": engine.min_players, "b": engine.max_players}


def checked_competition_game(name: str, engine_slug: str, players: int, options: dict | None, *,
                             unnamed: str) -> tuple[str, Engine, dict]:
    """A league's or a tournament's name, game and game options as it is created: the name stripped
    (`unnamed` says to give one), the options validated and completed by the game's engine for that many
    players; each refused with code "bad_request" (what is asked of an organizer's settings, not the
    game's rules refusing a table). Returns (name, engine, options); each app checks its table sizes."""
    name = (name or "").strip()
    if not name:
        raise GameError(unnamed, code="bad_request")
    if engine_slug not in ENGINES:
        raise GameError(_("Unknown game."), code="bad_request")
    engine = get_engine(engine_slug)
    try:
        options = engine.validate_options(options or {})
        engine.check_options_for_players(options, players)
    except ValueError as exc:
        raise GameError(engine_message_text(exc), code="bad_request") from None
    return name, engine, options


def _is_seconds(value, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_times(move_seconds, reserve_seconds, timer_seconds) -> None:
    """Refuse time fields out of bounds (a view's form checks them first; this
    guards every other caller)."""
    per_move = [move_seconds] if move_seconds else []  # 0 or None: the preset's
    if not isinstance(timer_seconds or {}, dict):
        raise GameError(_("Unknown clock."), code="bad_request")
    for name, seconds in (timer_seconds or {}).items():
        if not isinstance(name, str) or not 0 < len(name) <= 32:
            raise GameError(_("Unknown clock."), code="bad_request")
        if seconds:
            per_move.append(seconds)
    if not all(_is_seconds(seconds, 1, MAX_MOVE_SECONDS) for seconds in per_move):
        raise GameError(ngettext("A clock's time per move must be between 1 second and %(days)s day.",
                                 "A clock's time per move must be between 1 second and %(days)s days.",
                                 MAX_MOVE_SECONDS // clocks.DAY) % {"days": MAX_MOVE_SECONDS // clocks.DAY}, code="bad_request")
    if reserve_seconds is not None and not _is_seconds(reserve_seconds, 0, MAX_RESERVE_SECONDS):
        raise GameError(ngettext("The reserve time must be between 0 and %(days)s day.",
                                 "The reserve time must be between 0 and %(days)s days.",
                                 MAX_RESERVE_SECONDS // clocks.DAY) % {"days": MAX_RESERVE_SECONDS // clocks.DAY}, code="bad_request")


def _check_choices(time_preset, on_timeout, **flags) -> None:
    """A table's choices, each of its type and among its values (the new-table
    form's; every other caller, a challenge's stored time control too, is held
    to them): an unknown preset is refused, not taken for the default."""
    if not isinstance(time_preset, str) or time_preset not in clocks.PRESETS:
        raise GameError(_("Unknown time control."), code="bad_request")
    if not isinstance(on_timeout, str) or on_timeout not in Game.OnTimeout.values:
        raise GameError(_("Unknown choice for when time runs out."), code="bad_request")
    for name, value in flags.items():
        if not isinstance(value, bool) and not (name == "night_pause" and value is None):
            raise GameError(_("\"%(field)s\" must be true or false.") % {"field": name}, code="bad_request")


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
    rated: bool = True,
    night_pause: bool | None = None,
    timer_seconds: dict | None = None,
    series_length: int = 1,
    allow_bots: bool = False,
    bots_rated_apart: bool = True,
) -> Game:
    """Create a table with its creator in seat 0. A bot account's own table allows bots."""
    if rated:
        ensure_verified(user, _("open a rated table"))
    game = _new_game(user, engine_slug, options, players=players, time_preset=time_preset,
                     move_seconds=move_seconds, reserve_seconds=reserve_seconds, on_timeout=on_timeout,
                     is_private=is_private, rated=rated, night_pause=night_pause, timer_seconds=timer_seconds,
                     series_length=series_length)
    game.allow_bots = bool(allow_bots) or user.is_bot
    game.bots_rated_apart = bool(bots_rated_apart)
    game.save()
    _add_seats(game, [user])
    return game


def check_table(user, engine_slug: str, options: dict | None = None, *, players: int | None = None,
                **table) -> Game:
    """The table `create_game` would make, checked (GameError if it may not
    be made) and not saved: its options validated and completed by its
    engine, its time control within bounds. For those who gather a table's
    players first (a challenge) and create it later."""
    return _new_game(user, engine_slug, options, players=players, **table)


def _new_game(user, engine_slug: str, options: dict | None, *, players: int | None,
              time_preset: str = clocks.DEFAULT_PRESET, move_seconds: int | None = None,
              reserve_seconds: int | None = None, on_timeout: str = Game.OnTimeout.AUTOPLAY,
              is_private: bool = False, rated: bool = True, night_pause: bool | None = None,
              timer_seconds: dict | None = None, series_length: int = 1) -> Game:
    """A new table's row, checked and not saved yet: its options validated by its engine."""
    if engine_slug not in ENGINES:
        raise GameError(_("Unknown game."), code="bad_request")
    engine = get_engine(engine_slug)
    players = players or engine.min_players
    if not engine.min_players <= players <= engine.max_players:
        raise GameError(players_refusal(engine), code="illegal")  # the game's rules refuse the table (API: 422)
    try:
        options = engine.validate_options(options or {})
        engine.check_options_for_players(options, players)
    except ValueError as exc:
        raise GameError(engine_message_text(exc), code="illegal") from None
    _check_choices(time_preset, on_timeout, is_private=is_private, rated=rated, night_pause=night_pause)
    if not _is_seconds(series_length, 1, MAX_SERIES):
        raise GameError(ngettext("A series has 1 to %(n)s game.", "A series has 1 to %(n)s games.", MAX_SERIES) % {"n": MAX_SERIES}, code="bad_request")
    _check_times(move_seconds, reserve_seconds, timer_seconds)
    preset = clocks.PRESETS[time_preset]
    return Game(
        engine=engine_slug,
        options=options,
        seats_count=players,
        created_by=user,
        is_private=is_private,
        rated=rated,
        time_preset=preset.slug,
        move_seconds=move_seconds or preset.move_seconds,
        reserve_seconds=reserve_seconds if reserve_seconds is not None else preset.reserve_seconds,
        on_timeout=on_timeout,
        night_pause=preset.night_pause if night_pause is None else (night_pause and preset.night_pause),
        timer_seconds={k: int(v) for k, v in (timer_seconds or {}).items() if v},
        series_length=series_length,
    )


def _add_seats(game: Game, users: list) -> list[Seat]:
    """The saved game's seats, in one statement: `users` in the first ones, in order, the others free.
    A computer level's account among them is a computer player of that level (accounts/computers.py)."""
    teams = _teams(game.options, game.seats_count)
    seats = [_seat(game, p, users[p] if p < len(users) else None, teams[p]) for p in range(game.seats_count)]
    Seat.objects.bulk_create(seats)
    if any(seat.pk is None for seat in seats):  # a database that returns no ids from a bulk insert
        seats = list(Seat.objects.filter(game=game).select_related("user").order_by("position"))
    return seats


def _seat(game: Game, position: int, user, team: int | None) -> Seat:
    seat = Seat(game=game, position=position, reserve_seconds_left=game.reserve_seconds, team=team)
    if computers.is_computer(user):
        seat.is_bot, seat.computer_level = True, user.computer_level
    else:
        seat.user = user
    return seat


@transaction.atomic
def create_seated_game(users: list, engine_slug: str, options: dict | None = None, **table) -> Game:
    """A table whose every seat is given, in order (a league's scheduled
    table), started at once: the same table as its first player creating it
    and the others joining it, seat by seat, the last one starting it.

    Made in a few statements (a draw creates thousands): the game row
    inserted already started, its seats in one insert, their clocks in one
    update. Nobody can have the page of a game made in this transaction open,
    so its commit sends no views; its follow-up work (the first player's
    clock and "your move") is queued as for any start."""
    people = [user for user in users if not computers.is_computer(user)]
    if len({user.pk for user in people}) < len(people):
        raise GameError(_("You already have a seat at this table."), code="already_seated")
    game = _new_game(users[0], engine_slug, options, players=len(users), **table)
    game.allow_bots = any(user.is_bot for user in people)  # whoever gathered them (a challenge, a league) allowed them
    engine = get_engine(engine_slug)
    now = timezone.now()
    _set_started(game, engine, now)
    game.save()
    seats = _add_seats(game, users)
    cache_seats(game, seats)
    seat_clocks.update_clocks(game, engine, now, mover=None)
    game_created(game)
    return game


@transaction.atomic
def join_game(game_id: int, user, position: int | None = None) -> Game:
    """Take a free seat (the first one unless `position` is given); the game
    starts by itself when the last seat is taken."""
    game = locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError(_("This table is no longer taking players."), code="not_open")
    if seat_of(game, user):
        raise GameError(_("You already have a seat at this table."), code="already_seated")
    if user.is_bot and not game.allow_bots:
        raise GameError(_("This table's creator does not allow bot accounts."), code="bots_not_allowed")
    if game.rated:
        ensure_verified(user, _("sit at a rated table"))
    seated = [uid for uid in game.seats.values_list("user_id", flat=True) if uid]
    if blocks.any_block(user.pk, seated):  # a block either way: neither joins the other's table
        raise GameError(_("This table is not open to you."), code="blocked")
    free = game.seats.filter(user__isnull=True, is_bot=False)
    if position is not None:
        if not isinstance(position, int) or isinstance(position, bool) or not 0 <= position < game.seats_count:
            raise GameError(_("There is no such seat."), code="bad_request")
        free = free.filter(position=position)
    seat = free.order_by("position").first()
    if seat is None:
        raise GameError(_("That seat is taken."), code="seat_taken")
    seat.user = user
    seat.save(update_fields=["user"])
    _start_if_full(game)
    after_table_change(game)
    return game


@transaction.atomic
def leave_game(game_id: int, user) -> Game:
    game = locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError(_("The game has started: you can resign, not leave."), code="not_open")
    seat = seat_of(game, user)
    if seat is None:
        raise GameError(_("You have no seat at this table."), code="not_seated")
    seat.user = None
    seat.save(update_fields=["user"])
    if not game.seats.filter(user__isnull=False).exists():
        game.status = Game.Status.ABORTED
        game.abort_reason = _("Everyone left the table.")
        game.save(update_fields=["status", "abort_reason"])
    after_table_change(game)
    return game


@transaction.atomic
def fill_with_bots(game_id: int, user, levels: list | None = None) -> Game:
    """Put computer players in every empty seat (the table's creator or a seated player only):
    `levels` gives theirs, the empty seats' in seat order (those it does not name: level 1)."""
    levels = checked_levels(levels)
    game = locked_game(game_id)
    if game.status != Game.Status.OPEN:
        raise GameError(_("This table is no longer taking players."), code="not_open")
    if seat_of(game, user) is None:
        raise GameError(_("Only a player at this table can invite computer players."), code="not_seated")
    empty = list(game.seats.filter(user__isnull=True, is_bot=False).order_by("position"))
    for seat, level in zip(empty, levels + [DEFAULT_LEVEL] * len(empty)):
        seat.is_bot, seat.computer_level = True, level
    Seat.objects.bulk_update(empty, ["is_bot", "computer_level"])
    _start_if_full(game)
    after_table_change(game)
    return game


MAX_LEVELS_GIVEN = 8  # more than any table's seats


def checked_levels(levels) -> list[int]:
    """The computer levels a caller asks for, each one that exists; GameError otherwise."""
    if levels is None:
        return []
    if not isinstance(levels, list | tuple) or len(levels) > MAX_LEVELS_GIVEN:
        raise GameError(_("Computer levels must be a short list of numbers."), code="bad_request")
    try:
        return [checked_level(level) for level in levels]
    except UnknownLevel as exc:
        raise GameError(str(exc), code="bad_request") from None


def _start_if_full(game: Game) -> None:
    seats = list(game.seats.all())
    if not all(seat.is_taken for seat in seats):
        return
    engine = get_engine(game.engine)
    now = timezone.now()
    _set_started(game, engine, now)
    game.keep_history()
    game.save(update_fields=["state", "history", "rules_version", "status", "started_at", "turn_started_at",
                             "version"])
    seat_clocks.update_clocks(game, engine, now, mover=None)


def _set_started(game: Game, engine, now) -> None:
    """The game's first deal, from its seed: it is in play from `now` (the caller saves it and starts the clocks)."""
    game.state = engine.start(players=game.seats_count, options=game.options, seed=int(game.seed))
    game.rules_version = game.state["rules"]
    game.status = Game.Status.ACTIVE
    game.started_at = now
    game.turn_started_at = now
    game.version = 0
    opening = getattr(engine, "opening_events", None)  # what the start itself shows (domino Poker's draw)
    game_changed(game, events=opening(game.state) if opening is not None else (), started=True)


MAX_SERIES = 20


def _teams(options: dict, players: int) -> list[int | None]:
    """Pairs sit opposite each other: seats 0+2 against 1+3."""
    if options.get("teams"):
        return [p % 2 for p in range(players)]
    return [None] * players


def start_next_in_series(game: Game, engine) -> None:
    """The next game of the series, with the same people in the same seats,
    starts as soon as one ends (its first dealer and attacker as the game's
    rules say, through the engine's `next_game_options`)."""
    if game.series_number >= game.series_length:
        return
    options = engine.next_game_options(game.options, engine.outcome(game.state))
    following = Game.objects.create(
        engine=game.engine, options=options, seats_count=game.seats_count, created_by=game.created_by,
        is_private=game.is_private, rated=game.rated, invite_code=new_invite_code(), time_preset=game.time_preset,
        move_seconds=game.move_seconds, reserve_seconds=game.reserve_seconds, on_timeout=game.on_timeout,
        night_pause=game.night_pause, timer_seconds=game.timer_seconds, series_length=game.series_length,
        allow_bots=game.allow_bots, bots_rated_apart=game.bots_rated_apart, series_first=game.series_first or game, series_number=game.series_number + 1,
    )
    Seat.objects.bulk_create(
        Seat(game=following, position=s.position, user=s.user, is_bot=s.is_bot, computer_level=s.computer_level,
             team=s.team, reserve_seconds_left=following.reserve_seconds)
        for s in game.seats.all()
    )
    _start_if_full(following)
    after_table_change(following)


def after_table_change(game: Game) -> None:
    """Everyone at the table sees it; a computer player whose turn it is moves."""
    game_changed(game)
