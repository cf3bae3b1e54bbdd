"""Who gets which notice on which destination, and sending each one once.

`notify(kind, users, key=..., compose=...)` is the one entry: the game
events' subscribers (`notifications.subscribers`) and the apps above
(`notify_challenge`, `notify_league_game`, called after their commit) use it.
For each player it words the notice in his language (`compose`, see
`notifications.notices`), picks his destinations whose cell is "now"
(`notifications.preferences`), and writes one `Delivery` row per
(notice key, player, destination) — unique, so a repeated event adds
nothing — then, after that commit, queues one Celery task per row.

The task (`deliver`) claims its row (pending -> sending, one conditional
UPDATE: a duplicate task or a second run finds nothing to claim), sends
through the channel, and marks it sent. TemporaryFailure: the row goes back
to pending with `not_before` = the next attempt and the task retries with
exponential back-off (NOTIFY_RETRY_SECONDS doubling up to
NOTIFY_RETRY_MAX_SECONDS) until NOTIFY_MAX_ATTEMPTS, then failed (logged).
DestinationGone: `channel.forget(destination)`, the row dropped, never
retried. Each row is its own task, so a failing channel holds nobody else.

Held, never lost:
- night window (`User.night_pause_start`/`_end`, his time zone): the row
  waits with `not_before` = the window's end and its task is queued for then;
- vacation: "your move" and "time running out" are dropped (state dropped,
  note "vacation": his clocks are stopped, and My games shows every waiting
  game when he is back); everything else is held until the vacation ends;
- beat's `sweep` queues again whatever a lost task left pending, sending
  (a worker killed mid-send: the one case where a notice may go twice,
  chosen over losing it) or waiting.

Coalescing "your move": its rows are written "waiting"; the first one of a
player schedules `flush_your_move(user)` NOTIFY_COALESCE_SECONDS later (or at
his night window's end); later ones only add rows. The flush (holding the
player's row lock, as `notify` does, so two workers cannot both flush or
miss a row) keeps only the games that still wait for him and that he is not
looking at: one game -> that game's notice; several -> one
"3 games wait for your move" notice opening My games.

Email: the channel is registered here too (`EmailChannel`), but "your move",
"time running out", "game over" and a challenge keep their own richer emails
(`notifications.emails`, `correspondence.emails`, gated by the same
preferences, held through the night window and coalesced the same way);
`notify(..., email=True)` sends the others by email.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, time, timedelta

from celery import shared_task
from celery.utils.time import get_exponential_backoff_interval
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext

from accounts import verification
from accounts.models import Vacation
from gameplay import presence
from gameplay.models import Game, Seat
from notifications import channels, notices, preferences
from notifications.channels import (CHALLENGE, LEAGUE_ROUND, TIME_WARNING, YOUR_MOVE, Destination,
                                    DestinationGone, Notice, TemporaryFailure)
from notifications.models import Delivery, Mode
from notifications.notices import Words

log = logging.getLogger(__name__)

State = Delivery.State
EMAIL = preferences.EMAIL
MOOT_ON_VACATION = (YOUR_MOVE, TIME_WARNING)  # his clocks are stopped

Compose = Callable[[object], Words | None]  # the player -> the notice's words (None: nothing for him)


# --- the email channel ------------------------------------------------------------------


class EmailChannel:
    """The player's email address as a destination (the kinds without their own email template)."""

    name = EMAIL

    def is_configured(self) -> bool:
        return True

    def destinations(self, user) -> list[Destination]:
        return [Destination(EMAIL, "", gettext("Email"))] if user.email else []

    def send(self, destination: Destination, notice: Notice) -> None:
        user = get_user_model().objects.filter(pk=notice.user_id).only("email").first()
        if user is None or not user.email:
            raise DestinationGone("no address")
        if not verification.may_mail(user.email):  # not before the address is confirmed
            return
        lines = [notice.body, "", f"{notice.button}: {notice.url}" if notice.button else notice.url]
        try:
            send_mail(notice.title, "\n".join(lines) + "\n", settings.DEFAULT_FROM_EMAIL, [user.email])
        except OSError as error:  # the mail server is down or refused: try again later
            raise TemporaryFailure(str(error)) from error

    def forget(self, destination: Destination) -> None:
        """An address is the account's own: nothing to forget here."""


# --- when a player may be told -----------------------------------------------------------


