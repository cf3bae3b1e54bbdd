"""An idle game page's WebSocket stays open, through real daphne and Redis.

A player's page of a correspondence game may sit open for hours with nothing
happening. Meanwhile the consumer's receive loop waits in the channel layer's
BZPOPMIN, 5 s at a time. Were the Redis connection's socket timeout no
longer than that block (redis-py 8's 5 s default), the wait would time out
on a healthy connection, the consumer would die with TimeoutError
(channels_redis #422) and the page would reconnect every few seconds;
config/channel_layer.py gives the connections a longer timeout. Here the
socket stays idle for 16 s (three blocks), then must still be the same
open connection, answer a ping and receive another player's move, with
nothing wrong in daphne's log.
"""

import json
import re
import time
from uuid import uuid4

import pytest
from websockets.exceptions import ConnectionClosed

from tests.integration.conftest import game_socket, migrated_stack, receive, redis_database

pytestmark = pytest.mark.slow

IDLE_SECONDS = 16  # three of the consumer's 5 s blocks
IDLE_REDIS_DB = 7  # a Redis database of the module's own, emptied first
DAY = 24 * 3600
TROUBLE = re.compile(r"traceback|error|exception|timeout", re.IGNORECASE)


@pytest.fixture(scope="module")
def web_stack(tmp_path_factory, redis_url):
    stack = migrated_stack(tmp_path_factory.mktemp("idle-stack"), redis_database(redis_url, IDLE_REDIS_DB))
    try:
        yield stack
    finally:
        stack.stop_all()


def group_members(stack, group: str) -> list[str]:
    """The channels in a channel-layer group, as Redis holds them (channels_redis: a sorted set)."""
    import redis

    client = redis.Redis.from_url(stack.redis_url)
    try:
        return sorted(member.decode() for member in client.zrange(f"asgi:group:{group}", 0, -1))
    finally:
        client.close()


def test_an_idle_game_page_socket_stays_open_and_live(web_stack):
    stack = web_stack
    # Correspondence: a day a move, a day of reserve; no clock runs out during the test.
    game = stack.helper("new_game", "idle", DAY, DAY)
    mover = next(seat for seat in game["seats"] if seat["deadline"])
    idler = next(seat for seat in game["seats"] if seat is not mover)
    cookies = stack.helper("sessions", [idler["username"], mover["username"]])
    daphne, port = stack.start_daphne()
    group = f"game-{game['game']}-seat-{idler['position']}"
    try:
        with game_socket(port, game["game"], cookies[idler["username"]]) as ws:
            state = receive(ws, "state")
            assert state["seat"] == idler["position"] and state["version"] == 0, state
            receive(ws, "chat_history")  # the last frame of the page's opening
            members = group_members(stack, group)
            assert len(members) == 1, members
            local_address = ws.socket.getsockname()

            # Idle: nothing sent, nothing expected. A consumer that died would close the socket now.
            idle_from = time.monotonic()
            unexpected = []
            while (left := idle_from + IDLE_SECONDS - time.monotonic()) > 0:
                try:
                    unexpected.append(ws.recv(timeout=left))
                except TimeoutError:
                    break
                except ConnectionClosed as closed:
                    pytest.fail(f"the idle socket was closed after {time.monotonic() - idle_from:.1f}s: "
                                f"{closed!r}\n{stack.logs()}")
            assert not unexpected, unexpected

            # Still the same connection, and it answers.
            ws.send(json.dumps({"type": "ping"}))
            assert receive(ws, "pong", 5) == {"type": "pong", "version": 0}
            assert ws.socket.getsockname() == local_address
            # Its consumer still listens to its table: another player's move arrives.
            with game_socket(port, game["game"], cookies[mover["username"]]) as other:
                legal = receive(other, "state", version=0)["legal"]
                move_id = str(uuid4())
                other.send(json.dumps({"type": "move", "action": legal[0], "version": 0, "move_id": move_id}))
                assert receive(other, "ack", move_id=move_id)["version"] == 1
            assert receive(ws, "state", version=1)["seat"] == idler["position"]
            # The one consumer that joined the seat's group is still its only member.
            assert group_members(stack, group) == members

        assert daphne.running(), stack.logs()
        log = daphne.log()
        # No reconnect: two sockets were opened in all, the idle one and the mover's.
        assert log.count('"WSCONNECT /ws/games/') == 2, log
        trouble = [line for line in log.splitlines() if TROUBLE.search(line)]
        assert not trouble, "daphne's log:\n" + log
    finally:
        print(stack.logs())
