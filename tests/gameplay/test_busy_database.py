"""A locked database answers "busy" on every page, never a 500 (the move
endpoints and sockets have their own "busy" answers: test_inbound.py)."""

import pytest
from django.db import OperationalError
from django.urls import reverse

from gameplay import views

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db


def locked(*args, **kwargs):
    raise OperationalError("database is locked")


def test_a_page_that_meets_a_locked_database_says_the_server_is_busy(players, monkeypatch):
    game = started_game("durak", players[:2])
    monkeypatch.setattr(views, "game_payload", locked)
    client = client_for(players[0])
    client.raise_request_exception = False
    response = client.get(game.get_absolute_url())
    assert response.status_code == 503 and response["Retry-After"] == "1"
    assert "The server is busy" in response.content.decode()


def test_the_state_api_that_meets_a_locked_database_answers_busy_as_json(players, monkeypatch):
    game = started_game("durak", players[:2])
    monkeypatch.setattr(views, "game_payload", locked)
    client = client_for(players[0])
    response = client.get(reverse("game_state", args=[game.pk]))
    assert response.status_code == 503
    assert response.json()["code"] == "busy"


def test_other_database_errors_are_not_called_busy(players, monkeypatch):
    game = started_game("durak", players[:2])
    monkeypatch.setattr(views, "game_payload", lambda *a, **k: (_ for _ in ()).throw(OperationalError("no such table")))
    client = client_for(players[0])
    client.raise_request_exception = False
    assert client.get(game.get_absolute_url()).status_code == 500
