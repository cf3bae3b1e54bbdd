"""A game's record as published JSON: what `manage.py verify_record` checks.

The format is `gameplay.records`' (format 1: game, rules version, players,
options, seed, seed SHA-256, moves, final state, outcome) with what the site
adds: the table's id and address, the players' names (and each computer
seat's level), the times of the moves
and how they were made, how the game ended and its result (places and
points). It is published when the game is over, finished or aborted: until
then the seed is secret, and so are the moves' effects on hidden cards. The
SHA-256 is the one shown on the game page since the start, not one
computed now, so that the check means something. README "Game records"
documents it.
"""

from __future__ import annotations

from gameplay.engine import get_engine
from gameplay.models import Game
from gameplay.records import RECORD_FORMAT


def game_export(game: Game) -> dict:
    """The published record of a game that is over."""
    engine = get_engine(game.engine)
    seats = sorted(game.seats.all(), key=lambda s: s.position)
    moves = game.moves.order_by("seq").values_list("seq", "position", "action", "by", "created_at", "time_used_ms")
    finished = game.status == Game.Status.FINISHED and game.state is not None and engine.is_over(game.state)
    return {
        "format": RECORD_FORMAT,
        "game": engine.slug,
        "id": game.pk,
        "url": game.get_absolute_url(),
        "rules_version": game.rules_version,
        "players": game.seats_count,
        "options": game.options,
        "seats": [{"position": s.position, "name": str(s.player_name) if s.is_taken else None,
                   "computer": s.is_bot, "computer_level": s.computer_level if s.is_bot else None} for s in seats],
        "status": game.status,
        "started_at": _iso(game.started_at),
        "finished_at": _iso(game.finished_at),
        "abort_reason": game.abort_reason or None,
        "seed": game.revealed_seed,
        "seed_sha256": game.seed_sha256,
        "moves": [{"seq": seq, "seat": seat, "action": action, "by": by, "at": _iso(at), "time_used_ms": used}
                  for seq, seat, action, by, at, used in moves],
        "final_state": game.state,
        "outcome": engine.outcome(game.state) if finished else None,
        "result": [{"position": s.position, "place": s.place, "points": s.points} for s in seats] if finished else [],
    }


def _iso(moment) -> str | None:
    return moment.isoformat() if moment else None
