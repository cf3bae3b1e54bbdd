"""Abuse limits on the account pages (README "Configuration").

django-axes locks one username from one network address after
LOGIN_FAILURE_LIMIT failed logins (its settings: AXES_*). The other limits
are django-ratelimit's counters, kept in the cache, each over a fixed period
given by its setting ("20/15m"):

- failed logins from one network address, whatever the usernames
  (LOGIN_FAILURES_PER_IP), and to one username, from wherever
  (LOGIN_FAILURES_PER_USER); the login page and every other caller of
  authenticate() (the admin's login) refuse once either is used up;
- accounts created from one network address (SIGNUPS_PER_IP);
- password reset emails asked for one email address
  (PASSWORD_RESETS_PER_ADDRESS) and from one network address
  (PASSWORD_RESETS_PER_IP); unknown addresses count too, so that the answer
  tells nothing about who has an account.

A refused request gets a page that says which limit it met and when to try
again, with status 429 and a Retry-After header.
"""

import math
from dataclasses import dataclass
from typing import Callable

from axes.helpers import get_cool_off, get_failure_limit
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import get_usage

# A counter's key: "ip" (the client's network address, as django-ratelimit
# finds it) or a function (group, request) -> value.
Key = str | Callable[[str, HttpRequest], str]
IP: Key = "ip"


@dataclass(frozen=True)
class Limit:
    group: str
    rate_setting: str
    reason: str  # what happened, said to the refused visitor
    offer_password_reset: bool = False

    def usage(self, request: HttpRequest, key: Key, *, count: bool) -> dict | None:
        return get_usage(request, group=self.group, key=key, rate=getattr(settings, self.rate_setting),
                         increment=count)


LOGIN_FROM_IP = Limit(
    "accounts.login-failures.ip", "LOGIN_FAILURES_PER_IP",
    _("Too many logins have failed from your network address, so logging in from it is paused for a while."),
    offer_password_reset=True,
)
LOGIN_TO_USER = Limit(
    "accounts.login-failures.user", "LOGIN_FAILURES_PER_USER",
    _("Too many logins to this account have failed, so logging in to it is paused for a while."),
    offer_password_reset=True,
)
SIGNUP_FROM_IP = Limit(
    "accounts.signups.ip", "SIGNUPS_PER_IP",
    _("Too many accounts have been created from your network address, so signing up from it is paused for a while."),
)
RESET_FOR_ADDRESS = Limit(
    "accounts.password-resets.address", "PASSWORD_RESETS_PER_ADDRESS",
    _("Too many password reset emails have been asked for this address, so no more are sent for a while. "
      "Look for the ones already sent in your mailbox, and in its spam folder."),
)
RESET_FROM_IP = Limit(
    "accounts.password-resets.ip", "PASSWORD_RESETS_PER_IP",
    _("Too many password reset emails have been asked for from your network address, "
      "so no more are sent for a while."),
)


def value(text: str) -> Key:
    """A key that counts per `text`, whatever its case and surrounding spaces."""
    normalized = (text or "").strip().casefold()
    return lambda group, request: normalized


@dataclass(frozen=True)
class Refusal:
    limit: Limit
    seconds_left: int

    @property
    def minutes_left(self) -> int:
        return max(1, math.ceil(self.seconds_left / 60))


def _refusal(limit: Limit, usage: dict | None, *, counted: bool) -> Refusal | None:
    if usage is None:  # limits turned off (RATELIMIT_ENABLE = False)
        return None
    # Counting this request: it is refused when it goes past the limit;
    # only looking: when the limit is used up already.
    over = usage["should_limit"] if counted else usage["count"] >= usage["limit"]
    return Refusal(limit, max(1, usage["time_left"])) if over else None


def check(request: HttpRequest, limits: list[tuple[Limit, Key]]) -> Refusal | None:
    """The first of `limits` already used up, without counting this request."""
    for limit, key in limits:
        refusal = _refusal(limit, limit.usage(request, key, count=False), counted=False)
        if refusal:
            return refusal
    return None


def count(request: HttpRequest, limits: list[tuple[Limit, Key]]) -> Refusal | None:
    """Count this request against every one of `limits`; the first it goes past."""
    refusals = [_refusal(limit, limit.usage(request, key, count=True), counted=True) for limit, key in limits]
    return next((r for r in refusals if r), None)


def login_limits(username: str | None) -> list[tuple[Limit, Key]]:
    limits = [(LOGIN_FROM_IP, IP)]
    if username:
        limits.append((LOGIN_TO_USER, value(username)))
    return limits


def too_many(request: HttpRequest, refusal: Refusal) -> HttpResponse:
    """The page of a refused request: what happened, and when to try again."""
    context = {
        "reason": refusal.limit.reason,
        "minutes": refusal.minutes_left,
        "offer_password_reset": refusal.limit.offer_password_reset,
    }
    response = render(request, "accounts/too_many_attempts.html", context, status=429)
    response["Retry-After"] = str(refusal.seconds_left)
    return response


class LoginLimitBackend:
    """Refuses every login (as a failure) while its network address or its
    username is past its limit. Placed before the backend that checks the
    password, so that the admin's login is held back too; the site's own
    login page says why (accounts.views.LoginView). It has no get_user(): it
    never vouches for a user, so no session names it as his backend."""

    def authenticate(self, request, username=None, **credentials):
        if request is not None and check(request, login_limits(username)):
            raise PermissionDenied
        return None


@receiver(user_login_failed)
def count_login_failure(sender, credentials: dict, request: HttpRequest | None = None, **kwargs) -> None:
    if request is not None:
        count(request, login_limits(credentials.get(get_user_model().USERNAME_FIELD) or credentials.get("email")))


def axes_username(request: HttpRequest, credentials: dict | None = None) -> str | None:
    """The name or address typed at a login (the allauth credentials name it "username")."""
    if credentials:
        return credentials.get("username") or credentials.get("email")
    return request.POST.get("username") or request.POST.get("login")


def axes_lockout_response(request: HttpRequest, original_response=None, credentials: dict | None = None):
    """django-axes' page for a username locked at one network address, with the time to wait."""
    cool_off = get_cool_off(request)
    seconds = int(cool_off.total_seconds()) if cool_off else 0
    context = {
        "failure_limit": get_failure_limit(request, credentials),
        "minutes": max(1, math.ceil(seconds / 60)) if seconds else None,
    }
    response = render(request, "accounts/locked_out.html", context, status=settings.AXES_HTTP_RESPONSE_CODE)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response
