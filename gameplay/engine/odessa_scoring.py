"""Odessa poker's scoring, ranking and score sheet (rules/odessa-poker.md, "Scoring").

Pure functions over the engine's deal records (``state["history"]``, one
dict per complete deal: ``deal cards special dealer trump trump_card bids
tricks points auto``).
"""

from __future__ import annotations

from typing import Any

from .odessa_setup import BLIND, GOLDEN, MISER, NO_TRUMP

PASS_MADE_POINTS = 5
PER_TRICK_MADE = 10
PER_TRICK_OVER = 1
PER_TRICK_SHORT = -10
PER_TRICK_GOLDEN = 10
PER_TRICK_MISER = -10
MULTIPLIED = (BLIND, NO_TRUMP)


def bid_points(bid: int, tricks: int) -> int:
    """Points of a deal with bids: pass made 5, bid made 10 a trick, перебор 1 a trick, недобор −10 a trick short."""
    if bid == tricks == 0:
        return PASS_MADE_POINTS
    if bid == tricks:
        return PER_TRICK_MADE * tricks
    if tricks > bid:
        return PER_TRICK_OVER * tricks
    return PER_TRICK_SHORT * (bid - tricks)


def deal_points(special: str | None, bid: int | None, tricks: int, multiplier: int) -> int:
    """Points of one player in one deal, the special's multiplier included."""
    if special == GOLDEN:
        return PER_TRICK_GOLDEN * multiplier * tricks
    if special == MISER:
        return PER_TRICK_MISER * multiplier * tricks
    if bid is None:
        raise ValueError("A deal with bids needs a bid")
    points = bid_points(bid, tricks)
    return points * multiplier if special in MULTIPLIED else points


def totals_of(history: list[dict], players: int) -> list[int]:
    """The running totals after the complete deals."""
    return [sum(record["points"][seat] for record in history) for seat in range(players)]


def places_of(totals: list[int], forfeited: int | None = None) -> list[int]:
    """Places per seat (1 = best): equal totals share a place and skip the next (1, 1, 3).

    A seat that forfeited is placed last, alone; the others are ranked among themselves.
    """
    seats = [seat for seat in range(len(totals)) if seat != forfeited]
    places = [0] * len(totals)
    for seat in seats:
        places[seat] = 1 + sum(1 for other in seats if totals[other] > totals[seat])
    if forfeited is not None:
        places[forfeited] = len(totals)
    return places


def ranking_of(places: list[int], order: list[int]) -> list[int]:
    """Seats best first; seats sharing a place in sheet order."""
    return sorted(range(len(places)), key=lambda seat: (places[seat], order.index(seat)))


def score_sheet(state: dict, schedule: list[dict], current_trump_shown: bool) -> dict:
    """The sheet (``kind`` aside; see ``odessa.py``): a row per deal of ``schedule``, the complete ones
    from the history, the current one with its bids (and its trump unless a blind deal still hides it)."""
    players = state["players"]
    running = [0] * players
    records = {record["deal"]: record for record in state["history"]}
    rows = [complete_row(records[plan["deal"]], running) if plan["deal"] in records
            else open_row(state, plan, current_trump_shown) for plan in schedule]
    places = places_of(running, state["forfeited"])
    return {"order": list(state["order"]), "players": players, "multiplier": state["options"]["special_multiplier"],
            "deals": rows, "totals": running, "places": places, "ranking": ranking_of(places, state["order"])}


def open_row(state: dict, plan: dict, current_trump_shown: bool) -> dict:
    """A deal not played to its end: the current one shows its bids and tricks so far; later ones are empty."""
    deal_no, players = plan["deal"], state["players"]
    row = {"deal": deal_no, "cards": plan["cards"], "special": plan["special"],
           "dealer": (state["first_dealer"] + deal_no - 1) % players, "complete": False,
           "trump": None, "trump_card": None, "cells": [empty_cell() for _ in range(players)]}
    if deal_no != state["deal"] or state["phase"] == "over":
        return row
    if current_trump_shown:
        row.update({"trump": state["trump"], "trump_card": state["trump_card"]})
    for seat, cell in enumerate(row["cells"]):
        cell.update({"bid": state["bids"][seat], "auto": state["auto"][seat],
                     "tricks": state["taken"][seat] if state["phase"] == "play" else None})
    return row


def empty_cell() -> dict[str, Any]:
    return {"bid": None, "tricks": None, "points": None, "total": None, "auto": False}


def complete_row(record: dict, running: list[int]) -> dict:
    """A played deal's row; ``running`` (the totals before it) is updated in place."""
    cells = []
    for seat, points in enumerate(record["points"]):
        running[seat] += points
        cell = empty_cell()
        cell.update({"bid": record["bids"][seat], "tricks": record["tricks"][seat], "points": points,
                     "total": running[seat], "auto": record["auto"][seat]})
        cells.append(cell)
    return {"deal": record["deal"], "cards": record["cards"], "special": record["special"],
            "dealer": record["dealer"], "complete": True, "trump": record["trump"],
            "trump_card": record["trump_card"], "cells": cells}
