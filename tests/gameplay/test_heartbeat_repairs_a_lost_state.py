"""A state message lost on the way (Redis may drop one) leaves a page behind
only until its next heartbeat: the pong names the game's version in the
database, and the page asks for the state again (static/js/game.js)."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from gameplay import broadcast, services

from .conftest import a_legal_action, acting_player
from .test_consumer import communicator, headers_for
from .test_inbound import locked, opened

pytestmark = pytest.mark.django_db(transaction=True)


def ping_after(game, user, happening) -> tuple[dict, dict]:
    """Connect as `user`, let `happening` run, ping; then the pong, and the state a sync brings."""
    headers = headers_for(user)

    async def scenario():
        ws = communicator(game.pk, headers)
        await opened(ws)
        await happening()
        assert await ws.receive_nothing(timeout=0.3)  # no message brought what happened
        await ws.send_json_to({"type": "ping"})
        pong = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "sync"})
        state = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return pong, state

    return async_to_sync(scenario)()


def test_the_pong_names_the_version_a_lost_state_message_never_brought(joker_game, players, monkeypatch):
    position, mover = acting_player(joker_game, players)
    watcher = next(p for p in players if p != mover)
    monkeypatch.setattr(broadcast, "send_game", lambda *args, **kwargs: None)  # the move's fan-out is lost
    move = database_sync_to_async(
        lambda: services.submit_move(joker_game.pk, mover, a_legal_action(joker_game, position), 0))

    pong, state = ping_after(joker_game, watcher, move)

    assert pong == {"type": "pong", "version": 1}
    assert state["type"] == "state" and state["version"] == 1


def test_the_pong_of_a_page_up_to_date_names_the_version_it_has(joker_game, players):
    async def nothing():
        pass

    pong, state = ping_after(joker_game, players[0], nothing)
    assert pong == {"type": "pong", "version": 0}
    assert state["version"] == 0


def test_a_heartbeat_on_a_busy_database_is_still_answered_without_a_version(joker_game, players, monkeypatch):
    from gameplay import presence

    async def database_busy():
        monkeypatch.setattr(presence, "mark", locked)

    pong, state = ping_after(joker_game, players[0], database_busy)

    assert pong == {"type": "pong", "version": None}  # unknown: the page keeps what it has
    assert state["type"] == "state"
