"""The new-table form's preview of Odessa poker's deal schedule.

The schedule is the engine's own (``engine.odessa_setup.deal_schedule``);
this module words it ("1–8, 9 ×4, 8–1, blind 9 ×4 … — 31 deals"); the form's
script asks `gameplay.previews` for it.
"""

from __future__ import annotations

from django.utils.translation import ngettext

from gameplay.engine.core import InvalidSetup
from gameplay.engine.odessa_setup import deal_schedule
from gameplay.movelog.odessa import special_name

def runs(deals: list[dict]) -> list[tuple[int, str | None, int]]:
    """(cards, special, how many deals in a row) for each run of equal deals."""
    grouped: list[tuple[int, str | None, int]] = []
    for deal in deals:
        key = (deal["cards"], deal["special"])
        if grouped and grouped[-1][:2] == key:
            grouped[-1] = (*key, grouped[-1][2] + 1)
        else:
            grouped.append((*key, 1))
    return grouped


def summary(deals: list[dict]) -> str:
    """The schedule in a few words: single deals rising or falling by one as "1–8", repeats as "9 ×4"."""
    parts: list[str] = []
    steps: list[int] = []  # a rising or falling stretch of single ordinary deals

    def close_steps() -> None:
        if steps:
            parts.append(str(steps[0]) if len(steps) == 1 else f"{steps[0]}–{steps[-1]}")
            steps.clear()

    for cards, special, count in runs(deals):
        if special is None and count == 1:
            direction = steps[-1] - steps[-2] if len(steps) > 1 else None
            if steps and abs(cards - steps[-1]) == 1 and direction in (None, cards - steps[-1]):
                steps.append(cards)
                continue
            close_steps()
            steps.append(cards)
            continue
        close_steps()
        text = f"{cards} ×{count}" if count > 1 else str(cards)
        parts.append(f"{special_name(special)} {text}" if special else text)
    close_steps()
    total = ngettext("%(n)s deal", "%(n)s deals", len(deals)) % {"n": len(deals)}
    return f"{', '.join(parts)} — {total}"


def schedule_text(players: int, options: dict) -> str:
    """The schedule of these options in words; "" where they do not fit together."""
    try:
        return summary(deal_schedule(players, options))
    except InvalidSetup:
        return ""
