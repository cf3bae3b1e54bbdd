"""The "telegram" channel of `notifications.channels`: one destination, the
player's linked chat, unless he stopped it (/stop).

send(): the notice as one message (title in bold, body, and an inline URL
button with `notice.button` opening `notice.url`), through aiogram's Bot
(`bot.send_notice`, which says what Telegram's answer means).
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

import logging

from notifications.channels import Destination, DestinationGone, Notice
from notifications.telegram import bot_module, is_configured
from notifications.telegram.models import TelegramLink

log = logging.getLogger(__name__)

NAME = "telegram"


class TelegramChannel:
    name = NAME

    def is_configured(self) -> bool:
        return is_configured()

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
        bot_module().send_notice(link.chat_id, notice)

    def forget(self, destination: Destination) -> None:
        """Nothing left: `send` dropped the player's link before raising DestinationGone."""
