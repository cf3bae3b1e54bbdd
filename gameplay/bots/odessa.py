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
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.bots.tricks import choose_play, closest_bid, estimate_tricks
from gameplay.engine.odessa import odessa_joker
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
