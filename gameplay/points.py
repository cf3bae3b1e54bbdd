"""How a game's points are written, the same on the score sheet, the profile,
the player pages and in the emails.

Each engine says in what units its sheet writes points
(`Engine.sheet_points_per_unit`): Joker in hundreds, as on the paper sheet
(the engine counts -210, the sheet says -2.1); the other games as they are.
No Django here: gameplay.results, the score sheets and the emails use it.
"""

from gameplay.engine import get_engine


def hundreds(points: float | None) -> str:
    """Totals are written in hundreds: 1450 -> 14.5, -200 -> -2.0."""
    if points is None:
        return ""
    return f"{points / 100:.1f}"


def format_points(engine: str, points: float | None) -> str:
    """A seat's points in the units of the game's score sheet ("" for none)."""
    if points is None:
        return ""
    unit = get_engine(engine).sheet_points_per_unit
    if unit != 1:
        return f"{points / unit:.1f}"
    return f"{points:g}"  # as the other sheets write them: 3.0 -> 3, -12.5 -> -12.5
