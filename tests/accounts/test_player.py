from django.urls import reverse

from gameplay.models import Game, Seat
from tests.gameplay.conftest import as_finished


def finished_game(user, place: int, is_private: bool = False) -> Game:
    game = Game.objects.create(
        engine="joker", seats_count=4, created_by=user, status="finished", is_private=is_private
    )
    Seat.objects.create(game=game, position=0, user=user, place=place, points=100)
    return as_finished(game)


def test_anonymous_is_sent_to_login(client, user):
    response = client.get(reverse("player", args=["anna"]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_player_page_shows_name_and_results(signed_in, user):
    won = finished_game(user, place=1)
    lost = finished_game(user, place=3)

    response = signed_in.get(reverse("player", args=["anna"]))

    assert response.status_code == 200
    assert "Anna" in response.text
    assert response.context["stats"] == {"played": 2, "won": 1}
    assert won.get_absolute_url() in response.text
    assert lost.get_absolute_url() in response.text


def test_player_page_does_not_list_private_games(signed_in, user):
    private = finished_game(user, place=1, is_private=True)

    response = signed_in.get(reverse("player", args=["anna"]))

    assert private.get_absolute_url() not in response.text


def test_player_page_does_not_show_the_email(signed_in, user):
    assert "anna@example.com" not in signed_in.get(reverse("player", args=["anna"])).text


def test_unknown_player_is_not_found(signed_in):
    assert signed_in.get(reverse("player", args=["nobody"])).status_code == 404
