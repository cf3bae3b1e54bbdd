"""Every state change of this app, one function each: follow and unfollow,
challenge, answer, withdraw and expire a challenge, save a private note.

Each runs in one transaction (a challenge's row locked while it is
answered); notices, emails and the expiry task go out after the commit.
The table of an accepted challenge is made by gameplay's services
(`create_seated_game`, or `create_game` + `join_game` + `fill_with_bots`
when computer players fill the other seats), so it starts exactly as any
other table does. Views, the API and the tasks stay thin: they parse input,
call one function here and show what it returns or raises.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _, ngettext

from accounts.standing import is_suspended, suspension_message
from accounts import blocks, computers, verification
from accounts.models import Block
from correspondence import emails, live
from correspondence.models import Challenge, Follow, Invitation, Note
from correspondence.signals import challenge_received
from correspondence.terms import challenge_terms
from gameplay import services as game_services
from gameplay.computer_levels import DEFAULT_LEVEL, UnknownLevel, checked_level
from gameplay.engine import ENGINES, get_engine
from gameplay.i18n import engine_name
from gameplay.models import Game
from gameplay.services.base import is_storable_text
from notifications import dispatch

log = logging.getLogger(__name__)

MIN_EXPIRY = timedelta(hours=1)
MAX_EXPIRY = timedelta(days=14)
DEFAULT_EXPIRY = timedelta(days=3)
# What a challenge may set of its table besides the game's options (gameplay's create_game keywords).
TABLE_KEYS = ("time_preset", "move_seconds", "reserve_seconds", "on_timeout", "night_pause", "timer_seconds",
              "is_private", "series_length")


class CorrespondenceError(Exception):
    """A refused request, with a message for the player. Nothing was changed."""

    def __init__(self, message: str, code: str = "refused"):
        super().__init__(message)
        self.message = message
        self.code = code


# --- friends --------------------------------------------------------------------


def _active_user(username: str):
    user = get_user_model().objects.filter(username=(username or "").strip(), is_active=True).first()
    if user is None:
        raise CorrespondenceError(_("There is no player %(name)s.") % {"name": username}, code="not_found")
    return user


@transaction.atomic
def follow(user, username: str) -> Follow:
    """`user` follows the player `username` (again: nothing changes); not a
    player who has blocked him (told only "not accepted"), nor one he blocked."""
    other = _active_user(username)
    if other.pk == user.pk:
        raise CorrespondenceError(_("You cannot follow yourself."), code="bad_request")
    _refuse_if_blocked(user, [other])
    found, _created = Follow.objects.get_or_create(follower=user, followed=other)
    return found


@transaction.atomic
def unfollow(user, username: str) -> None:
    Follow.objects.filter(follower=user, followed__username=(username or "").strip()).delete()


def follows(user, other) -> bool:
    return Follow.objects.filter(follower=user, followed=other).exists()


# --- blocks (accounts/blocks.py) ------------------------------------------------


def _refuse_if_blocked(user, others: list) -> None:
    """Refuse what `user` asks of `others` if a block stands between them: one
    he made is named (he may lift it), one made against him only "not accepted"."""
    if not blocks.any_block(user.pk, [o.pk for o in others]):
        return
    for other in others:
        if blocks.has_blocked(user.pk, other.pk):
            raise CorrespondenceError(_("You have blocked %(name)s: lift the block first.") % {"name": other.name},
                                      code="blocked")
    raise CorrespondenceError(_("Not accepted."), code="refused")


@transaction.atomic
def block(user, username: str) -> Block:
    """`user` blocks the player `username` (again: nothing changes): the
    follows between them end, and so do the pending challenges between them."""
    other = _active_user(username)
    if other.pk == user.pk:
        raise CorrespondenceError(_("You cannot block yourself."), code="bad_request")
    found, _created = Block.objects.get_or_create(blocker=user, blocked=other)
    Follow.objects.filter(Q(follower=user, followed=other) | Q(follower=other, followed=user)).delete()
    pending = set(Challenge.objects.filter(status=Challenge.Status.PENDING).filter(
        Q(created_by=user, invitations__user=other) | Q(created_by=other, invitations__user=user)
    ).values_list("pk", flat=True))
    for challenge in Challenge.objects.select_for_update().filter(pk__in=pending, status=Challenge.Status.PENDING):
        _close(challenge, Challenge.Status.WITHDRAWN if challenge.created_by_id == user.pk
               else Challenge.Status.DECLINED)
    return found


@transaction.atomic
def unblock(user, username: str) -> None:
    Block.objects.filter(blocker=user, blocked__username=(username or "").strip()).delete()


# --- challenges -----------------------------------------------------------------


# Set by correspondence.tasks (AppConfig.ready): queues the expiry task of a
# committed challenge. The services never import the tasks.
_schedule_expiry: Callable[[Challenge], None] = lambda challenge: None


def set_expiry_scheduler(scheduler: Callable[[Challenge], None]) -> None:
    global _schedule_expiry
    _schedule_expiry = scheduler


def _expiry(expires_in) -> timedelta:
    if expires_in is None:
        return DEFAULT_EXPIRY
    if isinstance(expires_in, bool) or not isinstance(expires_in, (int, float, timedelta)):
        raise CorrespondenceError(_("Unknown expiry time."), code="bad_request")
    delta = expires_in if isinstance(expires_in, timedelta) else timedelta(seconds=expires_in)
    if not MIN_EXPIRY <= delta <= MAX_EXPIRY:
        raise CorrespondenceError(
            _("A challenge expires between %(low)s hour and %(high)s days after it is sent.")
            % {"low": int(MIN_EXPIRY.total_seconds() // 3600), "high": MAX_EXPIRY.days}, code="bad_request")
    return delta


def _table(time_control: dict | None) -> dict:
    if time_control is None:
        return {}
    if not isinstance(time_control, dict) or set(time_control) - set(TABLE_KEYS):
        raise CorrespondenceError(_("Unknown time control."), code="bad_request")
    return {key: value for key, value in time_control.items() if value is not None}


def _challenged_users(by, usernames: Iterable[str]) -> list:
    names = [name.strip() for name in usernames if isinstance(name, str) and name.strip()]
    if not names:
        raise CorrespondenceError(_("Name at least one player to challenge."), code="bad_request")
    if len({name.casefold() for name in names}) < len(names):
        raise CorrespondenceError(_("A player is named twice."), code="bad_request")
    found = {u.username.casefold(): u for u in get_user_model().objects.filter(
        username__in=names, is_active=True)}
    users = []
    for name in names:
        user = found.get(name.casefold())
        if user is None:
            raise CorrespondenceError(_("There is no player %(name)s.") % {"name": name}, code="not_found")
        if user.pk == by.pk:
            raise CorrespondenceError(_("You cannot challenge yourself."), code="bad_request")
        if is_suspended(user):  # he could not accept it; the words do not say why (README "API")
            raise CorrespondenceError(_("%(name)s cannot take challenges now.") % {"name": user.name}, code="refused")
        users.append(user)
    people = [user for user in users if not computers.is_computer(user)]  # a computer level takes any challenge
    _refuse_if_blocked(by, people)
    followers = set(Follow.objects.filter(followed=by, follower__in=people).values_list("follower_id", flat=True))
    if not verification.is_verified(by) and any(u.pk not in followers for u in people):
        # Until his address is confirmed, a player challenges only those who follow him.
        raise CorrespondenceError(verification.unverified_message(_("challenge a player who does not follow you")),
                                  code=verification.UNVERIFIED)
    strangers = set(u.pk for u in people if u.challenges_from_friends_only) - followers
    for user in people:
        if user.pk in strangers:
            raise CorrespondenceError(
                _("%(name)s accepts challenges from friends only.") % {"name": user.name}, code="refused")
    return users


@transaction.atomic
def create_challenge(by, usernames: list[str], game_kind: str, options: dict | None = None,
                     time_control: dict | None = None, rated: bool = False, fill_with_bots: bool = False,
                     expires_in: int | float | timedelta | None = None, players: int | None = None,
                     computer_level: int = DEFAULT_LEVEL) -> Challenge:
    """Challenge the players `usernames` to a table of `game_kind` (an engine
    slug) with `options` and `time_control` (gameplay's table keywords:
    TABLE_KEYS). The challenger sits in seat 0, the challenged players in
    the order named (in pairs the second named sits opposite the
    challenger: his partner). `players`: the table's size (default: everyone
    named, or the game's smallest table); seats beyond those named are
    filled with computer players of `computer_level`, which `fill_with_bots` must then allow.
    A computer level's account named (accounts/computers.py: a level challenged directly)
    accepts at once and plays its seat; a challenge naming only computers starts at once.
    Expires after `expires_in` (seconds or a timedelta; default 3 days)."""
    if is_suspended(by):
        raise CorrespondenceError(suspension_message(by), code="suspended")
    if game_kind not in ENGINES:
        raise CorrespondenceError(_("Unknown game."), code="bad_request")
    try:
        computer_level = checked_level(computer_level)
    except UnknownLevel as exc:
        raise CorrespondenceError(str(exc), code="bad_request") from None
    users = _challenged_users(by, usernames)
    humans = 1 + len(users)
    players = players or max(humans, get_engine(game_kind).min_players)
    if players < humans:
        raise CorrespondenceError(_("More players are named than the table has seats."), code="illegal")
    if players > humans and not fill_with_bots:
        raise CorrespondenceError(
            _("Name a player for every seat, or let computer players fill the others."), code="illegal")
    table = _table(time_control)
    try:
        checked = game_services.check_table(by, game_kind, options, players=players, rated=bool(rated), **table)
    except game_services.GameError as exc:
        raise CorrespondenceError(exc.message, code=exc.code) from None
    except TypeError:
        raise CorrespondenceError(_("Unknown time control."), code="bad_request") from None
    challenge = Challenge.objects.create(
        created_by=by, engine=game_kind, seats_count=players, options=checked.options, table=table,
        rated=bool(rated), fill_with_bots=players > humans, computer_level=computer_level,
        expires_at=timezone.now() + _expiry(expires_in),
    )
    now = timezone.now()
    Invitation.objects.bulk_create(_invitation(challenge, user, position, now) for position, user in enumerate(users, 1))
    people = [user for user in users if not computers.is_computer(user)]
    if not people:
        _start(challenge, now)
    else:
        transaction.on_commit(lambda: _after_challenge_sent(challenge, people))
    return challenge


def _invitation(challenge: Challenge, user, position: int, now) -> Invitation:
    """A challenged player's invitation: waiting for the answer, or accepted at once by a computer level."""
    if computers.is_computer(user):
        return Invitation(challenge=challenge, user=user, position=position, answer=Invitation.Answer.ACCEPTED,
                          answered_at=now)
    return Invitation(challenge=challenge, user=user, position=position)


