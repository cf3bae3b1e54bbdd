"""Every recorded game of the corpus (tests/corpus) replays to its recorded end.

The recordings freeze how games played under each rules version end. A
change to an engine that alters an existing game's course or result fails
here unless it bumps the engine's rules version and keeps the older
version's behaviour reachable (or migrates it through ``Engine.upgrade``).
New recordings: ``python -m tests.corpus.record``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gameplay.engine import ENGINES, get_engine
from gameplay.engine.core import IllegalMove
from gameplay.records import replay_record, same_state

CORPUS = Path(__file__).resolve().parent.parent / "corpus"
RECORDINGS = sorted(CORPUS.glob("*/v*/*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize("path", RECORDINGS, ids=[f"{p.parent.parent.name}/{p.parent.name}/{p.stem}" for p in RECORDINGS])
def test_a_recorded_game_replays_to_its_recorded_end_and_result(path):
    record = load(path)
    final = replay_record(record)
    engine = get_engine(record["game"])
    assert same_state(final, record["final_state"])
    assert engine.outcome(final) == record["outcome"]
    assert path.parent.name == f"v{record['rules_version']}"


def test_every_game_kind_and_rules_version_has_recordings():
    recorded = {(p.parent.parent.name, p.parent.name) for p in RECORDINGS}
    for slug, engine in ENGINES.items():
        for version in range(1, engine.rules_version + 1):
            assert (slug, f"v{version}") in recorded, f"record games of {slug} rules version {version}"


def test_a_recording_replayed_with_another_deal_is_caught():
    record = load(next(p for p in RECORDINGS if p.stem == "durak-podkidnoy-2"))
    record["seed"] = str(int(record["seed"]) + 1)  # another deal: the recorded cards are not held
    with pytest.raises(IllegalMove):
        replay_record(record)
