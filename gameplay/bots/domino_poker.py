"""The domino Poker computer player: ``choose_domino_poker_action(view, legal, rng)``.

Pure Python (no Django): it reads only the seat's view and its legal actions.

- Bid: the unseen tiles are dealt at random ``SAMPLES`` times and each deal
  is played out greedily by everybody (lead the strongest tile, win as
  cheaply as possible, else throw the weakest); the bot bids what scores
  best on average over those playouts (so the poker, ``0-0``, high trumps
  and, with few players, high ordinary tiles count as they do in play).
  Blind, its own tiles are dealt at random too.
- Play: while it wants tricks (bid not made yet; always in Хапок) it wins the
  trick as cheaply as it can, or leads its strongest tile; once it has its
  bid (and always in Мизер) it plays the strongest tile that still loses, or
  its weakest tile when every tile wins.
- Stage 5, pointing: the row is a fresh shuffle and every tile lies face
  down, so no position or direction is better than another: it points at
  random.
- Stage 5, show or hide: the expected points of showing, computed exactly
  over the tiles it cannot see, assuming the others show when their tile has
  at least ``OTHERS_SHOW_FROM[players]`` pips (8 of 3 players, 9 of 4: the
  symmetric equilibria); it shows when that is positive.

Levels 2 and 3 (``DOMINO_POKER_SEARCH``): PIMC to the end of the deal, for
bids (blind ones too: its own tiles are then sampled), plays, stage 5's
pointing and the secret show-or-hide (the others' secret choices are taken
back and made again by the rollout's level-1 players). Rollouts bid with
``ROLLOUT_BID_SAMPLES`` greedy playouts instead of ``SAMPLES``, which keeps
them fast; a bid is searched among the level-1 bid and its neighbours only
(``bid_shortlist``), so each candidate gets more worlds. PIMC for the same
reasons as Joker: short horizon, a good level-1 player for the rollouts.

Time cap (``max_search_rollouts``, an iteration count, never wall time, so a
decision replays from its seed): a rollout's cost is counted in greedy tile
plays (the playouts behind a rollout player's bid), an engine move of the
rollout counting ``ENGINE_PLAY_COST`` of them (measured: about 1 µs against
75 µs of one core). From the seat's position a rollout plays every tile left
in the hands as engine moves, and, in the bidding, ``ROLLOUT_BID_SAMPLES``
greedy playouts of the deal for every bid still to come. A decision gets at
most ``MAX_TILE_PLAYS`` of them: ``rollouts ≤ MAX_TILE_PLAYS // cost``. The
costliest position is an opening bid of a 7-tile deal of four players (28
tiles and 3 bids to come: 28 × 75 + 3 × 6 × 28 = 2604 a rollout); the cap
gives it level 3's 128 rollouts, which bench/computers.py measured within a
second of CPU under load (bench/README.md). Every position, and any larger
budget asked for, is bounded by the same count.
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
    bid_points,
    is_trump,
    strength,
    trick_winner,
    weakness,
)
from gameplay.bots.inference import deal_avoiding, domino_exclusions
from gameplay.bots.sampling import fresh_seed, shuffled_pool
from gameplay.bots.search import SearchGame, relative_score
from gameplay.engine.core import clone
from gameplay.engine.dominoes import TILES, pips

Action = dict[str, Any]

SAMPLES = 60  # random deals of the unseen tiles played out to estimate a bid
# Stage 5: the bot assumes the others show tiles of this many pips or more. With 3 and 4 players
# these are the symmetric equilibria (showing from 8, resp. 9, is the best answer to everybody
# else doing so); with 2 there is none of that kind, and 6 is the threshold whose best answer
# is to show from 7, the median tile.
OTHERS_SHOW_FROM = {2: 6, 3: 8, 4: 9}


def choose_domino_poker_action(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The bot's move for the seat whose ``view`` and ``legal`` actions are given."""
    if not legal:
        raise ValueError("This seat has no move to make now.")
    phase = view.get("phase")
    if phase == "bid":
        return choose_bid(view, legal, rng)
    if phase == "play":
        return choose_play(view, legal)
    if phase == "reveal":
        return choose_reveal(view, legal)
    return rng.choice(legal)


# -- bidding -----------------------------------------------------------------------


# The greedy playout runs thousands of times a decision (``sampled_tricks``), so it works on
# tables computed once from the engine's own rules instead of calling them per tile: a tile's rank
# in ``weakness`` order (unique) and its trick power (what ``strength`` compares: the poker, then
# trumps by rank, then ordinary tiles by pips; on equal power the earlier tile wins, so a later one
# wins a trick only with strictly more power). It plays exactly as the rules' functions would
# (``tests/bots/test_domino_poker_search_budget.py`` checks it against them).
_WEAK_RANK = {code: rank for rank, code in enumerate(sorted(TILES, key=weakness))}
_POWER = {code: strength(code)[0] * 100 + strength(code)[1] for code in TILES}
_TRUMPS = frozenset(code for code in TILES if is_trump(code))


