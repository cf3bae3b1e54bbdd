"""Queueing a task is cheap (issue 28): kombu's Redis channel publishes
through one Redis client instead of building one per message, and a move's
follow-up task carries a short repr of its arguments instead of Celery's
`saferepr` of all of them. Both ran on the thread that queues a move's
follow-up, holding the GIL the event loop needs."""

import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import redis
from kombu import Connection, Producer, Queue

from config.celery import RedisTransport
from gameplay import tasks

BASE_DIR = Path(__file__).resolve().parents[2]


def test_the_site_uses_the_transport_for_a_redis_broker_and_kombus_own_for_others():
    def transport(redis_url: str) -> str:
        env = {**os.environ, "REDIS_URL": redis_url, "DJANGO_SETTINGS_MODULE": "config.settings"}
        code = "import django; django.setup(); from config.celery import app; print(app.conf.broker_transport)"
        return subprocess.run([sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True,
                              text=True, check=True).stdout.strip()

    assert transport("redis://127.0.0.1:6379/0") == "config.celery:RedisTransport"
    assert transport("") == "None"  # no Redis: the in-memory broker, eager tasks


def test_messages_published_one_after_another_go_through_one_client_to_redis(redis_url):
    server = redis.Redis.from_url(redis_url)
    queue = Queue("broker-one-client", routing_key="broker-one-client")
    with Connection(redis_url, transport=RedisTransport) as connection:
        channel = connection.default_channel
        producer = Producer(channel, routing_key="broker-one-client")
        producer.publish({"n": 1}, declare=[queue])
        client = channel._publish_client
        producer.publish({"n": 2})
        assert channel._publish_client is client
        assert server.llen("broker-one-client") == 2

        channel._disconnect_pools()  # what a fork or a lost connection does: a new pool, a new client
        producer.publish({"n": 3})
        assert channel._publish_client is not client
        assert channel._publish_client.connection_pool is channel.pool
        assert server.llen("broker-one-client") == 3

        received = [queue(channel).get(no_ack=True).payload for _ in range(3)]
    assert sorted(message["n"] for message in received) == [1, 2, 3]


def test_follow_ups_are_queued_with_all_their_arguments_and_a_short_repr_of_them():
    follow_up = {"game_id": 12, "version": 34, "clock_started": [1], "turn_changed": [5], "deadlines": True,
                 "started": False, "published": [], "bot": False, "players": [5, 6]}
    later = {**follow_up, "version": 35}
    with mock.patch.object(tasks.after_changes, "apply_async") as apply_async:
        tasks.queue_follow_ups([follow_up, later])
    assert apply_async.call_args.kwargs["kwargs"] == {"follow_ups": [follow_up, later]}
    assert apply_async.call_args.kwargs["kwargsrepr"] == "{'follow_ups': [12@34, 12@35]}"
