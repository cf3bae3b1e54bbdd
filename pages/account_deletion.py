"""Deleting an account (issue 40, part 3) anonymises it: its games, results
and ratings stay, for the other players' sake, under the name "Deleted
player N"; everything personal is erased.

First the account leaves what it is in, through each app's own service:
its pending challenges are withdrawn (or declined, when they are others'),
its open tables left, its league entries withdrawn by the league's rules
(unfinished games lost, or finished by a computer where the league says
so; an entry still in registration is simply removed), and its running
games resigned. Then its personal data goes: the name, the address and
password, the settings, addresses, second factors, sessions (whose sockets
close), vacations, blocks, follows, private notes, push devices and
notification settings (and the other players' notices that name it), the Telegram link, exports, what a higher app
registers (the API tokens: `register_eraser`), the login attempts kept
under its name or address; its chat lines and the text of the reports it
made read "[deleted]". The moderators' decisions stay.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from importlib import import_module
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.db import transaction
from django.db.models import Q

from accounts.models import Block, DataExport, Vacation
from correspondence import services as correspondence
from correspondence.models import Challenge, Follow, Invitation as ChallengeInvitation, Note
from gameplay import services as game_services
from gameplay.models import ChatMessage, Game, Seat
from leagues import services as league_services
from leagues.models import Entry, Season
from moderation.models import Report
from notifications.models import Delivery, Preference
from notifications.push.models import PushSubscription
from notifications.telegram.models import TelegramLink, TelegramLinkToken

log = logging.getLogger(__name__)

DELETED_TEXT = "[deleted]"
Eraser = Callable[[Any], None]
_erasers: list[Eraser] = []


def register_eraser(eraser: Eraser) -> None:
    """A higher app's own erasure of an account's data: `eraser(user)`, in the deletion's transaction."""
    _erasers.append(eraser)


def deleted_name(user) -> str:
    return f"Deleted player {user.pk}"


def _try(what: str, action: Callable[[], Any]) -> None:
    """Leave one thing; one that cannot be left (already over, closed) stays as it is."""
    try:
        action()
    except (game_services.GameError, correspondence.CorrespondenceError) as exc:
        log.info("account deletion: %s: %s", what, exc)


def leave_everything(user) -> None:
    for challenge_id in Challenge.objects.filter(created_by=user, status=Challenge.Status.PENDING) \
            .values_list("pk", flat=True):
        _try("challenge", lambda cid=challenge_id: correspondence.withdraw_challenge(cid, user))
    for challenge_id in ChallengeInvitation.objects.filter(
            user=user, challenge__status=Challenge.Status.PENDING,
            answer=ChallengeInvitation.Answer.WAITING).values_list("challenge_id", flat=True):
        _try("invitation", lambda cid=challenge_id: correspondence.answer_challenge(cid, user, accept=False))
    for entry in Entry.objects.filter(user=user, withdrawn_at__isnull=True).select_related("season"):
        if entry.season.status == Season.Status.REGISTRATION:
            _try("registration", lambda e=entry: league_services.unregister(e.season_id, user))
        elif entry.season.status != Season.Status.FINISHED:
            _try("league entry", lambda e=entry: league_services.withdraw(e.pk, user))
    for game_id in Seat.objects.filter(user=user, game__status=Game.Status.OPEN).values_list("game_id", flat=True):
        _try("open table", lambda gid=game_id: game_services.leave_game(gid, user))
    for game_id in Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).values_list("game_id", flat=True):
        _try("running game", lambda gid=game_id: game_services.resign(gid, user))


def end_sessions(user) -> None:
    """Every session of the account, through the session engine: their sockets close."""
    engine = import_module(settings.SESSION_ENGINE)
    for key in UserSession.objects.filter(user=user).values_list("session_key", flat=True):
        engine.SessionStore(key).delete()


def anonymise(user) -> dict:
    """Take the account's name and address away first, so that what the leaving writes (an
    audited substitution "… withdrew from the league season") names it as deleted. Returns
    what it was called, for `erase`."""
    was = {"username": user.username, "name": user.name, "email": user.email}
    user.username = f"deleted-{user.pk}"
    user.display_name = deleted_name(user)
    user.first_name = user.last_name = user.email = ""
    user.save(update_fields=["username", "display_name", "first_name", "last_name", "email"])
    return was


def erase(user, was: dict) -> None:
    """Erase the account's personal data (its row stays: games, results and ratings point at it)."""
    end_sessions(user)
    for model, condition in (
        (EmailAddress, Q(user=user)), (Authenticator, Q(user=user)), (UserSession, Q(user=user)),
        (Vacation, Q(user=user)), (Block, Q(blocker=user) | Q(blocked=user)), (DataExport, Q(user=user)),
        (Follow, Q(follower=user) | Q(followed=user)), (Note, Q(user=user)), (PushSubscription, Q(user=user)),
        (Preference, Q(user=user)), (Delivery, Q(user=user)), (TelegramLink, Q(user=user)),
        (TelegramLinkToken, Q(user=user)),
    ):
        model.objects.filter(condition).delete()
    logins = Q(username__iexact=was["username"]) | Q(username__iexact=was["email"] or was["username"])
    for model in (AccessAttempt, AccessLog, AccessFailureLog):
        model.objects.filter(logins).delete()
    ChatMessage.objects.filter(user=user).update(text=DELETED_TEXT)
    ChallengeInvitation.objects.filter(user=user).update(reason="")
    Report.objects.filter(reporter=user).update(text=DELETED_TEXT)
    _forget_notices_naming(user, {was["username"], was["name"]})
    for eraser in _erasers:
        eraser(user)
    user.set_unusable_password()
    user.is_active = user.is_staff = user.is_superuser = False
    user.last_login = None
    user.email_notifications = False
    user.turn_emails = user.TurnEmails.OFF
    user.night_pause_start = user.night_pause_end = None
    user.moderator_warning = ""  # the audit keeps it, as every decision
    user.save()
    user.groups.clear()
    user.user_permissions.clear()


def _forget_notices_naming(user, names: set[str]) -> None:
    """Other players' notices that name him ("Zinaida challenged you"), since he joined: they go, sent or not."""
    names = {name.casefold() for name in names if name}
    naming = [delivery.pk for delivery in Delivery.objects.filter(created_at__gte=user.date_joined)
              .only("pk", "notice").iterator()
              if any(name in json.dumps(delivery.notice, ensure_ascii=False).casefold() for name in names)]
    Delivery.objects.filter(pk__in=naming).delete()


def delete_account(user) -> None:
    """The account's owner deletes it (the view checked his password and second factor), all in one
    transaction: a failure leaves the account as it was."""
    with transaction.atomic():
        was = anonymise(user)
        leave_everything(user)
        erase(user, was)
