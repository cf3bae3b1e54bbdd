from datetime import datetime

from django import template
from django.utils import timezone

from correspondence import terms
from gameplay.clocks import format_duration
from gameplay.engine import ENGINES
from gameplay.i18n import engine_name

register = template.Library()


@register.filter
def duration(seconds) -> str:
    """90 -> "1 min 30 s"; days and hours only when there are days."""
    if seconds is None:
        return ""
    seconds = int(seconds)
    if seconds >= 86400:
        seconds -= seconds % 3600
    elif seconds >= 3600:
        seconds -= seconds % 60
    return format_duration(seconds)


@register.filter
def left_until(moment: datetime | None, now: datetime | None = None) -> str:
    """The time from now until `moment`, as `duration` says it ("" when none)."""
    if moment is None:
        return ""
    now = now or timezone.now()
    return duration(max(0, int((moment - now).total_seconds())))


@register.filter
def engine_label(slug: str) -> str:
    """A game's name in the active language from its slug ("Джокер")."""
    from_slug = ENGINES.get(slug)
    return engine_name(from_slug) if from_slug else slug


@register.filter
def challenge_terms(challenge) -> list[str]:
    """Every term of the challenge's table, in the active language."""
    return terms.challenge_terms(challenge)
