"""Django's PostgreSQL backend, with a transaction's BEGIN sent in the round
trip of its first statement (settings' ENGINE "config.postgresql").

With Django's backend, psycopg opens a transaction by sending "BEGIN" on its
own and waiting for the answer before the transaction's first statement: a
round trip that carries nothing. On a daphne process' database threads each
round trip is also one more time the thread must win the GIL back from the
event loop, which under load is where a move's wait grows (bench/README.md,
issue 45). Here psycopg stays in autocommit mode and the backend begins the
transaction itself: the first statement after Django turns autocommit off
(`transaction.atomic`, `set_autocommit(False)`, or after a commit or rollback
while it is off) is sent as "BEGIN; <statement>" in one string, and the
cursor then stands on that statement's result. Django's client-side
parameter binding (its default for psycopg 3) allows several statements in
one string; a statement that cannot carry it (`executemany`, `copy`,
`stream`, a statement given as a psycopg `sql` object, a named cursor's
DECLARE) has its BEGIN sent alone first, as before. COMMIT and ROLLBACK are
psycopg's, sent only when a transaction is open: one that ran no statement
sends neither. A transaction's last writes may carry its COMMIT too
(`may_commit_in_statements`), so that a move's transaction takes two round
trips: its locked reads, then its writes and the commit.

The pool (Django's OPTIONS["pool"]) checks a connection before lending it
unless it lent it a moment ago: config/postgresql/pool.py.

Everything else is Django's backend: the same SQL, the same READ COMMITTED
transactions. Refused at start: an isolation level in OPTIONS (this BEGIN
would not carry it) and server-side binding (it takes one statement a call).
"""

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base as postgresql
from psycopg import pq
from psycopg_pool import ConnectionPool

from config.postgresql.pool import check_unless_lent_recently


class BeginningCursor(postgresql.Cursor):
    """Django's psycopg cursor that sends its connection's pending BEGIN with its next statement."""

    def execute(self, query, params=None, **kwargs):
        if not _take_pending_begin(self.connection):
            return super().execute(query, params, **kwargs)
        if not isinstance(query, str):
            self._send_begin()
            return super().execute(query, params, **kwargs)
        super().execute("BEGIN; " + query, params, **kwargs)
        self.nextset()  # past BEGIN's own result: the statement's rows, rowcount and status
        return self

    def executemany(self, *args, **kwargs):
        if _take_pending_begin(self.connection):
            self._send_begin()
        return super().executemany(*args, **kwargs)

    def copy(self, *args, **kwargs):
        if _take_pending_begin(self.connection):
            self._send_begin()
        return super().copy(*args, **kwargs)

    def stream(self, *args, **kwargs):
        if _take_pending_begin(self.connection):
            self._send_begin()
        return super().stream(*args, **kwargs)

    def _send_begin(self) -> None:
        super().execute("BEGIN")


def _take_pending_begin(psycopg_connection) -> bool:
    """Whether a BEGIN is owed before the connection's next statement; it is sent with it, so no longer owed."""
    pending = getattr(psycopg_connection, "begin_pending", False)
    if pending:
        psycopg_connection.begin_pending = False
    return pending


class DatabaseWrapper(postgresql.DatabaseWrapper):
    def get_connection_params(self) -> dict:
        options = self.settings_dict["OPTIONS"]
        if "isolation_level" in options:
            raise ImproperlyConfigured("config.postgresql begins READ COMMITTED transactions only: "
                                       "leave isolation_level out of the database's OPTIONS")
        if options.get("server_side_binding"):
            raise ImproperlyConfigured("config.postgresql sends BEGIN with a transaction's first statement, "
                                       "which needs client-side binding: leave server_side_binding out")
        params = super().get_connection_params()
        params["cursor_factory"] = BeginningCursor
        return params

    @property
    def pool(self) -> ConnectionPool | None:
        """Django's pool (OPTIONS["pool"]), whose check before lending
        (CONN_HEALTH_CHECKS) skips a connection lent a moment ago
        (config/postgresql/pool.py) where Django's sends psycopg_pool's every time."""
        options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == NO_DB_ALIAS or not options:
            return None
        if self.alias not in self._connection_pools:
            if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
                raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
            params = self.get_connection_params()
            params["autocommit"] = True  # as Django's: set as Django needs it when a connection is taken
            check = check_unless_lent_recently if self.settings_dict["CONN_HEALTH_CHECKS"] else None
            pool = ConnectionPool(kwargs=params, open=False, configure=self._configure_connection, check=check,
                                  **({} if options is True else options))
            self._connection_pools.setdefault(self.alias, pool)  # the first of several threads' wins, as Django's
        return self._connection_pools[self.alias]

    def _set_autocommit(self, autocommit: bool) -> None:
        # psycopg itself stays in autocommit mode; Django's flag (get_autocommit) says which mode it is in.
        with self.wrap_database_errors:
            if not self.connection.autocommit:
                self.connection.autocommit = True
        self.connection.begin_pending = not autocommit

    def _commit(self) -> None:
        super()._commit()
        self._begin_again_if_managed()

    def _rollback(self) -> None:
        super()._rollback()
        self._begin_again_if_managed()

    def _begin_again_if_managed(self) -> None:
        if self.connection is not None:
            self.connection.begin_pending = not self.get_autocommit()

    def may_commit_in_statements(self) -> bool:
        """Whether the transaction open now is the outermost atomic block's,
        with no savepoint, so that its COMMIT may end a string of statements
        (`gameplay.services.base.writes_sent_together(last=True)`); call
        `statements_committed` once such a string has run."""
        return (self.in_atomic_block and len(self.atomic_blocks) == 1 and not self.savepoint_ids
                and not self.needs_rollback and self.connection is not None
                and self.connection.info.transaction_status == pq.TransactionStatus.INTRANS)

    def statements_committed(self) -> None:
        """The string just run ended with COMMIT: Django's own commit at the
        block's end sends nothing, and a statement before it would begin a
        transaction of its own, committed there."""
        self.connection.begin_pending = True

    def _close(self) -> None:
        if self.connection is not None:
            self.connection.begin_pending = False  # a pooled connection goes to its next user owing nothing
        return super()._close()

    def create_cursor(self, name=None):
        if not name:
            return super().create_cursor()
        if _take_pending_begin(self.connection):
            self.connection.execute("BEGIN")  # a named cursor's DECLARE cannot carry it
        # Django's named cursor, held past the transaction when there is none (Django's flag, not psycopg's).
        cursor = postgresql.ServerSideCursor(self.connection, name=name, scrollable=False,
                                             withhold=self.get_autocommit())
        loader = self.connection.adapters.get_loader(postgresql.TIMESTAMPTZ_OID, postgresql.Format.TEXT)
        if self.timezone != loader.timezone:
            postgresql.register_tzloader(self.timezone, cursor)
        return cursor
