"""A substitution on live sockets: the replaced player's open socket is
told why (the moderator's reason) and closed before the seat's next view
could reach it, and reconnects as a spectator; the substitute's spectator socket reconnects as the seat's player."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from gameplay import services
from moderation.services import games as moderation_actions
from gameplay.consumers import CLOSE_FORBIDDEN
from gameplay.engine import get_engine
from gameplay.models import Game
from tests.gameplay.test_waiting_room import headers_for

pytestmark = pytest.mark.django_db(transaction=True)
PUBLIC = ("tuz", "trump_card", "trick", "last_trick", "shown_trump")  # cards face up for everyone


@pytest.fixture
def newcomer(django_user_model):
    return django_user_model.objects.create_user("newcomer", password="pw-not-used-1", language="en")


async def open_socket(game_id: int, headers: list) -> tuple[WebsocketCommunicator, dict]:
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    assert (await ws.connect())[0]
    state = await ws.receive_json_from(timeout=5)
    assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
    return ws, state


async def until_closed(ws: WebsocketCommunicator) -> tuple[list[dict], int]:
    """The messages a socket receives before it is closed, and the close code."""
    received = []
    while True:
        output = await ws.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            return received, output["code"]
        received.append(json.loads(output["text"]))


def hand_of(game_id: int, position: int) -> list[str]:
    game = Game.objects.get(pk=game_id)
    return get_engine(game.engine).view(game.state, position)["hand"]


@pytest.mark.parametrize("kind", ["joker", "durak"])
def test_the_replaced_players_socket_closes_and_the_substitutes_takes_the_seat(kind, players, newcomer, moderator):
    from tests.gameplay.conftest import started_game

    game = started_game(kind, players if kind == "joker" else players[:3])
    position, replaced = 1, players[1]
    replaced_headers, newcomer_headers = headers_for(replaced), headers_for(newcomer)

    async def scenario():
        old, first = await open_socket(game.pk, replaced_headers)
        watcher, watching = await open_socket(game.pk, newcomer_headers)
        assert first["seat"] == position and watching["seat"] is None
        await database_sync_to_async(moderation_actions.substitute_seat)(game.pk, position, moderator, "Left", user=newcomer)
        old_got, old_code = await until_closed(old)
        new_got, new_code = await until_closed(watcher)
        # Both pages reconnect, as who they are now.
        again, replaced_state = await open_socket(game.pk, replaced_headers)
        seated, newcomer_state = await open_socket(game.pk, newcomer_headers)
        await again.disconnect()
        await seated.disconnect()
        return old_got, old_code, new_got, new_code, replaced_state, newcomer_state

    old_got, old_code, new_got, new_code, replaced_state, newcomer_state = async_to_sync(scenario)()
    hand = hand_of(game.pk, position)
    # Told why, then closed before any view of the seat reached it.
    assert old_code == CLOSE_FORBIDDEN and [m["type"] for m in old_got] == ["seat_replaced"]
    assert old_got[0]["reason"] == "Left" and not old_got[0]["computer"] and "view" not in old_got[0]
    assert new_code == CLOSE_FORBIDDEN
    assert replaced_state["seat"] is None and replaced_state["legal"] == []
    text = json.dumps({**replaced_state, "view": {k: v for k, v in replaced_state["view"].items() if k not in PUBLIC}})
    leaked = [card for card in hand if f'"{card}"' in text]
    assert not leaked, (leaked, replaced_state["view"])
    assert newcomer_state["seat"] == position and newcomer_state["view"]["hand"] == hand


def test_a_computer_substitute_closes_the_replaced_players_socket_too(players, moderator):
    from tests.gameplay.conftest import started_game

    game = started_game("durak", players[:3])
    headers = headers_for(players[2])

    async def scenario():
        old, _first = await open_socket(game.pk, headers)
        await database_sync_to_async(moderation_actions.substitute_seat)(game.pk, 2, moderator, "Left")
        return await until_closed(old)

    got, code = async_to_sync(scenario)()
    assert code == CLOSE_FORBIDDEN and [m["type"] for m in got] == ["seat_replaced"]
    assert got[0]["computer"] and "computer player" in got[0]["message"] and "Left" in got[0]["message"]
