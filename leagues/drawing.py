"""Drawing up a started season's schedules and starting its games, off the
request that started it.

`services.start_season` only splits the entries into divisions and marks
the season "drawing"; after its commit a Celery task (`leagues.tasks`)
calls `draw_season`, and beat's sweep queues it again for a season left
drawing with no game started for a while (a lost task: Redis gone, a
worker killed). Measured
(bench/schedule.py): a division of 100 at Joker tables of 4 where everyone
meets everyone is 1,000 games and about 7 s of work (`--compare-seated`:
45 s when each game was made by joining it seat by seat); two-player Durak,
4,950 games.

`draw_season` is idempotent and resumable, and keeps each transaction short
(so a big draw never holds SQLite's write lock for long):
1. each division without fixtures: its schedule is searched for outside any
   transaction (pure CPU), then stored in one transaction, unless another
   run stored it meanwhile;
2. the tables to start (all, or the first round) are started
   `START_CHUNK` at a time, each chunk in a transaction that skips the
   tables another run started;
3. the season is marked running (and, round by round, a first round already
   over lets the second start).
Every transaction locks the season's row and does nothing unless the season
is still drawing, so two runs side by side (the task and the sweep) end in
the same state as one. A player who withdraws while the schedule is drawn
keeps his place in it: his tables are not played, as after the start.
"""

from __future__ import annotations

import logging

from collections.abc import Iterator

from celery import shared_task
from django.db import transaction
from django.db.models import Exists, OuterRef

from gameplay.models import Game

from leagues import fixtures, stored_standings
from leagues.models import Division, Fixture, League, Season

log = logging.getLogger(__name__)

START_CHUNK = 10  # games started per transaction (each holds the write lock: keep it short)


def draw_season(season_id: int) -> bool:
    """Store the schedules of a drawing season and start its games. True when
    this call put the season in play; False when there was nothing to do."""
    season = Season.objects.select_related("league").filter(pk=season_id).first()
    if season is None or season.status != Season.Status.DRAWING:
        return False
    for division in season.divisions.filter(fixtures__isnull=True).distinct():
        entry_ids = list(division.entries.order_by("pk").values_list("pk", flat=True))
        tables = fixtures.schedule_of(season.league, entry_ids, int(season.seed))
        _store_fixtures(season_id, division.pk, tables)
    to_start = Fixture.objects.filter(division__season_id=season_id, game=None)
    if season.league.start == League.Start.ROUNDS:
        to_start = to_start.filter(round=1)
    for chunk in _chunks(list(to_start.order_by("pk").values_list("pk", flat=True)), START_CHUNK):
        _start_fixtures(season_id, chunk)
    return _put_in_play(season_id)


def _chunks(items: list[int], size: int) -> Iterator[list[int]]:
    for start in range(0, len(items), size):
        yield items[start:start + size]


def _drawing(season_id: int) -> Season | None:
    """The season's row, locked, if it is still being drawn up."""
    season = Season.objects.select_for_update().select_related("league").filter(pk=season_id).first()
    return season if season is not None and season.status == Season.Status.DRAWING else None


@transaction.atomic
def _store_fixtures(season_id: int, division_id: int, tables: list[tuple[int, list[int]]]) -> None:
    if _drawing(season_id) is None or Fixture.objects.filter(division_id=division_id).exists():
        return
    Fixture.objects.bulk_create(Fixture(division_id=division_id, round=number, seats=seats)
                                for number, seats in tables)
    stored_standings.changed(division_id)  # the schedule: games left to play, the rounds


@transaction.atomic
def _start_fixtures(season_id: int, fixture_ids: list[int]) -> None:
    if _drawing(season_id) is None:
        return
    for fixture in Fixture.objects.filter(pk__in=fixture_ids, game=None).select_related("division__season__league"):
        fixtures.start_fixture(fixture)


@transaction.atomic
def _put_in_play(season_id: int) -> bool:
    season = _drawing(season_id)
    if season is None or season.divisions.filter(fixtures__isnull=True).exists():
        return False
    season.status = Season.Status.RUNNING
    season.save(update_fields=["status"])
    if season.league.start == League.Start.ROUNDS:  # a first round may be over already
        for division in Division.objects.filter(season=season).select_related("season__league"):
            fixtures.start_next_round_if_over(division, 1)
    return True


def seasons_left_drawing(older_than) -> list[int]:
    """Seasons still drawing that started before `older_than` and have
    started no game since: their task is lost or died (beat's sweep draws
    them again). A big draw still making progress (thousands of games take
    minutes) is left to the task doing it."""
    busy = Game.objects.filter(fixture__division__season=OuterRef("pk"), created_at__gte=older_than)
    return list(Season.objects.filter(status=Season.Status.DRAWING, started_at__lt=older_than)
                .exclude(Exists(busy)).order_by("pk").values_list("pk", flat=True))


@shared_task(ignore_result=True, name="leagues.tasks.draw_season")
def draw_season_task(season_id: int) -> None:
    draw_season(season_id)


def queue_draw(season_id: int) -> None:
    """After the commit of a season's start. If the broker refuses the task,
    the season stays "drawing" and beat's sweep draws it."""
    try:
        draw_season_task.delay(season_id)
    except Exception:
        log.exception("could not queue the drawing of season %s; the sweep will draw it", season_id)