def _after_challenge_sent(challenge: Challenge, users: list) -> None:
    _schedule_expiry(challenge)
    for user in users:  # each in his own language: the game and every term of its table
        with translation.override(user.language or settings.LANGUAGE_CODE):
            live.send_notice([user.pk], "challenge", challenge=challenge.pk, by=challenge.created_by.name,
                             engine=challenge.engine, engine_name=engine_name(get_engine(challenge.engine)),
                             terms=challenge_terms(challenge))
    live.challenges_changed([u.pk for u in users])
    for user in users:
        emails.challenge_received(challenge, user)
        try:
            challenge_received.send(sender=Challenge, challenge=challenge, user=user)
        except Exception:
            log.exception("a receiver of challenge_received failed for challenge %s", challenge.pk)
    try:  # push and Telegram (the email above is this app's own)
        dispatch.notify_challenge(challenge.pk, users, challenger=challenge.created_by.name, engine=challenge.engine,
                                  url_path=reverse("challenges"), terms=lambda: challenge_terms(challenge))
    except Exception:
        log.exception("the notices of challenge %s failed", challenge.pk)


def _locked_challenge(challenge_id) -> Challenge:
    if isinstance(challenge_id, bool) or not isinstance(challenge_id, int):
        raise CorrespondenceError(_("There is no such challenge."), code="not_found")
    found = list(Challenge.objects.select_for_update().filter(pk=challenge_id))
    if not found:
        raise CorrespondenceError(_("There is no such challenge."), code="not_found")
    return found[0]


