"""The Telegram bot's process (config/supervisord.conf's `telegram` program).

- No TELEGRAM_BOT_TOKEN: says so and exits 0 at once (supervisord then leaves
  it stopped: autorestart=unexpected, exitcodes=0).
- TELEGRAM_WEBHOOK_URL set: registers the webhook with Telegram (with
  TELEGRAM_WEBHOOK_SECRET) and exits 0; the web process answers the updates
  at /telegram/webhook/ (notifications.telegram.views.webhook).
- Otherwise long polling (the default: nothing to expose to the internet):
  removes any webhook, then asks Telegram for updates until SIGTERM/SIGINT.
"""

import asyncio
import logging

from django.conf import settings
from django.core.management.base import BaseCommand

from notifications.telegram import bot, is_configured

log = logging.getLogger("notifications.telegram")
ALLOWED_UPDATES = ["message"]


class Command(BaseCommand):
    help = "Run the Telegram bot (long polling), or register its webhook when TELEGRAM_WEBHOOK_URL is set."

    def handle(self, *args, **options) -> None:
        if not is_configured():
            log.info("TELEGRAM_BOT_TOKEN is not set: the Telegram bot does not run")
            return
        if settings.TELEGRAM_WEBHOOK_URL:
            asyncio.run(_set_webhook())
            log.info("Telegram webhook set to %s: the web process answers the updates", settings.TELEGRAM_WEBHOOK_URL)
            return
        asyncio.run(_poll())


async def _set_webhook() -> None:
    async with bot.new_bot() as telegram:
        await telegram.set_webhook(settings.TELEGRAM_WEBHOOK_URL, secret_token=settings.TELEGRAM_WEBHOOK_SECRET,
                                   allowed_updates=ALLOWED_UPDATES)


async def _poll() -> None:
    telegram = bot.new_bot()
    await telegram.delete_webhook()
    me = await telegram.get_me()
    log.info("Telegram bot @%s polling %s for updates", me.username, settings.TELEGRAM_API_URL)
    await bot.new_dispatcher(own_process=True).start_polling(telegram, allowed_updates=ALLOWED_UPDATES)
