"""A private table before and after its start, over HTTP.

Before the start the invite link shows the waiting table and lets people
take a seat; once the game starts only its players (and staff) see it: the
page and the state API answer 404 to everyone else, the invite link
included, as the WebSocket already refuses them.
"""

import pytest
from django.test import Client
from django.urls import reverse

from gameplay import services
from gameplay.models import Game

from .conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_table(players) -> Game:
    """A private two-player Durak table: players[0] sits at it, one seat is free."""
    return services.create_game(players[0], "durak", players=2, is_private=True)


def open_invite(client: Client, game: Game):
    return client.get(reverse("invite", args=[game.invite_code]))


def state_url(game: Game) -> str:
    return reverse("game_state", args=[game.pk])


def start(game: Game, user) -> Game:
    services.join_game(game.pk, user)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game


def test_before_the_start_the_invite_link_shows_the_waiting_table_and_lets_you_sit_down(private_table, players):
    client = client_for(players[1])

    assert open_invite(client, private_table).url == private_table.get_absolute_url()
    page = client.get(private_table.get_absolute_url())
    assert page.status_code == 200
    assert "Take a seat" in page.content.decode()
    assert client.get(state_url(private_table)).status_code == 200

    client.post(reverse("join_game", args=[private_table.pk]))
    assert private_table.seats.filter(user=players[1]).exists()


def test_someone_who_opened_the_invite_but_took_no_seat_loses_the_view_when_the_game_starts(private_table, players):
    onlooker = client_for(players[2])
    open_invite(onlooker, private_table)
    assert onlooker.get(private_table.get_absolute_url()).status_code == 200

    start(private_table, players[1])

    assert onlooker.get(private_table.get_absolute_url()).status_code == 404
    assert onlooker.get(state_url(private_table)).status_code == 404
    assert onlooker.get(reverse("sheet", args=[private_table.pk])).status_code == 404
    assert onlooker.get(reverse("sheet_fragment", args=[private_table.pk])).status_code == 404
    assert client_for(players[1]).get(reverse("sheet", args=[private_table.pk])).status_code == 200


def test_an_anonymous_visitor_with_the_invite_loses_the_view_when_the_game_starts(private_table, players):
    visitor = Client()
    open_invite(visitor, private_table)
    assert visitor.get(private_table.get_absolute_url()).status_code == 200

    start(private_table, players[1])

    assert visitor.get(private_table.get_absolute_url()).status_code == 404
    assert visitor.get(state_url(private_table)).status_code == 404


def test_opening_the_invite_after_the_start_shows_nothing_and_says_why(private_table, players):
    start(private_table, players[1])
    latecomer = client_for(players[2])

    response = open_invite(latecomer, private_table)

    assert response.status_code == 302 and response.url == reverse("lobby")
    lobby = latecomer.get(response.url).content.decode()
    assert "This private table has already started: only its players can see it." in lobby
    assert latecomer.get(private_table.get_absolute_url()).status_code == 404
    assert latecomer.get(state_url(private_table)).status_code == 404


def test_the_players_keep_seeing_their_game_and_their_own_hand(private_table, players):
    game = start(private_table, players[1])

    for position, user in enumerate(players[:2]):
        client = client_for(user)
        assert client.get(game.get_absolute_url()).status_code == 200
        assert open_invite(client, game).url == game.get_absolute_url()
        reply = client.get(state_url(game)).json()
        assert reply["seat"] == position


def test_the_table_stays_hidden_after_the_game_is_over(private_table, players):
    onlooker = client_for(players[2])
    open_invite(onlooker, private_table)
    game = start(private_table, players[1])
    services.resign(game.pk, players[1])
    game.refresh_from_db()
    assert game.is_over

    assert onlooker.get(game.get_absolute_url()).status_code == 404
    assert onlooker.get(state_url(game)).status_code == 404
    assert client_for(players[1]).get(game.get_absolute_url()).status_code == 200


def test_staff_may_look_at_a_private_game_in_play(private_table, players, django_user_model):
    moderator = django_user_model.objects.create_user("moderator", password="pw-not-used-1", is_staff=True)
    game = start(private_table, players[1])
    client = client_for(moderator)

    assert client.get(game.get_absolute_url()).status_code == 200
    reply = client.get(state_url(game)).json()
    assert reply["seat"] is None
    assert "hand" not in reply["view"] or not reply["view"]["hand"]


def test_a_public_game_in_play_can_still_be_watched_by_anyone(players):
    game = services.create_game(players[0], "durak", players=2)
    start(game, players[1])

    assert Client().get(game.get_absolute_url()).status_code == 200
    assert Client().get(state_url(game)).status_code == 200
    assert open_invite(Client(), game).url == game.get_absolute_url()
