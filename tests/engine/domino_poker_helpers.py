"""Helpers for the domino Poker engine tests: a started game edited to a scripted point.

They edit a freshly started state directly (the engine has no test-only
API), so each scripted test states the hands, the deal's stage, the starter
and the bids it needs.
"""

from __future__ import annotations

import json
import re

from gameplay.engine import get_engine
from gameplay.engine.domino_poker_rules import deal_schedule, final_leader
from gameplay.engine.dominoes import make_set

ENGINE = get_engine("domino_poker")
SEED = 20261125
TILE_CODE = re.compile(r'"([0-6]-[0-6])"')


def started(players: int = 4, options: dict | None = None, seed: int = SEED) -> dict:
    return ENGINE.start(players=players, options=options or {}, seed=seed)


def deal_of(players: int, options: dict, kind: str, tiles: int) -> int:
    """The number of the first deal of stage ``kind`` with ``tiles`` tiles each."""
    return next(deal["deal"] for deal in deal_schedule(players, options)
                if deal["kind"] == kind and deal["tiles"] == tiles)


def scripted(hands: list[list[str]], *, kind: str = "bidding", starter: int = 0, bids: list | None = None,
             phase: str | None = None, turn: int | None = None, options: dict | None = None,
             history: list[dict] | None = None) -> dict:
    """A started game edited to the start of a deal of stage ``kind`` with exactly these hands.

    ``starter`` starts the bidding and leads the first trick; the first
    starter is moved so that the deal's number and starter agree. The phase
    is "bid" on bidding deals until every bid is in, else "play".
    """
    players, tiles = len(hands), len(hands[0])
    assert all(len(hand) == tiles for hand in hands), "scripted hands must have equal sizes"
    options = options or {}
    state = started(players, options)
    deal = deal_of(players, state["options"], kind, tiles)
    plan = deal_schedule(players, state["options"])[deal - 1]
    bids = list(bids) if bids is not None else [None] * players
    if phase is None:
        phase = "bid" if plan["bidding"] and any(bid is None for bid in bids) else "play"
    dealt = {tile for hand in hands for tile in hand}
    state.update({
        "first_starter": (starter - deal + 1) % players,
        "deal": deal, "stage": plan["stage"], "kind": kind, "tiles": tiles, "starter": starter,
        "hands": [list(hand) for hand in hands], "rest": [tile for tile in make_set() if tile not in dealt],
        "bids": bids, "taken": [0] * players, "trick": [], "played": [], "auto": [False] * players,
        "phase": phase, "turn": starter if turn is None else turn, "history": history or [],
        "last_trick": None,
    })
    return state


def final_state(players: int, row: list[str], *, totals: list[int] | None = None, starter: int = 0) -> dict:
    """A started game (with stage 5) edited to the start of stage 5 with this row and these totals.

    The totals are written as one earlier deal's points, so the leader follows from them.
    """
    options = {"sevens": 0, "blind_deals": 0, "grab_deals": 0, "misere_deals": 0, "final_stage": True}
    state = started(players, options)
    schedule = deal_schedule(players, options)
    deal = schedule[-1]["deal"]
    totals = totals or [0] * players
    history = [{"deal": 1, "stage": 1, "kind": "bidding", "tiles": 1, "starter": 0, "bids": [0] * players,
                "tricks": [0] * players, "points": list(totals), "auto": [False] * players}]
    leader = final_leader(totals, starter)
    state.update({
        "first_starter": (starter - deal + 1) % players, "deal": deal, "stage": 5, "kind": "final", "tiles": 1,
        "starter": starter, "hands": [[] for _ in range(players)], "rest": [], "bids": [None] * players,
        "taken": [0] * players, "trick": [], "played": [], "auto": [False] * players, "phase": "pick",
        "turn": leader, "leader": leader, "row": list(row), "pick": None, "positions": None,
        "choices": [None] * players, "history": history, "last_trick": None,
    })
    return state


def play(state: dict, seat: int, tile: str) -> tuple[dict, list]:
    return ENGINE.apply(state, seat, {"type": "play", "tile": tile})


def play_trick(state: dict, *moves: tuple[int, str]) -> tuple[dict, list]:
    """Play several tiles in turn, each ``(seat, tile)``; returns the state and the last move's events."""
    events: list = []
    for seat, tile in moves:
        state, events = play(state, seat, tile)
    return state, events


def bid_all(state: dict, bids: dict[int, int]) -> tuple[dict, list]:
    """The bids in turn from the one whose turn it is; ``bids`` maps seat → tricks."""
    events: list = []
    while state["phase"] == "bid":
        seat = state["turn"]
        state, events = ENGINE.apply(state, seat, {"type": "bid", "tricks": bids[seat]})
    return state, events


def winner_of(events: list) -> int:
    return next(event["winner"] for event in events if event["type"] == "trick")


def scored(events: list) -> dict:
    return next(event for event in events if event["type"] == "deal_scored")


def tile_codes_in(data: object) -> set[str]:
    return set(TILE_CODE.findall(json.dumps(data)))


def advance(state: dict, until) -> dict:
    """Apply automatic moves (the first actor's) until ``until(state)`` holds or the game ends."""
    while not ENGINE.is_over(state) and not until(state):
        seat = ENGINE.actors(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    return state
