"""WebSockets through a real daphne process after Redis restarts (see conftest.py).

daphne keeps the channel layer's Redis connections in a pool. When Redis is
killed and started again, the pooled connections are dead: the next command
on one of them (the consumer's `group_add` at the handshake, the receive
loop's BZPOPMIN) must reconnect instead of failing, so the first handshake
after the restart is answered 101 like any other, not 500. A socket that was
open across the restart must not stay open deaf to its table.
"""

import base64
import json
import os
import socket
import time

import pytest

from tests.integration.conftest import migrated_stack

pytestmark = pytest.mark.slow

SOCKET_SECONDS = 10


class WebSocket:
    """Just enough of a WebSocket client (RFC 6455) for these tests: the
    handshake, and reading the server's (unmasked, unfragmented) text frames."""

    def __init__(self, port: int, path: str):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=SOCKET_SECONDS)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n\r\n"
            .encode()
        )
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self._recv()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status_line = head.split(b"\r\n", 1)[0].decode()
        self.status = int(self.status_line.split()[1])

    def _recv(self) -> bytes:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"the server closed the connection; so far: {self.buffer[:500]!r}")
        return chunk

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self.buffer += self._recv()
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def receive_json(self) -> dict:
        first, second = self._take(2)
        opcode, length = first & 0x0F, second & 0x7F
        if length == 126:
            length = int.from_bytes(self._take(2), "big")
        elif length == 127:
            length = int.from_bytes(self._take(8), "big")
        payload = self._take(length)
        if opcode == 0x8:
            code = int.from_bytes(payload[:2], "big") if payload else None
            raise ConnectionError(f"the server closed the WebSocket with code {code}")
        assert opcode == 0x1, f"expected a text frame, got opcode {opcode}"
        return json.loads(payload)

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def web_stack(tmp_path_factory, own_redis):
    stack = migrated_stack(tmp_path_factory.mktemp("web-stack"), own_redis.url)
    try:
        yield stack
    finally:
        stack.stop_all()


def open_and_read_state(port: int, game_id: int) -> WebSocket:
    ws = WebSocket(port, f"/ws/games/{game_id}/")
    assert ws.status == 101, f"handshake answered {ws.status_line!r}, not 101"
    state = ws.receive_json()
    assert state["type"] == "state" and state["version"] == 0, state
    return ws


def test_the_first_handshake_after_a_redis_restart_succeeds(web_stack, own_redis):
    stack = web_stack
    # A public table, watched as a spectator (no account needed); its clock far away.
    game = stack.helper("new_game", "watched", 3600, 0)
    daphne, port = stack.start_daphne()
    try:
        # The pool now holds connections to the Redis about to die; one
        # socket stays open across the restart, its consumer waiting in BZPOPMIN.
        for _ in range(2):
            open_and_read_state(port, game["game"]).close()
        kept = open_and_read_state(port, game["game"])

        own_redis.kill()
        own_redis.start()

        started = time.monotonic()
        for attempt in range(1, 4):
            ws = WebSocket(port, f"/ws/games/{game['game']}/")
            assert ws.status == 101, (
                f"handshake {attempt} after the Redis restart answered {ws.status_line!r}\n{stack.logs()}")
            state = ws.receive_json()
            assert state["type"] == "state" and state["version"] == 0, state
            ws.close()
        print(f"three handshakes after the restart in {time.monotonic() - started:.2f}s")

        # The socket open across the restart is not left deaf to its table:
        # Redis lost the groups, so its consumer ends and the server closes
        # it (the page then reconnects); were it still open, it would have to
        # get the news. Silence (a socket timeout) fails.
        stack.helper("abort_active")
        frames = []
        try:
            while not any(f["type"] == "state" and f["status"] == "aborted" for f in frames):
                frames.append(kept.receive_json())
        except ConnectionError as closed:
            print(f"the socket open across the restart: {closed}")
        kept.close()
        assert daphne.running(), stack.logs()
    finally:
        print(stack.logs())


def test_the_layers_connections_outwait_its_bzpopmin_and_check_pooled_connections():
    """No process needed: the connection options config.channel_layer adds."""
    from channels_redis.core import RedisChannelLayer as PlainLayer

    from config.channel_layer import RedisChannelLayer

    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:1/0"])
    pool = layer.create_pool(0)
    # An idle receive loop blocks brpop_timeout seconds in BZPOPMIN: its socket must wait longer
    # (channels_redis #422: redis-py 8's 5 s default equals the 5 s block).
    assert pool.connection_kwargs["socket_timeout"] > layer.brpop_timeout
    plain = PlainLayer(hosts=["redis://127.0.0.1:1/0"]).create_pool(0)
    if hasattr(plain, "maint_notifications_enabled"):
        # Where redis-py has maintenance notifications, they are off, so the pool replaces a
        # pooled connection the server closed instead of lending it (redis-py #4252).
        assert not pool.maint_notifications_enabled()
    # A host's own options win.
    custom = RedisChannelLayer(hosts=[{"address": "redis://127.0.0.1:1/0", "socket_timeout": 30}]).create_pool(0)
    assert custom.connection_kwargs["socket_timeout"] == 30
