"""The "telegram" channel of `notifications.channels`: one destination, the
player's linked chat, unless he stopped it (/stop).

send(): the notice as one message (title in bold, body, and an inline URL
button with `notice.button` opening `notice.url`), through aiogram's Bot.
- muted (/mute): nothing is sent (the notice is skipped, not delayed: a
  player who silences the bot for 3 hours does not want them all at once
  afterwards; My games and /games still show what waits). The dispatcher
  asks `is_muted(user_id)` first and records the delivery as dropped,
  "muted"; `send` skips too, should anything else call it;
- the chat is gone (403: the bot was blocked, or kicked, or the user
  deactivated; 400 "chat not found"): the link is dropped here, then
  DestinationGone (the dispatcher's `forget()` then has nothing left to do:
  a Destination does not name the player, the notice does);
- flood control (429, retry_after), Telegram's 5xx, a network error or
  timeout, any other refusal: TemporaryFailure(retry_after=...) and the
  dispatcher retries with back-off.
"""

from __future__ import annotations

import html
import logging

from aiogram.enums import ParseMode
from aiogram.exceptions import (TelegramAPIError, TelegramBadRequest, TelegramForbiddenError, TelegramNotFound,
                                TelegramRetryAfter)
from asgiref.sync import async_to_sync

from notifications.channels import Destination, DestinationGone, Notice, TemporaryFailure
from notifications.telegram import bot, links
from notifications.telegram.models import TelegramLink

log = logging.getLogger(__name__)

NAME = "telegram"
# 400s that mean the chat itself is gone, not that this one message was wrong.
GONE_CHAT = ("chat not found", "user not found", "peer_id_invalid", "user is deactivated", "bot was kicked")


def message_text(notice: Notice) -> str:
    """The message's HTML: the title in bold, then the body (escaped: names are players' own words)."""
    title, body = html.escape(notice.title), html.escape(notice.body)
    return f"<b>{title}</b>\n{body}" if body else f"<b>{title}</b>"


class TelegramChannel:
    name = NAME

    def is_configured(self) -> bool:
        return bot.is_configured()

    def destinations(self, user) -> list[Destination]:
        link = TelegramLink.objects.filter(user=user, stopped=False).first()
        return [Destination(NAME, "", "Telegram")] if link else []

    def is_muted(self, user_id: int) -> bool:
        link = TelegramLink.objects.filter(user_id=user_id).first()
        return link is not None and link.is_muted()

    def send(self, destination: Destination, notice: Notice) -> None:
        link = TelegramLink.objects.filter(user_id=notice.user_id, user__is_active=True).first()
        if link is None or link.stopped:
            raise DestinationGone("not linked" if link is None else "stopped")
        if link.is_muted():
            log.info("notice %s to user %s skipped: Telegram muted until %s", notice.key, notice.user_id,
                     link.muted_until)
            return
        try:
            async_to_sync(_send_message)(link.chat_id, notice)
        except TelegramForbiddenError as error:
            links.forget_chat(notice.user_id)
            raise DestinationGone(str(error)) from error
        except (TelegramBadRequest, TelegramNotFound) as error:
            if any(words in str(error).lower() for words in GONE_CHAT):
                links.forget_chat(notice.user_id)
                raise DestinationGone(str(error)) from error
            log.error("Telegram refused notice %s to user %s: %s", notice.key, notice.user_id, error)
            raise TemporaryFailure(str(error)) from error
        except TelegramRetryAfter as error:
            raise TemporaryFailure(str(error), retry_after=error.retry_after) from error
        except (TelegramAPIError, OSError, TimeoutError) as error:  # 5xx, network, timeouts (aiohttp's too)
            raise TemporaryFailure(str(error)) from error

    def forget(self, destination: Destination) -> None:
        """Nothing left: `send` dropped the player's link before raising DestinationGone."""


async def _send_message(chat_id: int, notice: Notice) -> None:
    buttons = [(notice.button, notice.url)] if notice.button and notice.url else []
    async with bot.new_bot() as telegram:
        await telegram.send_message(chat_id, message_text(notice), parse_mode=ParseMode.HTML,
                                    reply_markup=bot.keyboard(buttons))
