"""Game records: everything needed to replay and verify a game, as one JSON object.

No Django here (the corpus under ``tests/corpus`` and the replay command both
use it). A record is::

    {"format": 1, "game": "durak", "rules_version": 2, "players": 3,
     "options": {...}, "seed": "123", "seed_sha256": "…",
     "moves": [{"seq": 1, "seat": 0, "action": {...}, "by": "player"}, ...],
     "final_state": {...}, "outcome": {...}}

``rules_version`` is the version of the game's rules the game *started*
under; the state carries the version it is played under now (``state["rules"]``),
which changes only through a recorded ``{"type": "rules", "version": n}``
move (by ``system``, seat ``None``): the engine's state migration, applied by
the platform at a safe point of the game (see ``Engine.upgrade``).

Besides the engines' own moves, a record holds the platform's: a
resignation (``{"type": "resign"}``) and a loss on time (``{"type":
"timeout"}``), both ending the game through ``engine.forfeit``; and a
moderator's (by ``moderator``, seat ``None``), which leave the state as it
is: an adjudication (``{"type": "adjudicate", "places": [...], "points":
[...], "reason": "..."}``, the platform ends the game with that result) and
a substitution (``{"type": "substitute", "seat": 2, "computer": false,
"reason": "..."}``: another player or a computer takes the seat from then on).
"""

from __future__ import annotations

import json
from typing import Any

from gameplay.engine import get_engine
from gameplay.engine.core import Engine, IllegalMove, seed_digest

RECORD_FORMAT = 1
# Actions that are not the engine's moves but end the game for one seat.
RESIGN = "resign"
TIMEOUT = "timeout"
FORFEITS = {RESIGN: "resigned", TIMEOUT: "lost_on_time"}
# The platform's move that migrates a state to the next rules version.
RULES = "rules"
# A moderator's records: the state stays as it is (gameplay/services/interventions.py).
ADJUDICATE = "adjudicate"
SUBSTITUTE = "substitute"
MODERATOR_RECORDS = (ADJUDICATE, SUBSTITUTE)


def apply_recorded(engine: Engine, state: dict, seat: int | None, action: dict) -> tuple[dict, list[dict]]:
    """One recorded move: the engine's move, a forfeit, or a rules upgrade. Used by play and replay alike."""
    kind = action.get("type")
    if kind in FORFEITS:
        return engine.forfeit(state, seat), [{"type": FORFEITS[kind], "seat": seat}]
    if kind == RULES and seat is None:
        upgraded = engine.upgrade(state)
        if upgraded is None or upgraded["rules"] != action.get("version"):
            raise IllegalMove("The game is not at a point where its rules can be upgraded.")
        return upgraded, [{"type": "rules", "version": upgraded["rules"]}]
    if kind in MODERATOR_RECORDS and seat is None:  # never a seat's: a player cannot send one
        return state, [{"type": kind, "seat": action.get("seat")}]
    return engine.apply(state, seat, action)


def record_of_play(engine: Engine, start: dict, moves: list[dict], final_state: dict) -> dict:
    """The record of a game played from the state ``start`` through ``moves`` to ``final_state``."""
    seed = start["seed"]
    return {
        "format": RECORD_FORMAT, "game": engine.slug, "rules_version": start.get("rules", 1),
        "players": start["players"], "options": start["options"], "seed": str(seed),
        "seed_sha256": seed_digest(seed), "moves": moves, "final_state": final_state,
        "outcome": engine.outcome(final_state) if engine.is_over(final_state) else None,
    }


def replay_record(record: dict[str, Any]) -> dict:
    """The state reached by replaying a record's moves from its seed, under the rules version it started with."""
    engine = get_engine(record["game"])
    state = engine.start(players=record["players"], options=record["options"], seed=int(record["seed"]),
                         rules_version=record["rules_version"])
    for move in record["moves"]:
        state, _events = apply_recorded(engine, state, move["seat"], move["action"])
    return state


def same_state(first: dict, second: dict) -> bool:
    """True if two states are equal as JSON (key order aside)."""
    return json.dumps(first, sort_keys=True) == json.dumps(second, sort_keys=True)


# -- checking a published record ------------------------------------------------


class RecordProblem(ValueError):
    """Why a record does not verify, in words for the person who checks it."""


def verify_record(record: Any) -> dict:
    """Check a published record (``scoresheets.export``) the way anybody can:

    1. its seed hashes to the SHA-256 that was published when the game started;
    2. every deal comes from that seed: the game is started from it and each
       recorded move is replayed through the rules, and each must be legal;
    3. the replay ends in the recorded final state and outcome, and the
       recorded places and points are that outcome's.

    Returns a short summary, or raises ``RecordProblem`` naming the first fault."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise RecordProblem(f"not a game record of format {RECORD_FORMAT}")
    seed, published = record.get("seed"), record.get("seed_sha256")
    if seed in (None, ""):
        raise RecordProblem("the record has no seed: it is revealed only when the game is over")
    if not isinstance(seed, str) or not seed.isdigit():
        raise RecordProblem(f"the seed {seed!r} is not a whole number")
    if seed_digest(int(seed)) != published:
        raise RecordProblem(f"the seed does not hash to the SHA-256 published at the start ({published})")
    try:
        engine = get_engine(record["game"])
        state = engine.start(players=record["players"], options=record["options"], seed=int(seed),
                             rules_version=record["rules_version"])
        moves = record["moves"]
    except (KeyError, TypeError, ValueError) as exc:
        raise RecordProblem(f"the record cannot be started: {exc}") from None
    for number, move in enumerate(moves, start=1):
        try:
            state, _events = apply_recorded(engine, state, move["seat"], move["action"])
        except IllegalMove as exc:
            reason = getattr(exc, "message", exc)
            raise RecordProblem(f"move {number} ({move.get('action')}) is not legal: {reason}") from None
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordProblem(f"move {number} cannot be read: {exc}") from None
    if record.get("final_state") is not None and not same_state(state, record["final_state"]):
        raise RecordProblem("the moves do not lead to the recorded final state")
    outcome = engine.outcome(state) if engine.is_over(state) else None
    if record.get("outcome") is not None and outcome != record["outcome"]:
        raise RecordProblem("the moves do not lead to the recorded outcome")
    for seat in record.get("result") or []:
        if outcome is None or (seat.get("place"), seat.get("points")) != (
                outcome["places"][seat["position"]], outcome["scores"][seat["position"]]):
            raise RecordProblem(f"the recorded result of seat {seat.get('position')} is not the outcome's")
    return {"game": engine.slug, "moves": len(moves), "over": outcome is not None}
