"""Domino Poker's score sheet, as players keep it on paper (the seed's photographed sheet):
one row per deal, one column per player holding the running total, the bid
beside it on bidding deals, stage headings between the rows.

``score_sheet(state, schedule, ranking)`` returns (public information only)::

    {"kind": "domino_poker", "players", "draw", "first_starter",
     "stages": [{"stage", "kind", "rows": [...]}], "totals", "ranking", "forfeited"}

Each row: ``deal stage kind tiles starter complete`` and ``cells``, one per
seat: ``{"bid", "tricks", "points", "total", "auto"}`` (``bid`` only on
bidding deals; ``total`` the running total after that deal; ``auto``: a
time-out moved for that player in that deal). Stage 5's row adds ``leader``
and ``pick`` (``{"index", "direction", "tile", "pips"}``) and each of its
cells ``choice`` (``"show"``/``"hide"``) and ``tile`` (shown tiles only;
hidden ones never). Rows not played yet are listed with empty cells; the
deal in progress shows its bids and, in play, the tricks taken so far.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .core import State, clone
from .domino_poker_rules import FINAL
from .dominoes import pips


def public_pick(state: State) -> dict | None:
    """Stage 5's turned tile once the leader has pointed: ``{"index", "direction", "tile", "pips"}``."""
    pick = state.get("pick")
    return None if pick is None else {**pick, "pips": pips(pick["tile"])}


def score_sheet(state: State, schedule: list[dict], ranking: Callable[[list[int], int | None], list[int]]) -> dict:
    """The sheet of ``state`` (see the module docstring); ``ranking(totals, forfeited)`` orders the seats."""
    players = state["players"]
    records = {record["deal"]: record for record in state["history"]}
    running = [0] * players
    stages: list[dict] = []
    for plan in schedule:
        record = records.get(plan["deal"])
        if record is not None:
            running = [running[seat] + record["points"][seat] for seat in range(players)]
            row = complete_row(plan, record, running)
        else:
            row = open_row(state, plan)
        if not stages or stages[-1]["stage"] != plan["stage"]:
            stages.append({"stage": plan["stage"], "kind": plan["kind"], "rows": []})
        stages[-1]["rows"].append(row)
    return {"kind": state["game"], "players": players, "draw": clone(state["draw"]),
            "first_starter": state["first_starter"], "stages": stages, "totals": list(running),
            "ranking": ranking(running, state["forfeited"]), "forfeited": state["forfeited"]}


def open_row(state: State, plan: dict) -> dict:
    """A deal not complete: empty, or the deal in progress with what is public of it."""
    players = state["players"]
    row: dict[str, Any] = {"deal": plan["deal"], "stage": plan["stage"], "kind": plan["kind"],
                           "tiles": plan["tiles"], "starter": (state["first_starter"] + plan["deal"] - 1) % players,
                           "complete": False}
    cells = [{"bid": None, "tricks": None, "points": None, "total": None, "auto": False} for _ in range(players)]
    current = plan["deal"] == state["deal"] and state["phase"] != "over"
    if plan["kind"] == FINAL:
        row.update({"leader": state["leader"] if current else None, "pick": public_pick(state) if current else None})
        for cell in cells:
            cell.update({"choice": None, "tile": None})
    elif current:
        for seat, cell in enumerate(cells):
            cell["bid"] = state["bids"][seat]
            cell["tricks"] = state["taken"][seat] if state["phase"] == "play" else None
            cell["auto"] = state["auto"][seat]
    row["cells"] = cells
    return row


def complete_row(plan: dict, record: dict, running: list[int]) -> dict:
    row: dict[str, Any] = {"deal": plan["deal"], "stage": plan["stage"], "kind": plan["kind"],
                           "tiles": plan["tiles"], "starter": record["starter"], "complete": True}
    cells = []
    for seat, total in enumerate(running):
        cell: dict[str, Any] = {"points": record["points"][seat], "total": total, "auto": record["auto"][seat]}
        if plan["kind"] == FINAL:
            cell.update({"bid": None, "tricks": None, "choice": "show" if record["choices"][seat] else "hide",
                         "tile": record["shown"][seat]})
        else:
            cell.update({"bid": record["bids"][seat] if plan["bidding"] else None, "tricks": record["tricks"][seat]})
        cells.append(cell)
    if plan["kind"] == FINAL:
        row.update({"leader": record["leader"], "pick": {**record["pick"], "pips": pips(record["pick"]["tile"])}})
    row["cells"] = cells
    return row