def _greedy_allowed(hand: list[str], led: str | None) -> list[str]:
    """``allowed_tiles`` on the tables: the poker led asks for the strongest trump, a trump for a trump."""
    if led is None:
        return hand
    trumps = [code for code in hand if code in _TRUMPS]
    if not trumps:
        return hand
    if led == POKER:
        return [max(trumps, key=_POWER.__getitem__)]
    return trumps if led in _TRUMPS else hand


def rollout_tricks(hands: list[list[str]], leader: int, seat: int) -> int:
    """The tricks ``seat`` takes when every player plays greedily: lead the strongest tile, win a
    trick as cheaply as possible, else throw the weakest."""
    hands = [list(hand) for hand in hands]
    players = len(hands)
    weak = _WEAK_RANK.__getitem__
    taken = 0
    while hands[leader]:
        led = max(hands[leader], key=weak)
        hands[leader].remove(led)
        best_power, best_offset = _POWER[led], 0
        for offset in range(1, players):
            hand = hands[(leader + offset) % players]
            allowed = _greedy_allowed(hand, led)
            winning = [code for code in allowed if _POWER[code] > best_power]
            tile = min(winning or allowed, key=weak)
            hand.remove(tile)
            if _POWER[tile] > best_power:
                best_power, best_offset = _POWER[tile], offset
        leader = (leader + best_offset) % players
        taken += leader == seat
    return taken


def sampled_tricks(hand: list[str] | None, view: dict, rng: random.Random, samples: int = SAMPLES) -> list[int]:
    """The tricks the seat takes in ``samples`` greedy playouts, the unseen tiles dealt at random
    (its own too when ``hand`` is ``None``: a blind bid)."""
    players, tiles, seat, starter = view["players"], view["tiles"], view["seat"], view["starter"]
    known = list(hand or [])
    unseen = [code for code in TILES if code not in known]
    results = []
    for _ in range(samples):
        pool = list(unseen)
        rng.shuffle(pool)
        hands = []
        for player in range(players):
            if player == seat and hand is not None:
                hands.append(list(hand))
            else:
                hands.append(pool[:tiles])
                pool = pool[tiles:]
        results.append(rollout_tricks(hands, starter, seat))
    return results


def expected_points(bid: int, tricks: list[int]) -> float:
    return sum(bid_points(bid, taken) for taken in tricks) / len(tricks)


