"""The Odessa poker computer player: a pure function of what its seat may see (no Django, no state).

It plays like the Joker player (``bots/tricks.py``, shared): bids from hand
strength, plays to make exactly its bid, spends the joker only when no
ordinary card does the job. Odessa's own touches:

- a blind deal is bid before seeing a card: the average share of the tricks
  (cards / players), at least the minimum bid;
- the shared estimate is made for four players; with two or three a high
  card wins more often, so it is scaled by 4 / players (measured over bot
  games: bids made 18% → 27% with two players, 33% → 41% with three);
- golden deals want every trick, miser deals none;
- wanting tricks with nothing better to lead, it leads the joker "demand"
  naming the trump (pulling the others' highest trumps) where the table
  allows it, else "high".

Levels 2 and 3 (``ODESSA_SEARCH``): PIMC to the end of the deal, as for Joker
(the same reasons: short horizon, good level-1 rollouts), for bids (a blind
deal's too: its own cards are sampled like the others'), golden and miser
deals' plays and the joker's "high", "low" and "demand" leads.
``determinise_odessa`` deals the unseen cards afresh, and a blind deal's
hidden turned card with them, never giving a player a card the deal's plays
prove it cannot hold (``bots/inference.py``).
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.bots.inference import deal_avoiding, trick_view_exclusions
from gameplay.bots.sampling import fresh_seed, shuffled_pool
from gameplay.bots.search import SearchGame, relative_score, view_policy
from gameplay.bots.tricks import choose_play, closest_bid, estimate_tricks
from gameplay.engine.core import clone
from gameplay.engine.odessa import odessa_joker
from gameplay.engine.odessa_setup import make_odessa_deck
from gameplay.engine.tricks import DEMAND, HIGH

Action = dict[str, Any]

ESTIMATE_MADE_FOR = 4  # players


def choose_odessa_action(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The Odessa bot's move from the seat's view and its legal actions."""
    if view["phase"] == "bid":
        return closest_bid(legal, estimated_bid(view))
    if view["phase"] == "play":
        joker_lead = DEMAND if view["demand_allowed"] else HIGH
        rules = odessa_joker(view["options"]["deck"])
        return choose_play(view, legal, wants_tricks(view), rules, joker_lead)
    return rng.choice(legal)


def estimated_bid(view: dict) -> float:
    """Tricks the hand should take; a blind deal's hand is unseen, so the average share."""
    if view["hand_hidden"]:
        return view["cards"] / view["players"]
    estimate = estimate_tricks(view["hand"], view["trump"], jokers={view["joker_card"]})
    fewer_players = max(1.0, ESTIMATE_MADE_FOR / view["players"])
    return min(estimate * fewer_players, view["cards"])


def wants_tricks(view: dict) -> bool:
    """Golden: every trick; miser: none; otherwise until the bid is made."""
    if view["special"] == "golden":
        return True
    if view["special"] == "miser":
        return False
    seat = view["seat"]
    return view["bids"][seat] > view["taken"][seat]


# -- the search levels' world sampler ------------------------------------------------


def determinise_odessa(engine: Any, state: dict, seat: int, rng: random.Random) -> dict:
    """A world agreeing with what ``seat`` knows: its own cards (none while a
    blind deal is bid), the cards played this deal (public) and the turned
    trump card once shown; every other card (others' hands, the rest of the
    deck, a blind deal's hidden turned card) dealt afresh, and a fresh seed."""
    view = engine.view(state, seat)
    known_own = list(view["hand"])
    turned = [view["trump_card"]] if view["trump_card"] else []
    deck = make_odessa_deck(view["options"]["deck"])
    pool = shuffled_pool(deck, [*known_own, *public_cards_played(state), *turned], rng)
    world = clone(state)
    unseen_sizes = [size - (len(known_own) if player == seat else 0)
                    for player, size in enumerate(view["hand_sizes"])]
    excluded = trick_view_exclusions(view, public_cards_played(state), deck, odessa_joker(view["options"]["deck"]))
    *dealt, rest = deal_avoiding(pool, [*unseen_sizes, len(state["rest"]) - len(turned)],
                                 [*excluded, frozenset()], rng)
    world["hands"] = [[*(known_own if player == seat else []), *cards] for player, cards in enumerate(dealt)]
    world["rest"] = [*turned, *rest]
    if view["trump_hidden"]:
        world["trump"], world["trump_card"] = engine._trump_of(view["options"], view["special"], world["rest"])
    world["seed"] = fresh_seed(rng)
    return world


def public_cards_played(state: dict) -> list[str]:
    """The cards played so far in this deal, the current trick included: every seat saw them."""
    return list(state["played"])


ODESSA_SEARCH = SearchGame(
    determinise=determinise_odessa,
    rollout_policy=view_policy(choose_odessa_action),
    horizon_key=lambda state: state["deal"],
    value=lambda engine, state, seat: relative_score(engine.totals(state), seat),
)
