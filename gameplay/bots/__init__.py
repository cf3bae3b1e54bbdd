"""Computer players, one module per game (joker.py durak.py ipuker.py odessa.py domino_poker.py;
tricks.py is what the Joker and Odessa heuristics share, search.py the search levels,
sampling.py and inference.py what their world samplers share).

``choose_action(engine, state, seat, rng, level=1, *, budget=None)`` returns a
legal action for ``seat`` at a computer ``level`` (``LEVELS``):

- level 1: the one-ply heuristics of each game's module, a function of the
  seat's view and its legal actions only;
- levels 2 and 3: Perfect-Information Monte Carlo (``search.py``) over worlds
  sampled by the game's determiniser (``determinise_<game>``), rolled out by
  the level-1 heuristics; level 3 with a larger budget (``BUDGETS``: rollouts
  per decision, an iteration count, so a decision replays from its seed).

A bot knows only what its seat may know: the level-1 players read
``engine.view(state, seat)``; the determinisers overwrite every hidden field
of the state (other hands, the talon, undealt tiles, secret commitments, the
seed) before the search reads it, and deal the unseen cards only where the
public record allows (``inference.py``: a player who did not follow suit
holds none of it, and the like). No Django here: the platform calls this
from its services and stores the result like any other move. A game without
a bot of its own gets a random legal action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gameplay.bots.domino_poker import DOMINO_POKER_SEARCH, choose_domino_poker_action
from gameplay.bots.durak import DURAK_SEARCH, choose_durak_action
from gameplay.bots.ipuker import IPUKER_SEARCH, choose_ipuker_action
from gameplay.bots.joker import JOKER_SEARCH, choose_joker_action
from gameplay.bots.odessa import ODESSA_SEARCH, choose_odessa_action
from gameplay.bots.search import SearchGame, check_budget, search_action

Action = dict[str, Any]
Policy = Callable[[dict, list[Action], random.Random], Action]

POLICIES: dict[str, Policy] = {
    "domino_poker": choose_domino_poker_action,
    "joker": choose_joker_action,
    "durak": choose_durak_action,
    "ipuker": choose_ipuker_action,
    "odessa": choose_odessa_action,
}

SEARCHES: dict[str, SearchGame] = {
    "domino_poker": DOMINO_POKER_SEARCH,
    "joker": JOKER_SEARCH,
    "durak": DURAK_SEARCH,
    "ipuker": IPUKER_SEARCH,
    "odessa": ODESSA_SEARCH,
}

LEVELS: tuple[int, ...] = (1, 2, 3)

# Rollouts per decision at each search level, per game (shared among the
# legal actions). These are the budgets bench/computers.py measured (its
# table in bench/README.md): level 3 within about a second of one core a
# decision, level 2 a small fraction of it, so that it sits between level 1
# and level 3.
DEFAULT_BUDGETS: dict[int, int] = {2: 40, 3: 200}
BUDGETS: dict[str, dict[int, int]] = {
    "durak": {2: 6, 3: 120},
    "joker": {2: 20, 3: 120},
    "odessa": {2: 20, 3: 120},
    "domino_poker": {2: 12, 3: 128},
    "ipuker": {2: 60, 3: 300},
}


def budget_for(slug: str, level: int) -> int:
    """The default number of rollouts per decision of ``level`` in game ``slug``."""
    return BUDGETS.get(slug, DEFAULT_BUDGETS)[level]


def choose_action(engine: Any, state: dict, seat: int, rng: random.Random, level: int = 1, *,
                  budget: int | None = None) -> Action:
    """A legal action for ``seat`` at ``level``; ``ValueError`` if the seat has
    nothing to do, the level does not exist or the budget is not a positive
    number of rollouts. ``budget`` overrides the level's default (search
    levels only)."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"There is no computer level {level!r}; the levels are {', '.join(map(str, LEVELS))}.")
    if budget is not None:
        check_budget(budget)
    legal = engine.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"Seat {seat} has no move to make now.")
    slug = getattr(engine, "slug", None)
    policy = POLICIES.get(slug)
    if policy is None:
        return rng.choice(legal)
    if level == 1:
        return policy(engine.view(state, seat), legal, rng)
    return search_action(engine, state, seat, legal, rng, SEARCHES[slug],
                         budget if budget is not None else budget_for(slug, level))
