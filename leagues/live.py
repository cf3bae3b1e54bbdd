"""Live standings: a division's page follows its standings over a WebSocket.

Protocol of `/ws/leagues/divisions/<division id>/` (JSON text frames;
`leagues.consumers.StandingsConsumer`):
  server -> {"type": "standings", "html": "...", "stamp": 1764090000.123}
      the standings part of the division's page (table, why-lines, lot,
      cross-table), rendered in the socket's language; `stamp` is when its
      data was read: a page keeps the newest it has seen
  client -> {"type": "sync"}   (after a reconnect: answered with a "standings";
      at most one every SYNC_SECONDS, others are ignored)
  server -> {"type": "error", "code": "bad_request" | "rate_limited" | "busy", "message": "..."}

Who may follow: whoever may see the league (`models.visible_leagues`):
anyone for a public league, its members, organizer and staff for an
invite-only one; others are closed with 4403. Only what the page shows is
sent: the standings are public to whoever sees the league.

When a league game's end commits (`services.game_over`: a result or an
abort; a withdrawal, the end of a season), `standings_changed` queues one Celery task
(`push_standings_task`) after the commit, which reads the standings
once, renders them once per language and sends each language's group its
HTML: the cost does not grow with the number of pages open. Several changes
in a short time share a task (a cache key set while one is queued and not
yet started). Redis down: the task is not queued or the send fails, and the
page shows the new standings when reloaded or resynced (the database is
the truth).
"""

from __future__ import annotations

import logging
import time

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import translation

from leagues.models import Division, visible_leagues
from leagues.standings import division_standings
from scoresheets.standings_view import standings_table

log = logging.getLogger(__name__)

SYNC_SECONDS = 10
_QUEUED_KEY = "leagues:standings-push:{}"
_QUEUED_SECONDS = 30  # a queued push's key expires by itself if its task is lost


def language_of(code: str | None) -> str:
    """One of settings.LANGUAGES for a socket's language."""
    try:
        return translation.get_supported_language_variant(code or settings.LANGUAGE_CODE)
    except LookupError:
        return settings.LANGUAGES[0][0]


def group_name(division_id: int, language: str) -> str:
    return f"standings-{division_id}-{language}"


def may_follow(division_id: int, user) -> bool:
    return Division.objects.filter(pk=division_id, season__league__in=visible_leagues(user)).exists()


def standings_changed(division_id: int) -> None:
    """Inside the transaction that changed a division's results: push its
    standings after the commit."""
    transaction.on_commit(lambda: _queue_push(division_id))


def _queue_push(division_id: int) -> None:
    key = _QUEUED_KEY.format(division_id)
    try:
        if not cache.add(key, 1, timeout=_QUEUED_SECONDS):
            return  # a push is queued and has not read the standings yet: it will see this change
    except Exception:
        log.exception("the cache is unavailable; pushing the standings of division %s anyway", division_id)
    queue_push(division_id)


def push_standings(division_id: int) -> None:
    """Read the division's standings and send each language's group its HTML."""
    try:
        cache.delete(_QUEUED_KEY.format(division_id))  # changes from now on queue another push
    except Exception:
        log.exception("the cache is unavailable")
    layer = get_channel_layer()
    division = Division.objects.select_related("season__league").filter(pk=division_id).first()
    if layer is None or division is None:
        return
    stamp = time.time()
    standings = division_standings(division)
    send = async_to_sync(layer.group_send)
    for language, _name in settings.LANGUAGES:
        message = {"type": "standings.update", "html": render(standings, language), "stamp": stamp}
        try:
            send(group_name(division_id, language), message)
        except Exception:
            log.exception("pushing the standings of division %s failed", division_id)
            return


def render(standings, language: str) -> str:
    """The standings part of the division's page, in `language`."""
    with translation.override(language):
        return render_to_string("leagues/_standings.html", {
            "division": standings.division, "season": standings.division.season,
            "league": standings.division.season.league, "table": standings_table(standings)})


def current(division_id: int, language: str) -> dict | None:
    """A "standings" message for one socket (a resync), or None if the division is gone."""
    division = Division.objects.select_related("season__league").filter(pk=division_id).first()
    if division is None:
        return None
    stamp = time.time()
    return {"type": "standings", "html": render(division_standings(division), language), "stamp": stamp}


@shared_task(ignore_result=True, name="leagues.tasks.push_standings")
def push_standings_task(division_id: int) -> None:
    push_standings(division_id)


def queue_push(division_id: int) -> None:
    """After the commit of a league game's result. A refused task loses only
    the live update: the page shows the new standings when reloaded."""
    try:
        push_standings_task.delay(division_id)
    except Exception:
        log.exception("could not queue the standings push of division %s", division_id)
