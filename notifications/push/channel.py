"""The `push` channel: a notice to one device, through its browser's push
service, signed with the site's VAPID key and encrypted (aes128gcm) for that
browser alone by pywebpush. The service worker (templates
notifications/push/sw.js) shows it and opens its URL when clicked."""

from __future__ import annotations

import json
import logging
from functools import lru_cache

import requests
from django.conf import settings
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from notifications.channels import Destination, DestinationGone, Notice, TemporaryFailure
from notifications.push.devices import InvalidSubscription, check_endpoint
from notifications.push.models import PushSubscription

log = logging.getLogger(__name__)

# What the push service answers for a subscription that no longer exists.
GONE = {404, 410}
SEND_TIMEOUT_SECONDS = 10


@lru_cache(maxsize=4)
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


@lru_cache(maxsize=1)
def _session() -> requests.Session:
    """One HTTP session per process, made on its first push (after a worker's fork):
    the connections to a push service are kept and reused, not one per message.
    It follows no redirect: an endpoint is checked (devices.check_endpoint),
    where a push service would send it on to is not."""
    session = requests.Session()
    session.max_redirects = 0  # a redirect raises TooManyRedirects (a RequestException): nothing is sent on
    return session


# The parts of a notice's key that name one occurrence, not what it is about.
OCCURRENCE_PARTS = ("v=", "burst=")


def notification_tag(notice: Notice) -> str:
    """What a newer notification replaces on the device: the notice's key
    without the parts naming the occurrence ("your_move:game=12:v=40" →
    "your_move:game=12"; a burst's "3 games wait" → "your_move:user=5"), so a
    game's next "your move" replaces the one before instead of piling up."""
    parts = [part for part in notice.key.split(":") if not part.startswith(OCCURRENCE_PARTS)]
    return ":".join(parts) or notice.kind


# A push message holds at most 4 KB once encrypted; a notice's words are far shorter,
# but a long list ("5 games wait for your move: ...") is cut rather than refused.
MAX_TEXT = 1000


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT - 1] + "…"


def payload(notice: Notice) -> dict:
    """What the service worker gets (and shows): nothing but the notice's words and its URL."""
    return {"title": _cut(notice.title), "body": _cut(notice.body), "url": notice.url,
            "tag": notification_tag(notice)}


class PushChannel:
    name = "push"

    def is_configured(self) -> bool:
        return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)

    def destinations(self, user) -> list[Destination]:
        return [Destination(self.name, str(row.pk), row.label) for row in PushSubscription.objects.filter(user=user)]

    def send(self, destination: Destination, notice: Notice) -> None:
        row = _subscription(destination)
        if row is None or row.user_id != notice.user_id:  # removed, or the device is now another player's
            raise DestinationGone(destination.key)
        try:  # checked again: a row stored before a rule was tightened, or the allow-list changed since
            check_endpoint(row.endpoint)
        except InvalidSubscription as exc:
            raise DestinationGone(f"{destination.key}: {exc}") from exc
        try:
            webpush(
                subscription_info=row.subscription_info(),
                data=json.dumps(payload(notice), ensure_ascii=False),
                vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
                vapid_claims={"sub": settings.VAPID_SUBJECT},
                ttl=settings.PUSH_TTL_SECONDS,
                timeout=SEND_TIMEOUT_SECONDS,
                requests_session=_session(),
            )
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in GONE:
                raise DestinationGone(f"{destination.key}: the push service answered {status}") from exc
            # 429 (slow down), 5xx, or anything else the service refused: try again later.
            raise TemporaryFailure(f"{destination.key}: the push service answered {status}") from exc
        except requests.RequestException as exc:  # unreachable, timed out, TLS
            raise TemporaryFailure(f"{destination.key}: {exc}") from exc
        PushSubscription.objects.filter(pk=row.pk).update(last_success=timezone.now())

    def forget(self, destination: Destination) -> None:
        row_id = _row_id(destination)
        if row_id is not None:
            PushSubscription.objects.filter(pk=row_id).delete()


def _row_id(destination: Destination) -> int | None:
    return int(destination.ident) if destination.ident.isdigit() else None


def _subscription(destination: Destination) -> PushSubscription | None:
    row_id = _row_id(destination)
    return None if row_id is None else PushSubscription.objects.filter(pk=row_id).first()
