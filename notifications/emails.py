"""Notifications by email: "your turn", the time warning, game over, the daily digest,
a seat given to someone else by a moderator.

They follow the game events `gameplay` publishes (`gameplay.events`; the
subscriptions are in `notifications.apps`), always after the commit.

(The in-app badge, the number of games waiting for the user, is in
`gameplay/badge.py`.)

Who gets what (accounts.User):
- "Your turn" (`turn_emails`): "now" = one email per game per turn, sent
  TURN_EMAIL_DELAY seconds after the turn starts and only if the player is not
  on the game page by then (`gameplay.presence`: the game page's socket
  marks it on connect and on every 30-second ping, for PRESENCE_SECONDS);
  "daily" = nothing at once, the daily digest lists the waiting games;
  "off" = nothing.
- "Your turn" at once goes out only when nothing else of his gets "your move" at
  once (no push device or Telegram on for it: `notifications.preferences`).
- "Less than 20% of your time left" and the game-over email (their cells of the
  preferences page; `email_notifications` until he sets them): once per turn (`Seat.warned`, reset by services
  when the seat's clock starts again) and once per game.
- Nobody without an email address gets anything; computer players neither.

Every email is rendered in the recipient's language and time zone
(`gameplay/templates/notifications/email/<name>_subject.txt` and `<name>.txt`).

The player's night window and bursts hold for email as for every channel:
a "your turn" email or time warning due in his night window is queued for
the window's end (re-checked then: still his turn, same version); and the
first "your turn" email of a burst also claims his other games waiting for
his move whose email has not gone yet, making one email "3 games are waiting
for your move" (their own tasks then find them told).

Once per turn, at most once: the flag (`turn_notified`, `warned`) is written
in a transaction that holds the game row and the seat row, and the email goes
out only after that commit (`transaction.on_commit`), so no database lock is
held during the SMTP conversation and a concurrent duplicate task finds the
flag already set. The price: if the mail server fails after the commit, that
one email is lost (logged), never sent twice. The "your turn" task is not
retried by the sweep if the broker loses it: the badge and the lobby still
show the turn.

Everything here is called after a commit (or by Celery): failures are
logged, never raised into the move that triggered them.
"""

import logging
import zoneinfo

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts import verification
from gameplay import badge, clocks, presence, services
from gameplay.broadcast import current_vacation
from gameplay.engine import get_engine
from gameplay.models import Game, Seat
from gameplay.replaced import replacement_of
from gameplay.results import ADJUDICATED, LOST_ON_TIME, RESIGNED, game_result
from notifications import dispatch, preferences
from notifications.channels import GAME_OVER, MODERATION, TIME_WARNING, YOUR_MOVE

log = logging.getLogger(__name__)


# --- rendering and sending ----------------------------------------------------


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _zone(user) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _engine_name(game: Game) -> str:
    try:
        return gettext(get_engine(game.engine).name)
    except Exception:  # an engine without a name (or an unknown slug): the slug is still clear
        return game.engine.title()


def render_email(user, name: str, context: dict) -> tuple[str, str]:
    """(subject, body) of email `name` for `user`, in his language and time zone."""
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(_zone(user)):
        context = {
            "user": user,
            "name": user.name,
            "time_zone": _zone(user).key,
            "settings_url": _absolute(reverse("notification_preferences")),
            "site_url": settings.SITE_URL.rstrip("/"),
            **context,
        }
        if "game" in context:
            context.setdefault("engine_name", _engine_name(context["game"]))
        subject = " ".join(render_to_string(f"notifications/email/{name}_subject.txt", context).split())
        body = render_to_string(f"notifications/email/{name}.txt", context).strip() + "\n"
    return subject, body


def _in_language(user, func, *args):
    with translation.override(user.language or settings.LANGUAGE_CODE):
        return func(*args)


def _send(address: str, subject: str, body: str) -> bool:
    if not verification.may_mail(address):  # not before the address is confirmed
        return False
    try:
        send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])
    except Exception:  # the mail server is down: this one email is lost, the game goes on
        log.exception("sending %r to %s failed", subject, address)
        return False
    return True


def _send_on_commit(address: str, subject: str, body: str) -> None:
    transaction.on_commit(lambda: _send(address, subject, body))


