"""Past saturation a move is answered "busy", never left waiting for as long
as the line for the process' database thread grows (gameplay/inbound.py,
`in_line`): at once when the line is full, or when its turn comes after it
waited too long; unapplied either way, and the page's resend of the same
move_id then applies it once."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync

from gameplay import inbound
from gameplay.models import Game

from .conftest import a_legal_action, acting_player
from .test_consumer import communicator, headers_for

pytestmark = pytest.mark.django_db(transaction=True)


async def opened(game_id: int, headers: list):
    ws = communicator(game_id, headers)
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
    return ws


async def next_of(ws, kinds: tuple[str, ...]) -> dict:
    while True:
        message = await ws.receive_json_from(timeout=10)
        if message["type"] in kinds:
            return message


def test_a_move_finding_the_line_full_is_answered_busy_while_the_database_thread_is_held(joker_game, players,
                                                                                      settings):
    settings.SOCKET_LINE_LIMIT = 1
    position, user = acting_player(joker_game, players)
    move = {"type": "move", "action": a_legal_action(joker_game, position), "version": 0, "move_id": "m-full"}
    headers = headers_for(user)
    release = threading.Event()

    async def scenario():
        ws = await opened(joker_game.pk, headers)
        holder = asyncio.ensure_future(inbound.in_line(release.wait, 30))  # the thread busy with someone's work
        while inbound.SocketLine.waiting < 1:
            await asyncio.sleep(0)
        await ws.send_json_to(move)
        busy = await next_of(ws, ("error", "ack"))  # answered while the thread is still held
        still_held = not holder.done()
        release.set()
        await holder
        await ws.send_json_to(move)  # the page's resend, same move_id
        ack = await next_of(ws, ("error", "ack"))
        await ws.disconnect()
        return busy, still_held, ack

    busy, still_held, ack = async_to_sync(scenario)()
    assert (busy["type"], busy["code"], busy["move_id"]) == ("error", "busy", "m-full"), busy
    assert "busy" in busy["message"] and still_held
    assert (ack["type"], ack["move_id"], ack["version"], ack["duplicate"]) == ("ack", "m-full", 1, False), ack
    assert Game.objects.get(pk=joker_game.pk).version == 1
    assert inbound.SocketLine.waiting == 0


def test_a_move_that_would_wait_too_long_is_answered_busy_at_once(joker_game, players, settings, monkeypatch):
    settings.SOCKET_LINE_SECONDS = 5
    position, user = acting_player(joker_game, players)
    headers = headers_for(user)
    move = {"type": "move", "action": a_legal_action(joker_game, position), "version": 0, "move_id": "m-long"}
    # Three ahead of it on each database thread, 2 s each: a 6-second wait.
    monkeypatch.setattr(inbound.SocketLine, "waiting", 3 * settings.DATABASE_THREADS)
    monkeypatch.setattr(inbound.SocketLine, "seconds_each", 2.0)

    async def scenario():
        ws = await opened(joker_game.pk, headers)
        await ws.send_json_to(move)
        answer = await next_of(ws, ("error", "ack"))
        await ws.disconnect()
        return answer

    answer = async_to_sync(scenario)()
    assert (answer["type"], answer["code"], answer["move_id"]) == ("error", "busy", "m-long"), answer
    assert Game.objects.get(pk=joker_game.pk).version == 0


class SlowClock:
    """time.monotonic for inbound: a minute passes between any two readings."""

    def __init__(self):
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 60.0
        return self.now


def test_a_move_that_waited_too_long_for_its_turn_is_answered_busy_and_left_unapplied(joker_game, players,
                                                                                     monkeypatch):
    position, user = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)
    headers = headers_for(user)
    monkeypatch.setattr(inbound, "time", SlowClock())

    async def scenario():
        ws = await opened(joker_game.pk, headers)
        await ws.send_json_to({"type": "move", "action": action, "version": 0, "move_id": "m-late"})
        answer = await next_of(ws, ("error", "ack"))
        await ws.send_json_to({"type": "chat", "text": "still there?"})
        chat = await next_of(ws, ("error", "chat"))
        await ws.disconnect()
        return answer, chat

    answer, chat = async_to_sync(scenario)()
    assert (answer["type"], answer["code"], answer["move_id"]) == ("error", "busy", "m-late"), answer
    assert (chat["type"], chat["code"]) == ("error", "busy"), chat
    game = Game.objects.get(pk=joker_game.pk)
    assert game.version == 0 and game.moves.count() == 0 and not game.chat.exists()


def test_the_line_full_is_a_busy_database_to_every_boundary():
    assert inbound.database_busy(inbound.LineFull("the line for the database is full"))
