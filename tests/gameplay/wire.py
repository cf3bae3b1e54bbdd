"""What a psycopg connection sends to PostgreSQL, read from libpq's protocol trace."""

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from psycopg import pq


@contextmanager
def queries_sent(conn) -> Iterator[list[str]]:
    """The Query messages `conn` sends inside the block, one per round trip, their text filled in at its end."""
    sent: list[str] = []
    with tempfile.TemporaryFile() as trace:
        conn.pgconn.trace(trace.fileno())
        conn.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        try:
            yield sent
        finally:
            conn.pgconn.untrace()
            trace.seek(0)
            for line in trace.read().decode().splitlines():
                direction, _length, message, *text = line.split("\t")
                if direction == "F" and message == "Query":
                    sent.append(text[0].strip().strip('"'))
