"""A consumer's database call hands its fan-out to the server's event loop
and does not wait for Redis: the fan-outs are still sent one after another,
in the order of their commits, and a failed one is logged, not raised. Each
view says what was committed, even when it is built after the game object
has changed on."""

import asyncio
import logging

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from gameplay import broadcast

pytestmark = pytest.mark.django_db(transaction=True)


def test_fan_outs_go_out_in_commit_order_and_the_thread_does_not_wait(joker_game, monkeypatch):
    sent = []
    redis = {}  # the moment Redis answers, made in the scenario's loop

    async def held_send_all(layer, messages):
        await redis["answers"].wait()  # Redis has not answered yet
        sent.append(messages[0][1]()["payload"]["version"])  # built now, after the later versions

    monkeypatch.setattr(broadcast, "_send_all", held_send_all)

    def fan_out(version: int) -> None:
        joker_game.version = version
        broadcast.send_game(joker_game)

    async def scenario():
        redis["answers"] = asyncio.Event()
        # Each call returns while every send is still held: a call that waited for its send would
        # never return (the bound only turns such a hang into a failure).
        for version in range(1, 6):
            await asyncio.wait_for(database_sync_to_async(fan_out)(version), timeout=30)
        returned_before_any_send = sent == []
        redis["answers"].set()
        while len(sent) < 5:
            await asyncio.sleep(0.01)
        return returned_before_any_send

    assert async_to_sync(scenario)() is True  # none waited for its send
    assert sent == [1, 2, 3, 4, 5]


def test_a_failed_fan_out_is_logged_and_the_next_one_still_goes(joker_game, monkeypatch, caplog):
    sent = []

    async def flaky_send_all(layer, messages):
        version = messages[0][1]()["payload"]["version"]
        if version == 1:
            raise ConnectionError("Redis is down")
        sent.append(version)

    monkeypatch.setattr(broadcast, "_send_all", flaky_send_all)

    def fan_out(version: int) -> None:
        joker_game.version = version
        broadcast.send_game(joker_game)

    async def scenario():
        for version in (1, 2):
            await database_sync_to_async(fan_out)(version)
        while not sent:
            await asyncio.sleep(0.01)

    with caplog.at_level(logging.ERROR, logger="gameplay.broadcast"):
        async_to_sync(scenario)()
    assert sent == [2]
    assert f"broadcast of game {joker_game.pk} failed" in caplog.text


def test_outside_a_server_the_fan_out_is_sent_before_the_call_returns(joker_game, monkeypatch):
    sent = []

    async def send_all(layer, messages):
        sent.append(len(messages))

    monkeypatch.setattr(broadcast, "_send_all", send_all)
    broadcast.send_game(joker_game)
    assert sent == [5]
