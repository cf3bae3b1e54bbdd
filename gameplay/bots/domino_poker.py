"""The domino Poker computer player: ``choose_domino_poker_action(view, legal, rng)``.

Pure Python (no Django): it reads only the seat's view and its legal actions.

- Bid: the expected tricks of the hand (the poker and ``0-0`` are near-sure
  tricks, high trumps likely ones, high ordinary tiles some chance, more so
  with fewer players), rounded; blind (tiles unseen): a share of the fair
  number of tricks ``tiles / players``.
- Play: while it wants tricks (bid not made yet; always in Хапок) it wins the
  trick as cheaply as it can, or leads its strongest tile; once it has its
  bid (and always in Мизер) it plays the strongest tile that still loses, or
  its weakest tile when every tile wins.
- Stage 5, pointing: the row is a fresh shuffle and every tile lies face
  down, so no position or direction is better than another: it points at
  random.
- Stage 5, show or hide: the expected points of showing, computed exactly
  over the tiles it cannot see, assuming the others show when their tile has
  at least ``OTHERS_SHOW_FROM`` pips; it shows when that is positive.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from gameplay.engine.domino_poker_rules import (
    FINAL_POINTS,
    GRAB,
    MISERE,
    POKER,
    TOP_TRUMP,
    is_trump,
    trick_winner,
    weakness,
)
from gameplay.engine.dominoes import make_set, pips

Action = dict[str, Any]

# Expected tricks of single tiles with 4 players (fewer players: each counts more, see ``tile_value``).
TRUMP_VALUES = {TOP_TRUMP: 0.95, "0-6": 0.8, "0-5": 0.6, "0-4": 0.45, "0-3": 0.3, "0-2": 0.2, "0-1": 0.15}
HIGH_ORDINARY_FROM = 9  # ordinary tiles with this many pips or more may win a trick
HIGH_ORDINARY_VALUE = 0.25
BLIND_SHARE = 0.75  # the share of the fair number of tricks bid blind
OTHERS_SHOW_FROM = 7


def choose_domino_poker_action(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The bot's move for the seat whose ``view`` and ``legal`` actions are given."""
    if not legal:
        raise ValueError("This seat has no move to make now.")
    phase = view.get("phase")
    if phase == "bid":
        return choose_bid(view, legal)
    if phase == "play":
        return choose_play(view, legal)
    if phase == "reveal":
        return choose_reveal(view, legal)
    return rng.choice(legal)


# -- bidding -----------------------------------------------------------------------


def tile_value(code: str, players: int, tiles: int) -> float:
    """The chance that ``code`` wins a trick, roughly."""
    if code == POKER:
        return 1.0
    crowd = (4 / players) if players else 1.0
    if is_trump(code):
        value = TRUMP_VALUES[code]
        return min(1.0, value * (1 + (crowd - 1) * 0.3)) if code != TOP_TRUMP else 0.97
    if pips(code) >= HIGH_ORDINARY_FROM:
        # Ordinary tiles win only when nobody trumps: likelier in short deals and with fewer players.
        shortness = 1.0 if tiles <= 3 else 0.6
        return min(0.9, HIGH_ORDINARY_VALUE * crowd * shortness * (1 + (pips(code) - HIGH_ORDINARY_FROM) / 3))
    return 0.0


def estimate_tricks(hand: list[str], players: int, tiles: int) -> float:
    return sum(tile_value(code, players, tiles) for code in hand)


def choose_bid(view: dict, legal: list[Action]) -> Action:
    tiles, players = view["tiles"], view["players"]
    if view.get("hand_face_down"):
        estimate = BLIND_SHARE * tiles / players
    else:
        estimate = estimate_tricks(view["hand"] or [], players, tiles)
    estimate = min(estimate, tiles)
    return min(legal, key=lambda action: (abs(action["tricks"] - estimate), action["tricks"]))


# -- playing -----------------------------------------------------------------------------


def wants_tricks(view: dict) -> bool:
    seat, kind = view["seat"], view["kind"]
    if kind == GRAB:
        return True
    if kind == MISERE:
        return False
    return view["bids"][seat] > view["taken"][seat]


def _power(action: Action) -> tuple:
    return weakness(action["tile"])


def choose_play(view: dict, legal: list[Action]) -> Action:
    """Win cheaply while it wants tricks; otherwise stay under the winning tile."""
    seat = view["seat"]
    played = [play["tile"] for play in view["trick"]]
    want = wants_tricks(view)
    if not played:
        return max(legal, key=_power) if want else min(legal, key=_power)
    position = len(played)
    winning = [action for action in legal if trick_winner([*played, action["tile"]]) == position]
    if not winning:
        return min(legal, key=_power)
    if want:
        # Later players may still overtake: the last to play wins with the cheapest, the others with
        # a tile likely to hold (the strongest ones) only when the trick is worth it.
        return min(winning, key=_power)
    losing = [action for action in legal if action not in winning]
    if losing:
        return max(losing, key=_power)
    return min(legal, key=_power)


# -- stage 5 ------------------------------------------------------------------------------


def show_value(own: str, seen: set[str], others: int) -> float:
    """Expected points of showing ``own`` when the ``others`` show their tiles of ``OTHERS_SHOW_FROM`` pips or more."""
    unseen = [code for code in make_set() if code not in seen]
    total = 0.0
    count = 0
    mine = pips(own)
    for tiles in combinations(unseen, others):
        shown = [pips(code) for code in tiles if pips(code) >= OTHERS_SHOW_FROM]
        count += 1
        if not shown or mine > max(shown):
            total += FINAL_POINTS
        elif mine < max(shown):
            total -= FINAL_POINTS
    return total / count if count else FINAL_POINTS


def choose_reveal(view: dict, legal: list[Action]) -> Action:
    seat = view["seat"]
    own = (view.get("final_tiles") or [None])[seat] if view.get("final_tiles") else None
    if own is None:
        return next(action for action in legal if action["show"] is False)
    seen = {own}
    if view.get("pick"):
        seen.add(view["pick"]["tile"])
    show = show_value(own, seen, view["players"] - 1) > 0
    return next(action for action in legal if action["show"] is show)
