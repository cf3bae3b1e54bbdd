"""Every change to reports and account restrictions, one function each, each
in one transaction. A moderator's action records exactly one audit row
(`moderation.audit.record_action`) in the same transaction, and needs a reason.
(They were the `conduct` app's.)

- `send_report`: a player reports a game, a player or a chat message.
- `resolve_report`, `dismiss_report`: a moderator closes an open report.
- `suspend`, `unsuspend`: an account cannot log in or act until a date, or for good.
  Its games in play are continued by a computer player or forfeited, as the
  table says (`Game.on_timeout`: automatic moves → a computer player; loss →
  resigned); a league game as its league says (`League.on_withdrawal`). It
  leaves the open tables it sits at; every session it is logged in with ends
  (`accounts.User.get_session_auth_hash`; a socket already open is refused
  by the services). Every suspension withdraws the account from its league
  seasons in play, by each league's withdrawal rules (`leagues.services.account_suspended`,
  told through `moderation.permissions.tell_of_suspension`) before its other
  games are handed over. Lifting the suspension ends it now, and gives back
  no seat and no league result.
  The suspension is one audit row; each seat it gives to a computer player is
  the substitution's own row too (`substitute_seat` records it, so that the
  game's audit shows who took the seat and why: "Account suspended: …").
- `mute`, `unmute`: an account cannot write in chat until a date.
- `warn`: a moderator's words to a player, shown at the top of every page
  until the player acknowledges them (`acknowledge_warning`), and sent as a
  "moderator's decision" notice (email included). A new warning replaces an
  unread one; the audit keeps them all.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.standing import is_muted, is_suspended, suspension_message
from gameplay import services as game_services
from gameplay.models import ChatMessage, Game, Seat
from gameplay.services.base import GameError, is_storable_text
from moderation.audit import record_action
from moderation.models import AuditEntry, Report
from moderation.permissions import computer_takes_over, is_moderator, substitute_level, tell_of_suspension
from moderation.services.games import required_reason, substitute_seat
from notifications import dispatch, notices
from notifications.channels import MODERATION

# At most this many of a suspended account's games are handled (a series of
# forfeits starts its next game each time: it is handled in turn).
MAX_GAMES_HANDLED = 1000


# -- reports ------------------------------------------------------------------------


def send_report(reporter, reason: str, text: str = "", *, game: Game | None = None, player=None,
                message: ChatMessage | None = None) -> Report:
    """A player's report of one thing: a chat message, a player or a game
    (give exactly one). Refused for one's own message or oneself, and while
    the same reporter's report of the same thing is still open. Whether the
    reporter may see the game or the message is the caller's check (the
    views show only what the page shows)."""
    if is_suspended(reporter):
        raise GameError(suspension_message(reporter), code="suspended")
    if reason not in Report.Reason.values:
        raise GameError(_("Choose a reason from the list."), code="bad_request")
    text = (text or "").strip()
    if len(text) > Report.TEXT_MAX_LENGTH or not is_storable_text(text):
        raise GameError(_("The description is too long or holds characters that cannot be stored."),
                        code="bad_request")
    if sum(x is not None for x in (game, player, message)) != 1:
        raise GameError(_("Report one game, one player or one message."), code="bad_request")
    if message is not None:
        if message.user_id == reporter.pk:
            raise GameError(_("You cannot report your own message."), code="bad_request")
        fields = {"subject": Report.Subject.MESSAGE, "subject_key": f"message:{message.pk}", "chat_message": message,
                  "game_id": message.game_id, "target_user_id": message.user_id}
    elif player is not None:
        if player.pk == reporter.pk:
            raise GameError(_("You cannot report yourself."), code="bad_request")
        fields = {"subject": Report.Subject.PLAYER, "subject_key": f"player:{player.pk}", "target_user": player}
    else:
        fields = {"subject": Report.Subject.GAME, "subject_key": f"game:{game.pk}", "game": game}
    try:
        with transaction.atomic():
            return Report.objects.create(reporter=reporter, reason=reason, text=text, **fields)
    except IntegrityError:  # the constraint: one open report per reporter and subject
        raise GameError(_("You have already reported this, and a moderator has not looked at it yet."),
                        code="duplicate") from None


def _must_moderate(moderator) -> None:
    if not is_moderator(moderator):
        raise GameError(_("Only moderators may do this."), code="forbidden")


def _reason_of(reason: str) -> str:
    return required_reason(reason, _("Give a reason."))


def _close_report(report_id: int, moderator, reason: str, status: str, action: str) -> Report:
    _must_moderate(moderator)
    reason = _reason_of(reason)
    report = Report.objects.select_for_update().filter(pk=report_id).first()
    if report is None:
        raise GameError(_("There is no such report."), code="not_found")
    if not report.is_open:
        raise GameError(_("This report has already been handled."), code="duplicate")
    report.status = status
    report.handled_by = moderator
    report.handled_at = timezone.now()
    report.resolution = reason
    report.save(update_fields=["status", "handled_by", "handled_at", "resolution"])
    record_action(moderator, action, reason, game=report.game, target_user=report.target_user,
                  chat_message=report.chat_message, before={"report": report.pk, "status": Report.Status.OPEN},
                  after={"report": report.pk, "status": status})
    return report


@transaction.atomic
def resolve_report(report_id: int, moderator, reason: str) -> Report:
    """The report was right and something was done about it."""
    return _close_report(report_id, moderator, reason, Report.Status.RESOLVED, AuditEntry.Action.RESOLVE_REPORT)


@transaction.atomic
def dismiss_report(report_id: int, moderator, reason: str) -> Report:
    """Nothing needed doing."""
    return _close_report(report_id, moderator, reason, Report.Status.DISMISSED, AuditEntry.Action.DISMISS_REPORT)


# -- restrictions -------------------------------------------------------------------


def _locked_user(user_id: int, moderator):
    _must_moderate(moderator)
    user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
    if user is None:
        raise GameError(_("There is no such account."), code="not_found")
    if user.pk == moderator.pk:
        raise GameError(_("You cannot restrict your own account."), code="bad_request")
    if is_moderator(user) and not moderator.is_superuser:
        raise GameError(_("Only a superuser can restrict a moderator's account."), code="forbidden")
    return user


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def _check_until(until: datetime | None, now: datetime) -> None:
    if until is not None and until <= now:
        raise GameError(_("The end must be in the future."), code="bad_request")


@transaction.atomic
def suspend(user_id: int, moderator, reason: str, until: datetime | None = None) -> dict:
    """Suspend an account until `until` (None: for good), or change the end
    of its current suspension. Returns what became of its games:
    {"computer": [game ids], "forfeited": [...], "left": [...]}."""
    reason = _reason_of(reason)
    user = _locked_user(user_id, moderator)
    now = timezone.now()
    _check_until(until, now)
    already = is_suspended(user, now)
    before = {"suspended_at": _iso(user.suspended_at) if already else None,
              "suspended_until": _iso(user.suspended_until) if already else None}
    if already:
        # (A league table may have seated the account since.) Its games are resigned in its
        # name, which the check of a suspended account refuses: lifted for this transaction.
        get_user_model().objects.filter(pk=user.pk).update(suspended_at=None)
    in_play = set(Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).values_list("game_id", flat=True))
    tell_of_suspension(user, moderator, reason)  # a league withdraws him from its seasons in play
    games = _hand_over_games(user, moderator, reason)
    _count_games_handled_above(games, in_play)
    # After the games, for the same reason; a new suspension starts now (and ends every session).
    user.suspended_at = user.suspended_at if already else now
    user.suspended_until = until
    user.save(update_fields=["suspended_at", "suspended_until"])
    record_action(moderator, AuditEntry.Action.SUSPEND, reason, target_user=user, before=before,
                  after={"suspended_at": _iso(user.suspended_at), "suspended_until": _iso(until), "games": games})
    return games


@transaction.atomic
def unsuspend(user_id: int, moderator, reason: str) -> None:
    reason = _reason_of(reason)
    user = _locked_user(user_id, moderator)
    if not is_suspended(user):
        raise GameError(_("This account is not suspended."), code="not_restricted")
    before = {"suspended_at": _iso(user.suspended_at), "suspended_until": _iso(user.suspended_until)}
    # Ended now rather than erased: the sessions the suspension ended stay ended (User.get_session_auth_hash).
    user.suspended_until = timezone.now()
    user.save(update_fields=["suspended_until"])
    record_action(moderator, AuditEntry.Action.UNSUSPEND, reason, target_user=user, before=before,
                  after={"suspended_at": _iso(user.suspended_at), "suspended_until": _iso(user.suspended_until)})


@transaction.atomic
def mute(user_id: int, moderator, reason: str, until: datetime) -> None:
    """Mute an account in chat until `until` (or change the end of its mute)."""
    reason = _reason_of(reason)
    user = _locked_user(user_id, moderator)
    now = timezone.now()
    if until is None:
        raise GameError(_("Say until when."), code="bad_request")
    _check_until(until, now)
    before = {"chat_muted_until": _iso(user.chat_muted_until) if is_muted(user, now) else None}
    user.chat_muted_until = until
    user.save(update_fields=["chat_muted_until"])
    record_action(moderator, AuditEntry.Action.MUTE, reason, target_user=user, before=before,
                  after={"chat_muted_until": _iso(until)})


@transaction.atomic
def unmute(user_id: int, moderator, reason: str) -> None:
    reason = _reason_of(reason)
    user = _locked_user(user_id, moderator)
    if not is_muted(user):
        raise GameError(_("This account is not muted in chat."), code="not_restricted")
    before = {"chat_muted_until": _iso(user.chat_muted_until)}
    user.chat_muted_until = None
    user.save(update_fields=["chat_muted_until"])
    record_action(moderator, AuditEntry.Action.UNMUTE, reason, target_user=user, before=before,
                  after={"chat_muted_until": None})


WARNING_MAX_LENGTH = 2000


@transaction.atomic
def warn(user_id: int, moderator, reason: str, text: str) -> None:
    """Send a player a moderator's warning: `text` is what the player reads,
    `reason` what the audit keeps for the other moderators."""
    reason = _reason_of(reason)
    text = (text or "").strip()
    if not text:
        raise GameError(_("Write the warning the player will read."), code="bad_request")
    if len(text) > WARNING_MAX_LENGTH or not is_storable_text(text):
        raise GameError(_("The warning is too long or holds characters that cannot be stored."), code="bad_request")
    user = _locked_user(user_id, moderator)
    before = {"moderator_warning": user.moderator_warning or None}
    user.moderator_warning = text
    user.warned_at = timezone.now()
    user.save(update_fields=["moderator_warning", "warned_at"])
    entry = record_action(moderator, AuditEntry.Action.WARN, reason, target_user=user, before=before,
                          after={"moderator_warning": text})
    transaction.on_commit(lambda: dispatch.notify(MODERATION, [user], key=f"warning:{entry.pk}", email=True,
                                                  compose=lambda _user: _warning_words(text)))


def _warning_words(text: str) -> notices.Words:
    return notices.Words(title=_("A moderator's warning"), body=text, url=notices.absolute("/"),
                         button=_("Open the site"))


@transaction.atomic
def acknowledge_warning(user) -> bool:
    """The player has read the moderator's warning: it leaves the pages. False if there was none."""
    changed = get_user_model().objects.filter(pk=user.pk).exclude(moderator_warning="").update(moderator_warning="")
    user.moderator_warning = ""
    return bool(changed)


