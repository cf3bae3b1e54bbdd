"""How a game's points are written, the same on the score sheet, the profile,
the player pages and in the emails.

Joker points are written in hundreds, as on the paper sheet (the engine
counts -210, the sheet says -2.1); the other games' points as they are.
No Django here: gameplay.notifications uses it too.
"""

IN_HUNDREDS = frozenset({"joker"})


def hundreds(points: float | None) -> str:
    """Totals are written in hundreds: 1450 -> 14.5, -200 -> -2.0."""
    if points is None:
        return ""
    return f"{points / 100:.1f}"


def format_points(engine: str, points: float | None) -> str:
    """A seat's points in the units of the game's score sheet ("" for none)."""
    if points is None:
        return ""
    if engine in IN_HUNDREDS:
        return hundreds(points)
    return f"{points:g}"  # as the other sheets write them: 3.0 -> 3, -12.5 -> -12.5
