"""Fuzzing both WebSockets (/ws/games/<id>/ and /ws/me/) through the real
ASGI application: hostile frames, stale versions, replayed move ids, floods.
After every frame the consumer must still answer (a ping, or the badge's
sync, is sent behind it), every error must say what is wrong, and a refused
frame must change nothing. (The long run: bench/fuzz.py.)"""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from config.asgi import application
from gameplay import inbound
from gameplay.engine import get_engine
from gameplay.models import ChatMessage, Game

from .test_consumer import ORIGIN, communicator, headers_for
from .test_fuzz_strategies import flood, frames, game_messages

pytestmark = pytest.mark.django_db(transaction=True)

FUZZ = settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
ERROR_CODES = {"bad_request", "illegal", "stale", "not_seated", "not_active", "not_found", "rate_limited"}


@pytest.fixture
def no_flood_guard(settings):
    """The flood guard has tests of its own; here every frame must reach the gate."""
    settings.WS_FRAME_LIMITS = "100000/second"


@pytest.fixture
def sockets(joker_game, players, django_user_model, no_flood_guard):
    """Headers of each kind of visitor: the four players, a signed-in stranger, an anonymous spectator."""
    stranger = django_user_model.objects.create_user("stranger", password="pw-not-used-1")
    return [headers_for(user) for user in players] + [headers_for(stranger), [ORIGIN]]


def snapshot(game_id: int) -> tuple:
    game = Game.objects.get(pk=game_id)
    seats = list(game.seats.order_by("position").values_list("user_id", "ahead_scope", "reserve_seconds_left"))
    return game.version, json.dumps(game.state, sort_keys=True), game.moves.count(), ChatMessage.objects.count(), seats


def admitted(frame) -> dict | None:
    """What the gate makes of a frame (the same function the consumer calls)."""
    try:
        return inbound.parse(frame)
    except inbound.Refused:
        return None


async def send(ws, frame) -> None:
    """As the server receives it (an empty frame too, which `send_to` would not send)."""
    await ws.send_input({"type": "websocket.receive", "bytes" if isinstance(frame, bytes) else "text": frame})


async def exchange(ws, frame, barrier: dict, answer: str) -> list[dict]:
    """Send `frame` and then `barrier`; return every message up to the barrier's
    answer (of type `answer`; two of them when the frame is itself a barrier)."""
    await send(ws, frame)
    await ws.send_json_to(barrier)
    content = admitted(frame)
    waiting = 2 if content is not None and content.get("type") == barrier["type"] else 1
    replies = []
    while waiting:
        message = await ws.receive_json_from(timeout=10)  # raises if the consumer crashed or closed
        if message["type"] == answer:
            waiting -= 1
        replies.append(message)
    return replies[:-1]


def check(frame, replies: list[dict], before: tuple, after: tuple) -> None:
    errors = [r for r in replies if r["type"] == "error"]
    for error in errors:
        assert error["code"] in ERROR_CODES, error
        assert isinstance(error["message"], str) and error["message"].strip(), error
    if admitted(frame) is None:
        assert [(r["type"], r["code"]) for r in replies] == [("error", "bad_request")], replies
    applied = any(r["type"] in ("ack", "ahead_ack", "chat") for r in replies)
    if not applied:
        assert after == before, (frame, replies)


async def opened(headers, game_id: int) -> WebsocketCommunicator:
    ws = communicator(game_id, headers)
    connected, _ = await ws.connect()
    assert connected
    await ws.receive_json_from(timeout=5)  # state
    await ws.receive_json_from(timeout=5)  # chat history
    return ws


@FUZZ
@given(who=st.integers(0, 5), batch=st.lists(st.one_of(frames(), st.builds(json.dumps, game_messages())),
                                             min_size=1, max_size=6))
def test_the_game_socket_survives_any_frames(joker_game, sockets, who, batch):
    async def scenario():
        ws = await opened(sockets[who], joker_game.pk)
        for frame in batch:
            before = await database_sync_to_async(snapshot)(joker_game.pk)
            replies = await exchange(ws, frame, {"type": "ping"}, "pong")
            check(frame, replies, before, await database_sync_to_async(snapshot)(joker_game.pk))
        await ws.disconnect()

    async_to_sync(scenario)()


