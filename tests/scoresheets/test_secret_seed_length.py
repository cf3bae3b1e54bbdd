"""A game's secret seed is 256 random bits (issue 24): its SHA-256 is public
from the start, so a 63-bit seed could be found by an offline search during a
game lasting weeks. New games' seeds are long, stored and replayed exactly;
an old game's 63-bit seed still verifies with the same derivation."""

import json

import pytest
from django.core.management import call_command

from gameplay import services
from gameplay.engine import get_engine
from gameplay.engine.core import seed_digest
from gameplay.models import Game, seed_hash
from tests.gameplay.conftest import client_for, started_game
from tests.scoresheets.conftest import advance

pytestmark = pytest.mark.django_db


def verified(tmp_path, record: dict) -> str:
    from io import StringIO

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    out = StringIO()
    call_command("verify_record", str(path), stdout=out)
    return out.getvalue()


def finished(game: Game, people) -> Game:
    game = advance(game, people, 30, 1)
    if game.status == Game.Status.ACTIVE:
        services.resign(game.pk, people[0])
    return Game.objects.get(pk=game.pk)


def test_a_new_games_seed_holds_at_least_128_random_bits(people):
    seeds = {int(started_game("durak", people[:2]).seed) for _ in range(4)}
    assert len(seeds) == 4
    assert all(seed.bit_length() > 128 for seed in seeds)  # 256 random bits: below 2^128 once in 2^128


def test_a_long_seed_survives_the_database_and_its_record_verifies(people, tmp_path):
    game = started_game("joker", people)
    stored = Game.objects.get(pk=game.pk)
    assert stored.state["seed"] == int(stored.seed) and stored.seed_sha256 == seed_hash(stored.seed)
    record = client_for(people[0]).get(f"/sheets/{finished(game, people).pk}/record.json").json()
    assert int(record["seed"]).bit_length() > 128 and "Verified" in verified(tmp_path, record)


def test_an_old_games_63_bit_seed_still_verifies(people, tmp_path):
    old_seed = "5270498306774157604"  # as new_seed made them before
    game = started_game("durak", people[:3])
    Game.objects.filter(pk=game.pk).update(seed=old_seed, seed_sha256=seed_digest(int(old_seed)))
    game = Game.objects.get(pk=game.pk)
    game.state = get_engine(game.engine).start(players=3, options=game.options, seed=int(old_seed))
    Game.objects.filter(pk=game.pk).update(state=game.state)
    record = client_for(people[0]).get(f"/sheets/{finished(game, people).pk}/record.json").json()
    assert record["seed"] == old_seed and "Verified" in verified(tmp_path, record)
