"""The move log of a game page: every stored move in the game's words, with
the player's name, in the reader's language, showing a seat nothing it may
not know.

Each game words its own moves in one place, ``describe_move`` in the module
named after it (joker.py, durak.py, ipuker.py); the platform's own moves (a
resignation, a loss on time, a rules update, a moderator's adjudication or
substitution) are worded here. A game whose
moves hold secrets (Ipuker's stakes and card counts until they are revealed)
also has ``shown_moves(game, moves, viewer)``: the sequence numbers of the
moves whose values the viewer may read; the others are worded without them.
A game whose moves read differently by the moment they were made, or that
takes steps by itself after a move (Durak's forced take, the end of a bout,
the draw), has ``describe_played(action, who, before, events, names)``: the
moves are replayed from the seed and each is worded with the state it was
made in, followed by the automatic steps (``LogLine.then``). Only a game whose
every event is public may have it.

The log is built on the server rather than by the page's JavaScript: the
secret values never leave the server, the page reads the same without
JavaScript, and Python's gettext gives the sentences (with ngettext's plural
forms) in the language the rest of the page is in.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

from django.utils.translation import gettext

from gameplay.engine import get_engine
from gameplay.engine.core import IllegalMove
from gameplay.models import Game, Move, Seat, StandingOrder
from gameplay.records import ADJUDICATE, RESIGN, RULES, SUBSTITUTE, TIMEOUT, apply_recorded


@dataclass(frozen=True)
class LogLine:
    seq: int
    text: str
    by: str  # "" for a player's own move, else who made it for him ("computer", "timeout"...)
    then: tuple[str, ...] = ()  # what happened by itself after the move (a forced take, a draw...)


def _module(engine: str) -> ModuleType | None:
    try:
        return import_module(f"gameplay.movelog.{engine}")
    except ModuleNotFoundError:
        return None


def seat_names(seats: list[Seat]) -> dict[int, str]:
    return {seat.position: str(seat.player_name) if seat.is_taken else seat_label(seat.position) for seat in seats}


def seat_label(position: int) -> str:
    return gettext("Seat %(n)s") % {"n": position + 1}


def platform_move(action: dict, who: str) -> str | None:
    """The platform's own moves, the same in every game (gameplay/records.py)."""
    kind = action.get("type")
    if kind == RESIGN:
        return gettext("%(who)s resigns") % {"who": who}
    if kind == TIMEOUT:
        return gettext("%(who)s loses on time") % {"who": who}
    if kind == RULES:
        return gettext("The site moves the game to the current version of its rules")
    if kind == ADJUDICATE:
        return gettext("Adjudicated by a moderator: %(reason)s") % {"reason": action.get("reason", "")}
    if kind == SUBSTITUTE:
        seat = action.get("seat")
        number = seat + 1 if isinstance(seat, int) else "?"
        if action.get("computer"):
            return gettext("A moderator replaced seat %(n)s with a computer player: %(reason)s") % {
                "n": number, "reason": action.get("reason", "")}
        return gettext("A moderator replaced seat %(n)s: %(reason)s") % {"n": number, "reason": action.get("reason", "")}
    return None


def bid_words(action: dict, who: str) -> str:
    """A bid of tricks, in the words of Joker, Odessa poker and domino Poker (0 is a pass)."""
    if action.get("tricks") == 0:
        return gettext("%(who)s passes") % {"who": who}
    return gettext("%(who)s bids %(n)s") % {"who": who, "n": action.get("tricks")}


def replayed(game: Game, moves: list[Move]) -> list[tuple[dict, list[dict]]] | None:
    """For each move, the state it was made in and the engine's events of it; None if the
    stored moves do not replay (never for a sound game: the log then words the moves alone)."""
    engine = get_engine(game.engine)
    state = engine.start(players=game.seats_count, options=game.options, seed=int(game.seed),
                         rules_version=game.rules_version)
    steps = []
    try:
        for move in moves:
            after, events = apply_recorded(engine, state, move.position, move.action)
            steps.append((state, events))
            state = after
    except (IllegalMove, KeyError, TypeError, ValueError):
        return None
    return steps


def _ordered_moves(game: Game, seats: list[Seat], viewer: int | None) -> set[int]:
    """The moves the viewer's standing orders made (read only if his seat ever had one applied)."""
    seat = next((s for s in seats if s.position == viewer), None) if viewer is not None else None
    if seat is None or not seat.used_orders:
        return set()
    return set(StandingOrder.objects.filter(game=game, position=viewer, status=StandingOrder.Status.APPLIED)
               .values_list("move_seq", flat=True))


def move_log(game: Game, seats: list[Seat], viewer: int | None, moves: list[Move] | None = None) -> list[LogLine]:
    """The game's moves as the seat `viewer` (None: a spectator) may read them, oldest first."""
    moves = list(game.moves.order_by("seq")) if moves is None else moves
    module = _module(game.engine)
    names = seat_names(seats)
    shown = module.shown_moves(game, moves, viewer) if module and hasattr(module, "shown_moves") else None
    steps = replayed(game, moves) if module and hasattr(module, "describe_played") and moves else None
    by_order = _ordered_moves(game, seats, viewer)
    lines = []
    for index, move in enumerate(moves):
        visible = shown is None or move.seq in shown
        who = names.get(move.position, "") if move.position is not None else ""
        text = platform_move(move.action, who)
        then: list[str] = []
        if text is None and steps is not None:
            before, events = steps[index]
            text, then = module.describe_played(move.action, who, before, events, names)
        elif text is None:
            text = module.describe_move(move.action, who, visible) if module else gettext("%(who)s moves") % {"who": who}
        # Said only for the clock's and a moderator's moves (a computer's name says it is one), and
        # not for a hidden commitment: a time-out's stake is the minimum, so the mark would tell it.
        by = move.get_by_display() if visible and move.by in (Move.By.TIMEOUT, Move.By.MODERATOR) else ""
        if move.seq in by_order and move.position == viewer:
            by = gettext("by your order")  # his own list alone: to the others it is a move by hand
        lines.append(LogLine(seq=move.seq, text=text, by=str(by), then=tuple(then)))
    return lines
