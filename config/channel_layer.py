"""The channel layer: channels_redis' Redis layer, with its redis-py
connections set up to survive Redis restarts.

channels_redis keeps a pool of redis-py asyncio connections per event loop
and builds them from the host's URL alone. Under redis-py 8.1 two defaults
of such connections hurt:

- Closed connections are handed out again. A pool checks an idle
  connection before lending it and replaces one the server has closed,
  except when "maintenance notifications" are enabled, and redis-py 8.1
  enables them by default ("auto") on RESP3 connections over TCP
  (redis-py #4252, fixed by #4260 after 8.1.0). So after Redis restarts,
  the first command on each pooled connection fails with "Connection closed
  by server": the first WebSocket handshake each daphne process serves
  answers HTTP 500 (its `group_add` raises). Maintenance notifications are
  push messages of managed Redis services (Redis Cloud / Enterprise) about
  planned failovers; a plain Redis or Valkey sends none, so they are turned
  off here and the pool's check works again: a connection closed by the
  server is replaced before use, and nobody sees the restart.
- A 5 s socket timeout, as long as the layer's BZPOPMIN block time (5 s):
  an idle consumer's receive loop could time out on a healthy connection
  just before the server's empty answer arrived, and the consumer died with
  TimeoutError (channels_redis issue #422). It is set a few seconds longer.

Two limits of channels_redis' defaults that a busy process passes:

- A pool of at most 100 connections that raises "Too many connections" at
  the 101st command in flight (redis-py 8's default): the moment 400
  sockets of a process close (or reconnect after a deploy) at once, their
  `group_discard`s or `group_add`s failed, leaving dead members in the
  groups or closing a handshake with 1011. The pool here is a blocking one
  of the same size: a command waits for a free connection, up to
  `POOL_WAIT_SECONDS`.
- A capacity of 100 messages per channel, which for a process' channels
  (`specific.<process>!<socket>`) is the capacity of the one Redis key all
  of its sockets share: at 90 moves a second a process whose event loop
  lagged for a second dropped fan-outs, and a seat never got that move's
  state (its page repairs it from the next message only). Those keys hold
  `PROCESS_CAPACITY` messages here; other channels keep the default.

Commands are deliberately not retried: a consumer whose receive loop was
waiting when Redis went down ends (its socket closes with 1011 and the page
reconnects, which adds it to its groups again), instead of living on after
a restart that lost its group memberships, deaf to its table.

One more thing the layer does: `group_send_many`, several group sends (a
move's fan-out: one view per seat, each to its seat's group) in one round
trip to Redis (two when the table's pages changed since its last fan-out)
instead of four per group, and one message per receiving process instead of
one per group, each message built only if its group has a member; and the
members that are channels of this very process (its own pages of the table)
are handed their messages in memory, without a trip through Redis and back:
see its docstring.

Settings (config/settings.py): "BACKEND": "config.channel_layer.RedisChannelLayer";
the CONFIG is channels_redis' own. A host given as a dict may set
`socket_timeout` or `maint_notifications_config` itself; those win.
"""

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar

from channels_redis.core import RedisChannelLayer as BaseRedisChannelLayer
from channels_redis.utils import create_pool
from redis.asyncio import BlockingConnectionPool

try:  # redis-py >= 7: connections may follow a managed Redis' maintenance notifications
    from redis.maint_notifications import MaintNotificationsConfig
except ImportError:  # older redis-py: no such notifications, nothing to turn off
    MaintNotificationsConfig = None

log = logging.getLogger(__name__)

# Seconds a connection may wait for an answer beyond the BZPOPMIN block time.
SOCKET_TIMEOUT_MARGIN = 5
# A process' connections to Redis (redis-py's default), and how long a command waits for one.
POOL_CONNECTIONS = 100
POOL_WAIT_SECONDS = 10
# The channels of one process, which share one Redis key, and the messages that key holds.
PROCESS_CHANNELS = "specific.*"
PROCESS_CAPACITY = 1000


def connection_options(host: dict, block_seconds: float) -> dict:
    """channels_redis' host kwargs, with our defaults added."""
    options = {"socket_timeout": block_seconds + SOCKET_TIMEOUT_MARGIN}
    if MaintNotificationsConfig is not None:
        options["maint_notifications_config"] = MaintNotificationsConfig(enabled=False)
    return {**options, **host}


def blocking_pool(host: dict):
    """channels_redis' pool for this host, as a blocking pool where it makes
    a plain one (a host by URL or by connection arguments; Sentinel stays its own)."""
    if "master_name" in host:
        return create_pool(host)
    options = {"max_connections": POOL_CONNECTIONS, "timeout": POOL_WAIT_SECONDS, **host}
    address = options.pop("address", None)
    if address is not None:
        return BlockingConnectionPool.from_url(address, **options)
    return BlockingConnectionPool(**options)


