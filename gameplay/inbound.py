"""The one gate for every message a client sends: the HTTP move API and both
WebSocket consumers parse their input here and nowhere else.

`parse(data)` turns the raw bytes or text of one message into a JSON object
(a dict), or raises `Refused` with a message a player can read. It refuses,
before or while parsing, anything that could hurt what comes after it:

- more than `MAX_BYTES` bytes of UTF-8 (bytes that are not UTF-8 too);
- nesting deeper than `MAX_DEPTH` arrays and objects, checked on the raw text
  before `json.loads` ever recurses (a 2 KB message of 1,000 brackets used
  to raise RecursionError);
- `NaN`, `Infinity`, integers beyond ±2**53 (what every JSON client can
  represent exactly) and non-finite floats;
- a top level that is not an object; a "type" that is not a string; a
  "move_id" that is not a string of 1 to 64 characters;
- any string or key that is not valid Unicode text (a lone surrogate such as
  "\\ud800", which no database can store) or that holds a NUL character
  (which PostgreSQL cannot store).

A refusal is answered as `{"type": "error", "code": "bad_request", "message":
...}` (HTTP 400); nothing has been looked up or changed by then. What the
fields mean (is this a legal move, a known message type?) is the services'
business, not the gate's.

The same module holds the other two things every inbound path shares:

- `FrameRateLimit`, a WebSocket connection's flood guard (leaky buckets of
  `aiolimiter`, held by the connection itself: a connection lives in one
  process, so nothing is lost when there are several), and `admit`, which
  puts a frame through it and the gate for both consumers: a refused frame
  is answered with an error ("bad_request", "rate_limited"), and a flood
  that goes on is closed with 4429;
- `database_busy(exc)`: is this OperationalError a locked or busy database
  (SQLite's "database is locked", PostgreSQL's lock and serialization
  failures), which the boundary answers with the error code "busy" (HTTP 503,
  Retry-After) instead of a server error; `close_busy` is that answer while
  a socket opens (close code 4503);
- `in_line(func, *args, key=game_id)`: a socket's state change run on one
  of the process' database threads (`gameplay.database_threads`, a bounded
  pool; a game's changes one after another, in order), in a line of
  bounded length and wait: past
  saturation a frame is answered "busy" at once (the line is full:
  `SOCKET_LINE_LIMIT`, or the wait it would have passes
  `SOCKET_LINE_SECONDS`), or, as a backstop, when its turn comes after
  three times that (untouched; the page sends it again), never left
  waiting for as long as the line grows.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import time
from typing import Any

import orjson
from aiolimiter import AsyncLimiter
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _, ngettext_lazy
from limits import RateLimitItem, parse_many

from accounts import sockets
from gameplay import database_threads
from gameplay.services.base import is_storable_text

log = logging.getLogger(__name__)

MAX_BYTES = 16 * 1024  # a 500-character chat message written entirely as \\u escapes fits with room to spare
MAX_DEPTH = 8  # the deepest real message, a move with a list of cards, is 3 levels deep
MAX_INT = 2**53 - 1  # the largest integer a JavaScript client represents exactly
MAX_MOVE_ID = 64

# Seconds a client is told to wait when the database is busy (Retry-After).
RETRY_AFTER_SECONDS = 1


class Refused(Exception):
    """A message refused at the gate; `message` is for the player."""

    code = "bad_request"

    def __init__(self, message, params: dict | None = None):
        super().__init__(message)
        self.message = message  # lazy: translated when it is shown, in the reader's language
        self.params = params

    def text(self) -> str:
        """The message in the active language."""
        return str(self.message) % self.params if self.params else str(self.message)


# ---- parsing ----------------------------------------------------------------


def parse(data: bytes | bytearray | str | None) -> dict:
    """One message (bytes are read as UTF-8) as a JSON object, or `Refused`."""
    if data is None:
        raise Refused(_("Malformed JSON."))
    if isinstance(data, (bytes, bytearray)):
        if len(data) > MAX_BYTES:
            raise _too_large()
        try:
            text = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(_("The message is not valid UTF-8 text.")) from None
    else:
        text = data
        # A character is 1 to 4 bytes of UTF-8: count exactly only when it matters.
        if len(text) > MAX_BYTES or (len(text) * 4 > MAX_BYTES and _utf8_length(text) > MAX_BYTES):
            raise _too_large()
    if _too_deep(text, MAX_DEPTH):
        raise Refused(ngettext_lazy("The message is nested too deeply (at most %(n)s level).",
                                    "The message is nested too deeply (at most %(n)s levels).", MAX_DEPTH), {"n": MAX_DEPTH})
    try:
        content = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except Refused:
        raise
    except (ValueError, RecursionError):  # RecursionError: cannot happen below MAX_DEPTH; never let it out
        raise Refused(_("Malformed JSON.")) from None
    if not isinstance(content, dict):
        raise Refused(_("A message must be a JSON object."))
    _check_text(content)
    _check_fields(content)
    return content


def _too_large() -> Refused:
    return Refused(ngettext_lazy("The message is too large (at most %(n)s byte).", "The message is too large (at most %(n)s bytes).",
                                 MAX_BYTES), {"n": MAX_BYTES})


def _utf8_length(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


_STRUCTURE = re.compile(r'["\\\[\]{}]')


def _too_deep(text: str, limit: int) -> bool:
    """Whether arrays and objects nest deeper than `limit` in this JSON text.
    One pass over its quotes, backslashes and brackets only (linear, whatever
    the text); brackets inside strings do not count."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth, in_string, escaped_at = 0, False, -1
    for match in _STRUCTURE.finditer(text):
        char, at = match.group(), match.start()
        if in_string:
            if at == escaped_at:  # this character is escaped by the backslash before it
                continue
            if char == "\\":
                escaped_at = at + 1
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > 16 or abs(value := int(digits)) > MAX_INT:
        raise Refused(_("A number in the message is too large."))
    return value


