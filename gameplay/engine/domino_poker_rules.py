"""Domino Poker's rules as pure functions: options, the deal schedule, strength,
following, scoring, the draw for the first player and stage 5's deal.

The engine (``domino_poker.py``) keeps the state and the phases; everything
here is a function of plain values, so the platform may call it too (the
new-table form previews ``deal_schedule``).

The deal schedule (public)
--------------------------
``deal_schedule(players, options)`` lists every deal of a game with those
options (``InvalidSetup`` if they are not valid), in order::

    [{"deal": 1, "stage": 1, "kind": "bidding", "tiles": 1, "undealt": 25,
      "bidding": True, "blind": False}, ...]

``deal`` counts from 1 (stage 5 counts as a deal); ``stage`` is 1–5;
``kind`` is ``"bidding"`` (stage 1), ``"blind"`` (2, Вслепую), ``"grab"``
(3, Хапок), ``"misere"`` (4, Мизер) or ``"final"`` (5); ``tiles`` is the
number of tiles each player gets; ``undealt`` the tiles left face down
(stage 5: the row less the turned tile and the players' tiles); ``bidding``
whether the deal is bid on; ``blind`` whether the bids are made before the
tiles are seen. ``stage_schedule(players, options)`` groups the same deals
by stage: ``[{"stage", "kind", "deals": [...]}]`` (stages with no deal left
out).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random

from .core import N_, InvalidSetup, deal_rng
from .dominoes import TILES, has_blank, make_set, pips

POKER = "1-1"
TOP_TRUMP = "0-0"
SET_SIZE = 28
FULL_HAND = 7
MIN_PLAYERS = 2
MAX_PLAYERS = 4
DRAW_DEAL_NO = 0

RAMP = (1, 2, 3, 4, 5, 6)
MAX_SEVENS = 10
MAX_STAGE_DEALS = 4

PASS_MADE_POINTS = 5
POINTS_PER_TRICK = 10
FINAL_POINTS = 30

BIDDING, BLIND, GRAB, MISERE, FINAL = "bidding", "blind", "grab", "misere", "final"
STAGE_KINDS = {1: BIDDING, 2: BLIND, 3: GRAB, 4: MISERE, 5: FINAL}
RIGHT, LEFT = "right", "left"
DIRECTIONS = (RIGHT, LEFT)

DEFAULT_OPTIONS = {"sevens": 4, "blind_deals": 1, "grab_deals": 1, "misere_deals": 1, "final_stage": False}

COUNT_REFUSALS = {
    "sevens": N_("The number of seven-tile deals of stage 1 must be a whole number from 0 to 10."),
    "blind_deals": N_("The number of blind deals (stage 2) must be a whole number from 0 to 4."),
    "grab_deals": N_("The number of grab deals (stage 3) must be a whole number from 0 to 4."),
    "misere_deals": N_("The number of misère deals (stage 4) must be a whole number from 0 to 4."),
}
COUNT_LIMITS = {"sevens": MAX_SEVENS, "blind_deals": MAX_STAGE_DEALS, "grab_deals": MAX_STAGE_DEALS,
                "misere_deals": MAX_STAGE_DEALS}


# -- options and the schedule ------------------------------------------------------


def validate_options(options: object) -> dict:
    """``options`` with defaults filled in; ``InvalidSetup`` for anything unknown or invalid."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidSetup(N_("The options of a game must be a JSON object."))
    unknown = sorted(str(key) for key in options if key not in DEFAULT_OPTIONS)
    if unknown:
        raise InvalidSetup(N_("Unknown option(s): %(unknown)s (known: %(known)s)."),
                           unknown=", ".join(unknown), known=", ".join(sorted(DEFAULT_OPTIONS)))
    filled = {**DEFAULT_OPTIONS, **options}
    for key, limit in COUNT_LIMITS.items():
        value = filled[key]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
            raise InvalidSetup(COUNT_REFUSALS[key])
    if not isinstance(filled["final_stage"], bool):
        raise InvalidSetup(N_("The final stage (stage 5) is either played or not: true or false."))
    return filled


