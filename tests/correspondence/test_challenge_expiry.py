"""A challenge expires by itself: its task, queued after the commit with the
expiry as ETA, closes it; beat's sweep closes any a lost or far task left
open. Both re-check under the challenge's lock, so running twice or early
changes nothing more."""

import json
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from datetime import timedelta

import pytest
from django.utils import timezone

from correspondence import services, tasks
from correspondence.models import Challenge

pytestmark = pytest.mark.django_db


def sent(by) -> Challenge:
    return services.create_challenge(by, ["player1"], "durak", {}, {})


def test_the_task_closes_a_challenge_whose_time_has_passed_and_only_then(players):
    challenge = sent(players[0])
    assert tasks.expire_challenge(challenge.pk) is False  # early: nothing changes
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert tasks.expire_challenge(challenge.pk) is True
    assert tasks.expire_challenge(challenge.pk) is False  # again: harmless
    challenge.refresh_from_db()
    assert challenge.status == Challenge.Status.EXPIRED and challenge.closed_at is not None


def test_the_sweep_closes_every_overdue_challenge_and_leaves_the_rest(players):
    overdue, waiting, started = sent(players[0]), sent(players[0]), sent(players[0])
    services.answer_challenge(started.pk, players[1], True)
    Challenge.objects.filter(pk__in=[overdue.pk, started.pk]).update(expires_at=timezone.now() - timedelta(minutes=1))
    assert tasks.sweep_challenges() == 1
    statuses = dict(Challenge.objects.values_list("pk", "status"))
    assert statuses == {overdue.pk: "expired", waiting.pk: "pending", started.pk: "started"}


def test_the_sweep_is_on_beats_schedule(settings):
    assert settings.CELERY_BEAT_SCHEDULE["challenge-expiry"]["task"] == "correspondence.tasks.sweep_challenges"


def test_a_new_challenge_queues_its_expiry_task_after_the_commit_when_within_reach(players, settings, monkeypatch,
                                                                                 django_capture_on_commit_callbacks):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.DEADLINE_TASK_HORIZON = 2 * 3600
    queued = []
    monkeypatch.setattr(tasks.expire_challenge, "apply_async", lambda args, eta: queued.append((args, eta)))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        near = services.create_challenge(players[0], ["player1"], "durak", {}, {}, expires_in=3600)
        services.create_challenge(players[0], ["player2"], "durak", {}, {}, expires_in=3 * 86400)
    assert queued == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert queued == [((near.pk,), near.expires_at)]  # the far one is the sweep's


# --- with real processes: Redis, a Celery worker and beat -----------------------------

SCRIPT = r'''
import json, sys
from datetime import timedelta
import django
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from correspondence import services, tasks
from correspondence.models import Challenge

op, args = sys.argv[1], json.loads(sys.argv[2])
User = get_user_model()
if op == "challenge":
    tag, seconds, queue = args
    by = User.objects.create_user(f"{tag}-a", password="x")
    User.objects.create_user(f"{tag}-b", password="x")
    challenge = services.create_challenge(by, [f"{tag}-b"], "durak", {}, {})
    Challenge.objects.filter(pk=challenge.pk).update(expires_at=timezone.now() + timedelta(seconds=seconds))
    challenge.refresh_from_db()
    if queue:
        tasks.queue_expiry(challenge)
    print(json.dumps({"id": challenge.pk}))
'''


def statuses(stack) -> dict[str, str]:
    """Each challenge's status, read straight from the stack's SQLite file (a Python started to ask
    Django each half second would cost more than everything it waits for)."""
    path = stack.env["DATABASE_URL"].removeprefix("sqlite:///")
    with closing(sqlite3.connect(path, timeout=10)) as database:
        return {str(pk): status for pk, status in database.execute("SELECT id, status FROM correspondence_challenge")}


@pytest.mark.slow
def test_a_real_worker_expires_a_challenge_on_time_and_beats_sweep_one_whose_task_was_lost(tmp_path, redis_url):
    from tests.integration.conftest import BASE_DIR, migrated_stack, redis_database

    stack = migrated_stack(tmp_path, redis_database(redis_url, 7))
    stack.env["CHALLENGE_SWEEP_SECONDS"] = "1"

    def run(op, *args) -> dict:
        done = subprocess.run([sys.executable, "-c", SCRIPT, op, json.dumps(args)], cwd=BASE_DIR, env=stack.env,
                              capture_output=True, text=True, timeout=90)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout.strip().splitlines()[-1])

    try:
        with stack.together():
            stack.start_worker()
            stack.start_beat()
        with_task = run("challenge", "task", 2, True)["id"]
        lost_task = run("challenge", "lost", 1, False)["id"]
        later = run("challenge", "later", 3600, True)["id"]
        give_up = time.monotonic() + 30
        while time.monotonic() < give_up:
            status = statuses(stack)
            if status[str(with_task)] == status[str(lost_task)] == "expired":
                break
            time.sleep(0.5)
        assert status == {str(with_task): "expired", str(lost_task): "expired", str(later): "pending"}, stack.logs()
        assert "correspondence.tasks.expire_challenge" in stack.logs(100_000)
    finally:
        stack.stop_all()
