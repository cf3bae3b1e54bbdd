"""Celery tasks of the tournaments: thin, taking ids and calling services,
each harmless to run twice or late.
- `sweep_rounds` (beat, every TOURNAMENT_SWEEP_SECONDS): every tournament
  whose latest round is past its deadline (its clocks still running run
  out: forfeits) or whose rounds start on their dates (one due starts).
"""

import logging

from celery import shared_task

from gameplay.services.base import GameError
from tournaments import services

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def sweep_rounds() -> int:
    changed = 0
    for tournament_id in services.running_tournament_ids():
        try:
            changed += services.sweep_tournament(tournament_id)
        except GameError as exc:  # one tournament that cannot be paired does not hold up the others
            log.warning("tournament %s: %s", tournament_id, exc.message)
    return changed
