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
abort; a withdrawal, the end of a season), `standings_changed` marks the
division's stored standings stale in that transaction and queues one Celery
task (`push_standings_task`) after the commit, which reads the standings
once, renders them once per language, stores them
(`leagues.stored_standings`: what the page views read) and sends each
language's group its HTML: the cost does not grow with the number of pages
open or page views. Several changes
in a short time share a task (a cache key set while one is queued and not
yet started). Redis down: the task is not queued or the send fails, and the
page shows the new standings when reloaded or resynced (the database is
the truth).
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from celery import shared_task
from channels.layers import get_channel_layer
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import translation

from leagues import stored_standings
from django.db.models import Q

from leagues.models import Division, Entry, visible_leagues

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
    """Inside the transaction that changed a division's results: its stored
    standings are stale from the commit on, and pushed (stored anew) after it."""
    stored_standings.changed(division_id)
    transaction.on_commit(lambda: _queue_push(division_id))


# What else a division's standings show besides results and withdrawals (each of
# those calls `standings_changed` itself): the players' names, and the league's
# and the season's settings (points, tie-breaks, the lot's seed), changed by
# their owner or in the admin. Connected to post_save in LeaguesConfig.ready().
NAME_FIELDS = {"username", "display_name"}


def player_saved(sender, instance, created: bool, update_fields=None, **_kwargs) -> None:
    """A player's name is in every division he plays in."""
    if created or (update_fields is not None and not NAME_FIELDS & set(update_fields)):
        return  # a login's last_login, a new account: no name shown anywhere changed
    divisions = (Entry.objects.filter(Q(user_id=instance.pk) | Q(partner_id=instance.pk), division__isnull=False)
                 .values_list("division_id", flat=True).distinct())
    for division_id in divisions:
        standings_changed(division_id)


def league_saved(sender, instance, created: bool, **_kwargs) -> None:
    if not created:
        for division_id in Division.objects.filter(season__league_id=instance.pk).values_list("pk", flat=True):
            standings_changed(division_id)


def season_saved(sender, instance, created: bool, update_fields=None, **_kwargs) -> None:
    """The season's seed draws the lot (its status and dates are not in the standings)."""
    if not created and (update_fields is None or "seed" in update_fields):
        for division_id in Division.objects.filter(season_id=instance.pk).values_list("pk", flat=True):
            standings_changed(division_id)


def entry_saved(sender, instance, created: bool, **_kwargs) -> None:
    if instance.division_id:
        standings_changed(instance.division_id)


def fixture_saved(sender, instance, update_fields=None, **_kwargs) -> None:
    """A table edited (its seats, its credits); not the start of its game, which changes nothing shown."""
    if update_fields is None or set(update_fields) - {"game"}:
        standings_changed(instance.division_id)


def _queue_push(division_id: int) -> None:
    key = _QUEUED_KEY.format(division_id)
    try:
        if not cache.add(key, 1, timeout=_QUEUED_SECONDS):
            return  # a push is queued and has not read the standings yet: it will see this change
    except Exception:
        log.exception("the cache is unavailable; pushing the standings of division %s anyway", division_id)
    queue_push(division_id)


def push_standings(division_id: int) -> None:
    """Read the division's standings, store them and send each language's group its HTML."""
    try:
        cache.delete(_QUEUED_KEY.format(division_id))  # changes from now on queue another push
    except Exception:
        log.exception("the cache is unavailable")
    division = Division.objects.select_related("season__league").filter(pk=division_id).first()
    if division is None:
        return
    stored = stored_standings.refresh(division)
    layer = get_channel_layer()
    if layer is None:
        return
    send = async_to_sync(layer.group_send)
    for language, row in stored.items():
        message = {"type": "standings.update", "html": row.html, "stamp": row.computed_at.timestamp()}
        try:
            send(group_name(division_id, language), message)
        except Exception:
            log.exception("pushing the standings of division %s failed", division_id)
            return


def current(division_id: int, language: str) -> dict | None:
    """A "standings" message for one socket (a resync), or None if the division is gone."""
    division = Division.objects.select_related("season__league").filter(pk=division_id).first()
    if division is None:
        return None
    row = stored_standings.read(division, language)
    return {"type": "standings", "html": row.html, "stamp": row.computed_at.timestamp()}


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
