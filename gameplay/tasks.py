"""Celery tasks. Each one only calls service functions, which lock the game
and re-check that the work still applies, so a task that runs twice, late,
or after a worker restart changes nothing more than running it once.

After every committed change of a game, a follow-up (queued by
`queue_follow_ups`, which `gameplay.services.after_commit` calls with the
follow-ups of the commits of a moment, as one task `after_changes`: this
module registers it, so that the services never import the tasks) does the
work that may wait a moment: the game's deadline task, the badges, the computer
player's move, and the delivery of the game's events to their after-commit
subscribers (`gameplay.events`: the emails of `notifications`, ...).

Deadlines: after each commit one task is queued for the game's nearest
deadline or warning (`queue_deadline_check`), but never further ahead than
DEADLINE_TASK_HORIZON (below the broker's visibility timeout, past which a
queued task is delivered again); beat's sweep finds everything else.
"""

import logging
import threading
from collections import deque
from datetime import UTC, datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from gameplay import badge, clocks, events, group_sends, services
from gameplay.models import Game, Seat
from gameplay.services import after_commit

log = logging.getLogger(__name__)

# A game's next clock event not known yet: read from its seats.
UNKNOWN = object()


@shared_task(ignore_result=True)
def after_changes(follow_ups: list[dict]) -> None:
    """The follow-ups of several committed changes, in the order of their
    commits: one failing does not keep the next from running. Their pushes to
    open pages (badges, live lists' notices) go together at the end
    (`group_sends.batched`), each badge counted once for the batch."""
    with group_sends.batched():
        badges = set()
        for follow_up in follow_ups:
            badges.update(follow_up.get("turn_changed", ()))
            try:
                follow(**{**follow_up, "turn_changed": []})
            except Exception:
                log.exception("the work after a change of game %s failed", follow_up.get("game_id"))
        badge.send_badges(badges)


@shared_task(ignore_result=True)
def after_change(**follow_up) -> None:
    """One follow-up as a task of its own, as they were queued before `after_changes`
    (a message still in the broker when the site is upgraded)."""
    follow(**follow_up)


def follow(game_id: int, version: int, clock_started: list[int], turn_changed: list[int],
           deadlines: bool, started: bool, published: list, bot: bool,
           players: list[int] | None = None, clock_event_at: float | None | str = "unknown") -> None:
    """The follow-up of one committed change of a game (version `version`).
    Each part stands alone: one failing does not keep the others from running.
    `clock_event_at`: the game's next clock event as the change's transaction
    left its seats (a POSIX timestamp, None for none), "unknown" if it did not
    hold them."""
    if bot:
        queue_bot_move(game_id, version)
    if deadlines and clock_event_at == "unknown":
        queue_deadline_check(game_id, version)
    elif deadlines:
        queue_deadline_check(game_id, version, _moment(clock_event_at))
    if turn_changed:  # the pages' badges first: the notices' work below may take a while
        badge.send_badges(turn_changed)  # (`after_changes` sends them once for its batch instead)
    if started:
        events.deliver(events.GAME_STARTED, game_id, version, {"players": players})
    if clock_started:
        events.deliver(events.TURN_CHANGED, game_id, version, {"positions": clock_started, "players": players})
    deliver_published(game_id, version, published)


def _moment(timestamp: float | None):
    return None if timestamp is None else datetime.fromtimestamp(timestamp, UTC)


def deliver_published(game_id: int, version: int, published: list) -> None:
    for event, details in published:
        events.deliver(event, game_id, version, details)


def queue_follow_ups(follow_ups: list[dict]) -> None:
    """The work after committed changes (`after_commit`), in commit order: one
    task. If the broker refuses it, the events they carry are delivered at
    once; the rest is repaired by beat's sweep, the next push or a reconnect."""
    try:
        # Celery would otherwise write the arguments' repr into the message (for monitoring)
        # with its careful `saferepr`: half the cost of queueing it.
        after_changes.apply_async(kwargs={"follow_ups": follow_ups}, argsrepr="()",
                                  kwargsrepr=follow_ups_repr(follow_ups))
    except Exception:
        log.exception("could not queue the work after changes of games %s",
                      sorted({f["game_id"] for f in follow_ups}))
        for follow_up in follow_ups:
            try:
                deliver_published(follow_up["game_id"], follow_up["version"], follow_up["published"])
            except Exception:
                log.exception("the events of a change of game %s were not delivered", follow_up["game_id"])


def follow_ups_repr(follow_ups: list[dict]) -> str:
    """What a monitor shows of the task's arguments: each game and version."""
    return "{'follow_ups': [" + ", ".join(f"{f['game_id']}@{f['version']}" for f in follow_ups) + "]}"


after_commit.set_follow_up(queue_follow_ups)


@shared_task(ignore_result=True)
def play_bot(game_id: int, version: int) -> None:
    """A computer's move, in the computers' own queue (settings.CELERY_TASK_ROUTES): a table of
    computers thinking never holds up the deadlines and notices of the default queue."""
    try:
        services.play_bot_move(game_id, version)
    except services.GameError as exc:  # its level or its player refuses: the game is left as it was
        log.warning("the computer's move in game %s was refused: %s", game_id, exc.message)


