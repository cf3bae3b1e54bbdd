"""An open WebSocket ends with its session (issue 24): after a logout, a
session flushed, a password changed or reset, a suspension, the game socket
opened before is closed (4401) through the channel layer, here the real
Redis one; it no longer answers "sync" with the seat's hand nor takes moves.
(tests/integration/test_sockets_end_with_the_session.py: the same across
processes, through daphne.)"""

import asyncio
from importlib import import_module

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client

from accounts.sockets import CLOSE_SIGNED_OUT
from config.asgi import application
from tests.gameplay.conftest import started_game

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://127.0.0.1")
PASSWORD = "an-old-password-1"


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password=PASSWORD, language="en") for i in range(4)]


@pytest.fixture
def joker_game(players):
    return started_game("joker", players)


def signed_in(user) -> tuple[Client, list]:
    client = Client()
    client.force_login(user)
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return client, [ORIGIN, (b"cookie", cookie.encode())]


def closed_after(game_id: int, headers: list, end_it) -> dict:
    """Open the game socket, read its opening, call `end_it` (sync, in a
    thread as a request would be); the first frame or close that follows."""

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
        connected, _ = await ws.connect()
        assert connected
        assert (await ws.receive_json_from(timeout=5))["type"] == "state"
        assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        await sync_to_async(end_it)()
        output = await ws.receive_output(timeout=1)  # within a second
        if output["type"] != "websocket.close":
            return output
        await ws.send_json_to({"type": "sync"})
        await asyncio.sleep(0.1)
        later = await ws.receive_nothing(timeout=0.2)
        await ws.wait()
        return {**output, "silent_after": later}

    return async_to_sync(scenario)()


def test_logging_out_closes_the_game_socket_opened_before(joker_game, players, redis_channel_layer):
    client, headers = signed_in(players[1])
    output = closed_after(joker_game.pk, headers, lambda: client.post("/accounts/logout/"))
    assert output["type"] == "websocket.close" and output["code"] == CLOSE_SIGNED_OUT


def test_a_flushed_session_closes_its_socket(joker_game, players, redis_channel_layer):
    client, headers = signed_in(players[1])
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    store = import_module(settings.SESSION_ENGINE).SessionStore
    output = closed_after(joker_game.pk, headers, lambda: store(key).flush())
    assert output["code"] == CLOSE_SIGNED_OUT


def test_a_password_changed_elsewhere_closes_every_socket_of_the_account(joker_game, players, redis_channel_layer):
    _client, headers = signed_in(players[1])
    other, _ = signed_in(players[1])  # another session of the account changes the password

    def change():
        response = other.post("/accounts/password/", {"old_password": PASSWORD, "new_password1": "A-new-one-2468",
                                                       "new_password2": "A-new-one-2468"})
        assert response.status_code == 302

    assert closed_after(joker_game.pk, headers, change)["code"] == CLOSE_SIGNED_OUT


def test_a_password_reset_closes_every_socket_of_the_account(joker_game, players, redis_channel_layer):
    _client, headers = signed_in(players[1])

    def reset():
        user = get_user_model().objects.get(pk=players[1].pk)
        user.set_password("Reset-by-email-1357")  # what the reset form's save does
        user.save()

    assert closed_after(joker_game.pk, headers, reset)["code"] == CLOSE_SIGNED_OUT


def test_a_profile_edit_closes_nothing(joker_game, players, redis_channel_layer):
    _client, headers = signed_in(players[1])

    def edit():
        user = get_user_model().objects.get(pk=players[1].pk)
        user.display_name = "New name"
        user.save()

    with pytest.raises(asyncio.TimeoutError):
        closed_after(joker_game.pk, headers, edit)