def night_end(user, at: datetime) -> datetime | None:
    """The end of the player's night window if `at` falls inside it, else None."""
    start, end = user.night_pause_start, user.night_pause_end
    if start is None or end is None or start == end:
        return None
    local = at.astimezone(notices.zone_of(user))
    now = local.timetz().replace(tzinfo=None)
    inside = start <= now < end if start < end else (now >= start or now < end)
    if not inside:
        return None
    ends = datetime.combine(local.date(), time(end.hour, end.minute, end.second), tzinfo=local.tzinfo)
    if ends <= local:
        ends += timedelta(days=1)
    return ends


def vacations(user_ids: Iterable[int], at: datetime) -> dict[int, datetime]:
    """{player: end of his current vacation}, one query."""
    return dict(Vacation.objects.filter(user_id__in=list(user_ids), starts_at__lte=at, ends_at__gt=at)
                .values_list("user_id", "ends_at"))


def _hold(user, kind: str, away_until: datetime | None, at: datetime) -> tuple[datetime | None, bool]:
    """(send not before, dropped): the vacation and night window applied."""
    if away_until is not None:
        if kind in MOOT_ON_VACATION:
            return None, True
        return night_end(user, away_until) or away_until, False
    return night_end(user, at), False


# --- notify --------------------------------------------------------------------------------


def has_channels(email: bool = False) -> bool:
    """Whether a notice could go anywhere: a configured channel other than email (or email, with `email`).
    The game events' subscribers ask first, so a site with email only spends no query on them."""
    return any(email or channel.name != EMAIL for channel in channels.configured())


def notify(kind: str, users: Iterable, *, key: str, compose: Compose, game_id: int | None = None,
           email: bool = False) -> int:
    """Tell each of `users` (User objects) about one occurrence `key`: worded by `compose(user)` in his
    language, on every destination whose cell for `kind` is "now" (email only with `email=True`).
    Call it after the commit of what happened. Returns how many deliveries were written."""
    users = [u for u in users if u is not None and u.is_active and not getattr(u, "is_bot", False)]
    if not users or not has_channels(email):
        return 0
    at = timezone.now()
    cells = preferences.stored_cells(u.pk for u in users)
    away = vacations((u.pk for u in users), at)
    rows = []
    for user in users:
        rows.extend(_rows_for(kind, user, key, compose, game_id, email, cells.get(user.pk, {}), away.get(user.pk), at))
    if not rows:
        return 0
    with transaction.atomic():
        first_waiting = _lock_bursts({r.user_id for r in rows if r.state == State.WAITING})
        Delivery.objects.bulk_create(rows, ignore_conflicts=True)
        pending = list(Delivery.objects.filter(key=key, user_id__in={r.user_id for r in rows}, state=State.PENDING)
                       .values_list("pk", "not_before"))
        flushes = [(r.user_id, r.not_before) for r in rows if r.user_id in first_waiting]
        transaction.on_commit(lambda: _queue(pending, dict(flushes)))
    return len(rows)


def _rows_for(kind: str, user, key: str, compose: Compose, game_id: int | None, email: bool,
              cells: preferences.Cells, away_until: datetime | None, at: datetime) -> list[Delivery]:
    destinations = [d for d in preferences.destinations_of(user) if email or d.channel != EMAIL]
    destinations = [d for d in destinations if preferences.mode_of(user, d.key, kind, cells) == Mode.NOW]
    if not destinations:
        return []
    words = notices.in_language(user, compose, user)
    if words is None:
        return []
    notice = notices.notice(kind, user, key, words).as_dict()
    not_before, dropped = _hold(user, kind, away_until, at)
    state = State.DROPPED if dropped else State.WAITING if kind == YOUR_MOVE else State.PENDING
    return [Delivery(key=key, user=user, destination=d.key, kind=kind, game_id=game_id, notice=notice, state=state,
                     not_before=not_before, note="vacation" if dropped else "") for d in destinations]


def _lock_bursts(user_ids: set[int]) -> set[int]:
    """Lock these players' rows (the flush takes the same lock) and return those
    with no "your move" waiting yet: their notice opens a burst and schedules its flush."""
    if not user_ids:
        return set()
    list(get_user_model().objects.select_for_update().filter(pk__in=user_ids).order_by("pk").values_list("pk"))
    busy = set(Delivery.objects.filter(user_id__in=user_ids, state=State.WAITING).values_list("user_id", flat=True))
    return user_ids - busy


