"""Computer players, one module per game (joker.py durak.py ipuker.py odessa.py; tricks.py is
what the Joker and Odessa players share).

``choose_action(engine, state, seat, rng, level=1)`` returns a legal action for
``seat`` at a computer ``level`` (``LEVELS``; 1 is the one-ply heuristic). A bot sees only what that seat may see: ``engine.view(state, seat)``
and ``engine.legal_actions(state, seat)``; it never reads the state itself
(no other hand, no deck). No Django here: the platform calls this from its
services and stores the result like any other move. A game without a bot of
its own gets a random legal action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gameplay.bots.domino_poker import choose_domino_poker_action
from gameplay.bots.durak import choose_durak_action
from gameplay.bots.ipuker import choose_ipuker_action
from gameplay.bots.joker import choose_joker_action
from gameplay.bots.odessa import choose_odessa_action

Action = dict[str, Any]
Policy = Callable[[dict, list[Action], random.Random], Action]

POLICIES: dict[str, Policy] = {
    "domino_poker": choose_domino_poker_action,
    "joker": choose_joker_action,
    "durak": choose_durak_action,
    "ipuker": choose_ipuker_action,
    "odessa": choose_odessa_action,
}


LEVELS: tuple[int, ...] = (1, 2, 3)


def choose_action(engine: Any, state: dict, seat: int, rng: random.Random, level: int = 1) -> Action:
    """A legal action for ``seat`` at ``level``; ``ValueError`` if the seat has
    nothing to do or the level does not exist. Levels 2 and 3 play as level 1
    until the search players (issue 43) land."""
    if level not in LEVELS:
        raise ValueError(f"There is no computer level {level}.")
    legal = engine.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"Seat {seat} has no move to make now.")
    policy = POLICIES.get(getattr(engine, "slug", None))
    if policy is None:
        return rng.choice(legal)
    return policy(engine.view(state, seat), legal, rng)
