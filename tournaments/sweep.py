"""A tournament's clock, run by beat's sweep (`tournaments.tasks.sweep_rounds`),
each step harmless to run twice or late:
- the start window over: a player the game waits for who has not made a
  move of his own in it yet forfeits it;
- the round's deadline near (TOURNAMENT_DEADLINE_WARNING_HOURS): the
  players of its games still in play are warned, once per round;
- the deadline passed: every clock still running in the round runs out,
  a forfeit, each game in its own transaction;
- the round finished and the next one not started: the safety net for a
  lost `tournaments.rounds.advance_task` (after
  TOURNAMENT_ADVANCE_GRACE_SECONDS) and the start of a round on its date.
Locks as a game's end does: the game, then the tournament.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from gameplay import services as game_services
from gameplay.models import Game, Move
from gameplay.records import TIMEOUT
from gameplay.services.moves import apply_move
from tournaments import notices, pairing, rounds, services
from tournaments.models import Round, Table, Tournament


def _warning_ahead() -> timedelta:
    return timedelta(hours=settings.TOURNAMENT_DEADLINE_WARNING_HOURS)


def _grace() -> timedelta:
    return timedelta(seconds=settings.TOURNAMENT_ADVANCE_GRACE_SECONDS)


def sweep_tournament(tournament_id: int, now: datetime | None = None) -> bool:
    """One tournament's clock (see the module). True if it changed anything."""
    now = now or timezone.now()
    latest = Round.objects.filter(tournament_id=tournament_id, tournament__status=Tournament.Status.RUNNING) \
        .select_related("tournament").order_by("-number").first()
    if latest is None:  # started, round 1 not paired: its task was lost
        started = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.RUNNING,
                                            started_at__lte=now - _grace()).exists()
        return rounds.advance(tournament_id, now) if started else False
    if latest.finished_at is None:
        if latest.deadline <= now:
            changed = False
            for table_id in rounds.live_tables(latest).values_list("pk", flat=True):
                changed = _time_out(table_id) or changed
            return changed
        if latest.window_ends is not None and latest.window_closed_at is None and latest.window_ends <= now:
            return _close_window(latest.pk, now)
        if latest.warned_at is None and latest.deadline - _warning_ahead() <= now:
            return _warn(latest.pk, now)
        return False
    on_dates = latest.tournament.next_round == Tournament.NextRound.SCHEDULED
    if on_dates or latest.finished_at <= now - _grace():
        return rounds.advance(tournament_id, now)
    return False


@transaction.atomic
def _warn(round_id: int, now: datetime) -> bool:
    """The deadline is near: every player of the round's games still in play hears it, once."""
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = rounds.locked(round_.tournament_id)
    round_.refresh_from_db()
    if round_.warned_at is not None or round_.finished_at is not None:
        return False
    round_.warned_at = now
    round_.save(update_fields=["warned_at"])
    tables = rounds.live_tables(round_).select_related("game").defer(*pairing.GAME_BULK) \
        .prefetch_related("game__seats")
    for table in tables:
        users = [s.user_id for s in table.game.seats.all() if s.user_id and not s.is_bot]
        if users:
            notices.deadline_near(tournament, round_, table.game_id, users)
    return True


def _close_window(round_id: int, now: datetime) -> bool:
    """The start window is over: in each game still in play, a seat the game waits for that has not
    made a move of its own yet forfeits (each game in its own transaction); then the window is closed."""
    round_ = Round.objects.get(pk=round_id)
    for table_id in rounds.live_tables(round_).values_list("pk", flat=True):
        _time_out(table_id, unstarted_only=True)
    with transaction.atomic():
        rounds.locked(round_.tournament_id)
        changed = Round.objects.filter(pk=round_id, window_closed_at=None).update(window_closed_at=now)
    return bool(changed)


def _has_begun(game: Game, position: int) -> bool:
    return game.moves.filter(position=position, by__in=[Move.By.PLAYER, Move.By.BOT]).exists()


@transaction.atomic
def _time_out(table_id: int, unstarted_only: bool = False) -> bool:
    """The round's deadline has come: the seats of this table whose clocks run lose on time, forfeits
    (`unstarted_only`: the start window's end, only those that have not made a move of their own yet)."""
    table = Table.objects.select_related("round").get(pk=table_id)
    changed = False
    for _attempt in range(8):
        game = game_services.locked_game(table.game_id, seats=True)
        if game.status != Game.Status.ACTIVE:
            return changed
        tournament = rounds.locked(table.round.tournament_id)
        table.refresh_from_db()
        running = [s for s in game.seats.all() if s.deadline is not None
                   and not (unstarted_only and _has_begun(game, s.position))]
        if not running:
            return changed
        changed = True
        services.record_forfeits(tournament, table, [services.entry_at(table, running[0].position)])
        game = game_services.locked_game(table.game_id, seats=True)  # his withdrawal may have resigned it
        if game.status != Game.Status.ACTIVE:
            return changed
        # As a clock running out does when time-outs lose (`gameplay.services.clocks.expire_seat`).
        apply_move(game, running[0].position, {"type": TIMEOUT}, by=Move.By.TIMEOUT)
    return changed


def running_tournament_ids(now: datetime | None = None) -> list[int]:
    """Tournaments whose latest round's deadline is near or past, whose rounds start on their dates, or
    whose rounds are all finished (the next one not started yet, or the end not written)."""
    now = now or timezone.now()
    unfinished = Round.objects.filter(tournament=OuterRef("pk"), finished_at=None)
    return list(Tournament.objects.filter(status=Tournament.Status.RUNNING)
                .filter(Q(round_set__finished_at=None, round_set__deadline__lte=now)
                        | Q(round_set__finished_at=None, round_set__warned_at=None,
                            round_set__deadline__lte=now + _warning_ahead())
                        | Q(round_set__finished_at=None, round_set__window_closed_at=None,
                            round_set__window_ends__lte=now)
                        | Q(next_round=Tournament.NextRound.SCHEDULED) | ~Exists(unfinished))
                .distinct().values_list("pk", flat=True))