def _queue(pending: list[tuple[int, datetime | None]], flushes: dict[int, datetime | None]) -> None:
    for pk, not_before in pending:
        _queue_delivery(pk, not_before)
    for user_id, not_before in flushes.items():
        due = timezone.now() + timedelta(seconds=settings.NOTIFY_COALESCE_SECONDS)
        _queue_flush(user_id, max(due, not_before) if not_before else due)


def _within_horizon(eta: datetime | None) -> bool:
    return eta is None or eta <= timezone.now() + timedelta(seconds=settings.DEADLINE_TASK_HORIZON)


def _queue_delivery(pk: int, eta: datetime | None = None) -> None:
    """Queue the row's task (at `eta`); beyond the horizon, or with the broker down, the sweep queues it."""
    if not _within_horizon(eta):
        return
    try:
        deliver.apply_async((pk,), eta=eta if eta and eta > timezone.now() else None)
    except Exception:
        log.exception("could not queue notification delivery %s (the sweep will)", pk)


def _queue_flush(user_id: int, eta: datetime) -> None:
    if not _within_horizon(eta):
        return
    try:
        flush_your_move.apply_async((user_id,), eta=eta)
    except Exception:
        log.exception("could not queue the your-move flush of user %s (the sweep will)", user_id)


# --- sending one delivery -----------------------------------------------------------------------


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=None)  # the cap: NOTIFY_MAX_ATTEMPTS
def deliver(self, delivery_id: int) -> None:
    retry_in = send_delivery(delivery_id, retrying=bool(self.request.retries))
    if retry_in is not None:
        raise self.retry(countdown=retry_in)


def send_delivery(delivery_id: int, *, retrying: bool = False) -> float | None:
    """Claim the row and send it. Returns seconds to wait before the next attempt, or None (done).
    A held row is not claimed before its time, except by the retry its own failure scheduled."""
    at = timezone.now()
    claimable = Delivery.objects.filter(pk=delivery_id, state=State.PENDING)
    if not retrying:
        claimable = claimable.filter(Q(not_before__isnull=True) | Q(not_before__lte=at + timedelta(seconds=1)))
    claimed = (claimable
               .update(state=State.SENDING, attempts=F("attempts") + 1, claimed_at=at))
    if not claimed:
        return None  # sent, dropped, claimed by another task, or not due yet (its own task comes then)
    row = Delivery.objects.get(pk=delivery_id)
    name, _, ident = row.destination.partition(":")
    try:
        channel = channels.get(name)
    except KeyError:
        channel = None
    if channel is None or not channel.is_configured():
        _finish(row, State.DROPPED, "channel not configured")
        return None
    destination = Destination(name, ident, "")
    is_muted = getattr(channel, "is_muted", None)  # optional: a channel the player silenced (Telegram's /mute)
    if is_muted is not None and is_muted(row.user_id):
        _finish(row, State.DROPPED, "muted")
        return None
    try:
        channel.send(destination, Notice.from_dict(row.notice))
    except DestinationGone as gone:
        channel.forget(destination)
        _finish(row, State.DROPPED, f"gone: {gone}")
        Delivery.objects.filter(user_id=row.user_id, destination=row.destination,
                                state__in=[State.PENDING, State.WAITING]).update(state=State.DROPPED, note="gone")
        return None
    except Exception as failure:  # TemporaryFailure, or a channel's bug: both retried, then failed
        if not isinstance(failure, TemporaryFailure):
            log.exception("channel %s failed unexpectedly on delivery %s", name, delivery_id)
        return _failed_attempt(row, failure)
    _finish(row, State.SENT, "")
    return None


def _failed_attempt(row: Delivery, failure: Exception) -> float | None:
    if row.attempts >= settings.NOTIFY_MAX_ATTEMPTS:
        log.error("notification %s to user %s on %s failed %s times, given up: %s",
                  row.key, row.user_id, row.destination, row.attempts, failure)
        _finish(row, State.FAILED, str(failure))
        return None
    wait = get_exponential_backoff_interval(settings.NOTIFY_RETRY_SECONDS, row.attempts - 1,
                                            settings.NOTIFY_RETRY_MAX_SECONDS, full_jitter=False)
    wait = max(wait, getattr(failure, "retry_after", None) or 0)  # the service said how long (Telegram's 429)
    Delivery.objects.filter(pk=row.pk, state=State.SENDING).update(
        state=State.PENDING, not_before=timezone.now() + timedelta(seconds=wait), note=str(failure)[:200])
    return wait


