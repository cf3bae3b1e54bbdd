"""The admin changes no seat and no game behind the services' back: a seat
is read-only there (taking, leaving and computer players go through the
services, which tell the table), and saving a game's page writes only the
fields its form changed, never an older copy of the game's state."""

from types import SimpleNamespace

import pytest
from django.contrib import admin
from django.urls import reverse

from gameplay import services
from gameplay.models import Game

from .conftest import a_legal_action, acting_player, client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("moderator", password="pw", email="m@example.com")


def test_a_seat_cannot_be_changed_added_or_deleted_in_the_admin(moderator, players):
    game = services.create_game(players[0], "joker", players=4)
    seat = game.seats.get(position=1)
    client = client_for(moderator)
    assert client.get(reverse("admin:gameplay_seat_change", args=[seat.pk])).status_code == 200  # to look at
    response = client.post(reverse("admin:gameplay_seat_change", args=[seat.pk]),
                           {"game": game.pk, "position": 1, "user": players[1].pk, "is_bot": "on"})
    assert response.status_code == 403
    assert client.get(reverse("admin:gameplay_seat_add")).status_code == 403
    assert client.post(reverse("admin:gameplay_seat_delete", args=[seat.pk]), {"post": "yes"}).status_code == 403
    seat.refresh_from_db()
    assert seat.user is None and not seat.is_bot


def test_saving_a_games_admin_page_keeps_a_move_made_meanwhile(moderator, joker_game, players):
    loaded = Game.objects.get(pk=joker_game.pk)  # the moderator's copy, from before the move
    position, user = acting_player(joker_game, players)
    services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), 0)

    loaded.is_private = True
    game_admin = admin.site._registry[Game]
    game_admin.save_model(SimpleNamespace(user=moderator), loaded, SimpleNamespace(changed_data=["is_private"]), True)

    fresh = Game.objects.get(pk=joker_game.pk)
    assert fresh.is_private and fresh.version == 1 and fresh.state != joker_game.state

