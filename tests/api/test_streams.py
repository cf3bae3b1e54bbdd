"""The NDJSON event streams, driven through the real ASGI application (as
daphne runs it): a line per event, the seat's own state messages, resumed
from a version, ended cleanly when the game is over."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import ApplicationCommunicator

from config.asgi import application
from gameplay import services
from gameplay.engine import get_engine

from .conftest import durak_game, token_for

pytestmark = pytest.mark.django_db(transaction=True)
DURAK = get_engine("durak")


@pytest.fixture(autouse=True)
def quick_streams(settings):
    settings.API_STREAM_POLL_SECONDS = 0.05
    settings.API_STREAM_MAX_SECONDS = 3


class Stream:
    """One streamed GET, read a line at a time."""

    def __init__(self, path: str, token: str):
        path, _sep, query = path.partition("?")
        self.app = ApplicationCommunicator(application, {
            "type": "http", "http_version": "1.1", "method": "GET", "path": path, "raw_path": path.encode(),
            "query_string": query.encode(), "root_path": "", "scheme": "http",
            "headers": [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode())],
            "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80)})
        self.buffer = b""
        self.ended = False

    async def open(self) -> int:
        await self.app.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await self.app.receive_output(timeout=10)
        return start["status"]

    async def line(self, timeout: float = 10) -> dict | None:
        """The next non-empty line as JSON; None once the response has ended."""
        while True:
            while b"\n" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\n", 1)
                if raw.strip():
                    return json.loads(raw)
            if self.ended:
                raw, self.buffer = self.buffer, b""
                return json.loads(raw) if raw.strip() else None
            message = await self.app.receive_output(timeout=timeout)
            self.buffer += message.get("body", b"")
            self.ended = not message.get("more_body", False)

    async def rest(self) -> list[dict]:
        lines = []
        while (line := await self.line()) is not None:
            lines.append(line)
        return lines

    async def close(self) -> None:
        await self.app.send_input({"type": "http.disconnect"})
        try:
            await self.app.wait(timeout=5)
        except Exception:
            pass


def acting(game, players):
    position = DURAK.actors(game.state)[0]
    return position, players[position]


def test_the_game_stream_sends_my_seat_s_state_then_each_move_live(players):
    game = durak_game(players[:2])
    position, mover = acting(game, players)
    action = DURAK.legal_actions(game.state, position)[0]
    watcher = 1 - position

    token = token_for(players[watcher])

    async def scenario():
        stream = Stream(f"/api/v1/games/{game.pk}/stream", token)
        assert await stream.open() == 200
        first = await stream.line()
        await database_sync_to_async(services.submit_move)(game.pk, mover, action, 0)
        second = await stream.line()
        await stream.close()
        return first, second

    first, second = async_to_sync(scenario)()
    assert first["type"] == "state" and first["seat"] == watcher and first["version"] == 0
    assert "hands" not in json.dumps(first["view"])
    assert second["type"] == "state" and second["version"] == 1 and second["seat"] == watcher


def test_a_resumed_stream_sends_nothing_old(players):
    game = durak_game(players[:2])

    token = token_for(players[0])

    async def scenario():
        stream = Stream(f"/api/v1/games/{game.pk}/stream?version=0", token)
        assert await stream.open() == 200
        return await stream.rest()  # ends after API_STREAM_MAX_SECONDS with keep-alives only

    assert async_to_sync(scenario)() == []


def test_a_stream_resumed_from_an_older_version_catches_up_at_once(players):
    game = durak_game(players[:2])
    position, mover = acting(game, players)
    services.submit_move(game.pk, mover, DURAK.legal_actions(game.state, position)[0], 0)

    token = token_for(players[0])

    async def scenario():
        stream = Stream(f"/api/v1/games/{game.pk}/stream?version=0", token)
        await stream.open()
        line = await stream.line()
        await stream.close()
        return line

    assert async_to_sync(scenario)()["version"] == 1


def test_the_stream_of_a_game_that_is_over_sends_its_last_state_and_ends(players):
    game = durak_game(players[:2])
    services.resign(game.pk, players[0])

    token = token_for(players[1])

    async def scenario():
        stream = Stream(f"/api/v1/games/{game.pk}/stream", token)
        await stream.open()
        return await stream.rest()

    lines = async_to_sync(scenario)()
    assert len(lines) == 1 and lines[0]["status"] == "finished" and lines[0]["result"]["ending"] == "resigned"


def test_a_stream_of_a_game_i_may_not_see_is_a_404_before_any_line(players):
    game = services.create_game(players[0], "durak", {}, players=2, is_private=True)

    token = token_for(players[1])

    async def scenario():
        stream = Stream(f"/api/v1/games/{game.pk}/stream", token)
        status = await stream.open()
        return status, await stream.rest()

    status, lines = async_to_sync(scenario)()
    assert status == 404 and lines == [{"code": "not_found", "message": "Not found."}]


def test_the_account_stream_tells_of_each_game_as_it_changes(players):
    game = services.create_game(players[0], "durak", {}, players=2)

    token = token_for(players[0])

    async def scenario():
        stream = Stream("/api/v1/account/stream", token)
        await stream.open()
        first = await stream.line()
        await database_sync_to_async(services.join_game)(game.pk, players[1])
        second = await stream.line()
        await stream.close()
        return first, second

    first, second = async_to_sync(scenario)()
    assert first == {"type": "game", "game": game.pk, "engine": "durak", "status": "open", "version": 0,
                     "my_turn": False}
    assert second["game"] == game.pk and second["status"] == "active"


def test_a_resumed_account_stream_sends_only_the_games_that_moved_on_since(players):
    quiet, moving = (durak_game(players[:2]) for _ in range(2))
    for game in (quiet, moving):
        position, user = acting(game, players)
        services.submit_move(game.pk, user, DURAK.legal_actions(game.state, position)[0], game.version, f"m{game.pk}")
    other = services.create_game(players[2], "durak", {}, players=2)  # not his: never told of
    quiet.refresh_from_db()
    moving.refresh_from_db()
    position, user = acting(moving, players)
    services.submit_move(moving.pk, user, DURAK.legal_actions(moving.state, position)[0], moving.version, "again")
    token = token_for(players[0])

    async def scenario():
        stream = Stream(f"/api/v1/account/stream?since={quiet.pk}:1,{moving.pk}:1,{other.pk}:0", token)
        await stream.open()
        lines = [await stream.line()]
        await stream.close()
        return lines

    lines = async_to_sync(scenario)()
    assert [(line["game"], line["version"]) for line in lines] == [(moving.pk, 2)]


def test_a_malformed_since_is_a_clear_400(players):
    token = token_for(players[0])

    async def scenario():
        stream = Stream("/api/v1/account/stream?since=12:x", token)
        status = await stream.open()
        return status, await stream.rest()

    status, lines = async_to_sync(scenario)()
    assert status == 400 and lines[0]["code"] == "bad_request"


def test_a_spectators_stream_leaves_out_the_chat_lines_of_a_player_blocked_either_way(players):
    from correspondence import services as correspondence

    game = durak_game(players[:2])  # a public table; players[2] watches it through the API
    correspondence.block(players[0], players[2].username)
    token = token_for(players[2])

    async def scenario():
        stream = Stream(f"/api/v1/games/{game.pk}/stream", token)
        assert await stream.open() == 200
        assert (await stream.line())["type"] == "state"
        await database_sync_to_async(services.post_chat)(game.pk, players[0], "from the blocker")
        await database_sync_to_async(services.post_chat)(game.pk, players[1], "from the other")
        return await stream.rest()

    chat = [line["message"]["text"] for line in async_to_sync(scenario)() if line["type"] == "chat"]
    assert chat == ["from the other"]
