"""The WebSocket consumer, driven through the real ASGI application
(session auth, origin check, routing) with Channels' communicator."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from gameplay import services
from ..conftest import redis_zadds

from .conftest import a_legal_action, acting_player

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://127.0.0.1")


def headers_for(user) -> list:
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [ORIGIN, (b"cookie", cookie.encode())]


def communicator(game_id: int, headers: list) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


def other_hands(game, position) -> set[str]:
    return {card for seat, hand in enumerate(game.state["hands"]) if seat != position for card in hand}


PUBLIC_CARD_KEYS = ("tuz", "trump_card", "trick", "last_trick")  # cards shown face up to everyone


def assert_no_foreign_cards(message: dict, game, position) -> None:
    view = {k: v for k, v in (message.get("view") or {}).items() if k not in PUBLIC_CARD_KEYS}
    text = json.dumps({**message, "view": view})
    for card in other_hands(game, position) | set(game.state["rest"]):
        assert f'"{card}"' not in text, f"{card} leaked to seat {position}"
    assert game.seed not in text


def test_a_player_gets_his_own_view_on_connect_and_nobody_elses_cards(joker_game, players):
    headers = headers_for(players[1])

    async def scenario():
        ws = communicator(joker_game.pk, headers)
        connected, _ = await ws.connect()
        assert connected
        message = await ws.receive_json_from(timeout=5)
        assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        await ws.disconnect()
        return message

    message = async_to_sync(scenario)()
    assert message["type"] == "state" and message["seat"] == 1 and message["version"] == 0
    assert message["view"]["hand"] == sorted(message["view"]["hand"], key=message["view"]["hand"].index)
    assert set(message["view"]["hand"]) == set(joker_game.state["hands"][1])
    assert_no_foreign_cards(message, joker_game, 1)


def test_a_move_is_acknowledged_and_every_seat_receives_its_own_new_view(joker_game, players):
    a_move_reaches_every_seat_with_its_own_view(joker_game, players)


def test_through_redis_every_seat_receives_its_own_view_in_its_own_process(joker_game, players,
                                                                           redis_channel_layer):
    """All four sockets in the process that made the move: the layer hands
    each its group's message in memory (the members checked in Redis); each
    socket still sends only its own seat's view."""
    a_move_reaches_every_seat_with_its_own_view(joker_game, players)


def test_the_views_of_a_move_reach_the_sockets_of_its_own_process_without_queueing_in_redis(
        joker_game, players, redis_channel_layer, redis_url):
    queued = []
    a_move_reaches_every_seat_with_its_own_view(joker_game, players, moved=lambda: queued.append(redis_zadds(redis_url)))
    assert queued[1] == queued[0]


def a_move_reaches_every_seat_with_its_own_view(joker_game, players, moved=lambda: None):
    position, user = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)

    headers = [headers_for(players[p]) for p in range(4)]

    async def scenario():
        sockets = [communicator(joker_game.pk, headers[p]) for p in range(4)]
        for ws in sockets:
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=5)
            assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        moved()
        await sockets[position].send_json_to({"type": "move", "action": action, "version": 0, "move_id": "m1"})
        received = {}
        for p, ws in enumerate(sockets):
            messages = [await ws.receive_json_from(timeout=5)]
            if p == position:
                messages.append(await ws.receive_json_from(timeout=5))
            received[p] = messages
        moved()
        for ws in sockets:
            await ws.disconnect()
        return received

    received = async_to_sync(scenario)()
    joker_game.refresh_from_db()
    assert joker_game.version == 1
    assert {"type": "ack", "move_id": "m1", "version": 1, "duplicate": False} in received[position]
    for p, messages in received.items():
        state = next(m for m in messages if m["type"] == "state")
        assert state["version"] == 1 and state["seat"] == p
        assert state["events"]
        assert_no_foreign_cards(state, joker_game, p)


def test_bad_messages_get_a_clear_error_and_the_connection_stays_open(joker_game, players):
    position, user = acting_player(joker_game, players)

    headers = headers_for(user)

    async def scenario():
        ws = communicator(joker_game.pk, headers)
        await ws.connect()
        await ws.receive_json_from(timeout=5)
        assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        replies = []
        for raw in ["{not json", "[1, 2]", json.dumps({"type": "dance"}),
                    json.dumps({"type": "move", "action": {"type": "bid", "tricks": 0}, "version": 99}),
                    json.dumps({"type": "move", "action": "bid", "version": 0})]:
            await ws.send_to(text_data=raw)
            replies.append(await ws.receive_json_from(timeout=5))
        await ws.send_json_to({"type": "sync"})
        replies.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        return replies

    replies = async_to_sync(scenario)()
    assert [r["type"] for r in replies] == ["error"] * 5 + ["state"]
    assert [r["code"] for r in replies[:5]] == ["bad_request", "bad_request", "bad_request", "stale", "bad_request"]
    assert replies[3]["version"] == 0
    assert all(r["message"] for r in replies[:5])
    joker_game.refresh_from_db()
    assert joker_game.version == 0


def test_a_spectator_of_a_public_table_sees_no_hand_at_all(joker_game):
    async def scenario():
        ws = communicator(joker_game.pk, [ORIGIN])
        assert (await ws.connect())[0]
        message = await ws.receive_json_from(timeout=5)
        assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        await ws.send_json_to({"type": "move", "action": {"type": "bid", "tricks": 0}, "version": 0})
        refusal = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return message, refusal

    message, refusal = async_to_sync(scenario)()
    assert message["seat"] is None and not message["view"]["hand"] and message["legal"] == []
    assert_no_foreign_cards(message, joker_game, None)
    assert refusal["code"] == "not_seated"


def test_a_private_table_refuses_strangers(players, django_user_model):
    game = services.create_game(players[0], "joker", is_private=True)
    stranger = django_user_model.objects.create_user("stranger")

    headers = headers_for(stranger)

    async def scenario():
        ws = communicator(game.pk, headers)
        connected, code = await ws.connect()
        return connected, code

    assert async_to_sync(scenario)() == (False, 4403)


def test_a_foreign_origin_is_refused(joker_game, players):
    headers = [(b"origin", b"http://evil.example")] + headers_for(players[0])[1:]

    async def scenario():
        ws = communicator(joker_game.pk, headers)
        connected, _ = await ws.connect()
        return connected

    assert async_to_sync(scenario)() is False


def test_moves_fan_out_through_a_real_redis_server(joker_game, players, redis_channel_layer):
    position, user = acting_player(joker_game, players)
    watcher = (position + 1) % 4

    mover_headers, watcher_headers = headers_for(user), headers_for(players[watcher])

    async def scenario():
        mover, other = communicator(joker_game.pk, mover_headers), communicator(joker_game.pk, watcher_headers)
        for ws in (mover, other):
            await ws.connect()
            await ws.receive_json_from(timeout=5)
            assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        await mover.send_json_to({"type": "move", "action": a_legal_action(joker_game, position), "version": 0})
        update = await other.receive_json_from(timeout=10)
        for ws in (mover, other):
            await ws.disconnect()
        return update

    update = async_to_sync(scenario)()
    assert update["type"] == "state" and update["version"] == 1 and update["seat"] == watcher
