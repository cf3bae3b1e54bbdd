"""The worker's pushes after a move (badges, the live lists' notices) go out
on one event loop of the process, with its Redis connections kept open, and
the pushes of a batch of follow-ups in one call of the layer
(`gameplay.group_sends`): before, each push started a thread, an event loop
and a Redis connection of its own (issue 45: three quarters of the worker's
CPU for a move). Here the production layer on a real Redis."""

import asyncio
import threading

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import channel_layers, get_channel_layer
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.channel_layer import RedisChannelLayer
from gameplay import group_sends, services, tasks
from gameplay.badge import user_group
from gameplay.services import after_commit

from .conftest import JOKER, a_legal_action, acting_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def follow_ups(monkeypatch, settings):
    """The follow-ups the moves hand over, caught instead of queued (the test runs the task)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    caught = []
    monkeypatch.setattr(after_commit, "_follow_up", caught.extend)
    monkeypatch.setattr(tasks.enforce_deadlines, "apply_async", lambda *a, **k: None)
    monkeypatch.setattr("notifications.emails.send_turn_email.apply_async", lambda *a, **k: None)
    return caught


def play_moves(game, players, count: int) -> None:
    for _ in range(count):
        game.refresh_from_db()
        position, user = acting_player(game, players)
        services.submit_move(game.pk, user, a_legal_action(game, position), game.version)
    after_commit.wait_until_queued(timeout=10)


def listen(layer, groups: list[str]):
    async def joined() -> str:
        channel = await layer.new_channel()
        for group in groups:
            await layer.group_add(group, channel)
        return channel
    return async_to_sync(joined)()


def received(layer, channel: str, count: int) -> list[dict]:
    async def take() -> list[dict]:
        return [await asyncio.wait_for(layer.receive(channel), timeout=5) for _ in range(count)]
    return async_to_sync(take)()


def brief(message: dict) -> dict:
    return {key: message[key] for key in ("type", "waiting", "notice") if key in message}


def test_a_batch_of_follow_ups_pushes_its_badges_and_notices_in_one_call_of_the_layer(
        joker_game, players, redis_channel_layer, follow_ups, monkeypatch):
    play_moves(joker_game, players, 2)
    changed = sorted(set().union(*(f["turn_changed"] for f in follow_ups)))
    layer = get_channel_layer()
    channel = listen(layer, [user_group(changed[0])])
    calls = []
    real = RedisChannelLayer.group_send_many

    async def counted(self, messages):
        calls.append(len(messages))
        await real(self, messages)

    monkeypatch.setattr(RedisChannelLayer, "group_send_many", counted)

    tasks.after_changes(list(follow_ups))

    # Two moves' notices to the table's four players, and one badge for each player whose turn changed.
    assert calls == [2 * 4 + len(changed)]
    kinds = [brief(m)["type"] for m in received(layer, channel, 3)]
    assert sorted(kinds) == ["badge.update", "user.notice", "user.notice"]


def test_pushes_reuse_one_event_loop_and_its_redis_connections(
        joker_game, players, redis_channel_layer, redis_url, follow_ups):
    play_moves(joker_game, players, 3)
    client = redis.Redis.from_url(redis_url)
    tasks.after_changes([follow_ups[0]])  # the loop and its connections are made here (once per process)
    loop = group_sends.process_loop()
    connections_before = client.info("stats")["total_connections_received"]
    threads_before = threading.active_count()

    for follow_up in follow_ups[1:]:
        tasks.after_changes([follow_up])

    assert group_sends.process_loop() is loop
    assert client.info("stats")["total_connections_received"] == connections_before
    assert threading.active_count() == threads_before
    client.close()


def test_a_batch_counts_each_players_badge_once(joker_game, players, redis_channel_layer, follow_ups):
    play_moves(joker_game, players, 2)
    with CaptureQueriesContext(connection) as one:
        tasks.after_changes([follow_ups[0]])
    with CaptureQueriesContext(connection) as both:
        tasks.after_changes(list(follow_ups))
    badge_queries = [q for q in both.captured_queries if "COUNT(" in q["sql"].upper()]
    changed = set().union(*(f["turn_changed"] for f in follow_ups))
    assert len(badge_queries) == len(changed)
    assert len(both) < 2 * len(one)


def test_with_redis_down_the_pushes_are_logged_and_the_follow_up_goes_on(
        joker_game, players, settings, follow_ups, caplog):
    play_moves(joker_game, players, 1)
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "config.channel_layer.RedisChannelLayer",
                                           "CONFIG": {"hosts": ["redis://127.0.0.1:9/0"]}}}
    channel_layers.backends.clear()

    tasks.after_changes(list(follow_ups))  # does not raise

    assert "group message(s) failed" in caplog.text
    channel_layers.backends.clear()


def test_the_player_whose_turn_came_gets_the_new_count_and_the_notice(
        joker_game, players, redis_channel_layer, follow_ups):
    position, _ = acting_player(joker_game, players)
    after, _ = JOKER.apply(joker_game.state, position, a_legal_action(joker_game, position))
    waiting = players[JOKER.actors(after)[0]]
    layer = get_channel_layer()
    channel = listen(layer, [user_group(waiting.pk)])
    play_moves(joker_game, players, 1)

    tasks.after_changes(list(follow_ups))

    messages = [brief(m) for m in received(layer, channel, 2)]
    assert {"type": "badge.update", "waiting": 1} in messages


def test_a_push_made_for_a_consumer_is_sent_on_the_servers_own_loop(
        joker_game, players, redis_channel_layer, monkeypatch):
    """In a daphne process a consumer's database call that pushes (a count) uses the
    server's event loop and its connections, as `async_to_sync` did: not a loop of its own."""
    from channels.db import database_sync_to_async

    from gameplay.badge import send_badges

    loops = []
    real = RedisChannelLayer.group_send_many

    async def recorded(self, messages):
        loops.append(asyncio.get_running_loop())
        await real(self, messages)

    monkeypatch.setattr(RedisChannelLayer, "group_send_many", recorded)
    user = players[0]

    async def scenario():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        await layer.group_add(user_group(user.pk), channel)
        await database_sync_to_async(send_badges)([user.pk])
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
        return asyncio.get_running_loop(), message

    server_loop, message = async_to_sync(scenario)()
    assert loops == [server_loop]
    assert brief(message)["type"] == "badge.update"
