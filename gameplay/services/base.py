"""What every service shares: the refusal, a move's result, the locked game row, a user's seat,
what text can be stored."""

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from datetime import UTC, datetime, timedelta

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import Exists, Model, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import standing, verification
from accounts.models import Vacation
from gameplay.loading import cache_seats, seats_loaded
from gameplay.models import Game, Seat
from gameplay.services.prepared import PreparedQuery, run_together, several_statements_per_call


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


def is_storable_text(text: str) -> bool:
    """Valid Unicode (no lone surrogate such as "\\ud800") without a NUL
    character: text every database stores (SQLite refuses the first,
    PostgreSQL both)."""
    if "\x00" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# Vacations that ended longer ago than this cannot pause a running clock.
VACATION_LOOKBACK = timedelta(days=90)


def locked_game(game_id: int, *, seats: bool = False) -> Game:
    """The game row, locked for the transaction. With `seats`, its seats and
    their users are loaded too, each seat marked with whether its player has
    a recent or coming vacation (`has_vacations`, so that the clocks query
    the vacations only of those who have one). A service that asks for the
    seats changes seats only through `game.seats.all()`'s objects, which
    stay the truth for the rest of the transaction and for the broadcast
    after it. Both queries are compiled once per connection (`prepared`),
    and on PostgreSQL sent in one round trip (`run_together`)."""
    if not seats:
        found = _LOCKED_GAME(game_id=game_id)
    else:
        found, seat_rows = run_together([
            (_LOCKED_GAME, {"game_id": game_id}),
            (_SEATS_WITH_USERS, {"game_id": game_id, "vacations_since": timezone.now() - VACATION_LOOKBACK})])
    if not found:
        raise GameError(_("There is no such game."), code="not_found")
    game = found[0]
    if seats:
        # What `prefetch_related("seats")` stores, without its general machinery
        # (a third of a move's time to read four seats).
        cache_seats(game, seat_rows)
    return game


def _seats_with_users(game_id, vacations_since):
    recent = Vacation.objects.filter(user_id=OuterRef("user_id"), ends_at__gt=vacations_since)
    return (Seat.objects.filter(game_id=game_id).select_related("user")
            .annotate(has_vacations=Exists(recent)).order_by("position"))


_SENTINEL_ID = -738_291_465  # no row has it; found among the compiled parameters
_LOCKED_GAME = PreparedQuery(
    "locked_game", lambda game_id: Game.objects.select_for_update().filter(pk=game_id),
    {"game_id": ("gameplay.Game.id", _SENTINEL_ID)})
_SEATS_WITH_USERS = PreparedQuery(
    "seats_with_users", _seats_with_users,
    {"game_id": ("gameplay.Seat.game", _SENTINEL_ID),
     "vacations_since": ("accounts.Vacation.ends_at", datetime(1901, 2, 3, 4, 5, 6, tzinfo=UTC))})


def seat_of(game: Game, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    if seats_loaded(game):
        return next((s for s in game.seats.all() if s.user_id == user.pk), None)
    return game.seats.filter(user=user).first()


def save_seats(seats: list[Seat], fields: list[str]) -> None:
    """Write these fields of these seats in one database call (`save_rows`)."""
    save_rows(seats, fields)


def save_rows(objects: list[Model], fields: list[str]) -> None:
    """Write these fields of these objects (of one model) in one database
    call: one UPDATE statement executed for each object (`executemany`: one
    round trip with psycopg 3's pipeline). The fields' `pre_save` and their
    conversions (`get_db_prep_save`) apply, as in `Model.save`; no signals are sent (the project has no
    receivers of model saves). A move's game row and seats are written this
    way: `Model.save(update_fields=...)` costs about 0.4 ms of Python per
    call, and Django's `bulk_update` builds a CASE expression per field and
    object, which costs more than the move's whole transaction. Inside
    `writes_sent_together`, sent at its end."""
    if not objects:
        return
    model = type(objects[0])
    model_fields = [model._meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in model_fields)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {quote(model._meta.pk.column)} = %s"
    rows = [[f.get_db_prep_save(f.pre_save(obj, False), connection) for f in model_fields] + [obj.pk]
            for obj in objects]
    _write(sql, rows)


def insert_rows(objects: list[Model]) -> None:
    """Insert these new objects (of one model) in one database call, as
    `bulk_create` would (the fields' `pre_save`, e.g. `auto_now_add`, and
    their conversions apply; a unique constraint raises IntegrityError),
    without its query building, about 0.3 ms of Python per move. The
    objects' primary keys are not read back. Inside `writes_sent_together`,
    sent at its end."""
    if not objects:
        return
    model = type(objects[0])
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    sql = (f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(quote(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))})")
    rows = [[f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields] for obj in objects]
    _write(sql, rows)


