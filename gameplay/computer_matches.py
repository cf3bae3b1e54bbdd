"""Duplicate-deal matches between computer levels (issue 43), played with the real engines and
players, in memory: what `manage.py play_computer_matches` plays and
`gameplay.services.computer_games.record_computer_game` stores as rated games.

A duplicate match deals the same cards (the same seed) once for each arrangement of the two
levels over the seats, the pattern a, b, a, b... rotated seat by seat, so that a good hand
helps each level as often as the other. Each decision's random generator is drawn from the
game's seed, its version and the seat, as the site's computer moves draw theirs
(`services.moves.play_bot_move`): a game replays exactly from its seed and levels."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from dataclasses import dataclass

from gameplay import bots
from gameplay.engine import get_engine

# A game that has not ended after this many moves is abandoned (an engine's or a player's fault).
MAX_MOVES = 20000


@dataclass
class PlayedGame:
    engine: str
    options: dict
    seed: str
    levels: list[int]  # per seat
    moves: list[tuple[int, dict]]  # (seat, action), in order
    state: dict
    outcome: dict


def arrangements(first: int, second: int, players: int) -> list[list[int]]:
    """Every distinct rotation of the seats' levels first, second, first, second..."""
    pattern = [first if seat % 2 == 0 else second for seat in range(players)]
    rotations = [pattern[shift:] + pattern[:shift] for shift in range(players)]
    return [list(levels) for levels in dict.fromkeys(tuple(r) for r in rotations)]


def deal_seed(base: int, engine: str, deal: int) -> str:
    """The seed of a match's deal: the same for every arrangement of the deal, a whole number in decimal."""
    digest = hashlib.sha256(f"computer-matches:{base}:{engine}:{deal}".encode()).digest()
    return str(int.from_bytes(digest[:16], "big"))


class Interrupted(Exception):
    """`play_game` gave up a game because its `keep_going` said to stop."""


def play_game(engine_slug: str, levels: list[int], seed: str, options: dict | None = None,
              keep_going: Callable[[], bool] | None = None) -> PlayedGame:
    """A whole game of computers, seat i at level levels[i]; ValueError for an unknown level.
    `keep_going`, asked before each decision: False gives the game up (Interrupted)."""
    for level in levels:
        if level not in bots.LEVELS:
            raise ValueError(f"There is no computer level {level}.")
    engine = get_engine(engine_slug)
    options = engine.validate_options(options or {})
    state = engine.start(players=len(levels), options=options, seed=int(seed))
    moves: list[tuple[int, dict]] = []
    while not engine.is_over(state):
        if len(moves) >= MAX_MOVES:
            raise RuntimeError(f"{engine_slug} seed {seed}: no end after {MAX_MOVES} moves")
        if keep_going is not None and not keep_going():
            raise Interrupted(f"{engine_slug} seed {seed}: given up after {len(moves)} moves")
        seat = engine.actors(state)[0]
        rng = random.Random(f"{seed}:{len(moves)}:{seat}")
        action = bots.choose_action(engine, state, seat, rng, level=levels[seat])
        state, _events = engine.apply(state, seat, action)
        moves.append((seat, action))
    return PlayedGame(engine_slug, options, seed, list(levels), moves, state, engine.outcome(state))
