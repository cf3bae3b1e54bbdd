"""Pairing a Swiss round of many entrants, pure (no database): the two
library-paired two-player tables (`tournaments.swiss`, py4swiss's Dutch
system) and the seating of tables of four (`tournaments.seating`).

    .venv/bin/python -m bench.tournaments            # 1,000 entrants, 9 rounds
    .venv/bin/python -m bench.tournaments --quick    # 200 entrants, 5 rounds
    .venv/bin/python -m bench.tournaments --entrants 1000 --rounds 2 --only two

For each round it prints the time to pair it, and for tables of four the
repeated table-mates (pairs already met) the round seats. Then, on small
events solved exactly by enumeration (8 players at tables of 4, 9 at tables
of 3), how often the seating's repeats equal the best possible, and by how
much they miss it otherwise. The results of the games are drawn at random
(seeded) from the places; nothing is asserted (bench/README.md).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import defaultdict
from fractions import Fraction
from itertools import permutations

from tournaments import seating, swiss


def two_player_rounds(entrants: int, rounds: int, rng: random.Random) -> list[float]:
    players = [swiss.Player(n, 2000 - n) for n in range(1, entrants + 1)]
    times = []
    for _round in range(rounds):
        text = swiss.trf_text(players, rounds)
        start = time.perf_counter()
        pairs = swiss.pair(swiss.parse_trf(text))
        times.append(time.perf_counter() - start)
        print(f"  two-player round {_round + 1}: {times[-1]:.2f} s", flush=True)
        for first, second in pairs:
            if not second:
                players[first - 1].results.append(swiss.RoundResult(None, False, swiss.PAIRING_BYE))
                continue
            outcome = rng.choice([(swiss.WIN, swiss.LOSS), (swiss.DRAW, swiss.DRAW), (swiss.LOSS, swiss.WIN)])
            players[first - 1].results.append(swiss.RoundResult(second, True, outcome[0]))
            players[second - 1].results.append(swiss.RoundResult(first, False, outcome[1]))
    return times


def table_rounds(entrants: int, rounds: int, size: int, rng: random.Random) -> list[tuple[float, int]]:
    score = defaultdict(Fraction)
    met: dict[tuple[int, int], int] = defaultdict(int)
    firsts: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    out = []
    for _round in range(rounds):
        players = [seating.Seated(i, score[i], i, byes[i], firsts[i]) for i in range(1, entrants + 1)]
        start = time.perf_counter()
        result = seating.seat_round(players, size, met)
        elapsed = time.perf_counter() - start
        repeats = sum(met[seating.pair_key(a, b)] > 0 for t in result.tables for i, a in enumerate(t) for b in t[i + 1:])
        out.append((elapsed, repeats))
        for table in result.tables:
            firsts[table[0]] += 1
            order = list(table)
            rng.shuffle(order)
            for place, player in enumerate(order):
                score[player] += Fraction(size - 1 - place, size - 1)
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    met[seating.pair_key(a, b)] += 1
        for player in result.byes:
            byes[player] += 1
            score[player] += Fraction(1, 2)
    return out


def exact_gaps(trials: int, rng: random.Random) -> dict:
    gaps: dict[int, int] = defaultdict(int)
    for _trial in range(trials):
        size = rng.choice([3, 4])
        n = 9 if size == 3 else 8
        players = [seating.Seated(i, Fraction(rng.randint(0, 3), 2), i) for i in range(1, n + 1)]
        met = {seating.pair_key(*rng.sample(range(1, n + 1), 2)): 1 for _ in range(2 * n)}
        result = seating.seat_round(players, size, met)
        by_id = {p.id: p for p in players}
        mine = seating.total_cost([[by_id[i] for i in t] for t in result.tables], met)
        best = min(seating.total_cost([list(o[i:i + size]) for i in range(0, n, size)], met)
                   for o in permutations(players))
        gaps[int(mine[1] - best[1]) if mine[0] == best[0] else -1] += 1
    return dict(sorted(gaps.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--entrants", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--only", choices=["two", "tables", "exact"])
    args = parser.parse_args()
    entrants, rounds, trials = (200, 5, 20) if args.quick else (1000, 9, 60)
    entrants, rounds = args.entrants or entrants, args.rounds or rounds
    rng = random.Random(41)
    if args.only in (None, "two"):
        times = two_player_rounds(entrants, rounds, rng)
        print(f"two-player tables, {entrants} entrants: pairing a round took "
              + ", ".join(f"{t:.2f}" for t in times) + " s")
    for size in (4,) if args.only in (None, "tables") else ():
        results = table_rounds(entrants, rounds, size, rng)
        print(f"tables of {size}, {entrants} entrants: seating a round took "
              + ", ".join(f"{t:.2f}" for t, _r in results) + " s; repeated table-mates per round: "
              + ", ".join(str(r) for _t, r in results))
    if args.only not in (None, "exact"):
        return
    print(f"small events solved exactly ({trials}): repeats above the best -> events: {exact_gaps(trials, rng)}"
          " (-1 would be a worse score spread: never)")


if __name__ == "__main__":
    main()