# -- a suspended account's games ----------------------------------------------------


def takes_over_by_computer(game: Game) -> bool:
    """Whether a computer player continues a leaving player's seat at this
    game (else the game is forfeited): a league game as its league says of a
    withdrawal (and only if it allows computer substitutes at all), a
    tournament game as its tournament says (computer substitutes or not), any
    other as its table says of a clock that runs out. The computer's level:
    `moderation.permissions.substitute_level`."""
    return computer_takes_over(game, default=game.on_timeout == Game.OnTimeout.AUTOPLAY)


def _count_games_handled_above(done: dict, in_play: set[int]) -> None:
    """Adds to `done` the games in play that an app above handled when told
    of the suspension (a league's withdrawal): resigned, or given to a computer."""
    handled = in_play - set(done["computer"]) - set(done["forfeited"])
    for game_id, status in Game.objects.filter(pk__in=handled).values_list("pk", "status"):
        done["forfeited" if status == Game.Status.FINISHED else "computer"].append(game_id)
    done["computer"].sort()
    done["forfeited"].sort()


def _hand_over_games(user, moderator, reason: str) -> dict:
    """The account's open tables are left; its games in play go to a computer
    player or are resigned. A forfeit that ends a game of a series starts the
    next one, with the account seated again: handled in turn."""
    done = {"computer": [], "forfeited": [], "left": []}
    current = [Game.Status.OPEN, Game.Status.ACTIVE]
    for _round in range(MAX_GAMES_HANDLED):
        seat = (Seat.objects.filter(user=user, game__status__in=current).select_related("game")
                .order_by("game_id").first())
        if seat is None:
            break
        game = seat.game
        if game.status == Game.Status.OPEN:
            game_services.leave_game(game.pk, user)
            done["left"].append(game.pk)
        elif takes_over_by_computer(game):
            substitute_seat(game.pk, seat.position, moderator, _("Account suspended: %(reason)s") % {"reason": reason},
                            user=None, computer_level=substitute_level(game))
            done["computer"].append(game.pk)
        else:
            game_services.resign(game.pk, user)
            done["forfeited"].append(game.pk)
    return done
