"""What the site does once a transaction that changed a game has committed.

The services call `game_changed(game, ...)` as they change the locked game.
All the calls of one transaction about one game object become one
after-commit callback, which

- sends each open page its seat's new view (`broadcast.send_game`), from
  the objects the transaction already holds: the game row, its seats with
  their users and the vacations the clocks read (no query); and
- hands over a follow-up with the work that does not change the game and
  may wait a moment: the deadline task, the badges of the players whose
  turn changed, the computer player's move, and the game's events for their
  after-commit subscribers (`gameplay.events`: "your turn", game over, ...
  in `notifications`).

So a move's request does its transaction and the fan-out, and hands the
follow-up to a thread of the process that queues it: not the request's
thread, which in a daphne process runs the database work of every socket one
call at a time. That thread waits `settings.FOLLOW_UP_LINGER_SECONDS` for the
follow-ups of the commits right behind it and queues them together, as one
task (`gameplay.tasks.after_changes`): queueing a task costs about 0.27 ms
of CPU whatever it carries (`config.celery.RedisTransport`), and it is not
spent while the move's views are on their way; running it costs the worker
its receipt and hand-over to a pool process whatever it carries too (a
tenth of a second of waiting halved the worker's CPU per move of one table:
bench/README.md, issue 45). An eager Celery, as in the
tests, runs the task in place. The tasks are queued only after the commits,
in their order, and are lost only if the process dies in the moment
between. If the broker refuses a task (Redis is down), nothing the database
holds is lost: beat's sweep enforces the deadlines and queues the computer
moves again, a badge is repaired by the next push or a reconnect; the
events' after-commit subscribers are called from that thread instead.

The services import neither the tasks nor the apps above (those depend on
the services, not back): `gameplay.tasks` registers the follow-up
(`set_follow_up`) when the app is ready, and this module registers itself as
the events' deferral (`events.set_deferral`).
"""

import logging
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connections, transaction
from django.utils import timezone

from gameplay import broadcast, clocks, events
from gameplay.engine import get_engine
from gameplay.loading import seats_loaded
from gameplay.models import Game

log = logging.getLogger(__name__)

# The work after commits, given their follow-up dicts (below) in commit order (gameplay.tasks.queue_follow_ups).
_follow_up: Callable[[list[dict]], None] | None = None

def set_follow_up(handler: Callable[[list[dict]], None]) -> None:
    global _follow_up
    _follow_up = handler


@dataclass
class Changes:
    """What one transaction did to one game, for after its commit."""

    events: list = field(default_factory=list)
    clock_started: set[int] = field(default_factory=set)  # seat positions
    turn_changed: set[int] = field(default_factory=set)  # user ids whose "your move" count may change
    clocks: bool = False  # deadlines or warnings may have moved
    started: bool = False  # the game started in this transaction
    published: list = field(default_factory=list)  # [event, details] for the after-commit subscribers
    views_changed: bool = False  # what the seats see may have changed: send their views
    fan_out: bool = True  # False: made in this transaction, no page can show it yet


def game_changed(game: Game, *, events=(), clock_started=(), turn_changed=(), clocks: bool = False,
                 started: bool = False) -> None:
    """Record a change of the locked `game`; the first call of a transaction
    registers the after-commit work, later ones add to it."""
    changes = _changes_of(game)
    changes.views_changed = True
    changes.events.extend(events)
    changes.clock_started.update(clock_started)
    changes.turn_changed.update(u for u in turn_changed if u is not None)
    changes.clocks = changes.clocks or clocks
    changes.started = changes.started or started


def _changes_of(game: Game) -> Changes:
    changes = game.__dict__.get("_changes")
    if changes is None:
        changes = game.__dict__["_changes"] = Changes()
        transaction.on_commit(lambda: _after_commit(game))
    return changes


def clocks_changed(game: Game) -> None:
    """A private change of the locked `game` moved a time its tasks watch (a seat's standing
    orders' release time): the deadline task is queued again, and no view is sent to anybody."""
    _changes_of(game).clocks = True


def event_published(game: Game, event: str, details: dict) -> None:
    """An event of the locked `game` waits for the commit: its after-commit
    subscribers get it from the follow-up (no views are sent for it alone)."""
    _changes_of(game).published.append([event, details])


