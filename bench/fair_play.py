"""How well the fair-play queue finds planted cheats (issue 44).

    .venv/bin/python -m bench.fair_play                  # 10 cheating and 100 honest pairs a signal, 200 games each
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
Honest control pairs play the same number of games together under the same
setup, so the false-positive rate is measured on pairs with as much
evidence as the cheats. The goal: at least 80% of cheating pairs flagged,
at most 1% of honest pairs.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

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


def pair_flagged(game: str, players: int, cheat, games: int, rng: random.Random) -> tuple[bool, list[str]]:
    total = {"a>b": {}, "b>a": {}}
    for _ in range(games):
        seats = rng.sample(range(players), 2)
        a, b = seats
        policies = {a: cheat(b)} if cheat else {}
        record = play(game, players, policies, rng)
        figures = game_figures(record, range(players))
        total["a>b"] = added(total["a>b"], figures.get(pair_key(a, b), Counter()))
        total["b>a"] = added(total["b>a"], figures.get(pair_key(b, a), Counter()))
    reasons = assess(total["a>b"]) + assess(total["b>a"])
    return bool(reasons), reasons


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=10, help="cheating pairs a signal")
    parser.add_argument("--honest", type=int, default=100, help="honest control pairs a signal")
    parser.add_argument("--games", type=int, default=200, help="games each pair plays together")
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--only", choices=sorted(SIGNALS), action="append")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"fair play: {args.pairs} cheating and {args.honest} honest pairs a signal, {args.games} games each")
    all_cheats = all_flagged = all_honest = all_false = 0
    for signal in args.only or sorted(SIGNALS):
        game, players, cheat = SIGNALS[signal]
        started = time.perf_counter()
        caught = sum(pair_flagged(game, players, cheat, args.games, rng)[0] for _ in range(args.pairs))
        false = [r for r in (pair_flagged(game, players, None, args.games, rng) for _ in range(args.honest)) if r[0]]
        seconds = time.perf_counter() - started
        all_cheats += args.pairs
        all_flagged += caught
        all_honest += args.honest
        all_false += len(false)
        print(f"  {signal:9} ({game}, {players} players): recall {caught}/{args.pairs} = "
              f"{caught / args.pairs:.0%}, false positives {len(false)}/{args.honest} = "
              f"{len(false) / args.honest:.1%}  ({seconds:.0f} s)", flush=True)
        for _flagged, reasons in false:
            print(f"      honest pair flagged for {reasons}", file=sys.stderr)
    print(f"  the queue as a whole: recall {all_flagged / all_cheats:.0%}, "
          f"false positives {all_false / all_honest:.1%} (goal: >= 80%, <= 1%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