def _finish(row: Delivery, state: str, note: str) -> None:
    Delivery.objects.filter(pk=row.pk, state=State.SENDING).update(
        state=state, note=note[:200], sent_at=timezone.now() if state == State.SENT else None)


# --- coalescing "your move" ------------------------------------------------------------------------


@shared_task(acks_late=True, ignore_result=True)
def flush_your_move(user_id: int) -> int:
    return flush(user_id)


def flush(user_id: int) -> int:
    """Turn the player's waiting "your move" rows into at most one notice per
    destination. Returns how many deliveries it queued."""
    at = timezone.now()
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().filter(pk=user_id).first()
        rows = list(Delivery.objects.filter(user_id=user_id, state=State.WAITING).order_by("pk"))
        if user is None or not rows:
            return 0
        held = max((r.not_before for r in rows if r.not_before), default=None)
        held = max(filter(None, (held, night_end(user, at))), default=None)
        if held and held > at:
            transaction.on_commit(lambda: _queue_flush(user_id, held))
            return 0
        games = _still_waiting(user_id, [r.game_id for r in rows], at)
        sending = _coalesced(user, rows, games)
        transaction.on_commit(lambda: [_queue_delivery(pk) for pk in sending])
    return len(sending)


def _still_waiting(user_id: int, game_ids: list[int | None], at: datetime) -> dict[int, Seat]:
    """{game id: his seat} of these games that still wait for his move and whose page he is not on."""
    seats = list(Seat.objects.filter(user_id=user_id, game_id__in=[g for g in game_ids if g],
                                     game__status=Game.Status.ACTIVE, deadline__isnull=False))
    looking = presence.present(seats, at)
    return {s.game_id: s for s in seats if s.pk not in looking}


def _coalesced(user, rows: list[Delivery], games: dict[int, Seat]) -> list[int]:
    """Mark the rows pending (one game) or merged into one new notice (several); the pks to send."""
    live = [r for r in rows if r.game_id in games]
    ids = [r.pk for r in rows]
    if not live:
        Delivery.objects.filter(pk__in=ids).update(state=State.DROPPED, note="no longer his move")
        return []
    game_ids = list(dict.fromkeys(r.game_id for r in live))
    if len(game_ids) == 1:
        keep = {r.destination: r.pk for r in live}  # the latest notice of the game, per destination
        Delivery.objects.filter(pk__in=ids).exclude(pk__in=keep.values()).update(state=State.DROPPED, note="merged")
        Delivery.objects.filter(pk__in=keep.values()).update(state=State.PENDING)
        return list(keep.values())
    key = f"your_move:user={user.pk}:burst={rows[0].pk}"
    words = notices.in_language(user, _games_waiting, game_ids, user.pk)
    notice = notices.notice(YOUR_MOVE, user, key, words).as_dict()
    merged = [Delivery(key=key, user=user, destination=d, kind=YOUR_MOVE, notice=notice, state=State.PENDING)
              for d in dict.fromkeys(r.destination for r in live)]
    Delivery.objects.bulk_create(merged, ignore_conflicts=True)
    Delivery.objects.filter(pk__in=ids).update(state=State.DROPPED, note=f"merged into {key}"[:200])
    return list(Delivery.objects.filter(key=key, user=user, state=State.PENDING).values_list("pk", flat=True))


def _games_waiting(game_ids: list[int], user_id: int) -> Words:
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(game_id__in=game_ids).select_related("user", "game"):
        seats.setdefault(seat.game_id, []).append(seat)
    labels = []
    for game_id in game_ids:
        table = seats.get(game_id, [])
        mine = next((s.position for s in table if s.user_id == user_id), None)
        labels.append(notices.game_label(table[0].game, table, mine) if table else "")
    return notices.games_waiting([label for label in labels if label])


# --- the sweep: nothing lost ---------------------------------------------------------------------------


