"""The PostgreSQL pool's check of a connection before it is lent, skipped
for one lent a moment ago (config/postgresql/base.py's pool, with CONN_HEALTH_CHECKS).

psycopg_pool's own check (`ConnectionPool.check_connection`, what Django
passes with CONN_HEALTH_CHECKS) sends an empty query each time a connection
is lent: a round trip. A daphne process' database threads take a connection
from the pool for every call and hand it back after it, so on the move's
path that was one wait for the server in three, and one more time the
thread had to win the GIL back from the event loop (bench/README.md, issue
45). A connection lent within the last `RECENT_SECONDS` was talking to the
server a moment ago, and is lent again unchecked; one that rested longer (a
quiet site, or a PostgreSQL restart or a dropped network since) is checked
as before, and replaced if it is broken. (HikariCP, Java's pool, skips its
check the same way, for connections used in the last 500 ms.) What the
window costs: a connection broken in the half second after it was lent
fails the call that takes it next, as a call in flight fails when the
server goes away; the pool then discards it.
"""

import time

from psycopg_pool import ConnectionPool

RECENT_SECONDS = 0.5


def check_unless_lent_recently(connection) -> None:
    """psycopg_pool's check, for a connection not lent in the last `RECENT_SECONDS`."""
    now = time.monotonic()
    lent_at = getattr(connection, "lent_at", None)
    if lent_at is None or now - lent_at > RECENT_SECONDS:
        ConnectionPool.check_connection(connection)
    connection.lent_at = now
