"""A rating history as a small SVG line chart with its axes: the points, the
value axis (lowest, highest and, between them, a middle value) and the date
axis (the first and the last game's dates); drawn by ratings/_player_ratings.html."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

WIDTH = 360
HEIGHT = 110
LEFT = 40  # the value axis' labels
BOTTOM = 18  # the date axis' labels
PAD = 6


@dataclass(frozen=True)
class Tick:
    position: float  # x for a date, y for a value
    label: str

    @property
    def at(self) -> str:
        """The position as an SVG coordinate: always with a decimal point, never in the page's language."""
        return f"{self.position:.1f}"


@dataclass(frozen=True)
class Chart:
    points: str  # "x,y x,y ..." for an SVG polyline
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    bottom: float = HEIGHT - BOTTOM  # y of the date axis
    right: float = WIDTH - PAD
    values: list[Tick] = field(default_factory=list)  # ticks of the value axis
    dates: list[Tick] = field(default_factory=list)  # ticks of the date axis


def rating_chart(values: list[int], dates: list[date] | None = None, date_label=None) -> Chart | None:
    """The line through a player's ratings after each rated game, oldest first
    (None with fewer than two: there is no line to draw). The lowest value
    sits at the bottom of the plot and the highest at the top; `dates` (the
    games' dates, as many as the values) label the date axis, each written by
    `date_label` (default ISO)."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1
    top, bottom, right = PAD, HEIGHT - BOTTOM, WIDTH - PAD
    step = (right - LEFT) / (len(values) - 1)

    def y_of(value: float) -> float:
        return top + (high - value) / span * (bottom - top)

    points = " ".join(f"{LEFT + i * step:.1f},{y_of(v):.1f}" for i, v in enumerate(values))
    ticks = sorted({low, high, round((low + high) / 2)}, reverse=True)
    value_ticks = [Tick(round(y_of(v), 1), str(v)) for v in ticks]
    date_ticks = []
    if dates and len(dates) == len(values):
        label = date_label or (lambda d: d.isoformat())
        date_ticks = [Tick(float(LEFT), label(dates[0]))]
        if dates[-1] != dates[0]:
            date_ticks.append(Tick(float(right), label(dates[-1])))
    return Chart(points=points, low=low, high=high, values=value_ticks, dates=date_ticks)
