"""The PostgreSQL pool checks a connection before lending it unless it lent
it a moment ago (config/postgresql/pool.py): no round trip for a connection
lent again at once, a broken one replaced after it rested. A real
psycopg_pool on the test database with the settings' check. Run by the
PostgreSQL pass of `make test`."""

from collections.abc import Iterator

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from config.postgresql.pool import RECENT_SECONDS, check_unless_lent_recently

from .wire import queries_sent

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="PostgreSQL's pool"),
]


@pytest.fixture
def pool() -> Iterator[ConnectionPool]:
    """One connection at most, so every lending is of the same one until it is replaced."""
    settings = connection.settings_dict
    conninfo = psycopg.conninfo.make_conninfo(dbname=settings["NAME"], host=settings["HOST"] or None,
                                              port=settings["PORT"] or None, user=settings["USER"] or None,
                                              password=settings["PASSWORD"] or None)
    with ConnectionPool(conninfo, kwargs={"autocommit": True}, min_size=1, max_size=1,
                        check=check_unless_lent_recently, open=True) as opened:
        yield opened


def terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_the_sites_pool_checks_with_it():
    assert connection.pool._check is check_unless_lent_recently  # config.postgresql's pool, CONN_HEALTH_CHECKS on


def test_a_connection_lent_again_at_once_costs_no_round_trip(pool):
    conn = pool.getconn()
    pool.putconn(conn)

    with queries_sent(conn) as sent:
        lent = pool.getconn()
    assert sent == []
    assert lent is conn
    pool.putconn(conn)


def test_a_connection_that_rested_is_checked_before_it_is_lent(pool):
    conn = pool.getconn()
    pool.putconn(conn)
    conn.lent_at -= RECENT_SECONDS + 1  # as if it had rested

    with queries_sent(conn) as sent:
        pool.putconn(pool.getconn())

    assert len(sent) == 1  # the check's empty query


def test_a_connection_broken_while_it_rested_is_replaced_before_it_is_lent(pool):
    conn = pool.getconn()
    pid = conn.info.backend_pid
    pool.putconn(conn)
    terminate(pid)  # a PostgreSQL restart, as far as this connection can tell
    conn.lent_at -= RECENT_SECONDS + 1

    with pool.connection() as lent:
        assert lent.info.backend_pid != pid
        assert lent.execute("SELECT 1").fetchone() == (1,)


def test_a_connection_broken_just_after_its_last_lending_fails_one_call_then_is_replaced(pool):
    conn = pool.getconn()
    pid = conn.info.backend_pid
    pool.putconn(conn)
    terminate(pid)

    with pytest.raises(psycopg.OperationalError), pool.connection() as lent:  # the window the check skips
        lent.execute("SELECT 1")
    with pool.connection() as lent:
        assert lent.info.backend_pid != pid
        assert lent.execute("SELECT 1").fetchone() == (1,)