def choose_bid(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The bid with the best expected points over sampled playouts (the lower one on a tie)."""
    hand = None if view.get("hand_face_down") else list(view["hand"] or [])
    tricks = sampled_tricks(hand, view, rng)
    return max(legal, key=lambda action: (expected_points(action["tricks"], tricks), -action["tricks"]))


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
    """Expected points of showing ``own`` when the ``others`` show their tiles of
    ``OTHERS_SHOW_FROM[others + 1]`` pips or more."""
    threshold = OTHERS_SHOW_FROM[others + 1]
    unseen = [code for code in TILES if code not in seen]
    total = 0.0
    count = 0
    mine = pips(own)
    for tiles in combinations(unseen, others):
        shown = [pips(code) for code in tiles if pips(code) >= threshold]
        count += 1
        if not shown or mine > max(shown):
            total += FINAL_POINTS
        elif mine < max(shown):
            total -= FINAL_POINTS
    return total / count if count else FINAL_POINTS


def choose_reveal(view: dict, legal: list[Action]) -> Action:
    """Show when showing is worth more than nothing on average (see ``show_value``)."""
    own = view["final_tiles"][view["seat"]] if view.get("final_tiles") else None
    if own is None:
        return next(action for action in legal if action["show"] is False)
    seen = {own}
    if view.get("pick"):
        seen.add(view["pick"]["tile"])
    show = show_value(own, seen, view["players"] - 1) > 0
    return next(action for action in legal if action["show"] is show)


# -- the search levels' world sampler ------------------------------------------------

# A rollout's bids are estimated from this many greedy playouts (the level-1 bid uses SAMPLES).
ROLLOUT_BID_SAMPLES = 6


def determinise_domino_poker(engine: Any, state: dict, seat: int, rng: random.Random) -> dict:
    """A world agreeing with what ``seat`` knows: its own tiles (none while a
    blind deal is bid), the tiles played this deal and what they prove (a
    player who did not answer a trump or the poker with a trump has none; one
    who answered the poker with a trump has none stronger: ``bots/inference.py``); in stage 5 its own tile,
    the turned tile and the positions. Every other tile (others' hands, the
    undealt ones, the rest of stage 5's row) is dealt afresh, another player's
    secret show-or-hide is taken back (the rollout's players choose again),
    and the seed is new."""
    view = engine.view(state, seat)
    world = clone(state)
    world["seed"] = fresh_seed(rng)
    if view["row_size"] is not None:
        return _determinise_final(view, world, seat, rng)
    known_own = list(view["hand"])
    pool = shuffled_pool(TILES, [*known_own, *view["played"]], rng)
    unseen_sizes = [size - (len(known_own) if player == seat else 0)
                    for player, size in enumerate(view["hand_sizes"])]
    excluded = domino_exclusions(tuple(TILES), view["players"], view["starter"], tuple(view["played"]))
    *dealt, rest = deal_avoiding(pool, [*unseen_sizes, len(pool) - sum(unseen_sizes)], [*excluded, frozenset()], rng)
    world["hands"] = [[*(known_own if player == seat else []), *tiles] for player, tiles in enumerate(dealt)]
    world["rest"] = rest
    return world


def _determinise_final(view: dict, world: dict, seat: int, rng: random.Random) -> dict:
    """Stage 5: the row's unseen tiles shuffled around the ones the seat has seen."""
    fixed: dict[int, str] = {}
    if view["pick"] is not None:
        fixed[view["pick"]["index"]] = view["pick"]["tile"]
    if view["positions"] is not None:
        for player, tile in enumerate(view["final_tiles"]):  # its own, and the shown ones after the reveal
            if tile is not None:
                fixed[view["positions"][player]] = tile
    pool = shuffled_pool(TILES, fixed.values(), rng)
    world["row"] = [fixed[index] if index in fixed else pool.pop() for index in range(view["row_size"])]
    if view["positions"] is not None:
        world["hands"] = [[world["row"][position]] for position in view["positions"]]
    if view["committed"] is not None:
        for other in range(view["players"]):
            if other != seat and view["choices"][other] is None:
                world["choices"][other] = None
                world["auto"][other] = False
    return world


def rollout_domino_poker_action(engine: Any, state: dict, seat: int, rng: random.Random) -> Action:
    """The level-1 player, with cheaper bids (fewer greedy playouts) so that rollouts stay fast."""
    view = engine.view(state, seat)
    legal = engine.legal_actions(state, seat)
    if view["phase"] == "bid":
        hand = None if view.get("hand_face_down") else list(view["hand"] or [])
        tricks = sampled_tricks(hand, view, rng, samples=ROLLOUT_BID_SAMPLES)
        return max(legal, key=lambda action: (expected_points(action["tricks"], tricks), -action["tricks"]))
    return choose_domino_poker_action(view, legal, rng)


def bid_shortlist(view: dict, legal: list[Action], rng: random.Random) -> list[Action]:
    """A bid is searched among the level-1 bid and its two neighbours; other moves all."""
    if view["phase"] != "bid":
        return legal
    guess = choose_bid(view, legal, rng)["tricks"]
    return [action for action in legal if abs(action["tricks"] - guess) <= 1]


# An engine move of a rollout costs about this many greedy tile plays; a decision's rollouts cost
# at most MAX_TILE_PLAYS greedy tile plays (see the module docstring).
ENGINE_PLAY_COST = 75
MAX_TILE_PLAYS = 128 * (28 * ENGINE_PLAY_COST + 3 * ROLLOUT_BID_SAMPLES * 28)


def rollout_cost(view: dict) -> int:
    """A rollout's cost in greedy tile plays from the seat's position: every tile left in a hand
    played as an engine move, and the greedy playouts of the deal behind every bid still to come."""
    tiles = sum(view["hand_sizes"])
    bids_to_come = max(0, sum(bid is None for bid in view["bids"]) - 1) if view["phase"] == "bid" else 0
    return tiles * ENGINE_PLAY_COST + bids_to_come * ROLLOUT_BID_SAMPLES * tiles


def max_search_rollouts(view: dict) -> int:
    """The most rollouts a decision may spend from this position (``MAX_TILE_PLAYS``)."""
    return max(1, MAX_TILE_PLAYS // max(1, rollout_cost(view)))


DOMINO_POKER_SEARCH = SearchGame(
    determinise=determinise_domino_poker,
    rollout_policy=rollout_domino_poker_action,
    horizon_key=lambda state: state["deal"],
    value=lambda engine, state, seat: relative_score(engine.totals(state), seat),
    shortlist=bid_shortlist,
    max_rollouts=max_search_rollouts,
)
