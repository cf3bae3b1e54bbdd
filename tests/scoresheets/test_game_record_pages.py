"""A game's record page (every move in words, grouped, with times) and the replay of a game that is over."""

import re

import pytest
from django.test import Client

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game, Move
from tests.gameplay.conftest import client_for, started_game
from tests.gameplay.test_move_log import seeded_ipuker, stake
from tests.scoresheets.conftest import advance

pytestmark = pytest.mark.django_db


def record_text(client: Client, game: Game, **headers) -> str:
    page = client.get(f"/sheets/{game.pk}/record/", **headers)
    assert page.status_code == 200
    body = page.content.decode()
    body = body[body.index("<main"):body.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


@pytest.mark.parametrize("engine,players,section", [("joker", 4, "Deal 1: 1 card each"), ("durak", 3, "Bout 1"),
                                                    ("ipuker", 4, "Round 1"),
                                                    ("odessa", 3, "Deal 1: 1 card each"),
                                                    ("domino_poker", 3, "Deal 1: 1 tile each")])
def test_the_record_groups_the_moves_in_words_by_deal_bout_or_round(engine, players, section, people):
    game = advance(started_game(engine, people[:players]), people, moves=12)
    Move.objects.filter(game=game, seq=2).update(time_used_ms=200_000, by=Move.By.TIMEOUT)
    text = record_text(client_for(people[0]), game)
    assert section in text
    assert "player" in text and "{" not in text and "'type'" not in text
    assert "3 min 20 s" in text
    if engine != "ipuker":  # Ipuker's move 2 is a stake still hidden from seat 0: so is its time-out mark
        assert "(timeout)" in text


def test_the_record_reads_in_russian(people):
    game = advance(started_game("durak", people[:2]), people, moves=3)
    text = record_text(Client(), game, HTTP_ACCEPT_LANGUAGE="ru")
    assert "Ходы · Дурак" in text and "Кон 1" in text and "ходит:" in text and "Время на ход" in text


def test_a_running_games_record_shows_another_seat_nothing_of_its_secret_stakes(people):
    """Change the hidden values: what the other seats read does not change."""
    pages = []
    for tokens in [(9, 30), (30, 9)]:
        game = seeded_ipuker(people, "20261123")
        first, second, third = get_engine("ipuker").actors(game.state)
        game = stake(game, people, first, tokens[0])
        game = stake(game, people, second, tokens[1])
        Move.objects.filter(game=game).update(time_used_ms=1000)  # the time taken is public, and equal here
        pages.append([record_text(client_for(people[third]), game).replace(f"#{game.pk}", "#N"),
                      record_text(Client(), game).replace(f"#{game.pk}", "#N")])
        Game.objects.filter(pk=game.pk).delete()
    assert pages[0] == pages[1]
    assert "stakes in secret" in pages[0][0]


def test_the_replay_waits_for_the_end_of_the_game(people):
    game = started_game("joker", people)
    client = client_for(people[0])
    assert client.get(f"/sheets/{game.pk}/replay/").status_code == 409
    answer = client.get(f"/sheets/{game.pk}/replay/0.json")
    assert answer.status_code == 409 and "hands" not in answer.json()


def test_each_replay_step_is_the_position_after_that_many_moves_with_every_hand(people):
    game = advance(started_game("durak", people[:3]), people, moves=25, seed=4)
    services.resign(game.pk, people[0])
    game.refresh_from_db()
    client = client_for(people[1])
    engine = get_engine("durak")
    start = engine.start(players=3, options=game.options, seed=int(game.seed), rules_version=game.rules_version)
    first = client.get(f"/sheets/{game.pk}/replay/0.json").json()
    assert first["seat"] == 1 and first["version"] == 0 and first["steps"] == game.version
    assert first["hands"] == [engine.view(start, p)["hand"] for p in range(3)]
    assert first["view"] == engine.view(start, 1)
    last = client.get(f"/sheets/{game.pk}/replay/{game.version + 50}.json", {"seat": "2"}).json()
    assert last["version"] == game.version and last["seat"] == 2
    assert last["view"] == engine.view(game.state, 2)
    one = client.get(f"/sheets/{game.pk}/replay/1.json").json()
    assert one["events"] and one["version"] == 1
    assert client.get(f"/sheets/{game.pk}/replay/1.json", {"seat": "7"}).status_code == 400
    assert client.get(f"/sheets/{game.pk}/replay/1.json", {"seat": "x"}).status_code == 400
    page = client.get(f"/sheets/{game.pk}/replay/")
    assert page.status_code == 200 and 'data-replay-url="/sheets/' in page.content.decode()


def test_a_private_games_record_and_replay_are_hidden_from_outsiders(people, django_user_model):
    game = started_game("joker", people, is_private=True)
    services.resign(game.pk, people[0])
    outsider = client_for(django_user_model.objects.create_user("outsider", password="pw-not-used-1"))
    for url in (f"/sheets/{game.pk}/record/", f"/sheets/{game.pk}/replay/", f"/sheets/{game.pk}/replay/0.json"):
        assert outsider.get(url).status_code == 404
        assert client_for(people[1]).get(url).status_code == 200


def test_the_game_page_and_the_sheet_link_the_record_and_after_the_end_the_replay(people):
    game = started_game("joker", people)
    client = client_for(people[0])
    assert f"/sheets/{game.pk}/record/" in client.get(game.get_absolute_url()).content.decode()
    assert f"/sheets/{game.pk}/replay/" not in client.get(game.get_absolute_url()).content.decode()
    services.resign(game.pk, people[0])
    for url in (game.get_absolute_url(), f"/sheets/{game.pk}/"):
        page = client.get(url).content.decode()
        assert f"/sheets/{game.pk}/replay/" in page and f"/sheets/{game.pk}/record.json" in page
