"""How strong the computer levels are: duplicate deals between levels, per game.

    .venv/bin/python -m bench.computers                       # every game, default sizes
    .venv/bin/python -m bench.computers --games durak --deals 200
    .venv/bin/python -m bench.computers --games joker --deals 40 --budget-scale 0.5
    .venv/bin/python -m bench.computers --games domino_poker --deals 16 --whole-games

Pure Python (the engines and the bots, no Django, no database). For each
game and each *candidate* level (2 and 3) it plays the same deals with the
candidate in every seat in turn and level 1 (or ``--against``) in all the
others (duplicate deals: the cards are the same, only who holds them
changes, so the luck of the deal cancels out):

- Durak (2 players): one unit is a whole game; the candidate's share of
  the points (a win 1, a draw ½) over both arrangements.
- Joker, Odessa poker, domino Poker (4 players): one unit is one deal of a
  game, picked at random and reached by level-1 play from the game's seed
  (the search's horizon is the deal, and a whole 24-deal Joker game at
  level 3 costs minutes); the candidate's score is its points in that deal
  minus the mean of the others' points in it (premiums included when the
  deal closes a pulka).
- Ipuker (4 players): one unit is a whole game (four rounds); the
  candidate's result minus the mean of the others', and its place.

``--whole-games`` makes every game's unit a whole game from its start (the
candidate's final total minus the mean of the others', and its place), for
the games of several deals too: slower per observation, and noisier (see
bench/README.md for why per-deal duplicate scoring is the default).

A deal's observation is the mean over its arrangements; the 95% confidence
interval is mean ± 1.96 × standard deviation / √deals over deals. It also
reports the CPU time (``time.process_time``) per decision of each level and
the load average, since the machine is shared. Budgets are the bots'
defaults (``gameplay.bots.BUDGETS``), scaled by ``--budget-scale`` if
given (said in the report).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

from gameplay.bots import budget_for, choose_action
from gameplay.bots.search import relative_score
from gameplay.engine import get_engine

GAMES = ("durak", "joker", "odessa", "domino_poker", "ipuker")
PLAYERS = {"durak": 2, "joker": 4, "odessa": 4, "domino_poker": 4, "ipuker": 4}
WHOLE_GAME = {"durak", "ipuker"}
DEFAULT_DEALS = {"durak": 60, "joker": 16, "odessa": 16, "domino_poker": 16, "ipuker": 24}
MAX_MOVES = 5000
Z95 = 1.96


@dataclass
class Clock:
    """CPU seconds and decisions per level."""

    seconds: dict[int, float] = field(default_factory=lambda: defaultdict(float))
    decisions: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    longest: dict[int, float] = field(default_factory=lambda: defaultdict(float))

    def per_decision_ms(self, level: int) -> float:
        return 1000 * self.seconds[level] / max(1, self.decisions[level])


def decide(engine, state, seat, rng, level, scale, clock: Clock) -> dict:
    budget = None if level == 1 else max(1, round(budget_for(engine.slug, level) * scale))
    started = time.process_time()
    action = choose_action(engine, state, seat, rng, level, budget=budget)
    spent = time.process_time() - started
    clock.seconds[level] += spent
    clock.longest[level] = max(clock.longest[level], spent)
    clock.decisions[level] += 1
    return action


def deal_start(engine, slug: str, seed: int, whole: bool) -> dict:
    """The state at the start of the unit: the game's start, or a random deal reached by level-1 play."""
    state = engine.start(players=PLAYERS[slug], options={}, seed=seed)
    if whole:
        return state
    rng = random.Random(seed)
    target = rng.randint(1, deals_total(engine, state))
    while state["deal"] < target and not engine.is_over(state):
        seat = engine.actors(state)[0]
        state, _ = engine.apply(state, seat, decide(engine, state, seat, rng, 1, 1.0, Clock()))
    return state


def deals_total(engine, state: dict) -> int:
    return engine.view(state, 0)["deals_total"]


def play_unit(engine, slug: str, start: dict, levels: list[int], seed: int, scale: float, clock: Clock,
              whole: bool) -> dict:
    """``start`` played to the end of its deal (or game) with ``levels[seat]`` at each seat."""
    state = start
    unit = None if whole else start["deal"]
    rngs = [random.Random(f"{seed}:{seat}") for seat in range(len(levels))]
    for _ in range(MAX_MOVES):
        if engine.is_over(state) or (unit is not None and state["deal"] != unit):
            return state
        seat = engine.actors(state)[0]
        state, _ = engine.apply(state, seat, decide(engine, state, seat, rngs[seat], levels[seat], scale, clock))
    raise RuntimeError(f"{slug}: a unit did not end in {MAX_MOVES} moves")


