"""What happened to a game, for the apps above `gameplay` to act on.

`gameplay` changes games; `ratings`, `leagues` and `notifications` (and any
app above them) react to what it did without `gameplay` importing them: they
subscribe here in their `AppConfig.ready()`, and the services publish.

An explicit registry, not Django signals: a subscriber says *when* it runs,
which signals cannot say, and one event may have subscribers of both kinds:

- **in the transaction** (`after_commit=False`): called by `publish()`, inside
  the transaction that changed the game, with the locked `game` object and
  the event's details. Whatever they write commits with the change or not
  at all; an exception they raise rolls the change back (ratings and league
  standings commit with the result they record, or not at all).
- **after the commit** (`after_commit=True`): called with the game's id, its
  version and the event's details (JSON: ids, positions, words), by the
  Celery task that follows every committed change (`gameplay.tasks.after_changes`,
  or in place when Celery is eager). Each runs alone: one failing is logged
  and does not keep the others from running. Emails, pushes, live pages.

The events (details in brackets; `game` / `game_id`, `version` always):

| event            | published by                         | in the transaction | after commit |
|------------------|--------------------------------------|--------------------|--------------|
| `game_started`   | the follow-up of the change that started it (`players`) | –  | yes          |
| `turn_changed`   | the follow-up of a change that started seats' clocks (`positions`, `players`) | – | yes |
| `clock_warning`  | the services, when a seat's time runs low (`position`) | yes | yes       |
| `game_finished`  | `finish_with_result` (the game's one result is on its seats) | yes | yes   |
| `seat_replaced`  | `replace_seat` (`position`, `previous_user_id`, `user_id`, `reason`) | yes | yes |
| `game_aborted`   | `abort` (`reason`)                   | yes                | yes          |
| `orders_lapsed`  | `release_orders`, when a seat's standing orders lapse (`position`, `user_id`: the player who set them, `reasons`: the engine's sentences, untranslated) | yes | yes |

`players`: the seated people's user ids, as the change's transaction read
them (None where it did not read the seats: read them if you need them).

In-transaction subscribers run in the order they subscribed, which is the
order of `INSTALLED_APPS` (`ratings` before `leagues`: a league reads the
ratings the game has just changed).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import transaction

log = logging.getLogger(__name__)

GAME_STARTED = "game_started"
TURN_CHANGED = "turn_changed"
CLOCK_WARNING = "clock_warning"
GAME_FINISHED = "game_finished"
SEAT_REPLACED = "seat_replaced"
GAME_ABORTED = "game_aborted"
ORDERS_LAPSED = "orders_lapsed"

# The events published only after the commit, from what the change recorded (no transaction to join).
AFTER_COMMIT_ONLY = {GAME_STARTED, TURN_CHANGED}
EVENTS = {GAME_STARTED, TURN_CHANGED, CLOCK_WARNING, GAME_FINISHED, SEAT_REPLACED, GAME_ABORTED, ORDERS_LAPSED}


@dataclass
class _Subscribers:
    in_transaction: list[Callable] = field(default_factory=list)
    after_commit: list[Callable] = field(default_factory=list)


_subscribers: dict[str, _Subscribers] = {name: _Subscribers() for name in EVENTS}

# Hands an event's after-commit delivery to the work that follows the commit
# (`gameplay.services.after_commit` registers it: this module imports nothing of gameplay).
_defer: Callable[[object, str, dict], None] | None = None


def set_deferral(handler: Callable[[object, str, dict], None]) -> None:
    global _defer
    _defer = handler


def subscribe(event: str, handler: Callable, *, after_commit: bool) -> None:
    """Call `handler` on every `event`: `handler(game, **details)` in the
    transaction, or `handler(game_id, version, **details)` after the commit.
    Subscribing twice is harmless (a module imported again)."""
    if event not in EVENTS:
        raise ValueError(f"unknown game event {event!r}")
    if event in AFTER_COMMIT_ONLY and not after_commit:
        raise ValueError(f"{event!r} is published after the commit only")
    handlers = _subscribers[event].after_commit if after_commit else _subscribers[event].in_transaction
    if handler not in handlers:
        handlers.append(handler)


def unsubscribe(event: str, handler: Callable) -> None:
    for handlers in (_subscribers[event].in_transaction, _subscribers[event].after_commit):
        if handler in handlers:
            handlers.remove(handler)


def publish(event: str, game, **details) -> None:
    """`event` happened to the locked `game` in the current transaction:
    its in-transaction subscribers run now; its after-commit subscribers
    get it once the transaction has committed (nothing if it rolls back)."""
    if event in AFTER_COMMIT_ONLY or event not in EVENTS:
        raise ValueError(f"{event!r} cannot be published in a transaction")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("game events are published inside the transaction that changed the game")
    for handler in list(_subscribers[event].in_transaction):
        handler(game, **details)
    if _subscribers[event].after_commit:
        if _defer is None:
            log.error("no deferral registered (gameplay.services.after_commit not loaded): %s dropped", event)
            return
        _defer(game, event, details)


def has_after_commit_subscribers(event: str) -> bool:
    return bool(_subscribers[event].after_commit)


def deliver(event: str, game_id: int, version: int, details: dict | None = None) -> None:
    """Run `event`'s after-commit subscribers (the follow-up task calls this
    after the commit). One failing is logged; the others still run."""
    for handler in list(_subscribers[event].after_commit):
        try:
            handler(game_id, version, **(details or {}))
        except Exception:
            log.exception("a subscriber of %s failed for game %s", event, game_id)
