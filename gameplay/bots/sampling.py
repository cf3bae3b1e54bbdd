"""Helpers the games' determinisers share: dealing the unseen cards or tiles afresh.

A determiniser (``determinise_<game>`` in ``bots/<game>.py``) builds a world
for the search (``bots/search.py``): a copy of the state whose every hidden
field is overwritten from the seat's view, the public record and ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

SEED_BITS = 63


def unseen(deck: Iterable[str], known: Iterable[str]) -> list[str]:
    """The cards of ``deck`` (in its canonical order) that are not ``known``."""
    seen = set(known)
    return [card for card in deck if card not in seen]


def shuffled_pool(deck: Iterable[str], known: Iterable[str], rng: random.Random) -> list[str]:
    """The unseen cards in a fresh random order drawn from ``rng``."""
    pool = unseen(deck, known)
    rng.shuffle(pool)
    return pool


def take(pool: list[str], count: int) -> list[str]:
    """The first ``count`` cards of ``pool``, removed from it."""
    if count > len(pool):
        raise ValueError(f"Cannot sample {count} unseen cards from {len(pool)}.")
    taken = pool[:count]
    del pool[:count]
    return taken


def fresh_seed(rng: random.Random) -> int:
    """A seed for the world's later deals (the real one is secret)."""
    return rng.getrandbits(SEED_BITS)
