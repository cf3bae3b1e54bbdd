"""A rating history as a small SVG line: points computed here, drawn by ratings/_chart.html."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 320
HEIGHT = 80
PAD = 4


@dataclass(frozen=True)
class Chart:
    points: str  # "x,y x,y ..." for an SVG polyline
    low: int
    high: int
    width: int = WIDTH
    height: int = HEIGHT


def rating_chart(values: list[int]) -> Chart | None:
    """The line through a player's ratings after each rated game, oldest first
    (None with fewer than two: there is no line to draw). The lowest value
    sits at the bottom of the box and the highest at the top."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / (len(values) - 1)
    points = " ".join(
        f"{PAD + i * step:.1f},{PAD + (high - v) / span * (HEIGHT - 2 * PAD):.1f}" for i, v in enumerate(values)
    )
    return Chart(points=points, low=low, high=high)
