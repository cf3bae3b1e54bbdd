"""Celery tasks of the leagues: thin, taking ids and calling services, each
harmless to run twice or late.
- `draw_season` (`leagues.drawing.draw_season_task`): a started season's
  schedules and games, queued after the commit of `services.start_season`.
- `sweep_drawing` (beat, every LEAGUE_DRAW_SWEEP_SECONDS): a season still
  drawing LEAGUE_DRAW_GRACE_SECONDS after its start, with no game started
  in that time, lost its task (Redis gone, a worker killed): its draw is
  queued again (it resumes where the other stopped).
- `push_standings` (`leagues.live.push_standings_task`): a division's
  standings rendered and pushed to its open pages, queued after a league
  game's result commits.
The first and the last are defined beside their work, which queues them
(so that the services need not import this module, which imports them).
"""

from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from leagues import drawing, live  # noqa: F401 (their tasks: draw_season, push_standings)


@shared_task(ignore_result=True)
def sweep_drawing() -> int:
    cutoff = timezone.now() - timedelta(seconds=settings.LEAGUE_DRAW_GRACE_SECONDS)
    left = drawing.seasons_left_drawing(cutoff)
    for season_id in left:
        drawing.queue_draw(season_id)
    return len(left)