def current_move(game_id: int, offset: int, move_id) -> tuple[int, str]:
    game = Game.objects.get(pk=game_id)
    engine = get_engine(game.engine)
    position = engine.actors(game.state)[0]
    action = engine.legal_actions(game.state, position)[-1]
    return position, json.dumps({"type": "move", "action": action, "version": game.version + offset,
                                 "move_id": move_id})


@FUZZ
@given(st.lists(st.tuples(st.sampled_from([0, 0, 0, -1, 1, 3]), st.sampled_from(["w1", "w2", "w3", None]),
                          st.integers(0, 3)), min_size=1, max_size=8))
def test_stale_versions_and_replayed_move_ids_over_the_socket(joker_game, sockets, plan):
    """Each step: the acting seat's move on a version off by `offset`, with a
    move id from a small pool (so ids are replayed), sent by the seat `shift`
    places after the acting one (0: the acting seat itself)."""
    async def scenario():
        players = [await opened(sockets[p], joker_game.pk) for p in range(4)]
        for offset, move_id, shift in plan:
            position, frame = await database_sync_to_async(current_move)(joker_game.pk, offset, move_id)
            ws = players[(position + shift) % 4]
            before = await database_sync_to_async(snapshot)(joker_game.pk)
            replies = [r for r in await exchange(ws, frame, {"type": "ping"}, "pong") if r["type"] != "state"]
            after = await database_sync_to_async(snapshot)(joker_game.pk)
            check(frame, replies, before, after)
            (reply,) = replies
            if reply["type"] == "ack":
                assert reply["move_id"] == move_id
                assert (after == before) == reply["duplicate"]
                assert reply["duplicate"] or (shift == 0 and offset <= 0)
            else:
                assert reply["move_id"] == move_id
                if offset > 0:
                    assert reply["code"] in ("stale", "bad_request")
        for ws in players:
            await ws.disconnect()

    async_to_sync(scenario)()


@FUZZ
@given(batch=st.lists(st.one_of(frames(), st.builds(json.dumps, game_messages())), min_size=1, max_size=6))
def test_the_badge_socket_survives_any_frames(joker_game, players, no_flood_guard, batch):
    headers = headers_for(players[0])

    async def scenario():
        ws = WebsocketCommunicator(application, "/ws/me/", headers=headers)
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=5))["type"] == "badge"
        for frame in batch:
            replies = await exchange(ws, frame, {"type": "sync"}, "badge")
            check(frame, replies, (), ())
        await ws.disconnect()

    async_to_sync(scenario)()


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(frames_allowed=st.integers(1, 6), refusals_allowed=st.integers(1, 4), burst=st.integers(2, 14),
       frame=st.sampled_from([{"type": "ping"}, {"type": "sync"}, {"type": "chat", "text": "spam"},
                              {"type": "move", "action": {"type": "bid", "tricks": 0}, "version": 99}]))
def test_a_flood_of_any_size_is_refused_then_closed_and_changes_nothing(joker_game, players, settings, frames_allowed,
                                                                          refusals_allowed, burst, frame):
    settings.WS_FRAME_LIMITS = f"{frames_allowed}/minute"
    settings.WS_REFUSAL_LIMIT = f"{refusals_allowed}/minute"
    headers = headers_for(players[0])
    before = snapshot(joker_game.pk)[:3]
    chats_before = ChatMessage.objects.count()

    async def scenario():
        return await flood(await opened(headers, joker_game.pk), frame, burst)

    replies, closed = async_to_sync(scenario)()
    too_fast = str(inbound.TOO_FAST)
    refused = [r for r in replies if r.get("message") == too_fast]
    assert all(r["type"] == "error" and r["code"] == "rate_limited" for r in refused)
    over = max(0, burst - frames_allowed)
    assert len(refused) == min(over, refusals_allowed + 1)
    assert len(replies) - len(refused) == min(burst, frames_allowed)  # one answer for each admitted frame
    assert closed == (inbound.CLOSE_TOO_MANY if over > refusals_allowed else None)
    assert snapshot(joker_game.pk)[:3] == before
    assert ChatMessage.objects.count() <= chats_before + min(burst, frames_allowed)
