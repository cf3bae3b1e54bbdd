"""Moderators in the Django admin: lists, search, the move log, aborting a game."""

import pytest
from django.urls import reverse

from gameplay.models import Game

from .conftest import a_legal_action, acting_player, client_for
from gameplay import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("moderator", password="pw", email="m@example.com")


@pytest.mark.parametrize("model", ["game", "seat", "move", "chatmessage"])
def test_every_gameplay_list_loads_with_filters_and_search(moderator, joker_game, model):
    client = client_for(moderator)
    url = reverse(f"admin:gameplay_{model}_changelist")
    assert client.get(url).status_code == 200
    assert client.get(url, {"q": "player1"}).status_code == 200


def test_a_game_page_in_the_admin_shows_its_move_log(moderator, joker_game, players):
    position, user = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)
    services.submit_move(joker_game.pk, user, action, 0)
    page = client_for(moderator).get(reverse("admin:gameplay_game_change", args=[joker_game.pk]))
    assert page.status_code == 200
    assert str(action["type"]) in page.content.decode()


def test_a_moderator_aborts_a_game_with_a_reason_and_the_players_see_it(moderator, joker_game, players):
    client = client_for(moderator)
    url = reverse("admin:gameplay_game_abort", args=[joker_game.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"reason": ""}).status_code == 200  # the form asks for a reason
    joker_game.refresh_from_db()
    assert joker_game.status == Game.Status.ACTIVE
    client.post(url, {"reason": "Cheating reported"})
    joker_game.refresh_from_db()
    assert (joker_game.status, joker_game.abort_reason, joker_game.aborted_by) == ("aborted", "Cheating reported", moderator)
    page = client_for(players[0]).get(joker_game.get_absolute_url()).content.decode()
    assert "Cheating reported" in page


def test_players_cannot_reach_the_abort_page(joker_game, players):
    response = client_for(players[0]).get(reverse("admin:gameplay_game_abort", args=[joker_game.pk]))
    assert response.status_code == 302 and "/admin/login/" in response.url
