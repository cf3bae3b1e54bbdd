"""Who is on a game page now: no "your turn" email or notice goes to a player
looking at that game.

A game page's socket marks its seat present when it opens and at every
30-second ping: a key per seat in the cache (Redis with REDIS_URL, shared by
every process), holding the player's user id and expiring PRESENCE_SECONDS
after the last mark. Those marks used to be database writes, the seat's
`seen_at`, one per open game page every 30 seconds: at a large site's peak
more writes than its moves make (bench/README.md, `bench/heartbeat.py`).
The database keeps `seen_at` as "last seen" (the friends page): written when
the page opens and at most every SEEN_AT_WRITE_SECONDS while it stays open.

The key names the user, so a seat given to someone else (a moderator's
substitution) is not "present" for the new holder on the old one's page.

The cache is not the truth and may be away (Redis down): a mark it could not
take is written to `seen_at` instead, and a reader that cannot reach it
judges by `seen_at`, as the site did before. After an error the cache is
left alone for CACHE_RETRY_SECONDS, so that a Redis that does not answer
holds up the database thread (where the pings run) once, not at every ping.
"""

import logging
import time
from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from gameplay.models import Seat

log = logging.getLogger(__name__)

CACHE_RETRY_SECONDS = 10.0

_cache_away_until = 0.0  # time.monotonic() before which the cache is not tried


def _key(game_id: int, position: int) -> str:
    return f"presence:{game_id}:{position}"


def _cache_usable() -> bool:
    return time.monotonic() >= _cache_away_until


def _cache_failed(exc: Exception) -> None:
    global _cache_away_until
    _cache_away_until = time.monotonic() + CACHE_RETRY_SECONDS
    log.warning("presence: the cache is unavailable (%s); seen_at stands in for %.0f s", exc, CACHE_RETRY_SECONDS)


def mark(game_id: int, position: int, user_id: int, *, last_seen: bool = False) -> bool:
    """The player `user_id` of this seat is on the game page now. The seat's
    `seen_at` is written too with `last_seen`, or if the cache could not take
    the mark. Returns whether it was."""
    if _cache_marked(game_id, position, user_id) and not last_seen:
        return False
    Seat.objects.filter(game_id=game_id, position=position).update(seen_at=timezone.now())
    return True


def _cache_marked(game_id: int, position: int, user_id: int) -> bool:
    if not _cache_usable():
        return False
    try:
        cache.set(_key(game_id, position), user_id, timeout=settings.PRESENCE_SECONDS)
    except Exception as exc:  # Redis away: the database stands in
        _cache_failed(exc)
        return False
    return True


def present(seats: Iterable[Seat], now: datetime | None = None) -> set[int]:
    """The ids of these seats whose player is on the game page (one cache read)."""
    seats = [seat for seat in seats if seat.user_id is not None]
    if not seats:
        return set()
    if _cache_usable():
        try:
            found = cache.get_many([_key(seat.game_id, seat.position) for seat in seats])
        except Exception as exc:  # Redis away: judge by seen_at
            _cache_failed(exc)
        else:
            return {seat.pk for seat in seats if found.get(_key(seat.game_id, seat.position)) == seat.user_id}
    recent = (now or timezone.now()) - timedelta(seconds=settings.PRESENCE_SECONDS)
    return {seat.pk for seat in seats if seat.seen_at is not None and seat.seen_at > recent}


def is_present(seat: Seat, now: datetime | None = None) -> bool:
    return seat.pk in present([seat], now)
