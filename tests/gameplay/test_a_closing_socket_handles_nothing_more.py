"""Once a game socket decides to close, it handles nothing more (issue 38,
item 7): a raw client whose socket was closed with 4401 (its session ended)
that keeps sending frames during the closing handshake gets no state for its
"sync" and has no chat line saved; the game's later moves reach it no more."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from accounts.sockets import CLOSE_SIGNED_OUT
from config.asgi import application
from gameplay.models import ChatMessage
from tests.gameplay.conftest import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="pw-1-not-used", language="en")
            for i in range(4)]


def test_frames_sent_during_the_closing_handshake_are_not_acted_on(players, redis_channel_layer):
    game = started_game("joker", players)
    client = Client()
    client.force_login(players[1])
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/",
                                   headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", cookie.encode())])
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)  # state
        await ws.receive_json_from(timeout=5)  # chat history
        await sync_to_async(client.post)("/accounts/logout/")
        closed = await ws.receive_output(timeout=1)
        # A raw client does not stop at the server's close frame: it sends on.
        await ws.send_json_to({"type": "chat", "text": "after the close"})
        await ws.send_json_to({"type": "sync"})
        await asyncio.sleep(0.3)
        silent = await ws.receive_nothing(timeout=0.2)
        return closed, silent

    closed, silent = async_to_sync(scenario)()

    assert closed == {"type": "websocket.close", "code": CLOSE_SIGNED_OUT}
    assert silent is True
    assert not ChatMessage.objects.filter(text="after the close").exists()
