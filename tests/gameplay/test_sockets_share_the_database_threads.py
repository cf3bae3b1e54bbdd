"""Every socket's database work runs on the process' pool of database threads
(gameplay/database_threads.py, issue 45 item 3), not on channels' one
thread-sensitive thread: the badge socket, the session sockets' user lookup,
a division's standings socket, the API's event streams and its token check
for sockets. So one slow call of any of them holds up no other socket's
(on the one thread, it held them all up). Each test fails on that thread."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from api import streams, tokens
from config.asgi import application
from gameplay import badge, socket_auth
from leagues import live
from tests.api.conftest import token_for
from tests.api.test_streams import Stream

from .test_consumer import ORIGIN, headers_for
from .test_database_threads import until

pytestmark = pytest.mark.django_db(transaction=True)

NO_SUCH_DIVISION = 999_999


class HeldCall:
    """A socket's database function whose calls for one argument wait until
    released (someone's slow call on a database thread); the others run at
    once, and the names of the threads they ran on are kept."""

    def __init__(self, func, held_when):
        self.func, self.held_when = func, held_when
        self.holding, self.release = threading.Event(), threading.Event()
        self.threads: list[str] = []

    def __call__(self, *args):
        if self.held_when(*args):
            self.holding.set()
            self.release.wait(30)
        else:
            self.threads.append(threading.current_thread().name)
        return self.func(*args)

    def ran_on_the_database_threads(self) -> bool:
        return bool(self.threads) and all(name.startswith("database") for name in self.threads)


@pytest.fixture
def two_threads(settings):
    settings.DATABASE_THREADS = 2


@pytest.fixture
def hold(monkeypatch):
    """hold(module, name, held_when): that function of the module held as HeldCall does;
    every held call is released when the test ends, whatever happened."""
    made = []

    def holding(module, name: str, held_when) -> HeldCall:
        held = HeldCall(getattr(module, name), held_when)
        monkeypatch.setattr(module, name, held)
        made.append(held)
        return held

    yield holding
    for held in made:
        held.release.set()


def socket(path: str, headers: list) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=headers)


def test_a_badge_count_arrives_while_another_users_count_holds_a_database_thread(players, two_threads, hold):
    slow_user, user = players[0], players[1]
    held = hold(badge, "waiting_count", lambda user_id: user_id == slow_user.pk)
    slow_headers, headers = headers_for(slow_user), headers_for(user)

    async def scenario():
        slow = socket("/ws/me/", slow_headers)
        assert (await slow.connect(timeout=5))[0]
        await until(held.holding.is_set)
        ws = socket("/ws/me/", headers)
        connected, _ = await ws.connect(timeout=5)
        answer = await ws.receive_json_from(timeout=5)
        held.release.set()
        slow_answer = await slow.receive_json_from(timeout=5)
        await ws.disconnect()
        await slow.disconnect()
        return connected, answer, slow_answer

    connected, answer, slow_answer = async_to_sync(scenario)()
    assert connected and answer == {"type": "badge", "waiting": 0}
    assert slow_answer == {"type": "badge", "waiting": 0}
    assert held.ran_on_the_database_threads()


def test_a_session_socket_opens_while_another_sessions_lookup_holds_a_database_thread(players, two_threads, hold):
    slow_headers, headers = headers_for(players[0]), headers_for(players[1])
    slow_key = dict(slow_headers)[b"cookie"].decode().partition("=")[2]
    held = hold(socket_auth, "read_user", lambda scope: scope["session"].session_key == slow_key)

    async def scenario():
        slow = socket("/ws/me/", slow_headers)
        slow_connecting = asyncio.ensure_future(slow.connect(timeout=30))
        await until(held.holding.is_set)
        ws = socket("/ws/me/", headers)
        connected, _ = await ws.connect(timeout=5)
        answer = await ws.receive_json_from(timeout=5)
        still_held = not slow_connecting.done()
        held.release.set()
        slow_connected, _ = await slow_connecting
        await ws.disconnect()
        await slow.disconnect()
        return connected, answer, still_held, slow_connected

    connected, answer, still_held, slow_connected = async_to_sync(scenario)()
    assert connected and answer == {"type": "badge", "waiting": 0} and still_held
    assert slow_connected
    assert held.ran_on_the_database_threads()


async def connected_while_another_is_held(held, slow: tuple, other: tuple) -> tuple:
    """(the other socket's connect answer, whether the slow one's call was still held then,
    the slow one's answer once released); each socket given as (path, headers)."""
    slow_connecting = asyncio.ensure_future(socket(*slow).connect(timeout=30))
    await until(held.holding.is_set)
    answer = await socket(*other).connect(timeout=5)
    still_held = not slow_connecting.done()
    held.release.set()
    return answer, still_held, await slow_connecting


def test_a_division_socket_is_answered_while_another_divisions_check_holds_a_database_thread(two_threads, hold):
    slow_division = NO_SUCH_DIVISION - 1
    held = hold(live, "may_follow", lambda division_id, user: division_id == slow_division)

    answer, still_held, slow_answer = async_to_sync(connected_while_another_is_held)(
        held, (f"/ws/leagues/divisions/{slow_division}/", [ORIGIN]),
        (f"/ws/leagues/divisions/{NO_SUCH_DIVISION}/", [ORIGIN]))
    assert answer == (False, 4403) and still_held  # an unknown division: refused, and at once
    assert slow_answer == (False, 4403)
    assert held.ran_on_the_database_threads()


def test_a_token_socket_is_answered_while_another_tokens_check_holds_a_database_thread(two_threads, hold):
    held = hold(tokens, "authenticate", lambda raw: raw == "kt_slow")

    answer, still_held, slow_answer = async_to_sync(connected_while_another_is_held)(
        held, ("/ws/me/", [(b"authorization", b"Bearer kt_slow")]),
        ("/ws/me/", [(b"authorization", b"Bearer kt_unknown")]))
    assert answer == (False, 4401) and still_held  # an unknown token: refused, and at once
    assert slow_answer == (False, 4401)
    assert held.ran_on_the_database_threads()


def test_an_account_stream_goes_on_while_another_streams_read_holds_a_database_thread(players, two_threads,
                                                                                         settings, hold):
    settings.API_STREAM_POLL_SECONDS = 0.05
    settings.API_STREAM_MAX_SECONDS = 3
    slow_user, user = players[0], players[1]
    held = hold(streams, "_account_now", lambda user_id, games, challenges: user_id == slow_user.pk)
    slow_token, token = token_for(slow_user), token_for(user)

    async def scenario():
        slow = Stream("/api/v1/account/stream", slow_token)
        assert await slow.open() == 200
        await until(held.holding.is_set)
        stream = Stream("/api/v1/account/stream", token)
        assert await stream.open() == 200
        first = await stream.app.receive_output(timeout=5)  # a keep-alive: nothing of his is going on
        held.release.set()
        slow_first = await slow.app.receive_output(timeout=5)
        await stream.close()
        await slow.close()
        return first["body"], slow_first["body"]

    first, slow_first = async_to_sync(scenario)()
    assert first == slow_first == b"\n"
    # Not a thread of the stream's own (Django gives each request one): the process' bounded pool.
    assert held.ran_on_the_database_threads()
