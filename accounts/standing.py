"""The account's standing: whether it is suspended or muted now, and the
words that say so. The restrictions are fields of the user's row
(`accounts.User.suspended_at`, `suspended_until`, `chat_muted_until`), set by
the moderators' services (`moderation.services.people`) and read where the
account would act:

- a suspended account cannot log in (`SuspendedAccountBackend`, with the
  login page saying why: `accounts.forms.LoginForm`), and cannot open or join
  a table, move, resign or chat (`ensure_may_play`, `ensure_may_chat`, called
  by the game services, `gameplay.services.base`, so HTTP and WebSocket refuse alike). A move's service
  checks the seat's user as its locked transaction just read it: a socket
  opened before the suspension is refused too, at no extra query;
- a muted account cannot chat until the mute ends (`ensure_may_chat` reads
  the row afresh: the chat of a socket opened before the mute is refused).

Both end by themselves when their time passes; a suspension without an end
lasts until a moderator lifts it.
"""

from __future__ import annotations

import zoneinfo
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

SUSPENDED = "suspended"
MUTED = "muted"


def is_suspended(user, now: datetime | None = None) -> bool:
    if user is None or getattr(user, "suspended_at", None) is None:
        return False
    return user.suspended_until is None or user.suspended_until > (now or timezone.now())


def is_muted(user, now: datetime | None = None) -> bool:
    until = getattr(user, "chat_muted_until", None)
    return until is not None and until > (now or timezone.now())


def _when(user, moment: datetime) -> str:
    """A moment in the user's own time zone, in the active language's format."""
    try:
        zone = zoneinfo.ZoneInfo(user.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = timezone.get_current_timezone()
    return f"{date_format(timezone.localtime(moment, zone), 'DATETIME_FORMAT')} ({zone.key})"


def suspension_message(user) -> str:
    if user.suspended_until is None:
        return _("Your account is suspended by a moderator.")
    return _("Your account is suspended by a moderator until %(until)s.") % {"until": _when(user, user.suspended_until)}


def mute_message(user) -> str:
    return _("A moderator has muted you in chat until %(until)s.") % {"until": _when(user, user.chat_muted_until)}


def fresh_standing(user):
    """The user's row as it is now, with just what the standing needs (one
    query; None if it is gone): a socket's user was loaded when it opened."""
    return get_user_model().objects.filter(pk=user.pk).only(
        "time_zone", "suspended_at", "suspended_until", "chat_muted_until").first()


def account_named(login: str):
    """The account a login names: by its username, else by its address (which is unique)."""
    model = get_user_model()
    try:
        return model._default_manager.get_by_natural_key(login)
    except model.DoesNotExist:
        pass
    if "@" in login:
        return model._default_manager.filter(email__iexact=login.strip()).first()
    return None


class SuspendedAccountBackend:
    """Refuses the login of a suspended account (as a failed login, which
    stops the backends after it), wherever authenticate() is called: the
    site's login page and the admin's. Only with the right password, so that
    the refusal tells nobody else that the account is suspended; the login
    form then says why (`request.suspended_user`). It has no get_user(): it
    never vouches for a user."""

    def authenticate(self, request, username=None, password=None, email=None, **kwargs):
        login = username or email
        if login is None or password is None:
            return None
        user = account_named(login)
        if user is None:
            return None
        if is_suspended(user) and ModelBackend().user_can_authenticate(user) and user.check_password(password):
            if request is not None:
                request.suspended_user = user
            raise PermissionDenied
        return None
