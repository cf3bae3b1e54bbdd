"""Group messages sent from synchronous code: the worker's follow-ups (badges,
the live lists' notices), a view's count push.

`async_to_sync(layer.group_send)` from a thread with no event loop runs
the coroutine on a new event loop in a new thread, and channels_redis keeps
its Redis connections per event loop: each call started a thread, a loop,
a TCP connection to Redis and loaded channels_redis' scripts, and a move's
follow-up made six such calls (two badges, four notices): about 2 ms of the
worker's CPU each, three quarters of its work for a move (`bench/README.md`,
issue 45). Here a process sends on one event loop of its own, started once
(again in a forked child: a Celery worker's pool process), whose connections
stay open (in a daphne process, a call made for the server goes to the
server's loop, as `async_to_sync` did), and a follow-up's messages go
together in one call of the layer's `group_send_many`
(`config.channel_layer`: the members of every group read and the messages
queued in one or two round trips).

`batched()` collects the messages sent in its block (on this thread) and sends
them once at its end: the follow-up task wraps a batch of follow-ups in it.

A layer without `group_send_many` (the in-memory layer of the tests, a
stand-in) is sent to as before: `async_to_sync`, each group concurrently.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from asgiref.sync import SyncToAsync, async_to_sync

log = logging.getLogger(__name__)

# How long a sender waits for its messages to be queued in Redis before it gives up on them.
SEND_TIMEOUT_SECONDS = 10.0

# The messages collected by the `batched()` block of this thread (None: none open), with their layers.
_collected: ContextVar[list | None] = ContextVar("group_sends_collected", default=None)

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None
_loop_lock = threading.Lock()


def send(layer, messages: list[tuple[str, dict]]) -> None:
    """Send each (group, message) on `layer`; inside `batched()`, at the end of
    its block. Raises what the layer raises (Redis down), except when batched."""
    if layer is None or not messages:
        return
    collected = _collected.get()
    if collected is not None:
        collected.append((layer, list(messages)))
        return
    _send_now(layer, messages)


@contextmanager
def batched() -> Iterator[None]:
    """Hold back the sends of this block, and send them in one call per layer at its end
    (a failure is logged: the database has the truth, the next push or a sync repairs it)."""
    if _collected.get() is not None:  # already inside a batch: it sends these too
        yield
        return
    token = _collected.set([])
    try:
        yield
    finally:
        collected = _collected.get()
        _collected.reset(token)
        for layer, messages in _by_layer(collected):
            try:
                _send_now(layer, messages)
            except Exception:
                log.exception("sending %s group message(s) failed", len(messages))


def _by_layer(collected: list) -> list[tuple[object, list[tuple[str, dict]]]]:
    layers: dict[int, tuple[object, list]] = {}
    for layer, messages in collected:
        layers.setdefault(id(layer), (layer, []))[1].extend(messages)
    return list(layers.values())


def _send_now(layer, messages: list[tuple[str, dict]]) -> None:
    if not hasattr(layer, "group_send_many"):
        async_to_sync(_send_each)(layer, messages)
        return
    future = asyncio.run_coroutine_threadsafe(layer.group_send_many(messages), _sending_loop())
    try:
        future.result(SEND_TIMEOUT_SECONDS)
    except TimeoutError:
        future.cancel()
        raise


async def _send_each(layer, messages: list[tuple[str, dict]]) -> None:
    results = await asyncio.gather(*(layer.group_send(group, message) for group, message in messages),
                                   return_exceptions=True)
    failed = next((r for r in results if isinstance(r, BaseException)), None)
    if failed is not None:
        raise failed


def _sending_loop() -> asyncio.AbstractEventLoop:
    """The server's event loop when this thread works for one (a consumer's
    or a view's call in a daphne process, as `async_to_sync` would use it:
    the layer is used from that loop only), else the process' own."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) == os.getpid():
        loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
        if loop is not None and loop.is_running():
            return loop
    return process_loop()


def process_loop() -> asyncio.AbstractEventLoop:
    """This process' event loop for sends from synchronous code, running on a
    daemon thread of its own; started on first use (in a forked child too)."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="group-sends", daemon=True).start()
        return _loop