class RedisChannelLayer(BaseRedisChannelLayer):
    def __init__(self, *args, channel_capacity: dict | None = None, **kwargs):
        capacities = dict(channel_capacity or {})  # the settings' own patterns first: the first match wins
        capacities.setdefault(PROCESS_CHANNELS, PROCESS_CAPACITY)
        super().__init__(*args, channel_capacity=capacities, **kwargs)
        # The members the last fan-out to each set of groups found (`group_send_many`), newest last.
        self._known_members: OrderedDict[tuple[bytes, ...], list[list[bytes]]] = OrderedDict()
        # The read of each process key in progress (`receive_single`); the channel of the consumer
        # waiting for it and the future that wakes that consumer when its message comes from here.
        self._reads: dict[str, asyncio.Task] = {}
        self._waiting: str | None = None
        self._woken: asyncio.Future | None = None

    def create_pool(self, index):
        return blocking_pool(connection_options(self.hosts[index], self.brpop_timeout))

    async def group_send_many(self, messages: list[tuple[str, dict | Callable[[], dict]]]) -> None:
        """Send each (group, message) pair, as `group_send` would, mostly in
        one round trip: one script reads every group's members (dropping the
        expired ones) and, if they are the members the messages were built
        for, queues every message; if not, it queues nothing and answers
        with the members, for which the messages are built and sent again.
        The members a fan-out found are kept for the next fan-out to the
        same groups (the next move of that table), so only a fan-out after
        someone opened or closed a page of the table takes a second round
        trip (or a third; the last try is not checked). A message may
        be given as a function that builds it: it is called only if its
        group has a member (a seat's view, when nobody has that seat's page
        open, is never built). channels_redis' `group_send` takes four
        round trips per group (trim the group, read it, trim each channel,
        queue), and its Redis commands cost the event loop more than the
        rest of a move's fan-out. Same storage, expiry and capacity rules as
        `group_send` (channels_redis 4.x, whose key and message helpers this
        uses); with several Redis hosts (sharding), it falls back to it.

        What goes to one process (its channels share one Redis key) goes as
        one message: a process receives one message per key and round trip
        (four commands), so five messages for a move's five groups cost it
        five receive cycles in a row before the last seat had its view.
        Where the groups' messages for one process differ, they travel as a
        bundle (`bundle`), which `receive_single` opens before anything
        else sees it: each channel is handed exactly the message of the
        group it is a member of, as if each group had been sent alone.

        What goes to channels of this process, when the fan-out runs on the
        event loop its consumers receive on (a consumer's move), does not go
        through Redis at all: once the script has confirmed the members,
        each such channel's message is put in its receive buffer, where the
        process' reader would have put it after four more Redis commands
        (`_deliver_here`). The members are still read and checked in Redis,
        which holds the groups of every process."""
        if not messages:
            return
        if self.ring_size != 1:
            await asyncio.gather(*(self.group_send(group, message() if callable(message) else message)
                                   for group, message in messages))
            return
        group_keys = []
        for group, _ in messages:
            assert self.require_valid_group_name(group), "Group name not valid"
            group_keys.append(self._group_key(group))
        fan_out = self._script(self.connection(0), FAN_OUT_LUA)
        built: dict[int, dict] = {}
        members = self._known_members.get(tuple(group_keys))
        here = self._receives_on_this_loop()
        attempt = 0
        while True:
            keys, payloads, capacities, local = [], [], [], []
            if members is None:
                expected = [UNKNOWN_MEMBERS] * len(group_keys)
            else:
                expected = [b"\n".join(names) for names in members]
                ready, there = self._built(messages, members, built), members
                if here:
                    there, local = self._split_local(ready, members)
                for key, message, channel in self._messages_by_key(ready, there):
                    keys.append(key)
                    payloads.append(self.serialize(message))
                    capacities.append(self.get_capacity(channel))
            # Known members are checked, except at the last attempt: it sends to those it read last.
            checked = members is None or attempt < FAN_OUT_ATTEMPTS - 1
            sent, result = await fan_out(keys=[*group_keys, *keys], args=[
                int(time.time()) - self.group_expiry, len(group_keys), int(checked), *expected,
                *payloads, *capacities, time.time(), self.expiry])
            if sent:
                self._remember_members(tuple(group_keys), members)
                self._deliver_here(local)
                if result:
                    log.info("%s channel(s) over capacity in a fan-out to %s group(s)", result, len(messages))
                return
            members = result
            attempt += 1

    @staticmethod
    def _built(messages: list[tuple[str, dict | Callable[[], dict]]], members: list[list[bytes]],
               built: dict[int, dict]) -> list[tuple[str, dict]]:
        """The messages, those given as functions built (once) for the groups with a member."""
        result = []
        for index, ((group, message), names) in enumerate(zip(messages, members)):
            if callable(message) and names:
                if index not in built:
                    built[index] = message()
                message = built[index]
            result.append((group, message))
        return result

    @staticmethod
    def _script(connection, text: str):
        """redis-py's script object for `text` on this connection (run by its SHA,
        loaded again if Redis forgot it), made once per connection."""
        scripts = connection.__dict__.setdefault("_fan_out_scripts", {})
        if text not in scripts:
            scripts[text] = connection.register_script(text)
        return scripts[text]

    def _receives_on_this_loop(self) -> bool:
        """Whether the running event loop is the one this process' consumers
        receive on (channels_redis' `receive_event_loop`, set while one
        waits): then their receive buffers may be filled from here."""
        try:
            return self.receive_event_loop is asyncio.get_running_loop()
        except RuntimeError:
            return False

    def _is_here(self, channel: str) -> bool:
        """A channel of this layer object (this process' consumers), as `new_channel` names them."""
        return "!" in channel and self.non_local_name(channel).endswith(self.client_prefix + "!")

    def _split_local(self, messages: list[tuple[str, dict]], members: list[list[bytes]]):
        """(each group's members that are not channels of this process,
        [(a group's message, its members that are)])."""
        there, local = [], []
        for (_, message), names in zip(messages, members):
            here = [self._is_here(name.decode("utf8")) for name in names]
            if any(here):
                local.append((message, [name.decode("utf8") for name, mine in zip(names, here) if mine]))
                names = [name for name, mine in zip(names, here) if not mine]
            there.append(names)
        return there, local

    def _deliver_here(self, local) -> None:
        """Put each message in the receive buffers of its channels of this
        process, as the process' reader does with what it takes from Redis.
        The message itself, shared by its channels, not a copy: a fan-out's
        messages are built for it and nobody changes them after it (the
        consumers only read them), and a copy through the layer's serializer
        cost the event loop about as much as building the seats' views
        (bench/README.md, issue 45)."""
        for message, channels in local:
            for channel in channels:
                self.receive_buffer[channel].put_nowait(message)
                if channel == self._waiting and not self._woken.done():
                    self._woken.set_result(None)  # the consumer reading Redis: its message will not come from there

    def _remember_members(self, groups: tuple[bytes, ...], members: list[list[bytes]]) -> None:
        self._known_members[groups] = members
        self._known_members.move_to_end(groups)
        if len(self._known_members) > KNOWN_MEMBERS_LIMIT:
            self._known_members.popitem(last=False)

    def _messages_by_key(self, messages: list[tuple[str, dict]], members: list[list[bytes]]):
        """(Redis key, message, a channel of that key, for its capacity) to
        queue for these groups' messages and members: one per process key (a
        bundle where its channels' messages differ), one per group member for
        a channel that is not a process' (its own key, which `receive` reads
        without a buffer, so it gets no bundle)."""
        by_process: dict[str, list[tuple[str, dict]]] = {}
        for (_, message), names in zip(messages, members):
            for name in names:
                channel = name.decode("utf8")
                if "!" in channel:
                    by_process.setdefault(self.prefix + self.non_local_name(channel), []).append((channel, message))
                else:
                    yield self.prefix + channel, {**message, "__asgi_channel__": [channel]}, channel
        for key, deliveries in by_process.items():
            yield key, bundle(deliveries), deliveries[0][0]

    async def receive_single(self, channel):
        """channels_redis' `receive_single`, called by the consumer that holds
        the process' receive lock, which reads the process' Redis key for all
        of them. Here that read goes on in a task of its own (`_read`), which
        this call awaits together with a wake-up from this process' own
        fan-out (`_deliver_here`) when it puts the waiting consumer's own
        message in its buffer: a message its read of Redis would never bring.
        Woken so, it answers that there is nothing more to deliver, and
        `receive` finds the message in its buffer; the read is not cancelled
        (a cancelled Redis command costs its connection) but kept, and the
        next holder of the lock awaits it."""
        if "!" not in channel:
            return await self._read(channel)
        waiting = _receiving_for.get()
        buffer = self.receive_buffer.get(waiting) if waiting is not None else None
        if buffer is not None and not buffer.empty():
            return [], None  # its message was handed over while it took the lock
        loop = asyncio.get_running_loop()
        read = self._reads.get(channel)
        if read is None or read.get_loop() is not loop or _failed(read):
            # A read that failed with nobody waiting for it (Redis was away) is not this caller's error.
            read = self._reads[channel] = loop.create_task(self._read(channel))
        self._waiting, self._woken = waiting, (woken := loop.create_future())

        def read_done(_read):
            if not woken.done():
                woken.set_result(None)

        read.add_done_callback(read_done)
        try:
            await woken
        finally:
            read.remove_done_callback(read_done)
            if self._woken is woken:
                self._waiting, self._woken = None, None
        if not read.done():
            return [], None
        if self._reads.get(channel) is read:
            del self._reads[channel]
        return read.result()

    async def receive(self, channel):
        """channels_redis' `receive`, telling `receive_single` whose receive it serves."""
        token = _receiving_for.set(channel)
        try:
            return await super().receive(channel)
        finally:
            _receiving_for.reset(token)

    async def close_pools(self):
        """channels_redis' `close_pools`, after the reads kept on this event loop are cancelled."""
        loop = asyncio.get_running_loop()
        reads = [read for channel, read in list(self._reads.items()) if read.get_loop() is loop]
        for read in reads:
            read.cancel()
        await asyncio.gather(*reads, return_exceptions=True)
        self._reads = {channel: read for channel, read in self._reads.items() if read not in reads}
        await super().close_pools()

    async def _read(self, channel):
        """channels_redis' `receive_single`, opening a bundle: each of its
        messages goes to the receive buffer of the channels it is for, and
        the caller (`receive`) is handed nothing more to deliver."""
        channels, message = await super().receive_single(channel)
        if message.get("type") != BUNDLE_TYPE:
            return channels, message
        for index, names in enumerate(message["to"]):
            for name in names:
                self.receive_buffer[name].put_nowait(message["messages"][index])
        return [], message


