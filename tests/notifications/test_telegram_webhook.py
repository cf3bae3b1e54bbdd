"""Webhook mode (TELEGRAM_WEBHOOK_URL set): Telegram posts each update to /telegram/webhook/
with the secret in X-Telegram-Bot-Api-Secret-Token, and the web process answers it with the
same dispatcher as the polling bot; a wrong or missing secret is refused, nothing handled.
And the supervisord program that runs the bot process leaves it stopped once it exits 0."""

import json
from pathlib import Path

import pytest
from django.test import Client

from notifications.telegram import links
from notifications.telegram.models import TelegramLink

pytestmark = pytest.mark.django_db
CHAT = 5550401
SECRET = "s3cret-of-the-hook"
BASE_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture
def webhook(settings, telegram):
    settings.TELEGRAM_WEBHOOK_URL = "https://games.example.org/telegram/webhook/"
    settings.TELEGRAM_WEBHOOK_SECRET = SECRET
    return telegram


def post(update, secret: str | None = SECRET):
    headers = {"HTTP_X_TELEGRAM_BOT_API_SECRET_TOKEN": secret} if secret is not None else {}
    body = update if isinstance(update, str) else json.dumps(update)
    return Client().post("/telegram/webhook/", body, content_type="application/json", **headers)


def test_an_update_with_the_secret_is_answered_by_the_bot(webhook, players):
    update = webhook.update(CHAT, f"/start {links.new_token(players[0])}")

    response = post(update)

    assert response.status_code == 200
    assert TelegramLink.objects.get(user=players[0]).chat_id == CHAT
    [reply] = webhook.messages_to(CHAT)
    assert reply["text"].startswith("Linked: you are player0 on ")


@pytest.mark.parametrize("secret", [None, "", "wrong", SECRET + "x"])
def test_a_wrong_or_missing_secret_is_refused_and_nothing_handled(webhook, players, secret):
    response = post(webhook.update(CHAT, f"/start {links.new_token(players[0])}"), secret=secret)

    assert response.status_code == 403
    assert not TelegramLink.objects.exists()
    assert webhook.messages == []


@pytest.mark.parametrize("body", ["not json", "[]", '{"update_id": "x"}', "\u0000"])
def test_a_malformed_update_is_a_400(webhook, body):
    assert post(body).status_code == 400


def test_an_update_that_fails_is_still_acknowledged(webhook):
    response = post({"update_id": 99, "message": {"text": "no chat, no date"}})

    assert response.status_code == 200  # logged; Telegram would otherwise send it again and again
    assert webhook.messages == []


def test_without_a_webhook_url_the_route_is_not_there(telegram):
    assert post(telegram.update(CHAT, "/help")).status_code == 404


def test_the_supervisord_program_does_not_restart_a_bot_that_exits_0():
    for conf in ("supervisord.conf", "supervisor-production.conf"):
        program = (BASE_DIR / "config" / conf).read_text().split("[program:telegram]")[1].split("\n[")[0]
        lines = program.splitlines()
        assert any(line.startswith("command=") and line.endswith("manage.py run_telegram_bot") for line in lines)
        for setting in ("autorestart=unexpected", "exitcodes=0", "startsecs=0"):
            assert setting in lines, conf
