"""Celery tasks of the tournaments: thin, taking ids and calling services,
each harmless to run twice or late.
- `advance` (`tournaments.rounds.advance_task`): queued after the commit of a
  round's last game; starts the next round (or ends the tournament).
- `sweep_rounds` (beat, every TOURNAMENT_SWEEP_SECONDS): `tournaments.sweep`,
  every tournament whose latest round's deadline is near (a warning) or past
  (its clocks still running run out: forfeits), whose rounds start on their
  dates, or whose next round a lost task left unstarted.
"""

import logging

from celery import shared_task

from gameplay.services.base import GameError
from tournaments import rounds, sweep  # noqa: F401 (rounds: its task, advance_task)

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def sweep_rounds() -> int:
    changed = 0
    for tournament_id in sweep.running_tournament_ids():
        try:
            changed += sweep.sweep_tournament(tournament_id)
        except GameError as exc:  # one tournament that cannot be paired does not hold up the others
            log.warning("tournament %s: %s", tournament_id, exc.message)
    return changed
