"""Turning web push on for a device, and off: the only changes to
`PushSubscription` rows besides the channel forgetting a gone one."""

from __future__ import annotations

import base64
import binascii
import ipaddress
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
from urllib3.util import parse_url
from urllib3.exceptions import LocationParseError

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


# What an endpoint may hold: RFC 3986's characters, nothing else (no backslash,
# space, control or non-ASCII character, which parsers read differently).
URL_CHARACTERS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
# A host name whose last label starts with a letter: not an address in any of
# the forms a resolver takes (10.0.0.5, 167772165, 0xa000005, 10.5).
HOST_NAME = re.compile(r"(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?\.?")


def _origin(scheme: str, host: str, port: int | None) -> str:
    default = {"https": 443, "http": 80}.get(scheme)
    return f"{scheme}://{host}" + (f":{port}" if port not in (None, default) else "")


def check_endpoint(endpoint: object) -> str:
    """The endpoint, if the site may post to it, else InvalidSubscription. It
    is read as the HTTP client (requests, through urllib3) will send it and as
    the standard library reads it, and both must agree: no user information,
    no backslash or other character outside RFC 3986, no address literal, an
    https host on PUSH_SERVICE_HOSTS on port 443 (or an origin written in
    PUSH_SERVICE_ORIGINS exactly). Checked when a device subscribes and again
    before every push (the allow-list may have changed since)."""
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= MAX_ENDPOINT:
        raise InvalidSubscription(_("The subscription has no valid endpoint."))
    if not URL_CHARACTERS.fullmatch(endpoint):
        raise InvalidSubscription(_("The subscription's endpoint holds characters an address may not."))
    try:
        sent = parse_url(endpoint)
    except LocationParseError:
        raise InvalidSubscription(_("The subscription has no valid endpoint.")) from None
    read = urlsplit(endpoint)
    try:
        read_port = read.port
    except ValueError:
        raise InvalidSubscription(_("The subscription has no valid endpoint.")) from None
    host = (sent.host or "").lower().strip("[]")
    if (sent.auth is not None or "@" in read.netloc or sent.scheme != read.scheme or not host
            or host != (read.hostname or "").lower() or sent.port != read_port):
        raise InvalidSubscription(_("The subscription's endpoint is not a plain https address."))
    if _origin(sent.scheme or "", host, sent.port) in settings.PUSH_SERVICE_ORIGINS:
        return endpoint
    if sent.scheme != "https" or sent.port not in (None, 443):
        raise InvalidSubscription(_("The subscription's endpoint must be an https address."))
    if not HOST_NAME.fullmatch(host) or _is_address(host):
        raise InvalidSubscription(_("The subscription's endpoint must name its host, not a network address."))
    if not is_push_service(host):
        raise InvalidSubscription(_("This browser's push service is not one the site sends to."))
    return endpoint


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def parse_subscription(data: object) -> Subscription:
    """The browser's `PushSubscription.toJSON()` ({endpoint, keys: {p256dh, auth}}),
    checked: an https endpoint, the browser's P-256 public key, a 16-byte auth secret."""
    if not isinstance(data, dict):
        raise InvalidSubscription(_("Send the browser's push subscription as a JSON object."))
    endpoint = check_endpoint(data.get("endpoint"))
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
