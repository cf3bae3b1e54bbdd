"""Every socket's database work on a bounded pool of threads (issue 45, item 3).

channels' `database_sync_to_async` is thread-sensitive: every call of a daphne
process runs on one thread. On PostgreSQL a move spends most of its time on
that thread waiting for the server (its queries' round trips, the commit's
WAL flush), with the GIL released and the process' cores idle, and every
other table's move waits behind it: one process carried about 1 / (a move's
wall time on the thread) moves a second, whatever its cores could do. Any
other call on that thread (a badge's count, a division's standings, a token
check) held them all up the same way.

Here that work runs on `DATABASE_THREADS` threads of the process instead
(`run`): the game socket's (gameplay/consumers.py: moves, chat, states,
presence), the badge socket's counts (gameplay/badge.py), a division's
standings socket (leagues/consumers.py), the session sockets' user lookup
when they open (gameplay/socket_auth.py, in place of channels'
AuthMiddleware's), a socket's check of its token when its session or token
ends (gameplay/inbound.py), the API's token check for sockets (api/ws.py)
and its event streams (api/streams.py; as a request, each would otherwise
hold a thread of its own for as long as it stays open). Django's HTTP views
keep their thread per request. Each thread has its own connection, taken
from and given back to the process' pool (Django's PostgreSQL pool,
`DATABASE_POOL`) around each call as channels does (`close_old_connections`
before and after, `_handing_connections_back`). The pool of threads is
bounded, so a flood of frames waits in line (`gameplay.inbound.in_line`
answers "busy" past its limits) and never opens more than that many
connections. A thread holds no connection between calls, so nothing is left
to give back when the process ends (or a test session: PostgreSQL's test
database can be dropped); an exiting process joins the idle threads.

Per game order is kept: the calls of one key (a game's id) run one after
another, in the order they were made, each only once the one before it
returned (an asyncio lock per key, fair, taken on the event loop before the
call goes to a thread). So one process never has two threads waiting on one
game's row lock, and the fan-out a commit hands to the event loop (its
on_commit hook, on the thread, before the call returns) goes out before the
next change of that game can commit. Calls of different games run side by
side: one game's slow transaction does not hold up another game's move.

On SQLite (one writer at a time) the default is one thread, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.db import close_old_connections

_executor: ThreadPoolExecutor | None = None
_executor_key: tuple[int, int] | None = None  # (pid, threads) it was made for
# {key: [its lock, the calls holding or waiting for it]}; a key's entry goes when its last call is done.
_turns: dict[Hashable, list] = {}


def thread_count() -> int:
    """How many threads of this process run the sockets' database work."""
    return settings.DATABASE_THREADS


def executor() -> ThreadPoolExecutor:
    """The process' pool of database threads: made on first use, again in a
    forked child or when the setting changed (tests: the one it replaces
    ends its threads once their calls are done)."""
    global _executor, _executor_key
    wanted = (os.getpid(), thread_count())
    if _executor is None or _executor_key != wanted:
        if _executor is not None and _executor_key[0] == wanted[0]:
            # Not in a forked child: the parent's executor has no threads there, and its lock may be held.
            _executor.shutdown(wait=False)
        _executor = ThreadPoolExecutor(max_workers=wanted[1], thread_name_prefix="database")
        _executor_key = wanted
    return _executor


def _handing_connections_back(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`func` with the thread's connections given back (to the pool) or closed
    when too old before and after it, as channels' `DatabaseSyncToAsync` does.
    Not through that class: channels' test communicators turn its
    `close_old_connections` into a no-op while they wait (to spare the test's
    own connection), and a thread of this pool then kept its connection past
    its call, its test, and the test session (PostgreSQL could not drop the
    test database). Never the test's connection here: these threads share none."""
    close_old_connections()
    try:
        return func(*args, **kwargs)
    finally:
        close_old_connections()


@contextlib.asynccontextmanager
async def _turn_of(key: Hashable | None) -> AsyncIterator[None]:
    """Held while a call of `key` runs: the calls of one key one at a time, in order."""
    if key is None:
        yield
        return
    entry = _turns.setdefault(key, [asyncio.Lock(), 0])
    entry[1] += 1
    try:
        async with entry[0]:
            yield
    finally:
        entry[1] -= 1
        if not entry[1]:
            del _turns[key]


async def run(key: Hashable | None, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`func(*args, **kwargs)` on one of the process' database threads, after every call
    of the same `key` made before it (None: no order to keep), with the
    thread's connection handed back after it (`_handing_connections_back`)."""
    async with _turn_of(key):
        call = SyncToAsync(_handing_connections_back, thread_sensitive=False, executor=executor())
        return await call(func, *args, **kwargs)


def waiting_keys() -> int:
    """How many keys have a call running or waiting (for tests: none are left behind)."""
    return len(_turns)