def _parse_float(literal: str) -> float:
    value = float(literal)
    if not math.isfinite(value):
        raise Refused(_("A number in the message is too large."))
    return value


def _parse_constant(name: str):
    raise Refused(_("NaN and Infinity are not numbers JSON allows."))


def _check_text(content: Any) -> None:
    """Every key and string value is storable text (the depth is bounded, so this walk is too)."""
    pending = [content]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if not is_storable_text(value):
                raise Refused(_("The message holds text that is not valid Unicode (a lone surrogate or a NUL "
                                "character)."))
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)


def _check_fields(content: dict) -> None:
    """The fields every message kind shares; the services check the rest."""
    if "type" in content and not isinstance(content["type"], str):
        raise Refused(_("The message's \"type\" must be a string."))
    move_id = content.get("move_id")
    if move_id is not None and (not isinstance(move_id, str) or not 0 < len(move_id) <= MAX_MOVE_ID):
        raise Refused(_("The move id must be a short string."))


# ---- a WebSocket connection's flood guard ---------------------------------------

# Frames one connection may send (each window on its own): a player's page
# sends a ping every 30 s and a move, a sync or a chat line now and then; the
# fastest real use seen, the browser tests' scripted player against computer
# players that answer at once, sends 30 moves in 4 seconds.
DEFAULT_FRAME_LIMITS = "40/5seconds;300/minute"
# Frames refused for going too fast that a connection may send before it is closed.
DEFAULT_REFUSAL_LIMIT = "10/minute"

ADMIT, REFUSE, CLOSE = "admit", "refuse", "close"


class FrameRateLimit:
    """Per-connection rate limit. `check()` says what to do with the next frame:
    ADMIT it; REFUSE it (answer `{"type": "error", "code": "rate_limited"}`
    and drop it: it did not count); or CLOSE the socket, once the refusals go
    on beyond their own limit. Settings `WS_FRAME_LIMITS` and
    `WS_REFUSAL_LIMIT` (the `limits` notation) override the defaults.

    Each limit "N/period" is a leaky bucket that holds N frames and empties
    over the period: a burst of N, then N per period. The buckets belong to
    the connection and go with it. (They were moving windows in `limits`'
    shared in-process storage, whose expiry started a thread after every 10 ms
    of traffic that walked every connection's windows: 0.2 ms of CPU a frame
    with one socket open, 2.7 ms with a thousand; `bench.flood_guard`.)"""

    def __init__(self):
        self.frames = _buckets(getattr(settings, "WS_FRAME_LIMITS", DEFAULT_FRAME_LIMITS))
        self.refusals = _buckets(getattr(settings, "WS_REFUSAL_LIMIT", DEFAULT_REFUSAL_LIMIT))

    async def check(self) -> str:
        if await _take(self.frames):
            return ADMIT
        if await _take(self.refusals):
            return REFUSE
        return CLOSE


def _buckets(limits: str) -> list[AsyncLimiter]:
    return [_bucket(item) for item in parse_many(limits)]


def _bucket(item: RateLimitItem) -> AsyncLimiter:
    return AsyncLimiter(item.amount, item.get_expiry())


async def _take(buckets: list[AsyncLimiter]) -> bool:
    """One frame into each bucket if every one has room for it (acquire does not wait then); else none."""
    if not all(bucket.has_capacity() for bucket in buckets):
        return False
    for bucket in buckets:
        await bucket.acquire()
    return True


TOO_FAST = _("You are sending messages too fast; slow down.")

CLOSE_TOO_MANY = 4429  # frames kept coming after "rate_limited" refusals
CLOSE_BUSY = 4503  # the database was busy while the socket opened: reconnect in a moment


