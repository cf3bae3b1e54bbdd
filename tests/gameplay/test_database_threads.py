"""The game sockets' database work runs on a bounded pool of threads
(gameplay/database_threads.py, issue 45 item 3): one game's slow work does not
hold up another game's move, a game's calls run one after another in the
order they were made, never more calls at once than the process has threads,
and each call gives its connection back."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync
from django.db import connection

from gameplay import database_threads, inbound
from gameplay.models import Game

from .conftest import a_legal_action, acting_player
from .test_badge import communicator as badge_socket, headers_for as badge_headers_for
from .test_busy_past_saturation import next_of, opened
from .test_consumer import headers_for

pytestmark = pytest.mark.django_db(transaction=True)


async def until(condition) -> None:
    """Poll `condition` until it holds; a scenario that never gets there fails instead of hanging."""
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.001)


def test_a_move_is_applied_while_another_games_work_holds_a_database_thread(joker_game, players, settings):
    settings.DATABASE_THREADS = 2
    position, user = acting_player(joker_game, players)
    move = {"type": "move", "action": a_legal_action(joker_game, position), "version": 0, "move_id": "m-1"}
    release = threading.Event()
    other_game = joker_game.pk + 1000
    headers = headers_for(user)

    async def scenario():
        ws = await opened(joker_game.pk, headers)
        holder = asyncio.ensure_future(inbound.in_line(release.wait, 30, key=other_game))
        await until(lambda: inbound.SocketLine.waiting == 1)
        await ws.send_json_to(move)
        answer = await next_of(ws, ("error", "ack"))
        still_held = not holder.done()
        release.set()
        await holder
        await ws.disconnect()
        return answer, still_held

    answer, still_held = async_to_sync(scenario)()
    assert (answer["type"], answer["move_id"], answer["version"]) == ("ack", "m-1", 1), answer
    assert still_held
    assert Game.objects.get(pk=joker_game.pk).version == 1
    assert inbound.SocketLine.waiting == 0 and database_threads.waiting_keys() == 0


def test_one_games_calls_run_one_after_another_in_the_order_they_were_made(settings):
    settings.DATABASE_THREADS = 3
    release = threading.Event()
    done = []

    def slow(name):
        release.wait(30)
        done.append(name)

    async def scenario():
        first = asyncio.ensure_future(database_threads.run(7, slow, "game 7, first"))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(database_threads.run(7, done.append, "game 7, second"))
        await database_threads.run(8, done.append, "game 8")  # a free thread: it does not wait for game 7
        before_release = list(done)
        release.set()
        await asyncio.gather(first, second)
        return before_release

    before_release = async_to_sync(scenario)()
    assert before_release == ["game 8"]
    assert done == ["game 8", "game 7, first", "game 7, second"]
    assert database_threads.waiting_keys() == 0


def test_no_more_calls_run_at_once_than_the_process_has_threads(settings):
    settings.DATABASE_THREADS = 2
    release = threading.Event()
    lock = threading.Lock()
    running, threads_used, most = [0], set(), [0]

    def work():
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
            threads_used.add(threading.get_ident())
        release.wait(30)
        with lock:
            running[0] -= 1

    async def scenario():
        calls = [asyncio.ensure_future(database_threads.run(game, work)) for game in range(5)]
        await until(lambda: running[0] == 2)
        for _ in range(20):  # the other three calls had every chance to start, and did not
            await asyncio.sleep(0.001)
        at_most = running[0]
        release.set()
        await asyncio.gather(*calls)
        return at_most

    assert async_to_sync(scenario)() == 2
    assert most[0] == 2 and len(threads_used) == 2


def test_a_calls_connection_is_given_back_when_it_returns(settings):
    settings.DATABASE_THREADS = 1

    def query():
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return connection.connection is not None

    def still_open():
        return connection.connection is not None

    async def scenario():
        return await database_threads.run(None, query), await database_threads.run(None, still_open)

    used, kept = async_to_sync(scenario)()
    assert used and not kept


def test_a_calls_connection_is_given_back_even_while_a_channels_test_communicator_waits(players, settings):
    # channels' test communicators make `channels.db.close_old_connections` a no-op while they wait (to spare
    # the test's own connection): the threads' calls must give their connections back all the same, or the
    # threads keep them past the test and the test database cannot be dropped at the end (PostgreSQL).
    settings.DATABASE_THREADS = 1
    headers = badge_headers_for(players[0])

    def still_open():
        return connection.connection is not None

    async def scenario():
        ws = badge_socket(headers)
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)  # the count: read on the database thread while connect() waited
        await ws.disconnect()
        # Straight onto the thread, not through `run` (which closes what it finds before the call).
        return await asyncio.wrap_future(database_threads.executor().submit(still_open))

    assert async_to_sync(scenario)() is False