def queue_bot_move(game_id: int, version: int) -> None:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _play_in_turn(game_id, version)
        return
    _queue_bot_move(game_id, version)


def _queue_bot_move(game_id: int, version: int) -> None:
    try:
        play_bot.apply_async((game_id, version), countdown=settings.BOT_MOVE_DELAY)
    except Exception:  # the broker is down: the move is safe in the database, the sweep retries
        log.exception("could not queue the computer's move for game %s", game_id)


# The computers' moves an eager Celery (the tests, a development site without Redis) has still to play
# on this thread; None while none is being played.
_eager_moves = threading.local()


def _play_in_turn(game_id: int, version: int) -> None:
    """Eager Celery runs a task in place: a computer's move queued by another computer's move (in its
    follow-up) waits until that move's work is done and is played next, as a worker takes its queue,
    instead of inside it. So a table of computers plays to its end without the stack growing with
    every move (a whole game of them used to exceed Python's recursion limit in a request)."""
    waiting = getattr(_eager_moves, "waiting", None)
    if waiting is not None:
        waiting.append((game_id, version))
        return
    _eager_moves.waiting = waiting = deque([(game_id, version)])
    try:
        while waiting:
            _queue_bot_move(*waiting.popleft())
    finally:
        _eager_moves.waiting = None


@shared_task(ignore_result=True)
def enforce_deadlines(game_id: int, version: int) -> None:
    services.release_orders(game_id)
    services.expire_deadlines(game_id, version)
    services.send_time_warnings(game_id=game_id)
    # The task of the current version keeps watching until the version changes
    # (a move queues a task of its own for the new version).
    if Game.objects.filter(pk=game_id, version=version, status=Game.Status.ACTIVE).exists():
        queue_deadline_check(game_id, version)


def next_clock_event(game_id: int):
    """The nearest future deadline, unsent warning or standing orders' release of a game, or None."""
    return clocks.nearest_clock_event(
        Seat.objects.filter(game_id=game_id).values_list("deadline", "warn_at", "warned", "order_at"), timezone.now())


def queue_deadline_check(game_id: int, version: int, when=UNKNOWN) -> None:
    """Queue the game's deadline task for its next clock event (`when`, if the
    change's transaction found it; read from the seats otherwise)."""
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return  # an eager "queue" cannot wait; tests drive deadlines through services and the sweep
    if when is UNKNOWN:
        when = next_clock_event(game_id)
    if when is None or when - timezone.now() > timedelta(seconds=settings.DEADLINE_TASK_HORIZON):
        return  # beat's sweep queues it once it comes within reach
    try:
        enforce_deadlines.apply_async((game_id, version), eta=when)
    except Exception:
        log.exception("could not queue the deadline check of game %s (the sweep will enforce it)", game_id)
        return
    Game.objects.filter(pk=game_id).update(deadline_check_at=when)


def queue_approaching_deadlines() -> int:
    """Queue a task for every game whose next deadline has come within the
    task horizon and has none queued yet, so that far deadlines are met on
    time too, not only at the next sweep."""
    now = timezone.now()
    horizon = now + timedelta(seconds=settings.DEADLINE_TASK_HORIZON)
    due_soon = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__deadline__gt=now, seats__deadline__lte=horizon)
        .exclude(deadline_check_at__gt=now)
        .values_list("pk", "version")
        .distinct()
    )
    count = 0
    for game_id, version in due_soon:
        queue_deadline_check(game_id, version)
        count += 1
    return count


@shared_task(ignore_result=True)
def sweep() -> dict:
    """Every few seconds (beat): release the standing orders that fell due, enforce every
    overdue deadline, send due warnings, and queue again computer moves whose task was lost."""
    released = 0
    for game_id in services.due_order_game_ids():
        try:
            released += services.release_orders(game_id)
        except Exception:
            log.exception("releasing the standing orders of game %s failed", game_id)
    expired = 0
    for game_id in services.overdue_game_ids():
        try:
            expired += services.expire_deadlines(game_id)
        except Exception:
            log.exception("enforcing the deadlines of game %s failed", game_id)
    warned = services.send_time_warnings()
    queued = 0 if settings.CELERY_TASK_ALWAYS_EAGER else queue_approaching_deadlines()
    return {"released": released, "expired": expired, "warned": warned, "queued": queued, "bots": requeue_stalled_bots()}


def requeue_stalled_bots() -> int:
    """Redis may lose messages; the database says whose turn it is."""
    cutoff = timezone.now() - timedelta(seconds=settings.BOT_MOVE_DELAY + settings.BOT_SWEEP_GRACE)
    stalled = (
        Seat.objects.filter(is_bot=True, deadline__isnull=False, game__status=Game.Status.ACTIVE,
                            game__turn_started_at__lt=cutoff)
        .values_list("game_id", "game__version")
        .distinct()
    )
    count = 0
    for game_id, version in stalled:
        queue_bot_move(game_id, version)
        count += 1
    return count
