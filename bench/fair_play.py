"""How well the fair-play queue finds planted cheats (issue 44).

    .venv/bin/python -m bench.fair_play                  # 10 cheating and 300 honest pairs a signal, 200 games each
    .venv/bin/python -m bench.fair_play --pairs 4 --honest 20 --games 60   # a quick look

Pure Python, no database: games among computer players are played with the
engines, their records are read by `moderation.fairplay.evidence` exactly
as the site reads a finished rated game's, and a pair is "flagged" when
`evidence.assess` gives a reason for either direction of the pair, after
its games added up: the rule moderators are shown.

For each signal it plays, for every pair, `--games` games in which the two
sit together with random others (a fresh honest player for each other seat):

- "sparing" (Durak, tables of 3): the cheat never throws in on his friend's
  defence and leads him his lowest card;
- "gifts" (Joker, tables of 4): the cheat, short of his bid and able to
  take the last trick card, lets his friend have the trick 80% of the time;
- "spoiling" (Joker, tables of 4): the cheat, needing no more tricks, takes
  the last trick card's trick 80% of the time when it would give a third
  player (not his friend) his exact bid;
- "boosting" (Durak, 2 players): the booster resigns early in 80% of the
  games against his friend.

Honest players are the site's level-1 computer players, with 15% of their
moves chosen at random among the legal ones (people are not that regular).
Honest control pairs have as much evidence as the cheats: a table of honest
players plays the same number of games together, seats shuffled each game,
and every pair of them is a control pair (a table of four gives six), so
the signals played at the same kind of table share their control pairs.
The goal: at least 80% of cheating pairs flagged, at most 1% of honest
pairs; the report gives the false-positive rate's 95% upper bound
(Clopper-Pearson), which 300 honest pairs with none flagged bring to 1.0%.
Games run in `--processes` worker processes, each pair or table from a
seed of its own, so a run repeats exactly whatever the number of processes.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from gameplay.bots import choose_action
from gameplay.engine import get_engine
from gameplay.records import record_of_play
from moderation.fairplay.evidence import added, assess, game_figures, pair_key

NOISE = 0.15


def honest(engine, state, seat, rng):
    if rng.random() < NOISE:
        return rng.choice(engine.legal_actions(state, seat))
    return choose_action(engine, state, seat, rng)


def durak_spare(friend: int):
    def policy(engine, state, seat, rng):
        legal = engine.legal_actions(state, seat)
        kinds = {a["type"] for a in legal}
        if state["defender"] == friend and "done" in kinds and not kinds & {"attack"}:
            return {"type": "done"}
        if state["defender"] == friend and "attack" in kinds:
            return min((a for a in legal if a["type"] == "attack"), key=lambda a: len(a["cards"]))
        return honest(engine, state, seat, rng)
    return policy


def joker_gift(friend: int):
    """Short of his bid, he leaves his friend the last trick card's trick."""
    def policy(engine, state, seat, rng):
        if _last_card(state) and rng.random() < 0.8:
            action = _giving(engine, state, seat, lambda winner: winner == friend)
            if action is not None:
                return action
        return honest(engine, state, seat, rng)
    return policy


def joker_spoil(friend: int):
    """Needing no more tricks, he takes one that would give a third player his exact bid."""
    def policy(engine, state, seat, rng):
        if _last_card(state) and state["bids"][seat] is not None and state["taken"][seat] >= state["bids"][seat] \
                and rng.random() < 0.8:
            winners = {}
            for action in engine.legal_actions(state, seat):
                _s, events = engine.apply(state, seat, action)
                winners[id(action)] = (action, next((e["winner"] for e in events if e.get("type") == "trick"), None))
            others = {w for _a, w in winners.values() if w not in (None, seat)}
            if len(others) == 1:
                victim = others.pop()
                if victim != friend and state["bids"][victim] is not None \
                        and state["taken"][victim] == state["bids"][victim] - 1:
                    taking = next((a for a, w in winners.values() if w == seat), None)
                    if taking is not None:
                        return taking
        return honest(engine, state, seat, rng)
    return policy


def _last_card(state: dict) -> bool:
    return state.get("phase") == "play" and len(state.get("trick") or []) == state["players"] - 1


def _giving(engine, state, seat, wanted):
    for action in engine.legal_actions(state, seat):
        _s, events = engine.apply(state, seat, action)
        if any(e.get("type") == "trick" and wanted(e.get("winner")) for e in events):
            return action
    return None


def booster(friend: int):
    def policy(engine, state, seat, rng):
        if state.get("bout", 1) <= 2 and rng.random() < 0.4:  # early, in about 80% of the games
            return {"type": "resign"}
        return honest(engine, state, seat, rng)
    return policy


def play(game: str, players: int, policies: dict, rng: random.Random) -> dict:
    """One game to its end; {"type": "resign"} from a policy ends it as the site's resignation does."""
    engine = get_engine(game)
    start = engine.start(players=players, options={}, seed=rng.getrandbits(62))
    state, moves = start, []
    resigned: dict[int, bool] = {}
    while not engine.is_over(state):
        seat = rng.choice(engine.actors(state))  # whoever of those the game waits for moves first
        action = policies.get(seat, honest)(engine, state, seat, rng)
        if action["type"] == "resign":
            if len(moves) > 2 and not resigned.get(seat):
                state = engine.forfeit(state, seat)
                moves.append({"seq": len(moves) + 1, "seat": seat, "action": {"type": "resign"}, "by": "player"})
                break
            action = honest(engine, state, seat, rng)
        state, _events = engine.apply(state, seat, action)
        moves.append({"seq": len(moves) + 1, "seat": seat, "action": action, "by": "player"})
    return record_of_play(engine, start, moves, state)


