"""An API token's open sockets and streams end with it (issue 38, items 2
and 3): revoking the token, its expiry, suspending or deactivating its
account closes every game and badge socket opened with it (4401) and ends
its NDJSON streams within a second, through the channel layer (the real
Redis one here); a closed socket no longer answers "sync" with the hand nor
saves chat. A suspended account's token is refused as the site refuses its
login. A password change leaves tokens, and their sockets, alone."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.sockets import CLOSE_SIGNED_OUT
from api import tokens
from api.models import ApiToken
from config.asgi import application
from gameplay.models import ChatMessage
from moderation.services import people

from .conftest import ApiClient, durak_game, token_for
from .test_streams import Stream

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_streams(settings):
    settings.API_STREAM_POLL_SECONDS = 5  # the ending must not wait for a poll
    settings.API_STREAM_MAX_SECONDS = 30


def socket(path: str, token: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, path, headers=[(b"authorization", f"Bearer {token}".encode())])


def token_row(raw: str) -> ApiToken:
    return ApiToken.objects.get(key_hash=tokens.digest(raw))


def moderator():
    return get_user_model().objects.create_superuser("root", "root@example.org", "pw")


def game_socket_after(game_id: int, token: str, end_it, wait: float = 1.0) -> dict:
    """Open the game socket with the token, call `end_it` (sync, in a thread);
    the first output within `wait` seconds, and what a sync and a chat sent after it got."""

    async def scenario():
        ws = socket(f"/ws/games/{game_id}/", token)
        connected, _ = await ws.connect()
        assert connected
        assert (await ws.receive_json_from(timeout=5))["type"] == "state"
        assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        await sync_to_async(end_it)()
        output = await ws.receive_output(timeout=wait)
        if output["type"] == "websocket.close":
            await ws.send_json_to({"type": "sync"})
            await ws.send_json_to({"type": "chat", "text": "still here?"})
            await asyncio.sleep(0.2)
            output["silent_after"] = await ws.receive_nothing(timeout=0.2)
        await ws.disconnect()
        return output

    return async_to_sync(scenario)()


def stream_after(path: str, token: str, end_it) -> list:
    """Open the stream, read its first line, call `end_it`; the lines until it ends (within a second)."""

    async def scenario():
        stream = Stream(path, token)
        assert await stream.open() == 200
        assert (await stream.line(timeout=5))["type"] in ("state", "game")
        await sync_to_async(end_it)()
        started = asyncio.get_running_loop().time()
        lines = await stream.rest()
        return lines, asyncio.get_running_loop().time() - started

    lines, took = async_to_sync(scenario)()
    assert took < 1.5
    return lines


def test_revoking_a_token_closes_its_game_socket_within_a_second(players, redis_channel_layer):
    game = durak_game(players[:2])
    raw = token_for(players[0])

    output = game_socket_after(game.pk, raw, lambda: tokens.revoke_token(token_row(raw).pk, players[0]))

    assert output["type"] == "websocket.close" and output["code"] == CLOSE_SIGNED_OUT
    assert output["silent_after"] is True
    assert not ChatMessage.objects.filter(text="still here?").exists()


def test_revoking_another_token_of_the_account_closes_nothing(players, redis_channel_layer):
    game = durak_game(players[:2])
    raw, other = token_for(players[0]), token_for(players[0])

    with pytest.raises(asyncio.TimeoutError):
        game_socket_after(game.pk, raw, lambda: tokens.revoke_token(token_row(other).pk, players[0]))


def test_a_token_expiring_closes_its_socket_at_that_moment(players, redis_channel_layer):
    game = durak_game(players[:2])
    raw = token_for(players[0])
    ApiToken.objects.filter(key_hash=tokens.digest(raw)).update(expires_at=timezone.now() + timedelta(seconds=1.5))

    output = game_socket_after(game.pk, raw, lambda: None, wait=2.5)

    assert output["type"] == "websocket.close" and output["code"] == CLOSE_SIGNED_OUT


def test_suspending_the_account_closes_its_token_s_badge_socket(players, redis_channel_layer):
    raw = token_for(players[0])
    root = moderator()

    async def scenario():
        ws = socket("/ws/me/", raw)
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_json_from(timeout=5)
        await sync_to_async(people.suspend)(players[0].pk, root, "spam")
        return await ws.receive_output(timeout=1)

    output = async_to_sync(scenario)()
    assert output["type"] == "websocket.close" and output["code"] == CLOSE_SIGNED_OUT


def test_a_password_change_leaves_the_token_s_socket_open(players, redis_channel_layer):
    game = durak_game(players[:2])
    raw = token_for(players[0])

    def change_password():
        user = get_user_model().objects.get(pk=players[0].pk)
        user.set_password("A-new-password-2468")
        user.save()

    with pytest.raises(asyncio.TimeoutError):
        game_socket_after(game.pk, raw, change_password)
    assert ApiClient(raw).get("/api/v1/account").status_code == 200


def test_revoking_a_token_ends_its_game_stream_within_a_second(players, redis_channel_layer):
    game = durak_game(players[:2])
    raw = token_for(players[0])

    lines = stream_after(f"/api/v1/games/{game.pk}/stream", raw,
                         lambda: tokens.revoke_token(token_row(raw).pk, players[0]))

    assert lines == []


def test_deactivating_the_account_ends_its_account_stream_within_a_second(players, redis_channel_layer):
    durak_game(players[:2])
    raw = token_for(players[0])

    def deactivate():
        user = get_user_model().objects.get(pk=players[0].pk)
        user.is_active = False
        user.save()

    assert stream_after("/api/v1/account/stream", raw, deactivate) == []


def test_suspending_the_account_ends_its_account_stream_within_a_second(players, redis_channel_layer):
    durak_game(players[:2])
    raw = token_for(players[0])
    root = moderator()

    assert stream_after("/api/v1/account/stream", raw, lambda: people.suspend(players[0].pk, root, "spam")) == []


def test_a_token_expiring_ends_its_account_stream_at_that_moment(players, redis_channel_layer):
    durak_game(players[:2])
    raw = token_for(players[0])
    ApiToken.objects.filter(key_hash=tokens.digest(raw)).update(expires_at=timezone.now() + timedelta(seconds=1))

    assert stream_after("/api/v1/account/stream", raw, lambda: None) == []


def test_a_suspended_account_s_token_is_refused_everywhere(players):
    raw = token_for(players[0])
    people.suspend(players[0].pk, moderator(), "spam")
    api = ApiClient(raw)

    for path in ("/api/v1/account", "/api/v1/games", "/api/v1/account/stream"):
        response = api.get(path)
        assert response.status_code == 403 and response.json()["code"] == "suspended"
        assert "suspended" in response.json()["message"]

    async def scenario():
        return await socket("/ws/me/", raw).connect()

    assert async_to_sync(scenario)() == (False, 4401)
