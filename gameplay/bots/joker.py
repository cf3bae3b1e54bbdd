"""The Joker computer player: a pure function of what its seat may see (no Django, no state).

A simple but sensible player: bids from hand strength, plays to make exactly
its bid, names trump by its longest and strongest suit.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from gameplay.engine.cards import SUITS, is_joker, rank_value, suit_of
from gameplay.engine.tricks import HIGH, LOW, Play, Trick

Action = dict[str, Any]

# Expected tricks from single cards when bidding (rough, but in the right order).
TRUMP_HONOUR_VALUE = {"A": 1.0, "K": 0.8, "Q": 0.5, "J": 0.3}
SIDE_ACE_VALUE = 0.8
SIDE_KING_VALUE = 0.4
NO_TRUMP_ACE_VALUE = 0.9
NO_TRUMP_KING_VALUE = 0.4
LONG_TRUMP_VALUE = 0.5
LONG_TRUMP_FROM = 3


def choose_joker_action(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The Joker bot's move from the seat's view and its legal actions."""
    phase = view["phase"]
    if phase == "trump":
        return _find(legal, suit=choose_trump(view["hand"]))
    if phase == "bid":
        return choose_bid(view, legal)
    if phase == "play":
        return choose_play(view, legal)
    return rng.choice(legal)


def _find(legal: list[Action], **fields: Any) -> Action:
    """The legal action with these field values (the first one if none matches exactly)."""
    for action in legal:
        if all(action.get(key) == value for key, value in fields.items()):
            return action
    return legal[0]


# -- trump ---------------------------------------------------------------------


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


# -- bidding ---------------------------------------------------------------------


def estimate_tricks(hand: list[str], trump: str | None) -> float:
    """Expected tricks: jokers, high trumps, long trumps and side aces/kings."""
    estimate = float(sum(1 for card in hand if is_joker(card)))
    by_suit = {suit: [card for card in hand if suit_of(card) == suit] for suit in SUITS}
    for suit, cards in by_suit.items():
        if suit == trump:
            estimate += sum(TRUMP_HONOUR_VALUE.get(card[0], 0.0) for card in cards)
            estimate += LONG_TRUMP_VALUE * max(0, len(cards) - LONG_TRUMP_FROM)
        elif trump is None:
            estimate += NO_TRUMP_ACE_VALUE * _count_rank(cards, "A")
            estimate += NO_TRUMP_KING_VALUE * _count_rank(cards, "K") * (len(cards) >= 2)
        else:
            estimate += SIDE_ACE_VALUE * _count_rank(cards, "A")
            estimate += SIDE_KING_VALUE * _count_rank(cards, "K") * (len(cards) >= 2)
    return estimate


def _count_rank(cards: list[str], rank: str) -> int:
    return sum(1 for card in cards if card[0] == rank)


def choose_bid(view: dict, legal: list[Action]) -> Action:
    """The allowed bid closest to the hand's estimate (the lower one on a tie)."""
    estimate = min(estimate_tricks(view["hand"], view["trump"]), view["cards"])
    return min(legal, key=lambda action: (abs(action["tricks"] - estimate), action["tricks"]))


# -- playing -----------------------------------------------------------------------


def _as_play(seat: int, action: Action) -> Play:
    return Play(seat=seat, card=action["card"], joker=action.get("joker"), suit=action.get("suit"))


def _cost(action: Action, trump: str | None) -> tuple[int, int, int, int]:
    """How much playing ``action`` spends: jokers cost most, then trumps, then by rank."""
    card = action["card"]
    if is_joker(card):
        return (1, 1, 0, 0 if action.get("joker") == LOW else 1)
    return (0, int(suit_of(card) == trump), rank_value(card), SUITS.index(card[1]))


def cheapest(actions: list[Action], trump: str | None) -> Action:
    return min(actions, key=lambda action: _cost(action, trump))


def dearest_ordinary(actions: list[Action], trump: str | None) -> Action | None:
    ordinary = [action for action in actions if not is_joker(action["card"])]
    return max(ordinary, key=lambda action: _cost(action, trump)) if ordinary else None


def lowest_card(actions: list[Action], trump: str | None) -> Action:
    """The weakest action: the lowest ordinary card, else a joker played low."""
    ordinary = [action for action in actions if not is_joker(action["card"])]
    if ordinary:
        return cheapest(ordinary, trump)
    lows = [action for action in actions if action.get("joker") == LOW]
    return lows[0] if lows else actions[0]


def choose_play(view: dict, legal: list[Action]) -> Action:
    """Win cheaply while the bid is not made yet; otherwise stay under the winning card."""
    seat, trump = view["seat"], view["trump"]
    wants_tricks = view["bids"][seat] > view["taken"][seat]
    trick = Trick.from_dicts(view["trick"], trump)
    if trick.is_empty:
        return choose_lead(legal, trump, wants_tricks)
    winning = [action for action in legal if trick.add(_as_play(seat, action)).winner() == seat]
    if not winning:
        return lowest_card(legal, trump)
    if wants_tricks:
        return cheapest(winning, trump)
    losing = [action for action in legal if action not in winning]
    return dearest_ordinary(losing, trump) or lowest_card(legal, trump)


def choose_lead(legal: list[Action], trump: str | None, wants_tricks: bool) -> Action:
    """Lead a top card (or the joker high, naming the trump) to win; the lowest card otherwise."""
    if not wants_tricks:
        return lowest_card(legal, trump)
    ordinary = [action for action in legal if not is_joker(action["card"])]
    aces = [action for action in ordinary if action["card"][0] == "A"]
    if aces:
        return max(aces, key=lambda action: _cost(action, trump))
    high_jokers = [action for action in legal if action.get("joker") == HIGH]
    if high_jokers:
        named = trump or _longest_suit([action["card"] for action in ordinary])
        return _find(high_jokers, joker=HIGH, suit=named)
    return max(ordinary, key=lambda action: _cost(action, trump))


def _longest_suit(cards: list[str]) -> str:
    lengths = Counter(card[1] for card in cards)
    return max(SUITS, key=lambda suit: lengths[suit])
