"""Helpers for the Odessa poker engine tests: build a state in the middle of a deal.

They edit a freshly started state directly (the engine has no test-only API),
so each scripted test states the hands, trump, dealer and bids it needs.
"""

from __future__ import annotations

import json
import re

from gameplay.engine import get_engine
from gameplay.engine.odessa_setup import deal_schedule, make_odessa_deck

ENGINE = get_engine("odessa")
SEED = 987654321
CARD_CODE = re.compile(r'"([2-9TJQKA][SCDH]|X1)"')


def started(players: int = 4, options: dict | None = None, seed: int = SEED) -> dict:
    return ENGINE.start(players=players, options=options or {}, seed=seed)


def scripted(
    hands: list[list[str]],
    *,
    options: dict | None = None,
    trump: str | None = "H",
    trump_card: str | None = None,
    dealer: int | None = None,
    bids: list[int | None] | None = None,
    phase: str = "play",
    turn: int | None = None,
    special: str | None = None,
    taken: list[int] | None = None,
) -> dict:
    """A started game edited to be at the given point of a deal with these exact hands.

    The deal is the first of the schedule with that many cards and that
    special; the first dealer is moved so that ``dealer`` (default: the last
    seat) deals it. The dealer's left leads (or bids) unless ``turn`` says otherwise.
    """
    players, cards = len(hands), len(hands[0])
    assert all(len(hand) == cards for hand in hands), "scripted hands must have equal sizes"
    state = started(players, options)
    plan = next(p for p in deal_schedule(players, state["options"]) if p["cards"] == cards and p["special"] == special)
    deal = plan["deal"]
    dealer = players - 1 if dealer is None else dealer
    first_dealer = (dealer - deal + 1) % players
    dealt = {card for hand in hands for card in hand}
    rest = [card for card in make_odessa_deck(state["options"]["deck"]) if card not in dealt]
    if trump_card is not None:
        rest.remove(trump_card)
        rest.insert(0, trump_card)
    state.update({
        "deal": deal, "cards": cards, "special": special, "dealer": dealer, "first_dealer": first_dealer,
        "order": [(first_dealer + offset) % players for offset in range(1, players + 1)],
        "hands": [list(hand) for hand in hands], "rest": rest, "trump": trump, "trump_card": trump_card,
        "bids": list(bids) if bids is not None else [None] * players,
        "taken": list(taken) if taken is not None else [0] * players,
        "trick": [], "played": [], "auto": [False] * players, "phase": phase,
        "turn": (dealer + 1) % players if turn is None else turn, "history": [], "last_trick": None,
    })
    return state


def play(state: dict, seat: int, card: str, joker: str | None = None, suit: str | None = None) -> tuple[dict, list]:
    action: dict = {"type": "play", "card": card}
    if joker is not None:
        action["joker"] = joker
    if suit is not None:
        action["suit"] = suit
    return ENGINE.apply(state, seat, action)


def play_trick(state: dict, *moves: tuple) -> tuple[dict, list]:
    """Play several cards in turn; each move is ``(seat, card[, joker[, suit]])``. Returns the last events."""
    events: list = []
    for move in moves:
        state, events = play(state, *move)
    return state, events


def bid_all(state: dict, *bids: int) -> tuple[dict, list]:
    """The players bid in turn from the one to move; returns the state and the last events."""
    events: list = []
    for tricks in bids:
        state, events = ENGINE.apply(state, ENGINE.actors(state)[0], {"type": "bid", "tricks": tricks})
    return state, events


def winner_of(events: list) -> int:
    return next(event["winner"] for event in events if event["type"] == "trick")


def scored(events: list) -> dict:
    return next(event for event in events if event["type"] == "deal_scored")


def card_codes_in(data: object) -> set[str]:
    return set(CARD_CODE.findall(json.dumps(data)))


def dumps(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def advance_with_auto_actions(state: dict, until) -> dict:
    """Apply automatic moves until ``until(state)`` holds (or the game ends)."""
    while not ENGINE.is_over(state) and not until(state):
        seat = ENGINE.actors(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    return state
