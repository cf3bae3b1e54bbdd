"""The bot's process for real: `manage.py run_telegram_bot` in a child process, long
polling the local Bot API stand-in, links a chat by /start <token> and answers /games
from the test database; without a token it exits 0 at once (supervisord leaves it
stopped); with TELEGRAM_WEBHOOK_URL it registers the webhook and exits 0."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from notifications.telegram import links
from notifications.telegram.models import TelegramLink

from tests.integration.conftest import _die_with_parent

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]
BASE_DIR = Path(__file__).resolve().parents[2]
CHAT = 5550301
EXIT_SECONDS = 60


def database_url() -> str:
    """The test database, for the child process."""
    params = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{params['NAME']}"
    return (f"postgres://{params['USER']}:{params['PASSWORD']}@{params['HOST'] or 'localhost'}:{params['PORT'] or 5432}"
            f"/{params['NAME']}")


def bot_environment(stand_in, **extra: str) -> dict:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("TELEGRAM_", "REDIS_URL"))}
    env.update(DATABASE_URL=database_url(), TELEGRAM_API_URL=stand_in.url, PYTHONUNBUFFERED="1",
               DJANGO_SETTINGS_MODULE="config.settings", LOG_LEVEL="INFO", **extra)
    return env


def run_command(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "manage.py", "run_telegram_bot"], cwd=BASE_DIR, env=env,
                          capture_output=True, text=True, timeout=EXIT_SECONDS)


def test_without_a_token_the_bot_exits_0_at_once_and_says_why(telegram):
    done = run_command(bot_environment(telegram))

    assert done.returncode == 0, done.stderr
    assert "TELEGRAM_BOT_TOKEN is not set: the Telegram bot does not run" in done.stderr + done.stdout
    assert telegram.calls == []


def test_with_a_webhook_url_it_registers_the_webhook_and_exits_0(telegram):
    done = run_command(bot_environment(telegram, TELEGRAM_BOT_TOKEN=telegram.token,
                                       TELEGRAM_WEBHOOK_URL="https://games.example.org/telegram/webhook/",
                                       TELEGRAM_WEBHOOK_SECRET="s3cret-of-the-hook"))

    assert done.returncode == 0, done.stderr
    assert telegram.webhook == {"url": "https://games.example.org/telegram/webhook/",
                                "secret_token": "s3cret-of-the-hook"}


def test_the_polling_bot_links_a_chat_and_answers_games(telegram, players, tmp_path):
    token = links.new_token(players[0])
    log = tmp_path / "bot.log"
    process = subprocess.Popen(
        [sys.executable, "manage.py", "run_telegram_bot"], cwd=BASE_DIR,
        env=bot_environment(telegram, TELEGRAM_BOT_TOKEN=telegram.token), stdout=open(log, "w"),
        stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent)
    try:
        telegram.user_says(CHAT, f"/start {token}")
        [linked] = telegram.wait_for_messages(CHAT, 1, timeout=EXIT_SECONDS)
        telegram.user_says(CHAT, "/games")
        games = telegram.wait_for_messages(CHAT, 2, timeout=EXIT_SECONDS)[1]

        assert linked["text"].startswith("Linked: you are player0 on ")
        assert TelegramLink.objects.get(user=players[0]).chat_id == CHAT
        assert games["text"] == "No game is waiting for your move."
        assert "deletewebhook" in telegram.calls  # polling: no webhook left behind
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=EXIT_SECONDS) == 0
        assert "polling" in log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.returncode not in (0, None):
            print(log.read_text())