def _close(challenge: Challenge, status: str, now=None) -> None:
    challenge.status = status
    challenge.closed_at = now or timezone.now()
    challenge.save(update_fields=["status", "closed_at", "game"])


def _everyone(challenge: Challenge) -> list[int]:
    return [challenge.created_by_id, *challenge.invitations.values_list("user_id", flat=True)]


def _tell(challenge: Challenge, kind: str, **data) -> None:
    """After the commit that changed the challenge: a notice to everyone in
    it, and the challenged players' header counts of challenges waiting."""
    everyone = _everyone(challenge)
    live.send_notice(everyone, kind, challenge=challenge.pk, **data)
    live.challenges_changed(everyone[1:])


@transaction.atomic
def answer_challenge(challenge_id: int, user, accept: bool, reason: str = "") -> Challenge:
    """The challenged `user` accepts or declines (with an optional reason).
    A decline ends the challenge; the last acceptance starts the table."""
    challenge = _locked_challenge(challenge_id)
    invitation = challenge.invitations.filter(user=user).first()
    if invitation is None:
        raise CorrespondenceError(_("This challenge is not for you."), code="not_invited")
    now = timezone.now()
    if challenge.is_pending and challenge.expires_at <= now:
        _close(challenge, Challenge.Status.EXPIRED, now)
        transaction.on_commit(lambda: _tell(challenge, "challenge_closed", status=challenge.status))
        return challenge  # the expiry is committed; the answer comes too late
    if not challenge.is_pending:
        raise CorrespondenceError(_("This challenge is closed: %(status)s.")
                                  % {"status": challenge.get_status_display()}, code="closed")
    if invitation.answer != Invitation.Answer.WAITING:
        raise CorrespondenceError(_("You have answered this challenge already."), code="answered")
    if accept and is_suspended(user):
        raise CorrespondenceError(suspension_message(user), code="suspended")
    reason = reason if isinstance(reason, str) else ""
    if not is_storable_text(reason) or len(reason) > Invitation.REASON_LENGTH:
        raise CorrespondenceError(ngettext("A reason is at most %(n)s character.",
                                           "A reason is at most %(n)s characters.", Invitation.REASON_LENGTH)
                                  % {"n": Invitation.REASON_LENGTH}, code="bad_request")
    invitation.answer = Invitation.Answer.ACCEPTED if accept else Invitation.Answer.DECLINED
    invitation.reason = "" if accept else reason.strip()
    invitation.answered_at = now
    invitation.save(update_fields=["answer", "reason", "answered_at"])
    if not accept:
        _close(challenge, Challenge.Status.DECLINED, now)
    elif not challenge.invitations.exclude(answer=Invitation.Answer.ACCEPTED).exists():
        _start(challenge, now)
    transaction.on_commit(lambda: _tell(challenge, "challenge_answered", status=challenge.status, by=user.name,
                                        accepted=bool(accept), game=challenge.game_id))
    return challenge