SIGNALS = {
    # signal: (game, players, the cheat's policy given his friend's seat)
    "sparing": ("durak", 3, durak_spare),
    "gifts": ("joker", 4, joker_gift),
    "spoiling": ("joker", 4, joker_spoil),
    "boosting": ("durak", 2, booster),
}


def pair_flagged(game: str, players: int, cheat, games: int, seed: int) -> tuple[bool, list[str]]:
    """One cheating pair's `games` games together, each with fresh honest others; flagged or not."""
    rng = random.Random(seed)
    total = {"a>b": {}, "b>a": {}}
    for _ in range(games):
        a, b = rng.sample(range(players), 2)
        record = play(game, players, {a: cheat(b)}, rng)
        figures = game_figures(record, range(players))
        total["a>b"] = added(total["a>b"], figures.get(pair_key(a, b), Counter()))
        total["b>a"] = added(total["b>a"], figures.get(pair_key(b, a), Counter()))
    reasons = assess(total["a>b"]) + assess(total["b>a"])
    return bool(reasons), reasons


def honest_table_flags(game: str, players: int, games: int, seed: int) -> list[tuple[bool, list[str]]]:
    """A table of honest players who play `games` games together, seats shuffled
    each game: every pair of them is an honest control pair with as many games
    together as a cheating pair has, so one table yields all its pairs."""
    rng = random.Random(seed)
    people = list(range(players))
    totals: dict[tuple[int, int], dict] = {(a, b): {} for a in people for b in people if a != b}
    for _ in range(games):
        seating = rng.sample(people, players)  # seating[seat] = person
        record = play(game, players, {}, rng)
        figures = game_figures(record, range(players))
        for seat_a, a in enumerate(seating):
            for seat_b, b in enumerate(seating):
                if a != b:
                    totals[a, b] = added(totals[a, b], figures.get(pair_key(seat_a, seat_b), Counter()))
    flags = []
    for a in people:
        for b in people[a + 1:]:
            reasons = assess(totals[a, b]) + assess(totals[b, a])
            flags.append((bool(reasons), reasons))
    return flags


def _run(job: tuple) -> list[tuple[bool, list[str]]]:
    kind, game, players, signal, games, seed = job
    if kind == "cheat":
        return [pair_flagged(game, players, SIGNALS[signal][2], games, seed)]
    return honest_table_flags(game, players, games, seed)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=10, help="cheating pairs a signal")
    parser.add_argument("--honest", type=int, default=300, help="at least this many honest control pairs a signal")
    parser.add_argument("--games", type=int, default=200, help="games each pair plays together")
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--only", choices=sorted(SIGNALS), action="append")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"fair play: {args.pairs} cheating pairs and at least {args.honest} honest pairs a signal, "
          f"{args.games} games each; {args.processes} processes; load average {os.getloadavg()[0]:.1f}")
    all_cheats = all_flagged = 0
    honest_by_setup: dict[tuple[str, int], list] = {}  # signals played at the same table share their control pairs
    with ProcessPoolExecutor(args.processes) as pool:
        for signal in args.only or sorted(SIGNALS):
            game, players, _cheat = SIGNALS[signal]
            started = time.perf_counter()
            jobs = [("cheat", game, players, signal, args.games, rng.getrandbits(62)) for _ in range(args.pairs)]
            if (game, players) not in honest_by_setup:
                tables = -(-args.honest // math.comb(players, 2))
                jobs += [("honest", game, players, signal, args.games, rng.getrandbits(62)) for _ in range(tables)]
            results = list(pool.map(_run, jobs))
            caught = sum(flagged for [(flagged, _r)] in results[:args.pairs])
            honest_flags = honest_by_setup.setdefault(
                (game, players), [flag for table in results[args.pairs:] for flag in table])
            false = [reasons for flagged, reasons in honest_flags if flagged]
            seconds = time.perf_counter() - started
            all_cheats += args.pairs
            all_flagged += caught
            print(f"  {signal:9} ({game}, {players} players): recall {caught}/{args.pairs} = "
                  f"{caught / args.pairs:.0%}, false positives {len(false)}/{len(honest_flags)} = "
                  f"{len(false) / len(honest_flags):.1%} (95% upper bound {_upper_bound(len(false), len(honest_flags)):.1%})"
                  f"  ({seconds:.0f} s)", flush=True)
            for reasons in false:
                print(f"      honest pair flagged for {reasons}", file=sys.stderr)
    all_honest = sum(len(flags) for flags in honest_by_setup.values())
    all_false = sum(flagged for flags in honest_by_setup.values() for flagged, _r in flags)
    print(f"  the queue as a whole: recall {all_flagged}/{all_cheats} = {all_flagged / all_cheats:.0%}, "
          f"false positives {all_false}/{all_honest} = {all_false / all_honest:.1%} "
          f"(95% upper bound {_upper_bound(all_false, all_honest):.1%}; goal: >= 80%, <= 1%)")
    return 0


def _upper_bound(failures: int, trials: int) -> float:
    """The one-sided 95% Clopper-Pearson upper bound of a rate seen as
    failures/trials: the rate p at which seeing so few failures has a 5% chance."""
    if failures >= trials:
        return 1.0
    low, high = failures / trials, 1.0
    for _ in range(60):
        p = (low + high) / 2
        at_most = sum(math.comb(trials, k) * p ** k * (1 - p) ** (trials - k) for k in range(failures + 1))
        low, high = (p, high) if at_most > 0.05 else (low, p)
    return high


if __name__ == "__main__":
    raise SystemExit(main())
