"""Stepping through a game that is over, move by move, with every hand shown.

A step is the position after that many moves (0: the deal before the first
move). Each step is computed by replaying the stored moves from the seed
through the rules (`gameplay.records.apply_recorded`), as the replay and the
verification do, and is sent to the page in the shape of a live state
message, so that the game page's own renderer draws it: the table as the
chosen seat saw it then, plus every seat's hand (the seed is public once the
game is over, and so is everything it dealt). Nothing is replayed for a game
that is not over: the page refuses it.
"""

from __future__ import annotations

from gameplay.engine import get_engine
from gameplay.models import Game
from gameplay.records import apply_recorded


def state_at(game: Game, step: int) -> tuple[dict, list[dict], int]:
    """(the state after `step` moves, the events of the last of them, the number of moves)."""
    engine = get_engine(game.engine)
    moves = list(game.moves.order_by("seq").values_list("position", "action"))
    step = max(0, min(step, len(moves)))
    state = engine.start(players=game.seats_count, options=game.options, seed=int(game.seed),
                         rules_version=game.rules_version)
    events: list[dict] = []
    for position, action in moves[:step]:
        state, events = apply_recorded(engine, state, position, action)
    return state, events, len(moves)


def step_payload(game: Game, step: int, viewer: int | None) -> dict:
    """The state message of one step, seen from seat `viewer` (None: a spectator), with every hand."""
    engine = get_engine(game.engine)
    state, events, total = state_at(game, step)
    step = max(0, min(step, total))
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    return {
        "type": "state",
        "game": game.pk,
        "engine": game.engine,
        "version": step,
        "steps": total,
        "status": "replay",
        "seat": viewer,
        "players": [{"position": s.position, "name": str(s.player_name) if s.is_taken else None,
                     "is_bot": s.is_bot, "place": s.place, "points": s.points, "clock": None,
                     "vacation_until": None} for s in seats],
        "view": engine.view(state, viewer),
        "hands": [engine.view(state, s.position).get("hand") for s in seats],
        "legal": [],
        "blocked": {},
        "events": events,
    }
