"""The search players (levels 2 and 3): Perfect-Information Monte Carlo over sampled worlds.

A decision at a search level is made in three steps, all pure (no Django):

1. **Determinise.** The game's ``determinise(engine, state, seat, rng)``
   (one per game, in ``bots/<game>.py``) returns a *world*: a complete state
   that agrees with everything ``seat`` may know (its view and the public
   record: cards and tiles played, the table, picked-up cards, revealed
   stakes...) and in which everything it may not know (other hands, the
   talon's order, undealt tiles, the row of stage 5, others' secret
   commitments, the seed) is drawn afresh from ``rng``, never against a
   fact the public record proves (``bots/inference.py``: voids, no trump,
   picked-up cards). A determiniser
   overwrites every hidden field before anything else reads it, so the
   decision is a function of the seat's information and ``rng`` only; the
   honesty tests (``tests/bots/test_search_players_are_honest.py``) check it
   by swapping the hidden values and asking again with the same seed.
2. **Roll out.** For every legal action, in every world, the action is
   applied and the game is played on by every seat with the level-1
   heuristics (``rollout_policy``) until the game's *horizon* (the end of the
   deal, round or game: ``horizon_key`` changes, or the game ends).
3. **Choose.** The action with the best mean ``value`` (the seat's score at
   the horizon, relative to the others) over the worlds wins; ties go to
   the earlier legal action. Every action is judged on the same worlds and
   the same rollout seeds (common random numbers), so differences between
   actions are not sampling noise between worlds.

Budgets are iteration counts, not wall time: ``budget`` rollouts per
decision, shared among the legal actions (``worlds = budget // actions``, at
least one), so a decision is the same on a slow or a loaded machine and
replays from its seed. A game may cap a decision's rollouts by what its
rollouts cost from the seat's position (``SearchGame.max_rollouts``: domino
Poker's opening bids), an iteration count too. Why PIMC rather than ISMCTS for these games: the
decisions that matter are short-horizon (a trick, a bout, a bid) with
good level-1 rollout policies to guide them; PIMC spends the whole budget
on evaluating the actions actually available, where ISMCTS with the same
budget (a few hundred iterations at most, to stay under a second in pure
Python) would leave deeper tree nodes almost unvisited. PIMC's known flaw
(strategy fusion: it assumes it will know the hidden cards later) matters
least when rollouts are played by a policy that does not peek, as here: the
rollout players decide from their own views of the world.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

Action = dict[str, Any]
State = dict[str, Any]

# A rollout that has not reached its horizon after this many moves is cut
# there (a safety net against a policy that never ends a deal).
MAX_ROLLOUT_MOVES = 2000


@dataclass(frozen=True)
class SearchGame:
    """What the search needs of one game (defined in ``bots/<game>.py``).

    ``determinise(engine, state, seat, rng)``: a world consistent with the
    seat's view (see the module docstring); ``rollout_policy(engine, state,
    seat, rng)``: the action a seat takes in a rollout; ``horizon_key(state)``:
    the rollout stops when it changes (the deal or round number);
    ``value(engine, state, seat)``: the seat's score, the higher the better;
    ``shortlist(view, legal, rng)`` (optional): the legal actions worth
    searching, from the seat's view (a long list of bids cut to the level-1
    bid and its neighbours, so each gets more worlds); ``max_rollouts(view)``
    (optional): a cap on a decision's rollouts, from the seat's view, for a
    game whose rollouts cost much more in some positions than in others (so
    that the longest decisions stay within a level's time; an iteration
    count too, so a decision still replays from its seed).
    """

    determinise: Callable[[Any, State, int, random.Random], State]
    rollout_policy: Callable[[Any, State, int, random.Random], Action]
    horizon_key: Callable[[State], Hashable]
    value: Callable[[Any, State, int], float]
    shortlist: Callable[[dict, list[Action], random.Random], list[Action]] | None = None
    max_rollouts: Callable[[dict], int] | None = None


def check_budget(budget: object) -> int:
    """``budget`` if it is a positive whole number of rollouts; ``ValueError`` otherwise."""
    if isinstance(budget, bool) or not isinstance(budget, int):
        raise ValueError(f"A search budget must be a whole number of rollouts, not {budget!r}.")
    if budget < 1:
        raise ValueError(f"A search budget must be at least 1 rollout, not {budget}.")
    return budget


def relative_score(totals: list[float], seat: int) -> float:
    """The seat's total minus the mean of the others' totals (what places a player)."""
    others = [total for other, total in enumerate(totals) if other != seat]
    return totals[seat] - (sum(others) / len(others) if others else 0.0)


def rollout(engine: Any, world: State, game: SearchGame, horizon: Hashable, rng: random.Random) -> State:
    """``world`` played on by the rollout policy until the horizon key changes or the game ends."""
    state = world
    for _ in range(MAX_ROLLOUT_MOVES):
        if engine.is_over(state) or game.horizon_key(state) != horizon:
            return state
        actors = engine.actors(state)
        if not actors:
            return state
        mover = actors[0]
        state, _ = engine.apply(state, mover, game.rollout_policy(engine, state, mover, rng))
    return state


def action_values(engine: Any, state: State, seat: int, legal: list[Action], rng: random.Random,
                  game: SearchGame, budget: int) -> list[float]:
    """The mean value of each legal action over ``budget // len(legal)`` sampled worlds."""
    worlds = max(1, check_budget(budget) // len(legal))
    totals = [0.0] * len(legal)
    for _ in range(worlds):
        world = game.determinise(engine, state, seat, rng)
        horizon = game.horizon_key(world)
        rollout_seed = rng.getrandbits(64)
        for index, action in enumerate(legal):
            after, _ = engine.apply(world, seat, action)
            end = rollout(engine, after, game, horizon, random.Random(rollout_seed))
            totals[index] += game.value(engine, end, seat)
    return [total / worlds for total in totals]


def search_action(engine: Any, state: State, seat: int, legal: list[Action], rng: random.Random,
                  game: SearchGame, budget: int) -> Action:
    """The legal action with the best mean rollout value (the earliest on a tie)."""
    check_budget(budget)
    view = engine.view(state, seat)
    if game.max_rollouts is not None:
        budget = max(1, min(budget, game.max_rollouts(view)))
    if game.shortlist is not None:
        legal = game.shortlist(view, legal, random.Random(rng.getrandbits(64)))
    if len(legal) == 1:
        return legal[0]
    values = action_values(engine, state, seat, legal, rng, game, budget)
    best = max(range(len(legal)), key=lambda index: (values[index], -index))
    return legal[best]


def view_policy(policy: Callable[[dict, list[Action], random.Random], Action]
                ) -> Callable[[Any, State, int, random.Random], Action]:
    """A rollout policy from a level-1 player: it decides from the seat's view of the world."""

    def decide(engine: Any, state: State, seat: int, rng: random.Random) -> Action:
        view = engine.view(state, seat)  # a seat's view lists its legal actions
        return policy(view, view["legal_actions"], rng)

    return decide
