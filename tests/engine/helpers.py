"""Helpers for the engine tests: build a Joker state in the middle of a deal.

They edit a freshly started state directly (the engine has no test-only API),
so each scripted test states the hands, trump, dealer and bids it needs.
"""

from __future__ import annotations

import json
import re

from gameplay.engine import get_engine
from gameplay.engine.joker import DEAL_SIZES, deal_points, is_joker, joker_deck, sheet_order

ENGINE = get_engine("joker")
SEED = 123456789
CARD_CODE = re.compile(r'"([6-9TJQKA][SCDH]|X[12])"')


def started(seed: int = SEED) -> dict:
    return ENGINE.start(players=4, options={}, seed=seed)


def scripted(
    hands: list[list[str]],
    *,
    trump: str | None = "H",
    dealer: int = 3,
    bids: list[int | None] | None = None,
    phase: str = "play",
    turn: int | None = None,
    trump_card: str | None = None,
    deal: int | None = None,
) -> dict:
    """A started game edited to be at the given point of a deal with these exact hands.

    The deal number defaults to the first deal with that many cards; the
    first dealer and the sheet order are moved so that ``dealer`` deals it.
    The dealer's left leads (or bids) unless ``turn`` says otherwise.
    """
    cards = len(hands[0])
    assert all(len(hand) == cards for hand in hands), "scripted hands must have equal sizes"
    deal = deal or DEAL_SIZES.index(cards) + 1
    state = started()
    first_dealer = (dealer - deal + 1) % 4
    dealt = {card for hand in hands for card in hand}
    rest = [card for card in joker_deck() if card not in dealt]
    if trump_card is not None:
        rest.remove(trump_card)
        rest.insert(0, trump_card)
    state.update({
        "deal": deal,
        "cards": cards,
        "dealer": dealer,
        "first_dealer": first_dealer,
        "order": sheet_order(first_dealer),
        "hands": [list(hand) for hand in hands],
        "rest": rest,
        "trump": trump,
        "trump_card": trump_card,
        "trump_chooser": (dealer + 1) % 4 if cards == 9 else None,
        "bids": list(bids) if bids is not None else [None] * 4,
        "taken": [0] * 4,
        "trick": [],
        "played": [],
        "held_joker": [any(is_joker(card) for card in hand) for hand in hands],
        "joker_shown": [False] * 4,
        "auto": [False] * 4,
        "phase": phase,
        "turn": (dealer + 1) % 4 if turn is None else turn,
        "history": [],
        "last_trick": None,
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


def winner_of(events: list) -> int:
    return next(event["winner"] for event in events if event["type"] == "trick")


def record(deal: int, bids: list[int], tricks: list[int]) -> dict:
    """A complete deal record as the engine keeps it, with points from the scoring table."""
    cards = DEAL_SIZES[deal - 1]
    return {
        "deal": deal, "cards": cards, "dealer": (deal - 1) % 4, "trump": "H", "trump_card": None,
        "bids": list(bids), "tricks": list(tricks),
        "points": [deal_points(b, t, cards) for b, t in zip(bids, tricks, strict=True)],
        "joker": [False] * 4, "auto": [False] * 4,
    }


def with_history(records: list[dict], first_dealer: int = 3) -> dict:
    """A started game whose history is replaced by ``records`` (current deal = the next one)."""
    state = started()
    state["first_dealer"] = first_dealer
    state["order"] = sheet_order(first_dealer)
    state["history"] = records
    next_deal = records[-1]["deal"] + 1 if records else 1
    if next_deal <= len(DEAL_SIZES):
        state["deal"] = next_deal
        state["cards"] = DEAL_SIZES[next_deal - 1]
    else:
        state.update({"phase": "over", "turn": None})
    return state


def dumps(state: dict) -> str:
    return json.dumps(state, sort_keys=True)


def card_codes_in(data: object) -> set[str]:
    return set(CARD_CODE.findall(json.dumps(data)))


def advance_with_auto_actions(state: dict, until) -> dict:
    """Apply automatic moves until ``until(state)`` holds (or the game ends)."""
    while not ENGINE.is_over(state) and not until(state):
        seat = ENGINE.actors(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    return state
