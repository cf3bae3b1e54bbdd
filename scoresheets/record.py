"""A game's record page: every move in the game's words, grouped by deal,
bout or round, with the time each took and the moves the clock made.

The words and what a seat may read of them are the move log's
(`gameplay.movelog`: during the game a player's record shows only what his
seat has seen). The groups come from replaying the moves through the rules
(`section(state)` of the game's movelog module names the deal, bout or
round a move was made in, which every seat knows).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

from gameplay.engine import get_engine
from gameplay.models import Game, Seat
from gameplay.movelog import LogLine, move_log
from gameplay.records import apply_recorded


@dataclass
class Section:
    title: str
    lines: list[tuple[LogLine, int]] = field(default_factory=list)  # (line, time used in ms)


def record_sections(game: Game, seats: list[Seat], viewer: int | None) -> list[Section]:
    """The moves of `game` as seat `viewer` (None: a spectator) may read them, grouped."""
    moves = list(game.moves.order_by("seq"))
    lines = move_log(game, seats, viewer, moves)
    if game.state is None:
        return []
    engine = get_engine(game.engine)
    section_of = getattr(import_module(f"gameplay.movelog.{game.engine}"), "section", lambda state: "")
    state = engine.start(players=game.seats_count, options=game.options, seed=int(game.seed),
                         rules_version=game.rules_version)
    sections: list[Section] = []
    for move, line in zip(moves, lines):
        title = section_of(state)
        if not sections or sections[-1].title != title:
            sections.append(Section(title))
        sections[-1].lines.append((line, move.time_used_ms))
        state, _events = apply_recorded(engine, state, move.position, move.action)
    return sections


def duration(ms: int) -> str:
    """Time spent on a move, short: "4 s", "3 min 20 s", "5 h 2 min", "2 d 3 h"."""
    from django.utils.translation import gettext

    seconds = round(ms / 1000)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return gettext("%(d)s d %(h)s h") % {"d": days, "h": hours}
    if hours:
        return gettext("%(h)s h %(m)s min") % {"h": hours, "m": minutes}
    if minutes:
        return gettext("%(m)s min %(s)s s") % {"m": minutes, "s": seconds}
    return gettext("%(s)s s") % {"s": seconds}
