"""The Joker computer player: a pure function of what its seat may see (no Django, no state).

A simple but sensible player: bids from hand strength, plays to make exactly
its bid, names trump by its longest and strongest suit. The bidding and play
helpers are shared with Odessa poker's player (``bots/tricks.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from gameplay.bots.tricks import choose_play, closest_bid, estimate_tricks, find
from gameplay.engine.cards import is_joker, rank_value, suit_of

Action = dict[str, Any]

__all__ = ["choose_bid", "choose_joker_action", "choose_trump", "estimate_tricks"]


def choose_joker_action(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The Joker bot's move from the seat's view and its legal actions."""
    phase = view["phase"]
    if phase == "trump":
        return find(legal, suit=choose_trump(view["hand"]))
    if phase == "bid":
        return choose_bid(view, legal)
    if phase == "play":
        seat = view["seat"]
        return choose_play(view, legal, wants_tricks=view["bids"][seat] > view["taken"][seat])
    return rng.choice(legal)


def choose_trump(seen: list[str]) -> str | None:
    """Trump from the 3 cards seen: the longest suit, then the strongest; none if nothing stands out."""
    ordinary = [card for card in seen if not is_joker(card)]
    if not ordinary:
        return None
    lengths = Counter(card[1] for card in ordinary)

    def strength(suit: str) -> tuple[int, int]:
        return lengths[suit], sum(rank_value(card) for card in ordinary if suit_of(card) == suit)

    best = max(lengths, key=strength)
    has_honour = any(suit_of(card) == best and card[0] in "AK" for card in ordinary)
    return best if lengths[best] >= 2 or has_honour else None


def choose_bid(view: dict, legal: list[Action]) -> Action:
    """The allowed bid closest to the hand's estimate (the lower one on a tie)."""
    return closest_bid(legal, min(estimate_tricks(view["hand"], view["trump"]), view["cards"]))
