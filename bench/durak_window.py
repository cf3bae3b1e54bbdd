"""How many moves Durak's throwers' window adds to a game (rules version 2 against version 1).

    .venv/bin/python -m bench.durak_window            # 400 games per table kind
    .venv/bin/python -m bench.durak_window --games 50

Pure engine playouts, no Django: the computer players (gameplay/bots/durak.py)
play the same seeds under rules version 1 (the window waited only for throwers
with a card that fitted) and version 2 (it waits for every thrower with
cards). Per table kind it prints the mean moves per game, the mean "done"
moves, and the ratio version 2 / version 1. The two versions' games part ways
after the first window, so the figures compare distributions, not pairs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys

from gameplay import bots
from gameplay.engine import get_engine

ENGINE = get_engine("durak")
TABLES = [(2, "podkidnoy", False), (3, "podkidnoy", False), (4, "podkidnoy", False), (4, "podkidnoy", True),
          (2, "perevodnoy", False), (3, "perevodnoy", False), (4, "perevodnoy", False)]


def play(players: int, mode: str, teams: bool, seed: int, version: int) -> tuple[int, int]:
    """(moves, "done" moves) of one game played by the computer players."""
    state = ENGINE.start(players=players, options={"mode": mode, "teams": teams}, seed=seed, rules_version=version)
    rng = random.Random(seed)
    moves = dones = 0
    while not ENGINE.is_over(state):
        seat = ENGINE.actors(state)[0]
        action = bots.choose_action(ENGINE, state, seat, rng)
        state, _ = ENGINE.apply(state, seat, action)
        moves += 1
        dones += action["type"] == "done"
    return moves, dones


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per table kind and version")
    args = parser.parse_args(argv)
    print(f"{args.games} games per table kind and rules version, computer players, same seeds")
    print(f"{'table':<22}{'moves v1':>10}{'moves v2':>10}{'v2/v1':>8}{'extra':>8}{'done v1':>9}{'done v2':>9}")
    for players, mode, teams in TABLES:
        figures = {}
        for version in (1, 2):
            games = [play(players, mode, teams, seed, version) for seed in range(1, args.games + 1)]
            figures[version] = (statistics.mean(m for m, _ in games), statistics.mean(d for _, d in games))
        (moves1, done1), (moves2, done2) = figures[1], figures[2]
        name = f"{'2x2' if teams else f'{players}p'} {mode}"
        print(f"{name:<22}{moves1:>10.1f}{moves2:>10.1f}{moves2 / moves1:>8.2f}{moves2 - moves1:>8.1f}"
              f"{done1:>9.1f}{done2:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
