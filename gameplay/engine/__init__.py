"""Pure-Python game engines (no Django below this package) and their registry.

    from gameplay.engine import get_engine
    engine = get_engine("joker")

The contract every engine implements is described in ``core.py`` and in
ARCHITECTURE.md ("The engine contract").
"""

from __future__ import annotations

from .core import Engine, IllegalMove
from .durak import DurakEngine
from .ipuker import IpukerEngine
from .joker import JokerEngine
from .odessa import OdessaEngine

ENGINES: dict[str, Engine] = {engine.slug: engine for engine in (JokerEngine(), DurakEngine(), IpukerEngine(), OdessaEngine())}


def get_engine(slug: str) -> Engine:
    """The engine registered under ``slug``; ``KeyError`` naming the known games otherwise."""
    try:
        return ENGINES[slug]
    except (KeyError, TypeError):
        known = ", ".join(sorted(ENGINES))
        raise KeyError(f"Unknown game {slug!r}; known games: {known}") from None


__all__ = ["ENGINES", "Engine", "IllegalMove", "get_engine"]