# The channel a consumer's `receive` waits on, in that receive's task.
_receiving_for: ContextVar[str | None] = ContextVar("receiving_for", default=None)


def _failed(task: asyncio.Task) -> bool:
    """Whether the task ended with an error or was cancelled (its error is then counted as seen)."""
    return task.done() and (task.cancelled() or task.exception() is not None)


# The type of a bundle; never handed to a consumer (no handler name may start with "_").
BUNDLE_TYPE = "_channel_layer.bundle"


def bundle(deliveries: list[tuple[str, dict]]) -> dict:
    """What one process' Redis key receives for [(channel, message of its
    group)] as one message. One message for all its channels goes as
    `group_send` sends it (the channels in `__asgi_channel__`); different
    messages go as a bundle, each message once with the channels it is for."""
    messages, channels = [], []
    for channel, message in deliveries:
        index = next((i for i, known in enumerate(messages) if known is message), None)
        if index is None:
            messages.append(message)
            channels.append([channel])
        else:
            channels[index].append(channel)
    if len(messages) == 1:
        return {**messages[0], "__asgi_channel__": channels[0]}
    return {"type": BUNDLE_TYPE, "messages": messages, "to": channels}


# What a fan-out expects a group's members to be when it does not know them: no list of names.
UNKNOWN_MEMBERS = b"\0"
# Tries of a fan-out whose groups' members changed meanwhile, the last one sent to the members read last.
FAN_OUT_ATTEMPTS = 3
# Sets of groups (tables) whose members a process keeps from their last fan-out.
KNOWN_MEMBERS_LIMIT = 10_000

