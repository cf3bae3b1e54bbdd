"""A season's schedule drawn up by real processes: Redis, a Celery worker
and beat (tests/integration/conftest.py starts them as the Procfile does).

The organizer's start returns at once with the season "drawing"; the task
queued after its commit draws it in the worker. When the task is lost (the
queue emptied before any worker took it: Redis restarted empty), beat's
sweep draws the season all the same.
"""

import json
import subprocess
import sys
import time

import pytest

from tests.integration.conftest import BASE_DIR, HELPER_SECONDS, migrated_stack, redis_database

pytestmark = pytest.mark.slow

CELERY_DB = 7  # a Redis database of this module's own
DRAW_LIMIT = 60  # seconds for a worker to draw a small season

# Runs in a child process with the stack's environment: `python -c SCRIPT OP JSON_ARGS`; prints one JSON line.
SCRIPT = r'''
import json
import sys

import django

django.setup()

from django.contrib.auth import get_user_model

from gameplay.models import Game
from leagues import services
from leagues.models import Fixture, Season


def started(tag):
    """A two-player Durak league of five, started by its organizer: the season as the request leaves it."""
    users = [get_user_model().objects.create_user(f"{tag}-{i}", password=None) for i in range(5)]
    league = services.create_league(users[0], name=f"League {tag}", engine="durak", players=2)
    season = league.seasons.get()
    for user in users:
        services.register(season.pk, user)
    services.start_season(season.pk, users[0])
    return state(season.pk)


def state(season_id):
    season = Season.objects.get(pk=season_id)
    fixtures = Fixture.objects.filter(division__season=season)
    return {"season": season.pk, "status": season.status, "fixtures": fixtures.count(),
            "games": Game.objects.filter(fixture__division__season=season).count(),
            "unstarted": fixtures.filter(game=None).count()}


print(json.dumps({"started": started, "state": state}[sys.argv[1]](*json.loads(sys.argv[2]))))
'''


def run(stack, op: str, *args) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, op, json.dumps(args)], cwd=BASE_DIR, env=stack.env,
                          capture_output=True, text=True, timeout=HELPER_SECONDS)
    if done.returncode != 0:
        raise AssertionError(f"{op}{args} failed:\n{done.stdout}\n{done.stderr}\n{stack.logs()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def wait_until_running(stack, season_id: int) -> dict:
    give_up = time.monotonic() + DRAW_LIMIT
    while True:
        state = run(stack, "state", season_id)
        if state["status"] == "running" or time.monotonic() > give_up:
            return state
        time.sleep(0.5)


@pytest.fixture(scope="module")
def stack(tmp_path_factory, redis_url):
    stack = migrated_stack(tmp_path_factory.mktemp("league-draw"), redis_database(redis_url, CELERY_DB))
    stack.env.update({"LEAGUE_DRAW_GRACE_SECONDS": "2", "LEAGUE_DRAW_SWEEP_SECONDS": "1"})
    try:
        yield stack
    finally:
        stack.stop_all()


def flush_queue(stack) -> None:
    import redis

    client = redis.Redis.from_url(stack.redis_url)
    try:
        client.flushdb()
    finally:
        client.close()


def test_the_season_is_drawn_by_the_worker_after_the_start_and_by_the_sweep_when_its_task_is_lost(stack):
    lost = run(stack, "started", "lost")  # no worker yet: its task waits in Redis...
    assert lost["status"] == "drawing" and lost["fixtures"] == 0
    flush_queue(stack)  # ...and is lost, as when Redis restarts empty

    with stack.together():
        stack.start_worker()
        stack.start_beat()
    drawn = run(stack, "started", "drawn")
    assert drawn["status"] == "drawing"  # the request did not draw it
    state = wait_until_running(stack, drawn["season"])
    assert state == {"season": drawn["season"], "status": "running", "fixtures": 10, "games": 10, "unstarted": 0}, \
        stack.logs()

    state = wait_until_running(stack, lost["season"])  # beat's sweep, once the grace has passed
    assert state == {"season": lost["season"], "status": "running", "fixtures": 10, "games": 10, "unstarted": 0}, \
        stack.logs()