@contextmanager
def writes_sent_together(*, last: bool = False) -> Iterator[None]:
    """`save_rows` and `insert_rows` inside this block are sent at its end,
    on PostgreSQL in one round trip (one string of statements: Django's
    psycopg cursors bind parameters on the client, which allows several
    statements in one call). A move writes its game row, its seats' clocks
    and its Move row so: one wait for the server instead of three, and one
    fewer each time the database thread must win the GIL back from the
    event loop. Only for writes that no read inside the block depends on;
    an error of any of them (a Move id taken) is raised at the block's end,
    in the same transaction. `last`: the caller runs nothing more in the
    transaction, so when it is the outermost one (no enclosing atomic block
    or savepoint) its COMMIT goes in the same string (the database backend
    says whether it may: config/postgresql/base.py)."""
    # Kept on this thread's connection object (`connections`), not on `connection`:
    # that is one proxy object shared by every thread.
    this_thread = connections[DEFAULT_DB_ALIAS]
    if getattr(this_thread, "_queued_writes", None) is not None:
        yield  # an enclosing block sends them
        return
    queued = this_thread._queued_writes = []
    try:
        yield
    finally:
        this_thread._queued_writes = None
    _send_together(queued, commit=last and _may_commit_in_statements(this_thread))


def _may_commit_in_statements(this_thread) -> bool:
    may = getattr(this_thread, "may_commit_in_statements", None)
    return may is not None and several_statements_per_call(this_thread) and may()


def _write(sql: str, rows: list[list]) -> None:
    queued = getattr(connections[DEFAULT_DB_ALIAS], "_queued_writes", None)
    if queued is not None:
        queued.append((sql, rows))
    else:
        _send_together([(sql, rows)])


def _send_together(statements: list[tuple[str, list[list]]], commit: bool = False) -> None:
    if not statements:
        return
    with connection.cursor() as cursor:
        if commit:
            cursor.execute("; ".join([sql for sql, rows in statements for _ in rows] + ["COMMIT"]),
                           [value for _, rows in statements for row in rows for value in row])
            connection.statements_committed()
            return
        if len(statements) > 1 and several_statements_per_call(connection):
            cursor.execute("; ".join(sql for sql, rows in statements for _ in rows),
                           [value for _, rows in statements for row in rows for value in row])
            return
        for sql, rows in statements:
            if len(rows) == 1:
                cursor.execute(sql, rows[0])
            else:
                cursor.executemany(sql, rows)


def ensure_may_play(user) -> None:
    """Refuse (GameError "suspended") an account suspended now. `user` must be
    fresh: the row a game service's transaction loaded, or the request's user."""
    if standing.is_suspended(user):
        raise GameError(standing.suspension_message(user), code=standing.SUSPENDED)


def ensure_verified(user, what: str) -> None:
    """Refuse (GameError "unverified") an account that has not confirmed its
    address yet the casual games' limits pass (accounts/verification.py)."""
    if not verification.is_verified(user):
        raise GameError(verification.unverified_message(what), code=verification.UNVERIFIED)


def ensure_may_chat(user) -> None:
    """Refuse (GameError "suspended" or "muted") an account that may not chat
    now. Reads the user's row afresh (one query): the user a socket holds was
    loaded when it opened."""
    fresh = standing.fresh_standing(user)
    if fresh is None:
        return
    if standing.is_suspended(fresh):
        raise GameError(standing.suspension_message(fresh), code=standing.SUSPENDED)
    if standing.is_muted(fresh):
        raise GameError(standing.mute_message(fresh), code=standing.MUTED)
