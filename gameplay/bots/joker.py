"""The Joker computer player: a pure function of what its seat may see (no Django, no state).

A simple but sensible player: bids from hand strength, plays to make exactly
its bid, names trump by its longest and strongest suit. The bidding and play
helpers are shared with Odessa poker's player (``bots/tricks.py``).

Levels 2 and 3 (``JOKER_SEARCH``): PIMC (``bots/search.py``) to the end of the
deal, for the trump call, the bid and every card. Why PIMC: a Joker
decision is judged by the deal it is made in (the bid against the tricks
the hand takes), the level-1 player already plays a deal sensibly, so
rollouts by it rank a few candidate actions well within a few hundred
iterations; ISMCTS would spread the same budget over a deep tree of card
plays. ``determinise_joker`` deals the unseen cards afresh (others' hands,
the trump chooser's unseen six, the rest behind the turned card) around
the seat's cards and the cards played this deal, never giving a player a
card the deal's plays prove it cannot hold (a suit it did not follow, a
trump it did not play, a higher card than it gave to a joker's "highest":
``bots/inference.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from gameplay.bots.inference import deal_avoiding, trick_view_exclusions
from gameplay.bots.sampling import fresh_seed, shuffled_pool
from gameplay.bots.search import SearchGame, relative_score, view_policy
from gameplay.bots.tricks import choose_play, closest_bid, estimate_tricks, find
from gameplay.engine.cards import is_joker, rank_value, suit_of
from gameplay.engine.core import clone
from gameplay.engine.joker import joker_deck
from gameplay.engine.tricks import GEORGIAN

Action = dict[str, Any]

__all__ = ["JOKER_SEARCH", "choose_bid", "choose_joker_action", "choose_trump", "determinise_joker",
           "estimate_tricks"]


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


# -- the search levels' world sampler ------------------------------------------------


def determinise_joker(engine: Any, state: dict, seat: int, rng: random.Random) -> dict:
    """A world agreeing with what ``seat`` knows: its own visible cards, the cards
    played this deal (public), the turned trump card; every other card (the
    others' hands, its own unseen cards while trump is named, the rest of the
    deck) dealt afresh, and a fresh seed."""
    view = engine.view(state, seat)
    known_own = list(view["hand"])
    turned = [view["trump_card"]] if view["trump_card"] else []
    pool = shuffled_pool(joker_deck(), [*known_own, *public_cards_played(state), *turned], rng)
    world = clone(state)
    sizes = view["hand_sizes"]
    unseen_sizes = [size - (len(known_own) if player == seat else 0) for player, size in enumerate(sizes)]
    excluded = trick_view_exclusions(view, public_cards_played(state), joker_deck(), GEORGIAN)
    *dealt, rest = deal_avoiding(pool, [*unseen_sizes, len(state["rest"]) - len(turned)],
                                 [*excluded, frozenset()], rng)
    hands = [[*(known_own if player == seat else []), *cards] for player, cards in enumerate(dealt)]
    world["hands"] = hands
    world["rest"] = [*turned, *rest]
    world["held_joker"] = [shown or any(is_joker(card) for card in hand)
                           for shown, hand in zip(view_jokers_shown(state), hands)]
    world["seed"] = fresh_seed(rng)
    return world


def public_cards_played(state: dict) -> list[str]:
    """The cards played so far in this deal, the current trick included: every seat saw them."""
    return list(state["played"])


def view_jokers_shown(state: dict) -> list[bool]:
    """Per seat: has it played a joker this deal (public: everybody saw it)."""
    return list(state["joker_shown"])


JOKER_SEARCH = SearchGame(
    determinise=determinise_joker,
    rollout_policy=view_policy(choose_joker_action),
    horizon_key=lambda state: state["deal"],
    value=lambda engine, state, seat: relative_score(engine.totals(state), seat),
)
