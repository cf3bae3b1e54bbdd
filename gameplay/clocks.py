"""Time controls: presets, pauses, deadlines and the time a player used.

The engine says who is on the clock and what expiry does
(`engine.timers(state)`); the platform keeps the clocks:

- A seat goes on the clock with `move_seconds` of running time; when they
  are spent its reserve (a bank for the whole game, never refilled) runs;
  when that is spent too, the expiry applies (an automatic move or a loss).
- A clock does not run while its player pauses: during his night window
  (local time in his own time zone, when the table allows night pauses) and
  during his vacation. So deadlines are computed by `advance`, which skips
  paused intervals, and the time charged by `running_seconds`.
- Deadlines are rows (`Seat.deadline`), written in the same transaction as
  the move that starts them; Celery tasks and beat's sweep only enforce them.

Everything here is pure: times in, times out (aware datetimes).
"""

import hashlib
import hmac
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class TimePreset:
    slug: str
    label: str
    move_seconds: int
    reserve_seconds: int
    night_pause: bool


HOUR = 3600
DAY = 24 * HOUR

PRESETS = {
    p.slug: p
    for p in [
        TimePreset("live", _("Live: 30 s a move + 2 min reserve"), 30, 2 * 60, False),
        TimePreset("rapid", _("Rapid correspondence: 1 h a move + 1 day reserve"), HOUR, DAY, True),
        TimePreset("correspondence", _("Correspondence: 1 day a move + 3 days reserve"), DAY, 3 * DAY, True),
        TimePreset("slow", _("Slow: 3 days a move + 7 days reserve"), 3 * DAY, 7 * DAY, True),
    ]
}
DEFAULT_PRESET = "correspondence"

# "Less than 20% of your time left" is sent once a turn at this share of move + reserve time.
WARN_SHARE = 0.8


@dataclass(frozen=True)
class Pauses:
    """When one player's clock stops: a nightly window in his time zone and his vacations."""

    time_zone: str = "UTC"
    night_start: time | None = None
    night_end: time | None = None
    vacations: tuple[tuple[datetime, datetime], ...] = field(default=())

    def intervals_from(self, start: datetime) -> Iterator[tuple[datetime, datetime]]:
        """Paused intervals that end after `start`, in order, merged; endless
        when there is a night window."""
        nights = self._nights_from(start)
        vacations = iter(sorted(v for v in self.vacations if v[1] > start))
        pending = _merge_sorted(nights, vacations)
        current = next(pending, None)
        for interval in pending:
            if current is not None and interval[0] <= current[1]:
                current = (current[0], max(current[1], interval[1]))
                continue
            yield current
            current = interval
        if current is not None:
            yield current

    def _nights_from(self, start: datetime) -> Iterator[tuple[datetime, datetime]]:
        if self.night_start is None or self.night_end is None or self.night_start == self.night_end:
            return
        zone = ZoneInfo(self.time_zone)
        day = start.astimezone(zone).date() - timedelta(days=1)
        while True:
            begin = _local(day, self.night_start, zone)
            end_day = day if self.night_end > self.night_start else day + timedelta(days=1)
            end = _local(end_day, self.night_end, zone)
            if end > start:
                yield begin, end
            day += timedelta(days=1)


def _local(day: date, at: time, zone: ZoneInfo) -> datetime:
    """A local wall-clock time as UTC; a time skipped by a DST change falls
    after the jump, a repeated one on its first occurrence."""
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def _merge_sorted(a: Iterator, b: Iterator) -> Iterator:
    x, y = next(a, None), next(b, None)
    while x is not None or y is not None:
        if y is None or (x is not None and x[0] <= y[0]):
            yield x
            x = next(a, None)
        else:
            yield y
            y = next(b, None)


NO_PAUSES = Pauses()


def advance(start: datetime, seconds: float, pauses: Pauses = NO_PAUSES) -> datetime:
    """The moment at which `seconds` of running clock time have passed since `start`."""
    now, left = start, float(seconds)
    for begin, end in pauses.intervals_from(start):
        if begin > now:
            run = (begin - now).total_seconds()
            if run >= left:
                break
            left -= run
        now = max(now, end)
    return now + timedelta(seconds=left)


def running_seconds(start: datetime, end: datetime, pauses: Pauses = NO_PAUSES) -> float:
    """Seconds the clock ran between `start` and `end` (paused time excluded)."""
    if end <= start:
        return 0.0
    total = (end - start).total_seconds()
    for begin, stop in pauses.intervals_from(start):
        if begin >= end:
            break
        total -= (min(stop, end) - max(begin, start)).total_seconds()
    return max(0.0, total)


def is_paused(at: datetime, pauses: Pauses) -> bool:
    first = next(pauses.intervals_from(at), None)
    return first is not None and first[0] <= at


def format_duration(seconds: int) -> str:
    """Compact human form: 90 -> '1 min 30 s', 86400 -> '1 d'."""
    parts = []
    for unit, size in ((_("d"), DAY), (_("h"), HOUR), (_("min"), 60), (_("s"), 1)):
        count, seconds = divmod(int(seconds), size)
        if count:
            parts.append(f"{count} {unit}")
    return " ".join(parts) or f"0 {_('s')}"


def release_delay(secret: str, game_id: int, version: int, position: int, clock_seconds: int,
                  longest: float, shortest: float = 1.0, share: float = 0.5) -> float:
    """Seconds after a seat goes on the clock at which its standing orders
    are looked at (and the move one gives is made): drawn uniformly from
    [shortest, min(longest, share × the move time)] by an HMAC-SHA-256 of
    the server's `secret` and "game:version:seat". It depends on nothing
    else: not on the cards, not on whether an order applies, not on the
    orders at all, so the moment a move by order appears tells the table
    nothing a move by hand at that moment would not. Always before the
    deadline (`share` < 1 of the move time, which pauses only lengthen)."""
    digest = hmac.new(secret.encode(), f"{game_id}:{version}:{position}".encode(), hashlib.sha256).digest()
    fraction = int.from_bytes(digest[:8], "big") / 2**64
    top = max(0.0, min(longest, share * clock_seconds))
    low = min(shortest, top)
    return low + fraction * (top - low)


def nearest_clock_event(seats: Iterator[tuple], now: datetime) -> datetime | None:
    """The nearest future moment a game's deadline task watches, given its
    seats' (deadline, warn_at, warned, order_at): a deadline, an unsent
    warning or a standing orders' release; None if there is none."""
    times = []
    for deadline, warn_at, warned, order_at in seats:
        times.extend(t for t in (deadline, order_at) if t and t > now)
        if warn_at and not warned and warn_at > now:
            times.append(warn_at)
    return min(times, default=None)
