"""Verified addresses (issue 40). Sign-up sends a confirmation link
(django-allauth's `account` app, its EmailAddress rows); until the account
follows it, it plays only casual games: unrated tables (computers, invite
links) and challenges between friends. It cannot enter a league, sit at a
rated table, challenge a player who does not follow it, or chat at a public
table (the services that do these call `is_verified` through their own
`ensure_*`), and the site mails it nothing but the confirmation and the
password reset (`may_mail`). Accounts made before this had their address
taken as verified (migration accounts 0006); `User.address_confirmed` says it
on the user's row."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

UNVERIFIED = "unverified"


def is_verified(user) -> bool:
    """Whether the account may play with strangers: it has confirmed an
    address since it signed up (accounts made by the staff or a command, and
    those from before, are). On the user's row, which the request and the
    game services load anyway: no query."""
    return user is not None and bool(getattr(user, "pk", None)) and user.address_confirmed


def address_confirmed(request, email_address, **kwargs) -> None:
    """allauth's `email_confirmed`: the account plays with strangers from now on."""
    type(email_address.user).objects.filter(pk=email_address.user_id).update(address_confirmed=True)
    email_address.user.address_confirmed = True


def may_mail(address: str) -> bool:
    """Whether the site may send this address anything but a confirmation or a
    password reset: not while its account has not confirmed it (one query)."""
    return bool(address) and not get_user_model().objects.filter(
        email__iexact=address.strip(), address_confirmed=False).exists()


def unverified_message(what: str) -> str:
    """Why an unconfirmed account is refused `what` ("enter a league"...), and what to do."""
    return _("Confirm your email address first to %(what)s: follow the link we sent you, or have it sent again "
             "from your profile.") % {"what": what}


def pending_address(user) -> EmailAddress | None:
    """The address the account still has to confirm before it plays with
    strangers (None when it may: `is_verified`, then at no query)."""
    if is_verified(user):
        return None
    return EmailAddress.objects.filter(user_id=user.pk, verified=False).order_by("-primary", "pk").first()


def context(request) -> dict:
    """Templates' `pending_address` (context processor): the banner of an account not yet confirmed."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"pending_address": lambda: pending_address(user)}
