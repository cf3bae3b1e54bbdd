"""What one seat of a domino Poker game may know: ``seat_view(engine, state, seat)``,
the engine's ``view`` (``seat=None``: a spectator).

View keys
---------
``game seat players options phase finished``; the deal: ``deal deals_total
stage kind tiles undealt starter first_starter draw schedule`` (the draw's
rounds and ``domino_poker_rules.deal_schedule``); the turn: ``actors turn``;
bidding: ``bids bidding blind hand_face_down`` (true while a blind deal is
bid on: ``hand`` is then empty); play: ``taken trick`` (``[{"seat",
"tile"}]``) ``leader`` (who led or leads the trick) ``last_trick``
(``{"deal", "plays", "winner"}``) ``played`` (every tile played this deal,
in order); tiles: ``hand_sizes hand`` (own tiles sorted strongest first: the
poker, trumps ``0-0`` then by pips, then ordinary tiles by pips; ``None`` for
spectators) ``legal_actions``; stage 5: ``final_leader row_size pick``
(``{"index", "direction", "tile", "pips"}``) ``positions`` (the row position
of each seat's tile) ``committed`` (per seat, in ``"reveal"``) ``choices``
(per seat: ``"show"``/``"hide"``, one's own at once, everybody's after the
reveal) ``final_tiles`` (per seat: one's own, and the shown ones after the
reveal); outside stage 5 those keys are ``None``; results: ``totals
forfeited outcome``.

Never another player's tile, an undealt tile, the row's face-down tiles,
another player's stage-5 choice before the reveal, or the seed.
"""

from __future__ import annotations

from typing import Any

from .core import State, clone
from .domino_poker_rules import FINAL, SET_SIZE, display_order
from .domino_poker_sheet import public_pick

TURN_PHASES = ("bid", "play", "pick")


def seat_view(engine: Any, state: State, seat: int | None) -> dict:
    """Everything ``seat`` may know; ``engine`` answers the contract's other questions."""
    players = state["players"]
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
        raise ValueError(f"There is no seat {seat!r} at this table.")
    phase = state["phase"]
    over = phase == "over"
    schedule = engine.schedule(state)
    plan = schedule[state["deal"] - 1]
    face_down = plan["blind"] and phase == "bid"
    trick = state["trick"]
    return {
        "game": engine.slug,
        "seat": seat,
        "players": players,
        "options": dict(state["options"]),
        "phase": phase,
        "finished": over,
        "deal": state["deal"],
        "deals_total": len(schedule),
        "stage": state["stage"],
        "kind": state["kind"],
        "tiles": state["tiles"],
        "undealt": plan["undealt"],
        "starter": state["starter"],
        "first_starter": state["first_starter"],
        "draw": clone(state["draw"]),
        "schedule": schedule,
        "actors": engine.actors(state),
        "turn": state["turn"] if phase in TURN_PHASES else None,
        "bids": list(state["bids"]),
        "bidding": plan["bidding"],
        "blind": plan["blind"],
        "hand_face_down": face_down,
        "taken": list(state["taken"]),
        "trick": clone(trick),
        "leader": trick[0]["seat"] if trick else (state["turn"] if phase == "play" else None),
        "last_trick": clone(state["last_trick"]) if state["last_trick"] else None,
        "played": list(state["played"]),
        "hand_sizes": [len(hand) for hand in state["hands"]],
        "hand": None if seat is None else ([] if face_down else display_order(state["hands"][seat])),
        "legal_actions": engine.legal_actions(state, seat) if seat is not None else [],
        **final_view(state, seat),
        "totals": engine.totals(state),
        "forfeited": state["forfeited"],
        "outcome": engine.outcome(state) if over else None,
    }


def final_view(state: State, seat: int | None) -> dict:
    """Stage 5's keys: ``None`` outside stage 5; another seat's choice and tile only after the reveal."""
    players = state["players"]
    if state["kind"] != FINAL:
        return {"final_leader": None, "row_size": None, "pick": None, "positions": None,
                "committed": None, "choices": None, "final_tiles": None}
    record = state["history"][-1] if state["history"] and state["history"][-1]["kind"] == FINAL else None
    choices: list[str | None] = [None] * players
    tiles: list[str | None] = [None] * players
    if record is not None:
        choices = ["show" if choice else "hide" for choice in record["choices"]]
        tiles = list(record["shown"])
    if seat is not None and state["positions"] is not None:
        tiles[seat] = state["row"][state["positions"][seat]]
        own = state["choices"][seat]
        choices[seat] = None if own is None else ("show" if own else "hide")
    committed = [choice is not None for choice in state["choices"]] if state["phase"] == "reveal" else None
    return {"final_leader": state["leader"], "row_size": SET_SIZE, "pick": public_pick(state),
            "positions": list(state["positions"]) if state["positions"] is not None else None,
            "committed": committed, "choices": choices, "final_tiles": tiles}
