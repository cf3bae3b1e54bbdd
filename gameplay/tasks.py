"""Celery tasks. Each one only calls a service function, which locks the game
and re-checks that the task still applies, so a task that runs twice or
late changes nothing."""

import logging

from celery import shared_task
from django.conf import settings

from gameplay import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def play_bot(game_id: int, version: int) -> None:
    services.play_bot_move(game_id, version)


def queue_bot_move(game_id: int, version: int) -> None:
    try:
        play_bot.apply_async((game_id, version), countdown=settings.BOT_MOVE_DELAY)
    except Exception:  # the broker is down: the move is safe in the database
        log.exception("could not queue the computer's move for game %s", game_id)


@shared_task(ignore_result=True)
def sweep_bot_turns() -> int:
    """Queue again the computer's move wherever its task was lost (Redis may
    lose messages; the database says whose turn it is). Returns how many."""
    from datetime import timedelta

    from django.utils import timezone

    from gameplay.models import Game, Seat

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