def candidate_score(engine, slug: str, start: dict, end: dict, seat: int, whole: bool) -> tuple[float, float | None]:
    """(score, place): Durak's points; else the relative score gained in the unit; a whole game's place."""
    if slug == "durak":
        return float(engine.outcome(end)["scores"][seat]), None
    gained = relative_score(engine.totals(end), seat) - relative_score(engine.totals(start), seat)
    place = float(engine.outcome(end)["places"][seat]) if whole else None
    return gained, place


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def bench_game(slug: str, deals: int, scale: float, candidates: list[int], first_seed: int, against: int = 1,
               whole_games: bool = False) -> dict:
    engine = get_engine(slug)
    whole = whole_games or slug in WHOLE_GAME
    players = PLAYERS[slug]
    clock = Clock()
    scores: dict[int, list[float]] = {level: [] for level in candidates}
    places: dict[int, list[float]] = {level: [] for level in candidates}
    started = time.monotonic()
    for deal in range(deals):
        seed = first_seed + deal
        start = deal_start(engine, slug, seed, whole)
        for level in candidates:
            per_seat, per_place = [], []
            for seat in range(players):
                levels = [against] * players
                levels[seat] = level
                end = play_unit(engine, slug, start, levels, seed, scale, clock, whole)
                score, place = candidate_score(engine, slug, start, end, seat, whole)
                per_seat.append(score)
                if place is not None:
                    per_place.append(place)
            scores[level].append(statistics.fmean(per_seat))
            if per_place:
                places[level].append(statistics.fmean(per_place))
        print(f"  {slug} deal {deal + 1}/{deals}: "
              + ", ".join(f"L{level} {statistics.fmean(scores[level]):+.3f}" for level in candidates)
              + f" ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)
    return {"slug": slug, "deals": deals, "scores": scores, "places": places, "clock": clock, "against": against,
            "whole": whole}


def report(result: dict, candidates: list[int]) -> list[str]:
    slug, clock = result["slug"], result["clock"]
    lines = []
    for level in candidates:
        mean, low, high = interval(result["scores"][level])
        metric = "win share" if slug == "durak" else ("score vs field a game" if result["whole"] else
                                                        "score vs field a deal")
        place = ""
        if result["places"][level]:
            p_mean, p_low, p_high = interval(result["places"][level])
            place = f" | place {p_mean:.2f} [{p_low:.2f}, {p_high:.2f}]"
        lines.append(f"| {slug} | L{level} vs L{result['against']} | {result['deals']} | {metric} {mean:+.3f} "
                     f"[{low:+.3f}, {high:+.3f}]{place} |")
    times = ", ".join(f"L{level} {clock.per_decision_ms(level):.1f} ms, longest {1000 * clock.longest[level]:.0f} ms "
                      f"({clock.decisions[level]})"
                      for level in sorted(clock.decisions))
    lines.append(f"| {slug} | CPU time per decision: mean, longest (decisions) | | {times} |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--deals", type=int, default=None, help="duplicate deals per game (default per game)")
    parser.add_argument("--levels", nargs="+", type=int, default=[2, 3], help="candidate levels")
    parser.add_argument("--against", type=int, default=1, help="the level in the other seats (default 1)")
    parser.add_argument("--budget-scale", type=float, default=1.0, help="scale the search budgets (1 = defaults)")
    parser.add_argument("--seed", type=int, default=1000, help="the first deal's seed")
    parser.add_argument("--whole-games", action="store_true",
                        help="every unit a whole game, also for the games of several deals")
    args = parser.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} CPUs; "
          f"budget scale {args.budget_scale}; budgets "
          + "; ".join(f"{slug} " + "/".join(str(max(1, round(budget_for(slug, level) * args.budget_scale)))
                                            for level in args.levels) for slug in args.games))
    print("| game | match | deals | candidate's result [95% CI] |")
    print("|---|---|---|---|")
    for slug in args.games:
        deals = args.deals or DEFAULT_DEALS[slug]
        result = bench_game(slug, deals, args.budget_scale, args.levels, args.seed, args.against, args.whole_games)
        print("\n".join(report(result, args.levels)), flush=True)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