def _start(challenge: Challenge, now) -> None:
    """Every seat accepted: the table, through gameplay's services (inside
    this transaction, in a savepoint: a table refused leaves the challenge
    closed as failed, nothing else)."""
    invitations = list(challenge.invitations.select_related("user").order_by("position"))
    users = [challenge.created_by, *(i.user for i in invitations)]
    table = {**challenge.table, "rated": challenge.rated}
    try:
        with transaction.atomic():
            if challenge.fill_with_bots and challenge.seats_count > len(users):
                game = game_services.create_game(users[0], challenge.engine, challenge.options,
                                                 players=challenge.seats_count,
                                                 allow_bots=any(user.is_bot for user in users), **table)
                for position, user in enumerate(users[1:], 1):
                    if not computers.is_computer(user):
                        game_services.join_game(game.pk, user, position)
                levels = [user.computer_level if computers.is_computer(user) else None for user in users]
                levels += [challenge.computer_level] * (challenge.seats_count - len(users))
                game = game_services.fill_with_bots(game.pk, users[0], [lvl for lvl in levels if lvl is not None])
            else:
                game = game_services.create_seated_game(users, challenge.engine, challenge.options, **table)
    except game_services.GameError as exc:
        log.info("challenge %s could not start: %s", challenge.pk, exc.message)
        _close(challenge, Challenge.Status.FAILED, now)
        return
    challenge.game = game
    _close(challenge, Challenge.Status.STARTED, now)