@shared_task(ignore_result=True)
def sweep() -> int:
    """Queue again what a lost task left behind (beat runs it every NOTIFY_SWEEP_SECONDS).
    Returns how many tasks it queued."""
    at = timezone.now()
    grace = timedelta(seconds=settings.NOTIFY_STALE_SECONDS)
    stale = Delivery.objects.filter(state=State.SENDING, claimed_at__lt=at - grace)
    stale.update(state=State.PENDING, not_before=None)
    due = list(Delivery.objects.filter(state=State.PENDING)
               .filter(Q(not_before__isnull=True, created_at__lt=at - grace) | Q(not_before__lt=at - grace))
               .values_list("pk", flat=True)[:10000])
    bursts = list(Delivery.objects.filter(state=State.WAITING).filter(
        Q(not_before__isnull=True, created_at__lt=at - grace - timedelta(seconds=settings.NOTIFY_COALESCE_SECONDS))
        | Q(not_before__lt=at - grace)).values_list("user_id", flat=True).distinct())
    for pk in due:
        _queue_delivery(pk)
    for user_id in bursts:
        _queue_flush(user_id, at)
    return len(due) + len(bursts)


# --- what the apps above announce (call after your commit) ---------------------------------------------


def notify_challenge(challenge_id: int, users: Iterable, *, challenger: str, engine: str, url_path: str,
                     terms: Callable[[], list[str]]) -> int:
    """A challenge to these players (correspondence, after its commit). Its email is correspondence's own.
    `terms()` words every term of the table the challenge starts (correspondence.terms, the list the
    challenges page, the email and the API show); it is called in each player's language."""
    return notify(CHALLENGE, users, key=f"challenge:{challenge_id}",
                  compose=lambda user: notices.challenge(challenger, engine, terms(), url_path))


def notify_league_game(game_id: int, *, league: str, season_id: int, round_number: int | None) -> int:
    """A league game of a new round (or of a season starting all at once) was put in play: tell its
    players, once per round (`round_number` None: once per season's start). Sent by email too."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    seats = list(game.seats.select_related("user"))
    by_user = {s.user_id: s.position for s in seats if s.user_id and not s.is_bot}
    round_part = f"round={round_number}" if round_number else "start"
    return notify(LEAGUE_ROUND, [s.user for s in seats if s.user_id in by_user],
                  key=f"league_round:season={season_id}:{round_part}", game_id=game_id, email=True,
                  compose=lambda user: notices.league_round(league, round_number, game, seats, by_user[user.pk]))


def notify_tournament_game(game_id: int, *, tournament: str, tournament_id: int, round_number: int) -> int:
    """A tournament's new round put this game in play: tell its players, once per round, as a league's
    round is told (the same kind of notice, so the same choice of where it goes). Sent by email too."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    seats = list(game.seats.select_related("user"))
    by_user = {s.user_id: s.position for s in seats if s.user_id and not s.is_bot}
    return notify(LEAGUE_ROUND, [s.user for s in seats if s.user_id in by_user],
                  key=f"tournament_round:{tournament_id}:round={round_number}", game_id=game_id, email=True,
                  compose=lambda user: notices.league_round(tournament, round_number, game, seats, by_user[user.pk]))


def _users(user_ids: Iterable[int]) -> list:
    return list(get_user_model().objects.filter(pk__in=list(user_ids)))


def notify_tournament_bye(user_ids: Iterable[int], *, tournament: str, tournament_id: int, round_number: int,
                          points: str, url_path: str) -> int:
    """These players have a bye in the tournament's new round (the kind of a new round's notice)."""
    return notify(LEAGUE_ROUND, _users(user_ids), key=f"tournament_bye:{tournament_id}:round={round_number}",
                  email=True, compose=lambda user: notices.tournament_bye(tournament, round_number, points, url_path))


def notify_tournament_forfeit_warning(game_id: int, user_ids: Iterable[int], *, tournament: str,
                                      round_id: int, deadline: datetime) -> int:
    """The round's deadline is near and these players' clocks still run in this game: at the deadline
    they lose it (a forfeit). Once per round and player."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return 0
    seats = list(game.seats.select_related("user"))
    by_user = {s.user_id: s.position for s in seats if s.user_id in set(user_ids)}
    return notify(TIME_WARNING, [s.user for s in seats if s.user_id in by_user],
                  key=f"tournament_deadline:round={round_id}", game_id=game_id, email=True,
                  compose=lambda user: notices.tournament_forfeit_warning(tournament, game, seats, by_user[user.pk],
                                                                         deadline))


def notify_tournament_result(ranks: dict[int, int], *, tournament: str, tournament_id: int, entrants: int,
                             url_path: str) -> int:
    """The tournament is over: each player ({user id: final rank}) hears his place."""
    return notify(LEAGUE_ROUND, _users(ranks), key=f"tournament_result:{tournament_id}", email=True,
                  compose=lambda user: notices.tournament_result(tournament, ranks[user.pk], entrants, url_path))
