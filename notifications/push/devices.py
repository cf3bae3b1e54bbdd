"""Turning web push on for a device, and off: the only changes to
`PushSubscription` rows besides the channel forgetting a gone one."""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from ua_parser import parse as parse_user_agent

from notifications.push.models import PushSubscription

BASE64URL = re.compile(r"[A-Za-z0-9_-]+={0,2}")
MAX_ENDPOINT = PushSubscription._meta.get_field("endpoint").max_length
LABEL_LENGTH = PushSubscription._meta.get_field("label").max_length


class InvalidSubscription(ValueError):
    """What the browser sent is not a push subscription we can use (the message says why)."""


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


def _b64url(value: object, what: str) -> bytes:
    if not isinstance(value, str) or not value or len(value) > 200:
        raise InvalidSubscription(_("The subscription's %(what)s is missing.") % {"what": what})
    try:
        if not BASE64URL.fullmatch(value):
            raise ValueError(value)
        return base64.urlsafe_b64decode(value.rstrip("=") + "=" * (-len(value.rstrip("=")) % 4))
    except (binascii.Error, ValueError):
        raise InvalidSubscription(_("The subscription's %(what)s is not base64url.") % {"what": what}) from None


def is_push_service(host: str) -> bool:
    """Whether `host` is (a subdomain of) one of PUSH_SERVICE_HOSTS."""
    allowed = settings.PUSH_SERVICE_HOSTS
    host = host.lower().rstrip(".")
    return "*" in allowed or any(host == known or host.endswith("." + known) for known in allowed)


def parse_subscription(data: object) -> Subscription:
    """The browser's `PushSubscription.toJSON()` ({endpoint, keys: {p256dh, auth}}),
    checked: an https endpoint, the browser's P-256 public key, a 16-byte auth secret."""
    if not isinstance(data, dict):
        raise InvalidSubscription(_("Send the browser's push subscription as a JSON object."))
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > MAX_ENDPOINT:
        raise InvalidSubscription(_("The subscription has no valid endpoint."))
    parts = urlsplit(endpoint)
    if parts.scheme != "https" or not parts.hostname:
        raise InvalidSubscription(_("The subscription's endpoint must be an https address."))
    if not is_push_service(parts.hostname):
        raise InvalidSubscription(_("This browser's push service is not one the site sends to."))
    keys = data.get("keys")
    if not isinstance(keys, dict):
        raise InvalidSubscription(_("The subscription has no keys."))
    public = _b64url(keys.get("p256dh"), "p256dh")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), public)
    except ValueError:
        raise InvalidSubscription(_("The subscription's p256dh is not a P-256 public key.")) from None
    if len(_b64url(keys.get("auth"), "auth")) != 16:
        raise InvalidSubscription(_("The subscription's auth secret must be 16 bytes."))
    return Subscription(endpoint=endpoint, p256dh=keys["p256dh"], auth=keys["auth"])


def device_label(user_agent: str, when=None) -> str:
    """"Chrome on Android, 27 Nov 2026", in the active language."""
    parsed = parse_user_agent(user_agent or "")
    browser = parsed.user_agent.family if parsed.user_agent else ""
    browser = browser.removesuffix(" Mobile").removesuffix(" Mobile WebView") or _("A browser")
    system = parsed.os.family if parsed.os else ""
    day = formats.date_format(timezone.localtime(when or timezone.now()), "j M Y")
    if system and system != "Other":
        return _("%(browser)s on %(system)s, %(date)s") % {"browser": browser, "system": system, "date": day}
    return _("%(browser)s, %(date)s") % {"browser": browser, "date": day}


def add_device(user, subscription: Subscription, user_agent: str) -> PushSubscription:
    """Turn push on for this browser. The same endpoint again (the browser
    renewed its keys) updates its row; an endpoint another account had (the
    same browser, someone else logged in) is taken from it: its row goes, and
    a new one (a new destination, "push:<new id>") is this player's, so no
    notice meant for the other account can reach it. A new device counts
    against PUSH_DEVICES_PER_USER."""
    with transaction.atomic():
        # The player's row first, so two subscriptions sent at once queue up on it.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        row = PushSubscription.objects.select_for_update().filter(endpoint=subscription.endpoint).first()
        if row is None or row.user_id != user.pk:
            if PushSubscription.objects.filter(user=user).count() >= settings.PUSH_DEVICES_PER_USER:
                raise InvalidSubscription(
                    _("You have push notifications on %(n)s devices already: remove one first.")
                    % {"n": settings.PUSH_DEVICES_PER_USER}
                )
        if row is not None and row.user_id != user.pk:
            row.delete()
            row = None
        if row is None:
            row = PushSubscription(endpoint=subscription.endpoint, user=user)
        row.p256dh, row.auth = subscription.p256dh, subscription.auth
        row.label = device_label(user_agent)[:LABEL_LENGTH]
        row.save()
    return row


def remove_device(user, device_id: int) -> bool:
    """Turn push off for one of the player's devices; whether there was one."""
    deleted, _rows = PushSubscription.objects.filter(user=user, pk=device_id).delete()
    return bool(deleted)