@transaction.atomic
def withdraw_challenge(challenge_id: int, user) -> Challenge:
    challenge = _locked_challenge(challenge_id)
    if challenge.created_by_id != user.pk:
        raise CorrespondenceError(_("Only the challenger can withdraw a challenge."), code="not_yours")
    if not challenge.is_pending:
        raise CorrespondenceError(_("This challenge is closed: %(status)s.")
                                  % {"status": challenge.get_status_display()}, code="closed")
    _close(challenge, Challenge.Status.WITHDRAWN)
    transaction.on_commit(lambda: _tell(challenge, "challenge_closed", status=challenge.status))
    return challenge


@transaction.atomic
def expire_challenge(challenge_id: int) -> bool:
    """Close the challenge if it is still waiting and its time has passed
    (a task that runs twice, early or late changes nothing more)."""
    challenge = _locked_challenge(challenge_id)
    now = timezone.now()
    if not challenge.is_pending or challenge.expires_at > now:
        return False
    _close(challenge, Challenge.Status.EXPIRED, now)
    transaction.on_commit(lambda: _tell(challenge, "challenge_closed", status=challenge.status))
    return True


def overdue_challenge_ids(limit: int = 500) -> list[int]:
    """Pending challenges whose time has passed (for beat's sweep)."""
    return list(Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__lte=timezone.now())
                .order_by("expires_at").values_list("pk", flat=True)[:limit])


def expire_overdue_challenges() -> int:
    expired = 0
    for challenge_id in overdue_challenge_ids():
        try:
            expired += expire_challenge(challenge_id)
        except Exception:
            log.exception("expiring challenge %s failed", challenge_id)
    return expired


# --- private notes --------------------------------------------------------------


def may_write_notes(game: Game, user) -> bool:
    """A player who sits (or sat) at the table."""
    return user.is_authenticated and game.seats.filter(user=user).exists()


@transaction.atomic
def save_note(game_id: int, user, text: str) -> Note:
    """Keep `user`'s private notes on the game (any time, also after it ended)."""
    game = Game.objects.filter(pk=game_id).only("id").first() if isinstance(game_id, int) else None
    if game is None:
        raise CorrespondenceError(_("There is no such game."), code="not_found")
    if not may_write_notes(game, user):
        raise CorrespondenceError(_("Only the players of a game keep notes on it."), code="not_seated")
    if not isinstance(text, str) or not is_storable_text(text):
        raise CorrespondenceError(_("These notes cannot be saved."), code="bad_request")
    if len(text) > Note.MAX_LENGTH:
        raise CorrespondenceError(ngettext("Notes are at most %(n)s character.", "Notes are at most %(n)s characters.",
                                           Note.MAX_LENGTH) % {"n": Note.MAX_LENGTH}, code="bad_request")
    note, _created = Note.objects.update_or_create(game=game, user=user, defaults={"text": text})
    return note


def note_text(game_id: int, user) -> str:
    """`user`'s own notes on the game ("" when none): never anyone else's."""
    if not user.is_authenticated:
        return ""
    return Note.objects.filter(game_id=game_id, user=user).values_list("text", flat=True).first() or ""
