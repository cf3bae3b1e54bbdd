"""The WebSocket protocol with token authentication: a client sends
`Authorization: Bearer <token>` (and no Origin, as programs don't) and is
the token's owner on the game's socket: his seat's state, his moves."""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator

from api.models import Scope
from config.asgi import application
from gameplay.engine import get_engine
from gameplay.models import Move

from .conftest import durak_game, token_for

pytestmark = pytest.mark.django_db(transaction=True)
DURAK = get_engine("durak")


def socket(path: str, token: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=[(b"authorization", f"Bearer {token}".encode())])


def test_a_token_client_gets_its_seat_and_moves_over_the_socket(players):
    game = durak_game(players[:2])
    position = DURAK.actors(game.state)[0]
    action = DURAK.legal_actions(game.state, position)[0]
    token = token_for(players[position])

    async def scenario():
        ws = socket(f"/ws/games/{game.pk}/", token)
        connected, _ = await ws.connect()
        assert connected
        state = await ws.receive_json_from(timeout=5)
        await ws.receive_json_from(timeout=5)  # chat history
        await ws.send_json_to({"type": "move", "action": action, "version": 0, "move_id": "ws-1"})
        replies = [await ws.receive_json_from(timeout=5) for _ in range(2)]
        await ws.disconnect()
        return state, replies

    state, replies = async_to_sync(scenario)()
    assert state["type"] == "state" and state["seat"] == position and state["legal"]
    assert {"type": "ack", "move_id": "ws-1", "version": 1, "duplicate": False} in replies
    assert Move.objects.filter(game=game, user=players[position]).count() == 1


@pytest.mark.parametrize("scopes", [[Scope.READ], None])
def test_a_token_without_play_or_an_unknown_one_is_closed_with_4401(players, scopes):
    game = durak_game(players[:2])
    token = token_for(players[0], scopes) if scopes else "kt_unknown"

    async def scenario():
        ws = socket(f"/ws/games/{game.pk}/", token)
        connected, code = await ws.connect()
        return connected, code

    assert async_to_sync(scenario)() == (False, 4401)


def test_the_badge_socket_takes_tokens_too(players):
    token = token_for(players[0])

    async def scenario():
        ws = socket("/ws/me/", token)
        connected, _ = await ws.connect()
        message = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return connected, message

    connected, message = async_to_sync(scenario)()
    assert connected and message["type"] == "badge"