def _locked_seat(game_id: int, position: int) -> tuple[Game | None, Seat | None]:
    """The game row, then the seat row, locked (the same order as services,
    so no deadlock with a move in progress)."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        return None, None
    return game, Seat.objects.select_for_update().filter(game=game, position=position).first()


# --- "your turn" ------------------------------------------------------------------


def turn_started(game_id: int, version: int, positions: list[int], **_details) -> None:
    """After commit: these seats' clocks just started. Queue a delayed "your
    turn" email for each player who wants them at once; the task decides
    when it runs whether it is still due."""
    try:
        wanted = list(
            Seat.objects.filter(
                game_id=game_id, position__in=positions, is_bot=False,
                user__turn_emails=get_user_model().TurnEmails.IMMEDIATELY, user__is_active=True,
            ).exclude(user__email="").values_list("position", flat=True)
        )
    except Exception:
        log.exception("finding the players to tell about their turn in game %s failed", game_id)
        return
    for position in wanted:
        try:
            send_turn_email.apply_async((game_id, version, position), countdown=settings.TURN_EMAIL_DELAY)
        except Exception:  # the broker is down: no email this turn (the badge and the lobby still show it)
            log.exception("could not queue the turn email for game %s seat %s", game_id, position)


@shared_task(ignore_result=True)
def send_turn_email(game_id: int, version: int, position: int) -> bool:
    """Email the player of this seat that it is his move, if it still is
    (same version, his clock running), he was not told yet this turn, he is
    not on the game page and he still wants it. Returns whether it is sent."""
    now = timezone.now()
    with transaction.atomic():
        game, seat = _locked_seat(game_id, position)
        if game is None or seat is None or seat.user_id is None or seat.is_bot:
            return False
        if game.status != Game.Status.ACTIVE or game.version != version:
            return False
        if seat.deadline is None or seat.turn_notified or presence.is_present(seat, now):
            return False
        user = seat.user
        if not user.is_active or not user.email or user.turn_emails != user.TurnEmails.IMMEDIATELY:
            return False
        if not preferences.email_wanted_now(user, YOUR_MOVE):
            return False  # a push device or Telegram tells him (the email is the fallback)
        if current_vacation(user) is not None:
            return False  # his clocks are stopped; the digest of his return is the lobby
        if _held_for_the_night(user, now, send_turn_email, (game_id, version, position)):
            return False
        seat.turn_notified = True
        seat.save(update_fields=["turn_notified"])
        others = _claim_other_waiting_turns(user, game.pk, now)
        if others:
            _send_on_commit(user.email, *_your_turns_email(user, [seat, *others]))
            return True
        subject, body = render_email(user, "your_turn", {
            "game": game, "seat": seat, "deadline": seat.deadline,
            "in_reserve": seat.in_reserve,
            "reserve": "" if seat.in_reserve else _in_language(user, _reserve_text, seat),
            "game_url": _absolute(game.get_absolute_url()),
        })
        _send_on_commit(user.email, subject, body)
    return True


def _claim_other_waiting_turns(user, game_id: int, now) -> list[Seat]:
    """His other games waiting for his move whose "your turn" email has not
    gone yet and whose page he is not on: claimed (marked told) for this one
    email, so a burst of turns makes one email rather than one per game; their
    own tasks then find them told. Seats another task holds are left to it."""
    waiting = list(
        Seat.objects.select_for_update(skip_locked=True, of=("self",))
        .filter(user=user, game__status=Game.Status.ACTIVE, deadline__isnull=False, turn_notified=False, is_bot=False)
        .exclude(game_id=game_id).select_related("game").order_by("game_id"))
    looking = presence.present(waiting, now)
    seats = [seat for seat in waiting if seat.pk not in looking]
    if seats:
        Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(turn_notified=True)
    return seats


def _your_turns_email(user, seats: list[Seat]) -> tuple[str, str]:
    """One email for several games that started waiting for his move within a
    few minutes of each other ("3 games are waiting for your move")."""
    with translation.override(user.language or settings.LANGUAGE_CODE):
        games = [{"game": seat.game, "engine_name": _engine_name(seat.game), "deadline": seat.deadline,
                  "url": _absolute(seat.game.get_absolute_url())} for seat in sorted(seats, key=lambda s: s.game_id)]
    return render_email(user, "your_turns", {"games": games, "count": len(games),
                                             "my_games_url": _absolute(reverse("my_games"))})


def _reserve_text(seat: Seat) -> str:
    if not seat.clock_uses_reserve or seat.reserve_seconds_left <= 0:
        return ""
    return clocks.format_duration(seat.reserve_seconds_left)


# --- the time warning ---------------------------------------------------------------


def time_warning(game_id: int, version: int, position: int) -> None:
    """After commit (the `clock_warning` event): the seat's time is running
    low (less than 20% left), and its player was marked warned in that
    transaction, once a turn. Email him if he wants it."""
    game = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE).first()
    seat = Seat.objects.select_related("user").filter(game_id=game_id, position=position).first()
    if game is None or seat is None or seat.deadline is None:
        return
    user = seat.user
    if user is None or seat.is_bot or not user.is_active or not user.email:
        return
    if not preferences.email_wanted_now(user, TIME_WARNING):
        return
    if game.version != version or _held_for_the_night(user, timezone.now(), send_held_time_warning,
                                                      (game_id, version, position)):
        return
    subject, body = render_email(user, "time_warning", {
        "game": game, "seat": seat, "deadline": services.runs_out_at(seat, game),
        "forfeit": services.expiry_forfeits(game, position),
        "game_url": _absolute(game.get_absolute_url()),
    })
    _send(user.email, subject, body)


@shared_task(ignore_result=True)
def send_held_time_warning(game_id: int, version: int, position: int) -> None:
    """The time warning held through the player's night window: sent in the
    morning if the turn it warned of is still on (same version)."""
    time_warning(game_id, version, position)


def _held_for_the_night(user, now, task, args: tuple) -> bool:
    """If `now` is in the player's night window, queue `task` for the window's
    end (after the commit) and say so: the email waits for the morning, as
    every other channel's notice does (`dispatch.night_end`)."""
    morning = dispatch.night_end(user, now)
    if morning is None:
        return False
    transaction.on_commit(lambda: task.apply_async(args, eta=morning))
    return True


