from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gameplay.models import Game, Seat


def make_game(user, status: str, position: int = 0, state: dict | None = None, **seat) -> Game:
    game = Game.objects.create(engine="joker", seats_count=4, created_by=user, status=status, state=state)
    Seat.objects.create(game=game, position=position, user=user, **seat)
    return game


class FakeEngine:
    def actors(self, state: dict) -> list[int]:
        return state["to_move"]


@pytest.fixture
def fake_engine(monkeypatch):
    engines = pytest.importorskip("gameplay.engine")
    monkeypatch.setattr(engines, "get_engine", lambda slug: FakeEngine())


def test_anonymous_is_sent_to_login(client, db):
    response = client.get(reverse("profile"))
    assert response.status_code == 302
    assert response.url == reverse("login") + "?next=" + reverse("profile")


def test_profile_shows_the_settings(signed_in):
    response = signed_in.get(reverse("profile"))

    assert response.status_code == 200
    assert "Anna" in response.text
    assert "Europe/Moscow" in response.text
    assert reverse("profile_edit") in response.text


def test_profile_lists_current_games_with_my_turn_first(signed_in, user, fake_engine):
    waiting = make_game(user, "active", position=1, state={"to_move": [0]})
    open_table = make_game(user, "open")
    my_turn = make_game(user, "active", position=2, state={"to_move": [2]})

    response = signed_in.get(reverse("profile"))

    rows = response.context["current"]
    assert [row["game"] for row in rows] == [my_turn, waiting, open_table]
    assert [row["my_turn"] for row in rows] == [True, False, False]
    for game in (waiting, open_table, my_turn):
        assert game.get_absolute_url() in response.text


def test_profile_works_when_the_engine_fails(signed_in, user, monkeypatch):
    engines = pytest.importorskip("gameplay.engine")
    monkeypatch.setattr(engines, "get_engine", lambda slug: 1 / 0)
    game = make_game(user, "active", state={"to_move": [0]})

    response = signed_in.get(reverse("profile"))

    assert response.status_code == 200
    assert response.context["current"][0]["my_turn"] is False
    assert game.get_absolute_url() in response.text


def test_profile_lists_finished_games_with_place_and_points(signed_in, user):
    aborted = make_game(user, "aborted")
    finished = make_game(user, "finished", place=2, points=-137)
    Game.objects.filter(pk=finished.pk).update(finished_at=timezone.now())
    Game.objects.filter(pk=aborted.pk).update(finished_at=timezone.now() - timedelta(days=1))

    response = signed_in.get(reverse("profile"))

    assert list(response.context["past"]) == [finished.seats.get(), aborted.seats.get()]
    assert "-137" in response.text
    assert finished.get_absolute_url() in response.text
    assert response.context["current"] == []


def test_profile_does_not_show_other_players_games(signed_in, django_user_model):
    boris = django_user_model.objects.create_user("boris")
    game = make_game(boris, "open")

    response = signed_in.get(reverse("profile"))

    assert game.get_absolute_url() not in response.text
