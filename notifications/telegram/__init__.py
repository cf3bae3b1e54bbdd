"""Telegram: a player links his account to a chat with the site's bot and gets
his notices there, each with an "Open the game" button.

- `models`: `TelegramLink` (one chat per player: muted until, stopped) and
  `TelegramLinkToken` (the profile's one-time deep link, stored hashed).
- `links`: every change of a link, one service function each.
- `replies`: what the bot answers to /start, /games, /mute, /stop, /help,
  worded in the linked player's language (plain sync functions: the database).
- `bot`: the aiogram Router and Dispatcher that run `replies` through
  asgiref's sync_to_async, and the Bot pointed at TELEGRAM_API_URL.
- `channel.TelegramChannel`: the "telegram" channel of `notifications.channels`.
- `views`: the profile's link / unlink, and the webhook route (TELEGRAM_WEBHOOK_URL).
The process: `manage.py run_telegram_bot` (config/supervisord.conf).

Only `bot` imports aiogram, whose pydantic models cost a process about three
seconds of start-up: the rest of the site reaches it through `bot_module()`,
on first use, so that a daphne, a Celery worker or a test process that never
talks to Telegram (every one of them when no bot is configured) does not pay
for it (`tests/notifications/test_telegram_start_up.py`).
"""

import importlib
from types import ModuleType

from django.conf import settings


def is_configured() -> bool:
    """Whether the site has a bot (TELEGRAM_BOT_TOKEN): without one, nothing offers or sends Telegram."""
    return bool(settings.TELEGRAM_BOT_TOKEN)


def bot_module() -> ModuleType:
    """`notifications.telegram.bot`, imported the first time it is needed (see above)."""
    return importlib.import_module("notifications.telegram.bot")