async def admit(consumer, text_data, bytes_data) -> dict | None:
    """A WebSocket frame through the connection's rate limit and the gate: the
    JSON object to act on, or None once the refusal is answered (an error
    frame; the socket closed with 4429 when a flood goes on). The consumer
    has `rate` (a FrameRateLimit), `closing` and `send_error(code, message)`."""
    if consumer.closing:
        return None
    verdict = await consumer.rate.check()
    if verdict != ADMIT:
        await consumer.send_error("rate_limited", TOO_FAST)
        if verdict == CLOSE:
            consumer.closing = True
            await consumer.close(code=CLOSE_TOO_MANY)
        return None
    try:
        return parse(text_data if text_data is not None else bytes_data)
    except Refused as refusal:
        await consumer.send_error(refusal.code, lazy(refusal.text, str)())
        return None


async def close_busy(consumer) -> None:
    """The database was busy while the socket opened: say so and close it with
    4503 (a close code reaches the client only once the handshake is done).
    The consumer has `accepted`, `closing` and `send_error(code, message)`."""
    if not consumer.accepted:
        await consumer.accept()
    await consumer.send_error("busy", BUSY)
    consumer.closing = True
    await consumer.close(code=CLOSE_BUSY)


# ---- a busy database --------------------------------------------------------------

# PostgreSQL's SQLSTATEs for "try again": serialization failure, deadlock,
# lock not available, statement or lock timeout (query canceled), too many connections.
try:  # PostgreSQL's connection pool (DATABASE_POOL)
    from psycopg_pool import PoolTimeout
except ImportError:
    PoolTimeout = None

_BUSY_SQLSTATES = {"40001", "40P01", "55P03", "57014", "53300"}
_BUSY_SQLITE = ("database is locked", "database table is locked", "database schema is locked", "database is busy")

BUSY = _("The server is busy; nothing was changed. Try again in a moment.")


class LineFull(OperationalError):
    """This process' database thread has more frames in line than it may, or
    this one waited too long for its turn: busy, nothing done."""


def database_busy(exc: BaseException) -> bool:
    """Whether `exc` says the database is locked or busy now (worth a retry),
    rather than broken."""
    if not isinstance(exc, OperationalError):
        return False
    if isinstance(exc, LineFull):
        return True
    cause = exc.__cause__ or exc
    if (getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)) in _BUSY_SQLSTATES:  # psycopg 3 or 2
        return True
    if PoolTimeout is not None and isinstance(cause, PoolTimeout):  # every pooled connection is in use
        return True
    text = str(cause).lower()
    return any(fragment in text for fragment in _BUSY_SQLITE)


class SocketLine:
    """The sockets' state changes waiting for, or running on, this process'
    database threads (`gameplay.database_threads`): how many, how long one
    takes on a thread (a moving average), and whether one more may join.

    A frame joins unless the line is full or the wait it would have (those
    ahead of it x the time each takes / the threads serving them) passes
    SOCKET_LINE_SECONDS: it is told "busy" at once, before it waited at all.
    One that joined is served, unless other work (states asked for, sockets
    opening, its game's earlier frames) made it wait three times that long
    (then "busy" too, unapplied)."""

    waiting = 0
    seconds_each = 0.0  # the moving average of the time one takes on a thread
    WEIGHT = 0.05

    @classmethod
    def expected_wait(cls) -> float:
        return cls.waiting * cls.seconds_each / database_threads.thread_count()

    @classmethod
    async def run(cls, key, func, *args):
        if cls.waiting >= settings.SOCKET_LINE_LIMIT or cls.expected_wait() > settings.SOCKET_LINE_SECONDS:
            raise LineFull("the line for the database is full")
        joined = time.monotonic()
        took = None

        def when_its_turn_comes():
            nonlocal took
            started = time.monotonic()
            if started - joined > 3 * settings.SOCKET_LINE_SECONDS:
                raise LineFull("waited too long for the database")
            try:
                return func(*args)
            finally:
                took = time.monotonic() - started

        cls.waiting += 1  # the line's figures are written on the event loop's thread only
        try:
            return await database_threads.run(key, when_its_turn_comes)
        finally:
            cls.waiting -= 1
            if took is not None:
                cls.seconds_each += cls.WEIGHT * (took - cls.seconds_each)


async def in_line(func, *args, key=None):
    """`func(*args)` on one of the process' database threads
    (`gameplay.database_threads`), after the calls of the same `key` (a game's
    id) made before it, unless the line is full or it waited too long for its
    turn (`LineFull`, a busy database to every boundary: answered "busy")."""
    return await SocketLine.run(key, func, *args)


