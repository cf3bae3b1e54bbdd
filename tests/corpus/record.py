"""Records the corpus of games that `make test` replays (tests/engine/test_recorded_games.py).

    python -m tests.corpus.record          # writes the recordings that do not exist yet

A recording is a game record (see ``gameplay/records.py``): game, rules
version, players, options, seed, every move with who made it, the final state
and the outcome. Recordings are never rewritten: they freeze how games played
under each rules version end, so a change that alters an existing game's
result fails the replay test unless the engine's rules version is bumped.
Add scenarios below for every new game kind or rules version, then run this.

The games are played by the computer players, with the platform's
interventions recorded the way the platform records them: automatic moves
for a player out of time (``"auto": true``, by ``timeout``), a loss on time
(``{"type": "timeout"}``), a resignation, Durak throw-ins made by passive
throwers out of turn, series (the next game's options from the last outcome).
"""

from __future__ import annotations

import json
import random
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from gameplay import bots
from gameplay.engine import get_engine
from gameplay.records import apply_recorded, record_of_play

CORPUS = Path(__file__).resolve().parent
MAX_MOVES = 5000


@dataclass(frozen=True)
class Scenario:
    name: str
    game: str
    players: int
    seed: int
    options: dict = field(default_factory=dict)
    rules_version: int | None = None  # None: the engine's current version
    auto_every: int = 0  # every n-th move is the actor's automatic move (out of time)
    resign_at: int = 0  # after this many moves the first actor resigns
    timeout_at: int = 0  # after this many moves the first actor loses on time
    passive_throws: bool = False  # Durak: passive throwers throw in out of turn now and then
    series: int = 1  # games in the series
    upgrade: bool = False  # apply pending rules upgrades at safe points, as the platform does


DURAK = [
    Scenario("durak-podkidnoy-2", "durak", 2, 201),
    Scenario("durak-podkidnoy-3-passive", "durak", 3, 202, passive_throws=True),
    Scenario("durak-podkidnoy-4", "durak", 4, 203, passive_throws=True),
    Scenario("durak-perevodnoy-3", "durak", 3, 204, options={"mode": "perevodnoy"}, passive_throws=True),
    Scenario("durak-perevodnoy-4", "durak", 4, 205, options={"mode": "perevodnoy"}),
    Scenario("durak-teams", "durak", 4, 206, options={"teams": True}, passive_throws=True),
    Scenario("durak-teams-perevodnoy", "durak", 4, 207, options={"mode": "perevodnoy", "teams": True}),
    Scenario("durak-autoplay", "durak", 3, 208, auto_every=5),
    Scenario("durak-timeout", "durak", 3, 209, timeout_at=30),
    Scenario("durak-resign", "durak", 2, 210, resign_at=12),
    Scenario("durak-series", "durak", 3, 211, series=3, passive_throws=True),
]

SCENARIOS = [
    Scenario("joker-full", "joker", 4, 101),
    Scenario("joker-autoplay", "joker", 4, 102, auto_every=7),
    Scenario("joker-timeout", "joker", 4, 103, timeout_at=40),
    Scenario("joker-resign", "joker", 4, 104, resign_at=25),
    # Durak's rules version 1 (the old throwers' window) and 2, the same tables under both.
    *(replace(scenario, rules_version=version) for version in (1, 2) for scenario in DURAK),
    # Games started under version 1 and upgraded at the start of a bout, as the platform does.
    Scenario("durak-upgraded-3", "durak", 3, 221, rules_version=1, upgrade=True, passive_throws=True),
    Scenario("durak-upgraded-teams", "durak", 4, 222, options={"teams": True}, rules_version=1, upgrade=True),
    Scenario("ipuker-full", "ipuker", 4, 301),
    Scenario("ipuker-random-leaders", "ipuker", 4, 302, options={"leader_order": "random"}, auto_every=6),
    Scenario("ipuker-resign", "ipuker", 4, 303, resign_at=20),
    Scenario("odessa-full", "odessa", 4, 401),
    Scenario("odessa-53-over-fixed-trump", "odessa", 3, 402,
             options={"deck": 53, "max_hand": 5, "dealer_rule": "over", "trump": "D", "joker_demand": "first_trick_only",
                      "specials": ["no_trump", "blind", "miser", "golden"], "specials_mode": "once",
                      "special_multiplier": 3}),
    Scenario("odessa-52-autoplay", "odessa", 6, 403, options={"deck": 52, "max_hand": 4, "dealer_rule": "free"},
             auto_every=6),
    Scenario("odessa-timeout", "odessa", 2, 404, timeout_at=30),
    Scenario("odessa-resign", "odessa", 5, 405, options={"joker_demand": "off"}, resign_at=40),
]