# One fan-out. KEYS: the g group keys, then the n channel keys to queue into
# (a key may come more than once: one message per group). ARGV: the time
# before which a group member has expired; g; whether to check the members
# ("1") or not ("0"); the members each group is expected to have (g entries,
# names joined by newlines); the n messages; their n capacities; the time;
# the message expiry. Drops the groups' expired members; then, if they are
# checked and are not the expected ones, queues nothing and answers
# {0, the members of each group}; otherwise queues each message as
# group_send's script does (a channel's expired messages dropped first, a
# message to a full channel dropped) and answers {1, the number dropped}.
FAN_OUT_LUA = """
local g = tonumber(ARGV[2])
local n = #KEYS - g
local checked = ARGV[3] == '1'
local members = {}
local same = true
for i = 1, g do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], 0, tonumber(ARGV[1]))
    members[i] = redis.call('ZRANGE', KEYS[i], 0, -1)
    if checked and table.concat(members[i], '\\n') ~= ARGV[3 + i] then
        same = false
    end
end
if not same then
    return {0, members}
end
local messages_at = 3 + g
local current_time = tonumber(ARGV[messages_at + 2 * n + 1])
local expiry = tonumber(ARGV[messages_at + 2 * n + 2])
local over_capacity = 0
for i = 1, n do
    local key = KEYS[g + i]
    redis.call('ZREMRANGEBYSCORE', key, 0, math.floor(current_time) - expiry)
    if redis.call('ZCOUNT', key, '-inf', '+inf') < tonumber(ARGV[messages_at + n + i]) then
        redis.call('ZADD', key, current_time, ARGV[messages_at + i])
        redis.call('EXPIRE', key, expiry)
    else
        over_capacity = over_capacity + 1
    end
end
return {1, over_capacity}
"""
