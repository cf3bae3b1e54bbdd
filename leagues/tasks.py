"""Celery tasks of the leagues: thin, taking ids and calling services, each
harmless to run twice or late.

- `draw_season`: a started season's schedules and games
  (`leagues.drawing`), queued after the commit of `services.start_season`.
- `sweep_drawing` (beat, every LEAGUE_DRAW_SWEEP_SECONDS): a season still
  drawing LEAGUE_DRAW_GRACE_SECONDS after its start, with no game started
  in that time, lost its task (Redis gone, a worker killed): its draw is
  queued again (it resumes where the other stopped).
- `push_standings`: a division's standings rendered and pushed to its open
  pages (`leagues.live`), queued after a league game's result commits.
"""

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from leagues import drawing, live

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def draw_season(season_id: int) -> None:
    drawing.draw_season(season_id)


def queue_draw(season_id: int) -> None:
    """After the commit of a season's start. If the broker refuses the task,
    the season stays "drawing" and beat's sweep draws it."""
    try:
        draw_season.delay(season_id)
    except Exception:
        log.exception("could not queue the drawing of season %s; the sweep will draw it", season_id)


@shared_task(ignore_result=True)
def sweep_drawing() -> int:
    cutoff = timezone.now() - timedelta(seconds=settings.LEAGUE_DRAW_GRACE_SECONDS)
    left = drawing.seasons_left_drawing(cutoff)
    for season_id in left:
        queue_draw(season_id)
    return len(left)


@shared_task(ignore_result=True)
def push_standings(division_id: int) -> None:
    live.push_standings(division_id)


def queue_push(division_id: int) -> None:
    """After the commit of a league game's result. A refused task loses only
    the live update: the page shows the new standings when reloaded."""
    try:
        push_standings.delay(division_id)
    except Exception:
        log.exception("could not queue the standings push of division %s", division_id)