class GatedConsumer(AsyncJsonWebsocketConsumer):
    """A JSON WebSocket consumer whose every frame passes the connection's rate
    limit and the gate (`admit`), and whose busy database is answered "busy".

    A subclass opens the connection in `open` (setting `group` if it joins
    one) and has `send_error(code, message)`; `send_busy` may add to the
    answer. A database busy while the socket opens closes it with 4503.
    What it sends is encoded by orjson (`encode_json`)."""

    accepted = False
    closing = False

    @classmethod
    async def encode_json(cls, content) -> str:
        """The JSON text of a message sent: orjson's, about a seventh of the
        standard library's time for a seat's state (bench/README.md, issue 45);
        keys that are not strings are written as strings, as `json.dumps` does."""
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS).decode()

    async def connect(self):
        self.rate = FrameRateLimit()
        try:
            await self.open()
        except OperationalError as exc:
            if not database_busy(exc):
                raise
            await close_busy(self)

    async def open(self) -> None:
        raise NotImplementedError

    async def dispatch(self, message):
        """channels' `AsyncConsumer.dispatch` without its `aclose_old_connections()`
        before every message: a hop to the thread that runs every
        `database_sync_to_async` call of the process, to close database
        connections that are too old. These consumers touch the database
        only through `gameplay.database_threads`, which does that itself before
        and after each call; the hop only made every frame and every state
        delivered to a socket wait in line behind the database work of the
        whole process (under load, other tables' moves)."""
        if self.closing and message["type"] != "websocket.disconnect":
            return  # it decided to close: nothing more is handled, not a frame of the closing handshake
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def close(self, code=None, reason=None):
        """Close the socket; from now on it handles nothing (frames a client sends
        during the closing handshake, group messages) but its disconnection."""
        self.closing = True
        await super().close(code, reason)

    async def accept(self, subprotocol=None, headers=None):
        await self.join_session_groups()
        await super().accept(subprotocol, headers)
        self.accepted = True
        self.keeping_groups = asyncio.ensure_future(self.keep_groups())
        credential = self.scope.get("credential")
        if credential is not None and credential.expires_at is not None:
            self.expiring = asyncio.ensure_future(self.close_at(credential.expires_at))

    async def close_at(self, moment) -> None:
        """The API token this socket was opened with expires: the socket ends then."""
        await asyncio.sleep(max(0.0, (moment - timezone.now()).total_seconds()))
        await self.close(code=sockets.CLOSE_SIGNED_OUT)

    def member_of(self) -> list[str]:
        """The groups this socket joined (its game's or account's, its session's)."""
        return [group for group in (getattr(self, "group", None), *getattr(self, "session_groups", ())) if group]

    async def keep_groups(self) -> None:
        """Join this socket's groups again every half `group_expiry` of the
        channel layer: channels drops a member from a group that long (a day)
        after it joined, and a correspondence game's page may stay open for
        days; without this it would stop getting the game's moves after one."""
        period = getattr(self.channel_layer, "group_expiry", 86400) / 2
        while True:
            await asyncio.sleep(period)
            for group in self.member_of():
                try:
                    await self.channel_layer.group_add(group, self.channel_name)
                except Exception:  # Redis away for a moment: the next round tries again, well within the expiry
                    log.warning("could not renew the membership of group %s", group, exc_info=True)

    async def join_session_groups(self) -> None:
        """The socket ends with its session and its account's sessions, or with
        the API token it was opened with (`accounts.sockets`)."""
        session = self.scope.get("session")
        user = self.scope.get("user")
        credential = self.scope.get("credential")
        self.session_groups = []
        if session is not None and session.session_key:
            self.session_groups.append(sockets.session_group(session.session_key))
        if user is not None and user.is_authenticated:
            self.session_groups.append(sockets.account_group(user.pk))
        if credential is not None:
            self.session_groups.append(credential.group)
        for group in self.session_groups:
            await self.channel_layer.group_add(group, self.channel_name)

    async def session_ended(self, event) -> None:
        """The session this socket was opened with ended (logout, a password change...): close it.
        A socket opened with an API token closes when its token no longer holds
        (revoked, expired, the account suspended or deactivated), not for a password change."""
        credential = self.scope.get("credential")
        if credential is not None and await database_threads.run(None, credential.still_valid):
            return
        await self.close(code=sockets.CLOSE_SIGNED_OUT)

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        content = await admit(self, text_data, bytes_data)
        if content is None:
            return
        try:
            await self.receive_json(content)
        except OperationalError as exc:
            if not database_busy(exc):
                raise
            await self.send_busy(content)

    async def send_busy(self, content: dict) -> None:
        await self.send_error("busy", BUSY)

    async def disconnect(self, code):
        if getattr(self, "keeping_groups", None):
            self.keeping_groups.cancel()
        if getattr(self, "expiring", None):
            self.expiring.cancel()
        if getattr(self, "group", None):
            await self.channel_layer.group_discard(self.group, self.channel_name)
        for group in getattr(self, "session_groups", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