events.set_deferral(event_published)


def game_created(game: Game) -> None:
    """The locked `game` was made in this transaction (and its changes are
    recorded): nobody can have its page open, so its commit sends no views,
    only its follow-up work."""
    game_changed(game)
    game.__dict__["_changes"].fan_out = False


def _after_commit(game: Game) -> None:
    changes = game.__dict__.pop("_changes", None) or Changes()
    if changes.fan_out and changes.views_changed:
        broadcast.send_game(game, changes.events)
    follow_up = {
        "game_id": game.pk,
        "version": game.version,
        "clock_started": sorted(changes.clock_started),
        "turn_changed": sorted(changes.turn_changed),
        "deadlines": changes.clocks and game.status == Game.Status.ACTIVE,
        "started": changes.started,
        "published": changes.published,
        "bot": changes.views_changed and _bot_to_move(game),
        "players": _players(game),
    }
    if follow_up["deadlines"] and seats_loaded(game):  # the task needs no query to find it
        follow_up["clock_event_at"] = _clock_event_at(game)
    if not (follow_up["clock_started"] or follow_up["turn_changed"] or follow_up["deadlines"]
            or follow_up["started"] or follow_up["published"] or follow_up["bot"]):
        return
    if _follow_up is None:
        log.error("no follow-up registered (gameplay.tasks not loaded): game %s", game.pk)
        return
    if settings.CELERY_TASK_ALWAYS_EAGER:
        _follow_up([follow_up])  # the task runs here and now: tests see its work done
    else:
        _hand_over(follow_up)


# Queues the follow-up tasks in the order of their commits, off the thread that
# committed: one of a process' database threads (a consumer's call,
# `gameplay.database_threads`), or a request's. Its thread is not a daemon: a process that
# exits normally queues what it was handed first.
_publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="after-commit")
# The follow-ups handed over and not yet taken by the thread, in commit order.
_waiting: list[dict] = []
_waiting_lock = threading.Lock()


def _new_publisher() -> None:
    """A forked child (a Celery worker's) has no copy of its parent's thread: it starts its own."""
    global _publisher, _waiting, _waiting_lock
    _publisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="after-commit")
    _waiting, _waiting_lock = [], threading.Lock()


os.register_at_fork(after_in_child=_new_publisher)


def wait_until_queued(timeout: float | None = None) -> None:
    """Return once every follow-up handed to the thread so far is queued (for tests and shutdown)."""
    _publisher.submit(lambda: None).result(timeout)


def _hand_over(follow_up: dict) -> None:
    """Give the thread a follow-up. The first one it is not holding yet asks it
    for a batch; those handed over until it takes the batch join it."""
    with _waiting_lock:
        _waiting.append(follow_up)
        first = len(_waiting) == 1
    if first:
        _publisher.submit(_queue_waiting, _follow_up)


def _queue_waiting(handler: Callable[[list[dict]], None]) -> None:
    time.sleep(settings.FOLLOW_UP_LINGER_SECONDS)
    with _waiting_lock:
        batch = list(_waiting)
        _waiting.clear()
    try:
        handler(batch)
    finally:
        connections.close_all()  # the thread's own database connection, if the emails opened one


def _players(game: Game) -> list[int] | None:
    """The seated people's user ids, when the transaction loaded the seats
    (None otherwise: an after-commit subscriber that needs them reads them)."""
    if not seats_loaded(game):
        return None
    return sorted(s.user_id for s in game.seats.all() if s.user_id is not None and not s.is_bot)


def _clock_event_at(game: Game) -> float | None:
    """The game's next clock event as the transaction left its seats (the
    services change seats only through these objects), as a timestamp."""
    when = clocks.nearest_clock_event(((s.deadline, s.warn_at, s.warned, s.order_at) for s in game.seats.all()),
                                      timezone.now())
    return None if when is None else when.timestamp()


def _bot_to_move(game: Game) -> bool:
    """Whether a computer player is among those the game waits for."""
    if game.status != Game.Status.ACTIVE or game.state is None:
        return False
    bots = {s.position for s in game.seats.all() if s.is_bot}
    return bool(bots) and any(p in bots for p in get_engine(game.engine).actors(game.state))
