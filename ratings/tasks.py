"""The computer levels' ratings kept up by Celery beat (issue 43): every
COMPUTER_MATCHES_SECONDS (0: never) beat queues `play_computer_matches` on
the computers' queue (settings.CELERY_COMPUTER_QUEUE), where the computer
players' moves run. Each run plays what `manage.py play_computer_matches`
plays, in a small portion: COMPUTER_MATCHES_DEALS duplicate deals of one
game kind between one pair of levels, the next portion at the next run (the
run's slot, the time over the interval, picks the game kind and the pair in
turn and, once round them all, new deals). Every game is recorded and
rated in the computers' pool as the command records it.

The computers' worker runs one task at a time, so a run must never hold up
a table's computer move: before each decision (at most once a second) the
run looks whether a table waits for a computer, and if one does it gives
up the game it is playing (unrecorded) and ends; the next run goes on."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from itertools import combinations

from celery import shared_task
from django.conf import settings

from gameplay import bots
from gameplay.computer_matches import Interrupted, arrangements, deal_seed, play_game
from gameplay.engine import ENGINES, get_engine
from gameplay.models import Game, Seat
from gameplay.services.computer_games import record_computer_game

log = logging.getLogger(__name__)
CHECK_EVERY_SECONDS = 1.0


def matchups() -> list[tuple[str, int, int]]:
    """Every (game kind, weaker level, stronger level) a run may play, in the order the runs take them."""
    return [(engine, first, second) for engine in ENGINES for first, second in combinations(bots.LEVELS, 2)]


def current_slot(now: float | None = None) -> int:
    return int((time.time() if now is None else now) // max(settings.COMPUTER_MATCHES_SECONDS, 1))


def a_table_waits_for_a_computer() -> bool:
    """A game in play whose computer seat is on the clock (its move is due on the computers' queue)."""
    return Seat.objects.filter(is_bot=True, deadline__isnull=False, game__status=Game.Status.ACTIVE).exists()


def _yielding() -> Callable[[], bool]:
    """`keep_going` for `play_game`: False once a table waits for a computer, looked up at most once a second."""
    checked = {"at": time.monotonic()}

    def keep_going() -> bool:
        now = time.monotonic()
        if now - checked["at"] < CHECK_EVERY_SECONDS:
            return True
        checked["at"] = now
        return not a_table_waits_for_a_computer()

    return keep_going


@shared_task(ignore_result=True, name="ratings.tasks.play_computer_matches")
def play_computer_matches(slot: int | None = None) -> int:
    """Play and record this run's portion of the matches between levels (see the module); the number
    of games recorded."""
    slot = current_slot() if slot is None else slot
    every = matchups()
    engine, first, second = every[slot % len(every)]
    base = slot // len(every)  # a new set of deals each time round every matchup
    players, keep_going, recorded = get_engine(engine).min_players, _yielding(), 0
    for deal in range(settings.COMPUTER_MATCHES_DEALS):
        for levels in arrangements(first, second, players):
            if a_table_waits_for_a_computer():
                return recorded
            try:
                played = play_game(engine, levels, deal_seed(base, engine, deal), keep_going=keep_going)
            except Interrupted as exc:
                log.info("computer matches: %s (a table waits for a computer)", exc)
                return recorded
            record_computer_game(played)
            recorded += 1
    return recorded
