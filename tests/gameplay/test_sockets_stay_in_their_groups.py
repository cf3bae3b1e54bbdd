"""A page left open longer than the channel layer's group expiry (a day in
production; channels then drops the socket from its groups) still gets the
game's moves: the socket joins its groups again every half expiry
(gameplay/inbound.py, `keep_groups`). Here the production layer on a real
Redis, with an expiry of 2 seconds."""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import channel_layers

from .conftest import a_legal_action, acting_player
from .test_busy_past_saturation import next_of, opened
from .test_consumer import headers_for

pytestmark = pytest.mark.django_db(transaction=True)

EXPIRY = 2


@pytest.fixture
def short_lived_groups(settings, redis_url):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.RedisChannelLayer",
                                           "CONFIG": {"hosts": [redis_url], "group_expiry": EXPIRY}}}
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def test_a_socket_open_longer_than_the_group_expiry_still_gets_the_moves(joker_game, players, short_lived_groups):
    position, user = acting_player(joker_game, players)
    watcher = players[(position + 1) % 4]
    action = a_legal_action(joker_game, position)
    headers = {"actor": headers_for(user), "watcher": headers_for(watcher)}

    async def scenario():
        old = await opened(joker_game.pk, headers["watcher"])
        await asyncio.sleep(EXPIRY * 2)  # past the expiry of the first join
        actor = await opened(joker_game.pk, headers["actor"])
        await actor.send_json_to({"type": "move", "action": action, "version": 0, "move_id": "m-old"})
        ack = await next_of(actor, ("ack", "error"))
        state = await next_of(old, ("state",))
        for ws in (old, actor):
            await ws.disconnect()
        return ack, state

    ack, state = async_to_sync(scenario)()
    assert (ack["type"], ack["version"]) == ("ack", 1), ack
    assert state["version"] == 1 and state["seat"] == (position + 1) % 4, state
