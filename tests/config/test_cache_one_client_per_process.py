"""The Redis cache (config/cache.py) keeps one client per process: requests
served as asyncio tasks of their own, as daphne serves them, read their rate
limits through one connection to Redis, not one each."""

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
from django.test import AsyncClient
from django.urls import reverse

pytestmark = pytest.mark.django_db(transaction=True)


def test_login_attempts_served_as_separate_tasks_share_one_connection_to_redis(redis_cache, redis_url):
    counting = redis.Redis.from_url(redis_url)
    before = counting.info("stats")["total_connections_received"]

    async def attempts():
        client = AsyncClient()
        statuses = []
        for _ in range(20):
            response = await asyncio.create_task(
                client.post(reverse("login"), {"username": "nobody", "password": "wrong"}))
            statuses.append(response.status_code)
        return statuses

    with ThreadPoolExecutor(1) as daphne_like:  # an event loop with no sync thread behind it, as in daphne
        statuses = daphne_like.submit(asyncio.run, attempts()).result()

    connections_made = counting.info("stats")["total_connections_received"] - before
    counting.close()
    assert 429 in statuses  # the attempts did read (and pass) the login limit
    assert connections_made <= 1  # Django's own RedisCache: one a request (closed again with it)