# --- game over ---------------------------------------------------------------------


def game_over(game_id: int, version: int | None = None) -> None:
    """After commit: the game just ended. Email every player who wants it his
    place, the final ranking and a link to the score sheet. Aborted games: nothing.
    An adjudicated game's email goes to every player with an address, whatever
    his settings: a moderator decided his result, and he is told so and why."""
    try:
        _game_over(game_id)
    except Exception:
        log.exception("the game-over emails of game %s failed", game_id)


def _game_over(game_id: int) -> None:
    game = Game.objects.filter(pk=game_id, status=Game.Status.FINISHED).first()
    if game is None:
        return
    seats = list(game.seats.select_related("user"))
    result = game_result(game, seats)
    ender = next((s for s in seats if s.position == result.seat), None) if result.is_forfeit else None
    sheet_url = _absolute(reverse("sheet", args=[game.pk]))
    adjudicated = result.ending == ADJUDICATED
    for seat in seats:
        user = seat.user
        if user is None or seat.is_bot or not user.is_active or not user.email:
            continue
        if not (adjudicated or preferences.email_wanted_now(user, GAME_OVER)):
            continue
        mine = result.standing_of(seat.position)
        place = mine.place if mine else None
        rows = [{"place": s.place, "name": s.name, "points": s.points_label, "is_you": s.position == seat.position}
                for s in result.standings]
        is_ender = ender is not None and ender.pk == seat.pk
        subject, body = render_email(user, "game_over", {
            "game": game,
            "seat": seat,
            "place": place,
            "rows": rows,
            "lost_on_time": result.ending == LOST_ON_TIME,
            "resigned": result.ending == RESIGNED,
            "adjudicated": adjudicated,
            "result": result,
            "ender_name": str(ender.player_name) if ender else "",
            "is_ender": is_ender,
            "won": place == 1 and not is_ender,
            "sheet_url": sheet_url,
            "game_url": _absolute(game.get_absolute_url()),
        })
        _send(user.email, subject, body)


# --- a seat given to someone else -------------------------------------------------------


def seat_replaced(game_id: int, version: int, position: int, previous_user_id: int | None, user_id: int | None,
                  reason: str) -> None:
    """After commit (`gameplay.events.SEAT_REPLACED`): a moderator gave the seat of `previous_user_id`
    to someone else. Email him the moderator's reason if he wants email notifications (whatever his
    "your turn" setting: it is about a game he was playing). Failures are logged."""
    try:
        game = Game.objects.filter(pk=game_id).first()
        user = get_user_model().objects.filter(pk=previous_user_id, is_active=True).first()
        if game is None or user is None or not user.email or not preferences.email_wanted_now(user, MODERATION):
            return
        replaced = replacement_of(game_id, user)
        if replaced is None:  # he holds a seat of the game again
            return
        subject, body = render_email(user, "seat_replaced", {
            "game": game, "message": _in_language(user, replaced.message),
            "game_url": _absolute(game.get_absolute_url())})
        _send(user.email, subject, body)
    except Exception:
        log.exception("the seat-replaced email of game %s failed", game_id)


# --- the daily digest -------------------------------------------------------------------


def send_daily_digests() -> int:
    """One email to every "daily" user listing the games waiting for his
    move (none when there are none). Returns how many were sent."""
    User = get_user_model()
    users = (
        User.objects.filter(
            turn_emails=User.TurnEmails.DAILY, is_active=True,
            seats__game__status=Game.Status.ACTIVE, seats__is_bot=False,
        )
        .exclude(email="")
        .distinct()
        .order_by("pk")
    )
    sent = 0
    for user in users:
        try:
            waiting = badge.waiting_seats(user)
            if not waiting:
                continue
            with translation.override(user.language or settings.LANGUAGE_CODE):
                games = [
                    {"game": s.game, "engine_name": _engine_name(s.game), "deadline": s.deadline,
                     "url": _absolute(s.game.get_absolute_url())}
                    for s in waiting
                ]
            subject, body = render_email(user, "daily_digest", {"games": games, "count": len(games)})
            sent += _send(user.email, subject, body)
        except Exception:
            log.exception("the daily digest of user %s failed", user.pk)
    return sent