def check_players(players: object) -> int:
    """``players`` if domino Poker is played by that many (2 to 4); ``InvalidSetup`` otherwise."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidSetup(N_("The number of players must be a whole number."))
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSetup(N_("This game is played by %(min)s to %(max)s players."),
                           min=MIN_PLAYERS, max=MAX_PLAYERS)
    return players


def _stage_sizes(options: dict) -> list[tuple[int, list[int]]]:
    """(stage, tiles per deal) for every stage, in order."""
    return [
        (1, [*RAMP, *([FULL_HAND] * options["sevens"]), *reversed(RAMP)]),
        (2, [FULL_HAND] * options["blind_deals"]),
        (3, [FULL_HAND] * options["grab_deals"]),
        (4, [FULL_HAND] * options["misere_deals"]),
        (5, [1] if options["final_stage"] else []),
    ]


def deal_schedule(players: int, options: dict | None = None) -> list[dict]:
    """Every deal of a game of ``players`` with ``options`` (see the module docstring)."""
    check_players(players)
    options = validate_options(options)
    deals = []
    for stage, sizes in _stage_sizes(options):
        kind = STAGE_KINDS[stage]
        for tiles in sizes:
            undealt = SET_SIZE - players * tiles - (1 if kind == FINAL else 0)
            deals.append({"deal": len(deals) + 1, "stage": stage, "kind": kind, "tiles": tiles,
                          "undealt": undealt, "bidding": kind in (BIDDING, BLIND), "blind": kind == BLIND})
    return deals


def stage_schedule(players: int, options: dict | None = None) -> list[dict]:
    """The deals of ``deal_schedule`` grouped by stage (stages without deals left out)."""
    stages: list[dict] = []
    for deal in deal_schedule(players, options):
        if not stages or stages[-1]["stage"] != deal["stage"]:
            stages.append({"stage": deal["stage"], "kind": deal["kind"], "deals": []})
        stages[-1]["deals"].append(deal)
    return stages


# -- strength and following ------------------------------------------------------------


def is_poker(code: str) -> bool:
    return code == POKER


def is_trump(code: str) -> bool:
    """A tile with a blank half (``0-0`` … ``0-6``); the poker ``1-1`` is not a trump."""
    return has_blank(code)


def trump_rank(code: str) -> int:
    """Order among trumps: ``0-0`` highest, then by pips (``0-6`` … ``0-1``)."""
    return 7 if code == TOP_TRUMP else pips(code)


def strength(code: str, position: int = 0) -> tuple[int, int, int]:
    """A key that orders the tiles of one trick (``position``: 0 for the led tile, 1 for the next...).

    Poker beats everything, trumps beat ordinary tiles, ordinary tiles go by
    pips and on equal pips the earlier one wins.
    """
    if is_poker(code):
        return (2, 0, 0)
    if is_trump(code):
        return (1, trump_rank(code), 0)
    return (0, pips(code), -position)


def trick_winner(tiles: Sequence[str]) -> int:
    """The position (0 = led) of the tile that wins a trick of ``tiles`` in play order."""
    if not tiles:
        raise ValueError("An empty trick has no winner")
    return max(range(len(tiles)), key=lambda position: strength(tiles[position], position))


def strongest_trump(hand: Sequence[str]) -> str | None:
    trumps = [code for code in hand if is_trump(code)]
    return max(trumps, key=trump_rank) if trumps else None


def allowed_tiles(hand: Sequence[str], led: str | None) -> list[str]:
    """The tiles of ``hand`` that may be played on a trick led with ``led`` (``None``: leading), in hand order.

    Trump led: a trump if you hold one. Poker led: your strongest trump if you
    hold one. Anything else: any tile.
    """
    if led is None:
        return list(hand)
    trumps = [code for code in hand if is_trump(code)]
    if not trumps:
        return list(hand)
    if is_poker(led):
        return [strongest_trump(hand)]  # type: ignore[list-item]
    if is_trump(led):
        return trumps
    return list(hand)


def display_order(hand: list[str]) -> list[str]:
    """A hand sorted for display, strongest first: the poker, trumps (``0-0`` first), then by pips."""
    return sorted(hand, key=lambda code: (strength(code), -TILES.index(code)), reverse=True)


def weakness(code: str) -> tuple[int, int, int, int]:
    """A key for "the weakest tile" of a hand: ordinary tiles by pips, then trumps, then the poker
    (equal pips: the tile earlier in the canonical set)."""
    return (*strength(code), TILES.index(code))


def weakest(tiles: Sequence[str]) -> str:
    return min(tiles, key=weakness)


# -- scoring ------------------------------------------------------------------------------


def bid_points(bid: int, tricks: int) -> int:
    """Points of a bidding deal (stages 1 and 2)."""
    if bid == tricks == 0:
        return PASS_MADE_POINTS
    if bid == tricks:
        return POINTS_PER_TRICK * bid
    if tricks < bid:
        return -POINTS_PER_TRICK * (bid - tricks)
    return tricks


def deal_points(kind: str, bid: int | None, tricks: int) -> int:
    """Points of one player in a trick deal of stage ``kind``."""
    if kind == GRAB:
        return POINTS_PER_TRICK * tricks
    if kind == MISERE:
        return -POINTS_PER_TRICK * tricks
    if bid is None:
        raise ValueError("A bidding deal is scored with a bid")
    return bid_points(bid, tricks)


def final_points(shown: Sequence[str | None]) -> list[int]:
    """Stage 5's points per seat; ``shown[seat]`` is the tile the seat showed, ``None`` if hidden.

    A lone shower gets +30; among several showers, more pips than every other
    shower +30, fewer than at least one −30, equal highest 0; hidden 0.
    """
    points = []
    for seat, code in enumerate(shown):
        others = [pips(other) for index, other in enumerate(shown) if index != seat and other is not None]
        if code is None:
            points.append(0)
        elif not others or pips(code) > max(others):
            points.append(FINAL_POINTS)
        elif pips(code) < max(others):
            points.append(-FINAL_POINTS)
        else:
            points.append(0)
    return points


# -- who starts ---------------------------------------------------------------------------


def first_player_draw(seed: int, players: int) -> list[list[dict]]:
    """The draw for the first player: rounds of ``[{"seat", "tile"}]``; the last round has one winner.

    Every round shuffles the full set afresh with ``deal_rng(seed, 0)`` (one
    generator for all rounds); the players still in the draw take the top
    tiles in seat order. Most pips wins; those tied on the most draw again.
    """
    rng: Random = deal_rng(seed, DRAW_DEAL_NO)
    drawing = list(range(players))
    rounds: list[list[dict]] = []
    while True:
        tiles = make_set()
        rng.shuffle(tiles)
        draws = [{"seat": seat, "tile": tiles[index]} for index, seat in enumerate(drawing)]
        rounds.append(draws)
        best = max(pips(item["tile"]) for item in draws)
        drawing = [item["seat"] for item in draws if pips(item["tile"]) == best]
        if len(drawing) == 1:
            return rounds


# -- stage 5 ------------------------------------------------------------------------------


def final_positions(index: int, direction: str, turned_pips: int, players: int) -> list[int]:
    """The positions of the tiles dealt in stage 5, in dealing order (the leader first).

    Skip ``turned_pips`` tiles after the turned one in ``direction`` and deal
    the next ``players`` tiles: positions ``index ± (n+1 … n+k)`` mod 28.
    """
    step = 1 if direction == RIGHT else -1
    return [(index + step * (turned_pips + offset)) % SET_SIZE for offset in range(1, players + 1)]


def final_leader(totals: Sequence[int], starter: int) -> int:
    """Highest total; ties: the first tied seat clockwise from ``starter``."""
    players = len(totals)
    best = max(totals)
    return next(seat for seat in ((starter + offset) % players for offset in range(players))
                if totals[seat] == best)


def competition_places(scores: Sequence[int], forfeited: int | None = None) -> list[int]:
    """Place per seat (1 = best); equal scores share the place; a forfeiting seat is last alone."""
    ranked = [seat for seat in range(len(scores)) if seat != forfeited]
    places = [0] * len(scores)
    for seat in ranked:
        places[seat] = 1 + sum(1 for other in ranked if scores[other] > scores[seat])
    if forfeited is not None:
        places[forfeited] = len(scores)
    return places