def play(scenario: Scenario, options: dict, seed: int) -> dict:
    """One game of the scenario, played to its end; returns its record."""
    engine = get_engine(scenario.game)
    start_kwargs = {} if scenario.rules_version is None else {"rules_version": scenario.rules_version}
    state = engine.start(players=scenario.players, options=options, seed=seed, **start_kwargs)
    start = state
    rng = random.Random(f"corpus:{scenario.name}:{seed}")
    moves: list[dict] = []

    def record(seat: int | None, action: dict, by: str) -> None:
        nonlocal state
        state, _ = apply_recorded(engine, state, seat, action)
        moves.append({"seq": len(moves) + 1, "seat": seat, "action": action, "by": by})
        if scenario.upgrade:
            upgraded = engine.upgrade(state)
            if upgraded is not None:
                moves.append({"seq": len(moves) + 1, "seat": None,
                              "action": {"type": "rules", "version": upgraded["rules"]}, "by": "system"})
                state = upgraded

    while not engine.is_over(state):
        if len(moves) >= MAX_MOVES:
            raise RuntimeError(f"{scenario.name}: no end after {MAX_MOVES} moves")
        actors = engine.actors(state)
        count = len(moves) + 1
        if scenario.passive_throws and rng.random() < 0.25:
            passive = [seat for seat in range(scenario.players) if seat not in actors
                       and any(a["type"] == "throw" for a in engine.legal_actions(state, seat))]
            if passive:
                seat = rng.choice(passive)
                throws = [a for a in engine.legal_actions(state, seat) if a["type"] == "throw"]
                record(seat, rng.choice(throws), "player")
                continue
        seat = rng.choice(actors)
        if scenario.resign_at and count == scenario.resign_at:
            record(seat, {"type": "resign"}, "player")
        elif scenario.timeout_at and count == scenario.timeout_at:
            record(seat, {"type": "timeout"}, "timeout")
        elif scenario.auto_every and count % scenario.auto_every == 0:
            record(seat, {**engine.auto_action(state, seat), "auto": True}, "timeout")
        else:
            record(seat, bots.choose_action(engine, state, seat, rng), "bot")
    return record_of_play(engine, start, moves, state)


def scenario_records(scenario: Scenario) -> list[tuple[str, dict]]:
    engine = get_engine(scenario.game)
    options = engine.validate_options(scenario.options)
    records = []
    for number in range(1, scenario.series + 1):
        seed = scenario.seed * 1000 + number
        record = play(scenario, options, seed)
        name = scenario.name if scenario.series == 1 else f"{scenario.name}-{number}"
        if scenario.series > 1:
            record["series"] = {"name": scenario.name, "number": number, "length": scenario.series}
        records.append((name, record))
        options = engine.next_game_options(options, record["outcome"])
    return records


def main(argv: list[str]) -> int:
    written = 0
    for scenario in SCENARIOS:
        version = scenario.rules_version or get_engine(scenario.game).rules_version
        folder = CORPUS / scenario.game / f"v{version}"
        for name, record in scenario_records(scenario):
            path = folder / f"{name}.json"
            if path.exists():
                continue
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
            written += 1
            print(f"wrote {path.relative_to(CORPUS)} ({len(record['moves'])} moves)")
    print(f"{written} new recording(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
