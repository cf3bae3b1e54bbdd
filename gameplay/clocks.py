"""Time controls: presets, and the time a player used for a move.

The engine says who is on the clock (`engine.timers(state)`); the platform
keeps the clocks. Deadlines are stored on `Seat.deadline` in the same
transaction as the move that starts them.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class TimePreset:
    slug: str
    label: str
    move_seconds: int
    reserve_seconds: int


HOUR = 3600
DAY = 24 * HOUR

PRESETS = {
    p.slug: p
    for p in [
        TimePreset("live", _("Live: 30 s a move + 2 min reserve"), 30, 120),
        TimePreset("rapid", _("Rapid correspondence: 1 h a move + 1 day reserve"), HOUR, DAY),
        TimePreset("correspondence", _("Correspondence: 1 day a move + 3 days reserve"), DAY, 3 * DAY),
        TimePreset("slow", _("Slow: 3 days a move + 7 days reserve"), 3 * DAY, 7 * DAY),
    ]
}
DEFAULT_PRESET = "correspondence"


def deadline_for(now: datetime, move_seconds: int) -> datetime:
    return now + timedelta(seconds=move_seconds)


def time_used_ms(turn_started_at: datetime | None, now: datetime) -> int:
    if turn_started_at is None:
        return 0
    return max(0, int((now - turn_started_at).total_seconds() * 1000))


def format_duration(seconds: int) -> str:
    """Compact human form: 90 -> '1 min 30 s', 86400 -> '1 d'."""
    parts = []
    for unit, size in ((_("d"), DAY), (_("h"), HOUR), (_("min"), 60), (_("s"), 1)):
        count, seconds = divmod(seconds, size)
        if count:
            parts.append(f"{count} {unit}")
    return " ".join(parts) or "0 s"
