"""Pages and the HTTP move API, through Django's test client."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from gameplay import services
from gameplay.models import Game

from .conftest import a_legal_action, acting_player, client_for

pytestmark = pytest.mark.django_db


def post_move(client, game, body) -> tuple[int, dict]:
    response = client.post(reverse("game_move", args=[game.pk]), data=body, content_type="application/json")
    return response.status_code, response.json()


def test_a_move_over_http_is_applied_once(joker_game, players):
    position, user = acting_player(joker_game, players)
    client = client_for(user)
    body = json.dumps({"action": a_legal_action(joker_game, position), "version": 0, "move_id": "h1"})
    assert post_move(client, joker_game, body) == (200, {"type": "ack", "move_id": "h1", "version": 1, "duplicate": False})
    assert post_move(client, joker_game, body)[1]["duplicate"] is True
    assert joker_game.moves.count() == 1


@pytest.mark.parametrize(
    "body, status, code",
    [
        ("{oops", 400, "bad_request"),
        ("[]", 400, "bad_request"),
        (json.dumps({"action": {"type": "bid", "tricks": 0}}), 400, "bad_request"),
        (json.dumps({"action": {"type": "bid", "tricks": 0}, "version": 5}), 409, "stale"),
        (json.dumps({"action": {"type": "bid", "tricks": 42}, "version": 0}), 422, "illegal"),
    ],
)
def test_bad_http_moves_get_a_clear_error_and_change_nothing(joker_game, players, body, status, code):
    _, user = acting_player(joker_game, players)
    got_status, reply = post_move(client_for(user), joker_game, body)
    assert (got_status, reply["code"]) == (status, code)
    assert reply["message"]
    joker_game.refresh_from_db()
    assert joker_game.version == 0


def test_moving_needs_login(joker_game):
    status, reply = post_move(Client(), joker_game, json.dumps({"action": {"type": "bid"}, "version": 0}))
    assert (status, reply["code"]) == (401, "login_required")


def test_the_state_api_shows_only_my_hand(joker_game, players):
    reply = client_for(players[2]).get(reverse("game_state", args=[joker_game.pk])).json()
    assert reply["seat"] == 2
    assert set(reply["view"]["hand"]) == set(joker_game.state["hands"][2])
    assert "seed" in reply and reply["seed"] is None
    assert joker_game.seed not in json.dumps(reply)


def test_the_lobby_lists_my_games_with_mine_to_move_first(joker_game, players):
    position, user = acting_player(joker_game, players)
    other = services.create_game(user, "joker")
    page = client_for(user).get(reverse("lobby")).content.decode()
    assert "Your move" in page
    assert page.index(f"#{joker_game.pk} ") < page.index(f"#{other.pk} ")


def test_creating_a_table_with_computer_players_starts_it(players):
    client = client_for(players[0])
    response = client.post(reverse("new_game"), {"engine": "joker", "time_preset": "live", "on_timeout": "autoplay",
                                                  "fill_with_bots": "on"})
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert (game.status, game.move_seconds, game.reserve_seconds) == ("active", 30, 120)
    page = client.get(game.get_absolute_url())
    assert page.status_code == 200
    assert game.seed_sha256[:10] in page.content.decode()


def test_a_bad_new_table_form_is_shown_again_with_errors(players):
    response = client_for(players[0]).post(reverse("new_game"), {"engine": "chess"})
    assert response.status_code == 200
    assert Game.objects.count() == 0


def test_joining_and_leaving_through_the_pages(players):
    game = services.create_game(players[0], "joker")
    client = client_for(players[1])
    client.post(reverse("join_game", args=[game.pk]))
    assert game.seats.filter(user=players[1]).exists()
    response = client.post(reverse("join_game", args=[game.pk]), follow=True)
    assert "already have a seat" in response.content.decode()
    client.post(reverse("leave_game", args=[game.pk]))
    assert not game.seats.filter(user=players[1]).exists()


def test_a_private_table_is_hidden_until_the_invite_link_is_opened(players):
    game = services.create_game(players[0], "joker", is_private=True)
    client = client_for(players[1])
    assert client.get(game.get_absolute_url()).status_code == 404
    assert client.get(reverse("lobby")).content.decode().count(f"#{game.pk} ") == 0
    assert client.get(reverse("invite", args=[game.invite_code])).status_code == 302
    assert client.get(game.get_absolute_url()).status_code == 200
    client.post(reverse("join_game", args=[game.pk]))
    assert game.seats.filter(user=players[1]).exists()


def test_anyone_can_watch_a_public_game_but_not_act(joker_game):
    anonymous = Client()
    assert anonymous.get(joker_game.get_absolute_url()).status_code == 200
    assert anonymous.get(reverse("sheet", args=[joker_game.pk])).status_code == 200
    response = anonymous.post(reverse("join_game", args=[joker_game.pk]))
    assert response.status_code == 302 and "/login/" in response.url


def test_the_game_page_holds_no_other_players_cards(joker_game, players):
    page = client_for(players[3]).get(joker_game.get_absolute_url()).content.decode()
    initial = json.loads(page.split('id="initial-state" type="application/json">')[1].split("</script>")[0])
    assert set(initial["view"]["hand"]) == set(joker_game.state["hands"][3])
    assert joker_game.seed not in page
    assert "rest" not in initial["view"]


def test_resigning_from_the_page(joker_game, players):
    client_for(players[1]).post(reverse("resign_game", args=[joker_game.pk]))
    joker_game.refresh_from_db()
    assert joker_game.status == "finished" and joker_game.seats.get(position=1).place == 4
