"""How much shorter correspondence games are with standing orders (issue 42).

    .venv/bin/python -m bench.orders                 # 12 games of each kind, ~1 min
    .venv/bin/python -m bench.orders --games 40 --only joker durak

A simulation on the pure engines (gameplay/engine, gameplay/engine/orders.py,
gameplay/bots): no Django, no database. The same deals (seeds) are played
twice, without and with the orders a reasonable player sets; the report is
the median number of days a game takes, each way, and the saving.

The model (documented here; change it with the flags):
- A player answers his turn after a delay drawn from a log-normal
  distribution: median `--median-hours` (default 4 h), sigma `--sigma`
  (default 1.0, so a quarter of the answers take over 8 h), capped at the
  move time `--move-hours` (default 24 h, the correspondence preset). No
  night pauses, no vacations, no time-outs.
- His moves are the computer player's choices (`gameplay.bots`).
- Where several seats are waited for at once (Durak's throwers' window, the
  simultaneous phases), the game moves on with the first of them.
- With orders, every player, at each visit (each of his turns), sets what a
  reasonable player would: `forced` (the whole game), Joker's `duck` for the
  deal, Durak's `cheapest` while he defends a bout (it carries him through
  the throw-ins that follow) and `no_trump_throws` (the whole game), and,
  with `--done-ahead`, as a Durak attacker "done for me in this bout" (the
  older order; off by default: it changes how he plays). An order's move is
  made at its release time: uniform from 1 s to min(`--release-hours`
  (default 2 h, ORDER_RELEASE_MAX_SECONDS), half the move time) after the
  turn began, exactly as `gameplay.clocks.release_delay` draws it.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys

from gameplay import bots
from gameplay.engine import get_engine
from gameplay.engine import orders as vocabulary

HOUR = 3600.0
GAMES = {"joker": 4, "durak": 3, "odessa": 4, "domino_poker": 4, "ipuker": 4}
MAX_MOVES = 5000


def human_delay(rng: random.Random, args) -> float:
    return min(args.move_hours * HOUR, args.median_hours * HOUR * math.exp(rng.gauss(0.0, args.sigma)))


def release_delay(rng: random.Random, args) -> float:
    top = min(args.release_hours * HOUR, 0.5 * args.move_hours * HOUR)
    return 1.0 + rng.random() * (top - 1.0)


def visit_orders(engine, state: dict, seat: int, with_orders: bool) -> list[dict]:
    """The orders a reasonable player leaves when he visits the game at his turn."""
    if not with_orders:
        return []
    wanted = {"forced", "duck", "cheapest", "no_trump_throws"}
    return [vocabulary.make_order(state, seat, offer["kind"], {}) for offer in vocabulary.kinds(state, seat)
            if offer["kind"] in wanted]


def play(slug: str, seed: int, with_orders: bool, args) -> float:
    """Days one game takes."""
    engine = get_engine(slug)
    state = engine.start(players=GAMES[slug], options={}, seed=seed)
    timing = random.Random(f"time:{slug}:{seed}")  # the same answer times both ways, move by move
    choices = random.Random(f"moves:{slug}:{seed}:{with_orders}")
    standing: dict[int, list[dict]] = {seat: [] for seat in range(GAMES[slug])}
    done_ahead: dict[int, int] = {}
    clock = 0.0
    for _ in range(MAX_MOVES):
        if engine.is_over(state):
            break
        actors = engine.actors(state)
        best = None
        for seat in actors:
            by_hand = human_delay(timing, args)
            found = None
            if (done_ahead.get(seat) == engine.ahead_scope(state) and engine.ahead_action is not None
                    and engine.ahead_action in engine.legal_actions(state, seat)):
                found = dict(engine.ahead_action)  # the older "done" said in advance, at the release time too
            for order in standing[seat] if found is None else ():
                got = vocabulary.resolve(engine, state, seat, order)
                if got.action is not None:
                    found = got.action
                    break
            delay = min(by_hand, release_delay(timing, args)) if found else by_hand
            if best is None or delay < best[0]:
                best = (delay, seat, found)
        delay, seat, action = best
        clock += delay
        if action is None:  # he visits: moves himself and leaves orders for later
            action = bots.choose_action(engine, state, seat, choices)
            standing[seat] = visit_orders(engine, state, seat, with_orders)
            if with_orders and args.done_ahead and slug == "durak":
                done_ahead.update({s: engine.ahead_scope(state) for s in range(GAMES[slug])
                                   if s == seat and engine.may_order_ahead(state, s)})
        standing[seat] = [o for o in standing[seat]
                          if vocabulary.resolve(engine, state, seat, o).lapse is None]
        state, _ = engine.apply(state, seat, action)
    return clock / (24 * HOUR)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--only", nargs="*", default=sorted(GAMES))
    parser.add_argument("--median-hours", type=float, default=4.0)
    parser.add_argument("--sigma", type=float, default=1.0)
    parser.add_argument("--move-hours", type=float, default=24.0)
    parser.add_argument("--release-hours", type=float, default=2.0)
    parser.add_argument("--done-ahead", action="store_true",
                        help='Durak: an attacker also says "done for me in this bout" when he attacks')
    args = parser.parse_args(argv)
    print(f"{'game':14} {'without':>9} {'with':>9} {'shorter':>8}   (median days over {args.games} games)")
    for slug in args.only:
        without = [play(slug, seed, False, args) for seed in range(args.games)]
        with_ = [play(slug, seed, True, args) for seed in range(args.games)]
        a, b = statistics.median(without), statistics.median(with_)
        print(f"{slug:14} {a:9.1f} {b:9.1f} {100 * (1 - b / a):7.0f}%", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
