"""The account's sessions as its owner sees them (issue 40): each device
logged in, by its browser and system, its network address and when it was
last seen (allauth.usersessions' rows); ending one ends the session through
the session engine, which closes its sockets (accounts/sessions.py). A
sign-in from a device the account has not used before is emailed.

A session's row is written when it logs in (allauth's login, and any
login: `logged_in`), and its "last seen" at most every SESSION_SEEN_SECONDS
(`SessionActivityMiddleware`: a key in the cache says it was seen lately, so
a page costs no query for it)."""

from __future__ import annotations

import hashlib
import logging

from allauth.usersessions.models import UserSession
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.mail import send_mail
from django.db import transaction
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from ua_parser import parse as parse_user_agent

from accounts import places, verification

log = logging.getLogger(__name__)


def device_name(user_agent: str) -> str:
    """"Chrome on Android", in the active language."""
    parsed = parse_user_agent(user_agent or "")
    browser = (parsed.user_agent.family if parsed.user_agent else "") or _("A browser")
    system = parsed.os.family if parsed.os else ""
    if system and system != "Other":
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser if browser != "Other" else _("A browser")


def _seen_key(session_key: str) -> str:
    return "accounts.session-seen." + hashlib.sha256(session_key.encode()).hexdigest()[:40]


def _record(request: HttpRequest, user) -> None:
    try:
        UserSession.objects.create_from_request(request, user=user, session=request.session)
    except (PermissionDenied, ValueError):  # no network address (a test client's login): nothing to show
        return


class SessionActivityMiddleware:
    """Refresh the session's row (address, browser, last seen) at most every SESSION_SEEN_SECONDS."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        key = getattr(getattr(request, "session", None), "session_key", None)
        if user is not None and user.is_authenticated and key and cache.add(_seen_key(key), 1,
                                                                               settings.SESSION_SEEN_SECONDS):
            _record(request, user)
        return self.get_response(request)


def logged_in(sender, request: HttpRequest | None, user, **kwargs) -> None:
    """Django's `user_logged_in`: mail the owner when the device is new to the account, then mark the session seen."""
    if request is None or getattr(request, "session", None) is None:
        return
    agent = request.META.get("HTTP_USER_AGENT", "")
    if agent and UserSession.objects.filter(user=user).exists() and \
            not UserSession.objects.filter(user=user, user_agent=agent[:200]).exists():
        address = request.META.get("REMOTE_ADDR", "")
        transaction.on_commit(lambda: _mail_new_device(user, device_name(agent), address))
    if request.session.session_key:
        cache.set(_seen_key(request.session.session_key), 1, settings.SESSION_SEEN_SECONDS)


def _mail_new_device(user, device: str, address: str) -> None:
    if not user.email or not verification.may_mail(user.email):
        return
    link = settings.SITE_URL.rstrip("/") + reverse("my_sessions")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        subject = _("A new sign-in to your account")
        body = _("Someone signed in to your account %(name)s on %(when)s from a device it had not used before: "
                 "%(device)s, network address %(address)s.\n\nIf it was you, there is nothing to do. If not, "
                 "change your password and end that session: %(link)s") % {
            "name": user.username, "when": date_format(timezone.now(), "DATETIME_FORMAT") + " UTC",
            "device": device, "address": address or "?", "link": link}
        place = places.place_of(address, user.language)
        if place:
            body += "\n\n" + _("The place of that address: %(place)s.") % {"place": place}
    try:
        send_mail(subject, body + "\n", settings.DEFAULT_FROM_EMAIL, [user.email])
    except Exception:  # the mail server is away: the sign-in goes on
        log.exception("mailing user %s about a new device failed", user.pk)


def sessions_of(user) -> list[UserSession]:
    """The account's live sessions, the most recently seen first (rows of ended sessions are dropped)."""
    return sorted(UserSession.objects.purge_and_list(user), key=lambda s: s.last_seen_at, reverse=True)


def end_session(user, session_id) -> UserSession | None:
    """End one of the account's sessions: its sockets close (accounts/sessions.py)."""
    session = UserSession.objects.filter(user=user, pk=session_id).first()
    if session is not None:
        session.end()
    return session
