"""What the Joker and Odessa poker computer players share: bidding from hand strength and
playing to make exactly the bid (pure functions of a seat's view and legal actions).

Where the games differ it is a parameter: ``jokers`` (the cards that act as
the joker: Joker's ``X1 X2``, Odessa's ``7S`` or ``X1``) and ``rules`` (the
``JokerRules`` the trick is judged by). A joker play among the legal actions
is recognised by its ``"joker"`` field, whatever card stands for the joker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from typing import Any

from gameplay.engine.cards import JOKERS, SUITS, rank_value, suit_of
from gameplay.engine.tricks import GEORGIAN, HIGH, LOW, JokerRules, Play, Trick

Action = dict[str, Any]

# Expected tricks from single cards when bidding (rough, but in the right order).
TRUMP_HONOUR_VALUE = {"A": 1.0, "K": 0.8, "Q": 0.5, "J": 0.3}
SIDE_ACE_VALUE = 0.8
SIDE_KING_VALUE = 0.4
NO_TRUMP_ACE_VALUE = 0.9
NO_TRUMP_KING_VALUE = 0.4
LONG_TRUMP_VALUE = 0.5
LONG_TRUMP_FROM = 3


def find(legal: list[Action], **fields: Any) -> Action:
    """The legal action with these field values (the first one if none matches exactly)."""
    for action in legal:
        if all(action.get(key) == value for key, value in fields.items()):
            return action
    return legal[0]


def is_joker_action(action: Action) -> bool:
    """True for a joker play (it says how the joker plays)."""
    return action.get("joker") is not None


# -- bidding ---------------------------------------------------------------------


def estimate_tricks(hand: list[str], trump: str | None, jokers: Collection[str] = JOKERS) -> float:
    """Expected tricks: jokers, high trumps, long trumps and side aces/kings."""
    estimate = float(sum(1 for card in hand if card in jokers))
    ordinary = [card for card in hand if card not in jokers]
    by_suit = {suit: [card for card in ordinary if suit_of(card) == suit] for suit in SUITS}
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


def closest_bid(legal: list[Action], estimate: float) -> Action:
    """The allowed bid closest to ``estimate`` (the lower one on a tie)."""
    return min(legal, key=lambda action: (abs(action["tricks"] - estimate), action["tricks"]))


# -- playing -----------------------------------------------------------------------


def as_play(seat: int, action: Action) -> Play:
    return Play(seat=seat, card=action["card"], joker=action.get("joker"), suit=action.get("suit"))


def cost(action: Action, trump: str | None) -> tuple[int, int, int, int]:
    """How much playing ``action`` spends: jokers cost most, then trumps, then by rank."""
    card = action["card"]
    if is_joker_action(action):
        return (1, 1, 0, 0 if action.get("joker") == LOW else 1)
    return (0, int(suit_of(card) == trump), rank_value(card), SUITS.index(card[1]))


def cheapest(actions: list[Action], trump: str | None) -> Action:
    return min(actions, key=lambda action: cost(action, trump))


def dearest_ordinary(actions: list[Action], trump: str | None) -> Action | None:
    ordinary = [action for action in actions if not is_joker_action(action)]
    return max(ordinary, key=lambda action: cost(action, trump)) if ordinary else None


def lowest_card(actions: list[Action], trump: str | None) -> Action:
    """The weakest action: the lowest ordinary card, else a joker played low."""
    ordinary = [action for action in actions if not is_joker_action(action)]
    if ordinary:
        return cheapest(ordinary, trump)
    lows = [action for action in actions if action.get("joker") == LOW]
    return lows[0] if lows else actions[0]


def choose_play(view: dict, legal: list[Action], wants_tricks: bool, rules: JokerRules = GEORGIAN,
                joker_lead: str = HIGH) -> Action:
    """Win cheaply while more tricks are wanted; otherwise stay under the winning card."""
    seat, trump = view["seat"], view["trump"]
    trick = Trick.from_dicts(view["trick"], trump, rules)
    if trick.is_empty:
        return choose_lead(legal, trump, wants_tricks, joker_lead)
    winning = [action for action in legal if trick.add(as_play(seat, action)).winner() == seat]
    if not winning:
        return lowest_card(legal, trump)
    if wants_tricks:
        return cheapest(winning, trump)
    losing = [action for action in legal if action not in winning]
    if not losing:
        return lowest_card(legal, trump)
    return dearest_ordinary(losing, trump) or lowest_card(losing, trump)


def choose_lead(legal: list[Action], trump: str | None, wants_tricks: bool, joker_lead: str = HIGH) -> Action:
    """Lead a top card (or the joker ``joker_lead``, naming the trump) to win; the lowest card otherwise."""
    if not wants_tricks:
        return lowest_card(legal, trump)
    ordinary = [action for action in legal if not is_joker_action(action)]
    aces = [action for action in ordinary if action["card"][0] == "A"]
    if aces:
        return max(aces, key=lambda action: cost(action, trump))
    leads = [action for action in legal if action.get("joker") == joker_lead] or [
        action for action in legal if action.get("joker") == HIGH]
    if leads:
        named = trump or longest_suit([action["card"] for action in ordinary])
        return find(leads, joker=leads[0]["joker"], suit=named)
    return max(ordinary, key=lambda action: cost(action, trump))


def longest_suit(cards: list[str]) -> str:
    lengths = Counter(card[1] for card in cards)
    return max(SUITS, key=lambda suit: lengths[suit])
