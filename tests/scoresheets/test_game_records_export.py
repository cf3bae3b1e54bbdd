"""A game's published record (/sheets/<id>/record.json) and `manage.py verify_record`, which checks it."""

import json

import pytest
from django.core.management import CommandError, call_command

from gameplay import services
from gameplay.models import Game
from tests.gameplay.conftest import client_for, started_game
from tests.scoresheets.conftest import advance
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db


def play(game: Game, people, moves: int, seed: int = 1) -> Game:
    """Random legal moves through the services, then the first seat resigns."""
    game = advance(game, people, moves, seed)
    if game.status == Game.Status.ACTIVE:
        services.resign(game.pk, people[0])
    game.refresh_from_db()
    return game


def exported(client, game: Game) -> dict:
    response = client.get(f"/sheets/{game.pk}/record.json")
    assert response.status_code == 200, response.content
    return response.json()


def verify(tmp_path, record: dict) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    from io import StringIO

    out = StringIO()
    call_command("verify_record", str(path), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("engine,players,options", [("joker", 4, None), ("durak", 3, None),
                                                    ("durak", 4, {"teams": True}), ("ipuker", 4, None),
                                                    ("odessa", 3, {"max_hand": 2, "specials": ["blind", "golden"]}),
                                                    ("domino_poker", 3, {"sevens": 0, "final_stage": True})])
def test_a_finished_games_record_verifies_from_its_seed(engine, players, options, people, tmp_path):
    game = play(started_game(engine, people[:players], options), people, moves=40)
    record = exported(client_for(people[1]), game)
    assert record["seed"] == game.seed and record["status"] == "finished"
    assert len(record["moves"]) == game.version and all("at" in m and "time_used_ms" in m for m in record["moves"])
    assert [s["place"] for s in record["result"]] == [s.place for s in game.seats.order_by("position")]
    assert "Verified" in verify(tmp_path, record)


def test_a_running_games_record_is_not_published(people):
    game = started_game("joker", people)
    response = client_for(people[0]).get(f"/sheets/{game.pk}/record.json")
    assert response.status_code == 409
    assert game.seed not in response.content.decode()
    assert "published when the game is over" in response.json()["error"]


def test_a_private_games_record_is_hidden_from_outsiders(people, django_user_model):
    game = play(started_game("joker", people, is_private=True), people, moves=3)
    outsider = django_user_model.objects.create_user("outsider", password="pw-not-used-1")
    assert client_for(outsider).get(f"/sheets/{game.pk}/record.json").status_code == 404
    assert client_for(people[2]).get(f"/sheets/{game.pk}/record.json").status_code == 200


def test_an_aborted_games_record_verifies_as_unfinished(people, django_user_model, tmp_path):
    game = started_game("durak", people[:2])
    moderator = django_user_model.objects.create_superuser("mod", password="pw-not-used-1")
    moderation_actions.abort_game(game.pk, moderator, "a test")
    record = exported(client_for(people[0]), game)
    assert record["abort_reason"] == "a test" and record["result"] == [] and record["seed"]
    assert "did not finish" in verify(tmp_path, record)


@pytest.fixture
def record(people):
    game = play(started_game("joker", people), people, moves=30, seed=3)
    return exported(client_for(people[0]), game)


def test_a_record_with_another_seed_fails_the_published_hash(record, tmp_path):
    record["seed"] = str(int(record["seed"]) + 1)
    with pytest.raises(CommandError, match="does not hash to the SHA-256 published at the start"):
        verify(tmp_path, record)


def test_a_record_with_a_changed_move_is_caught(record, tmp_path):
    plays = [m for m in record["moves"] if m["action"].get("type") == "play"]
    first = plays[0]
    hand_cards = {"AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "AH", "KH", "QH", "JH", "TH", "9H"}
    first["action"] = {**first["action"], "card": next(c for c in sorted(hand_cards) if c != first["action"]["card"])}
    with pytest.raises(CommandError, match="is not legal|do not lead"):
        verify(tmp_path, record)


def test_a_record_with_a_doctored_result_is_caught(record, tmp_path):
    record["result"][0]["place"], record["result"][1]["place"] = record["result"][1]["place"], 9
    with pytest.raises(CommandError, match="recorded result of seat"):
        verify(tmp_path, record)


def test_a_record_with_other_deals_under_a_matching_new_hash_is_caught(record, tmp_path):
    import hashlib

    record["seed"] = "12345"
    record["seed_sha256"] = hashlib.sha256(b"12345").hexdigest()  # a forger may publish both
    with pytest.raises(CommandError, match="is not legal|do not lead"):
        verify(tmp_path, record)


def test_verify_record_explains_a_file_that_is_not_a_record(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="is not JSON"):
        call_command("verify_record", str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("verify_record", str(tmp_path / "missing.json"))
    bad.write_text('{"format": 99}')
    with pytest.raises(CommandError, match="not a game record"):
        call_command("verify_record", str(bad))
