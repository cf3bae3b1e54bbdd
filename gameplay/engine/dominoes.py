"""Domino tiles of the double-six set in the project's notation.

A tile is a string ``"a-b"`` with ``0 <= a <= b <= 6``, the smaller half
first: ``"0-0"``, ``"1-1"``, ``"2-6"``. Its pips are ``a + b``. The set has
28 tiles; ``make_set`` gives them in canonical order (``0-0 0-1 … 0-6 1-1 …
6-6``), the order a shuffle starts from (``core.shuffled``).

Tiles read the same in every language, so a tile may be a parameter of a
translated message (see ``core``, "Messages for players").

Everything here is plain functions over strings, so tiles are stored in a
JSON state as they are; what makes a tile strong is each game's business
(domino Poker: ``domino_poker_rules``).
"""

from __future__ import annotations

from typing import TypeGuard

HIGHEST_HALF = 6


def tile(first: int, second: int) -> str:
    """The notation of the tile with these halves, in either order: ``tile(5, 0) == "0-5"``."""
    low, high = sorted((first, second))
    if not 0 <= low <= high <= HIGHEST_HALF:
        raise ValueError(f"No double-six tile has halves {first} and {second}")
    return f"{low}-{high}"


def make_set() -> list[str]:
    """The 28 tiles of the double-six set in canonical order."""
    return [tile(low, high) for low in range(HIGHEST_HALF + 1) for high in range(low, HIGHEST_HALF + 1)]


TILES: tuple[str, ...] = tuple(make_set())
_TILE_SET = frozenset(TILES)


def is_tile(code: object) -> TypeGuard[str]:
    """True if ``code`` is a tile of the double-six set written smaller half first."""
    return isinstance(code, str) and code in _TILE_SET


def halves(code: str) -> tuple[int, int]:
    """The two halves of a tile, smaller first: ``halves("2-5") == (2, 5)``."""
    low, high = code.split("-")
    return int(low), int(high)


def pips(code: str) -> int:
    """The number of pips (dots) on a tile: ``pips("2-5") == 7``."""
    low, high = halves(code)
    return low + high


def is_double(code: str) -> bool:
    """True for ``0-0``, ``1-1`` … ``6-6``."""
    low, high = halves(code)
    return low == high


def has_blank(code: str) -> bool:
    """True if one half (or both) is blank: ``0-0`` … ``0-6``."""
    return halves(code)[0] == 0
