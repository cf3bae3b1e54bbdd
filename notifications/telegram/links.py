"""Every change of a player's Telegram link, one function each.

The profile's "Link Telegram" makes a one-time token (`new_token`) and sends
the player to the bot's deep link ``https://t.me/<bot>?start=<token>``; the
bot's /start hands it to `link_chat`, which links the chat to the token's
player in one transaction: the token is claimed by a conditional UPDATE, so
it links at most once, and only within TELEGRAM_LINK_MINUTES. Only the
token's SHA-256 is stored. A chat belongs to one player and a player has one
chat: linking moves either of them.
"""

from __future__ import annotations

import enum
import hashlib
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from notifications.telegram.models import TelegramLink, TelegramLinkToken

MAX_MUTE_HOURS = 720  # 30 days


class Linked(enum.Enum):
    OK = "ok"
    INVALID = "invalid"  # unknown, expired or already used


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(user) -> str:
    """A fresh one-time token for the player's deep link (his older unused ones stop working).
    URL-safe, 43 characters: within the 64 Telegram allows a /start parameter."""
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    with transaction.atomic():
        TelegramLinkToken.objects.filter(user=user, used_at__isnull=True).delete()
        TelegramLinkToken.objects.filter(expires_at__lt=now).delete()
        TelegramLinkToken.objects.create(user=user, digest=_digest(token), created_at=now,
                                         expires_at=now + timedelta(minutes=settings.TELEGRAM_LINK_MINUTES))
    return token


@transaction.atomic
def link_chat(token: str, chat_id: int) -> tuple[Linked, TelegramLink | None]:
    """Link the chat to the player whose token this is, if it is valid; the token is spent either way."""
    now = timezone.now()
    if not token or len(token) > 64:
        return Linked.INVALID, None
    digest = _digest(token)
    claimed = TelegramLinkToken.objects.filter(digest=digest, used_at__isnull=True, expires_at__gt=now).update(
        used_at=now)
    if not claimed:
        return Linked.INVALID, None
    user_id = TelegramLinkToken.objects.filter(digest=digest).values_list("user_id", flat=True).get()
    TelegramLink.objects.filter(chat_id=chat_id).exclude(user_id=user_id).delete()
    link, _ = TelegramLink.objects.update_or_create(
        user_id=user_id, defaults={"chat_id": chat_id, "linked_at": now, "muted_until": None, "stopped": False})
    return Linked.OK, link


def link_of_chat(chat_id: int) -> TelegramLink | None:
    return TelegramLink.objects.select_related("user").filter(chat_id=chat_id, user__is_active=True).first()


def mute(link: TelegramLink, hours: int) -> datetime | None:
    """No messages for `hours` (0: messages on again). Returns the end of the silence."""
    if not 0 <= hours <= MAX_MUTE_HOURS:
        raise ValueError(f"hours must be 0 to {MAX_MUTE_HOURS}")
    link.muted_until = timezone.now() + timedelta(hours=hours) if hours else None
    TelegramLink.objects.filter(pk=link.pk).update(muted_until=link.muted_until)
    return link.muted_until


def stop(link: TelegramLink) -> None:
    """/stop: no more messages until /start."""
    link.stopped = True
    TelegramLink.objects.filter(pk=link.pk).update(stopped=True)


def resume(link: TelegramLink) -> None:
    """/start in a linked chat: messages on again (stopped or muted)."""
    link.stopped, link.muted_until = False, None
    TelegramLink.objects.filter(pk=link.pk).update(stopped=False, muted_until=None)


def unlink(user) -> bool:
    """The profile's "unlink". Returns whether there was a link."""
    deleted, _ = TelegramLink.objects.filter(user=user).delete()
    return bool(deleted)


def forget_chat(user_id: int) -> None:
    """The chat is gone (the bot was blocked, the chat deleted): drop the link; the player may link again."""
    TelegramLink.objects.filter(user_id=user_id).delete()
