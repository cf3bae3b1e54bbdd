"""The Joker score sheet page: live during the game, complete after it."""

import pytest
from django.test import Client
from django.urls import reverse

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game

pytestmark = pytest.mark.django_db
JOKER = get_engine("joker")


@pytest.fixture
def game(django_user_model):
    users = [django_user_model.objects.create_user(f"p{i}", display_name=f"Player {i}") for i in range(4)]
    game = services.create_game(users[0], "joker")
    for user in users[1:]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game


def play(state: dict, until) -> dict:
    while not until(state):
        seat = JOKER.actors(state)[0]
        state, _ = JOKER.apply(state, seat, JOKER.auto_action(state, seat))
    return state


def store(game: Game, state: dict, **fields) -> Game:
    Game.objects.filter(pk=game.pk).update(state=state, **fields)
    game.refresh_from_db()
    return game


def sheet_html(game: Game) -> str:
    response = Client().get(reverse("sheet", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_sheet_lists_players_in_sheet_order_with_the_first_dealer_last(game):
    html = sheet_html(game)
    order = JOKER.sheet(game.state)["order"]
    names = [f"Player {p}" for p in order]
    positions = [html.index(name) for name in names]
    assert positions == sorted(positions)
    assert order[-1] == game.state["first_dealer"]


def test_the_sheet_fills_in_as_deals_are_played(game):
    game = store(game, play(game.state, lambda s: s["deal"] == 3))
    html = sheet_html(game)
    sheet = JOKER.sheet(game.state)
    first_deal = sheet["pulkas"][0]["deals"][0]
    assert first_deal["complete"]
    for cell in first_deal["cells"]:
        assert f">{cell['points']}" in html
    assert 'class="deal in-progress"' in html


def test_after_a_pulka_the_sheet_shows_its_subtotal_and_running_total_in_hundreds(game):
    game = store(game, play(game.state, lambda s: s["deal"] == 9))
    html = sheet_html(game)
    pulka = JOKER.sheet(game.state)["pulkas"][0]
    assert pulka["complete"]
    assert "Pulka 1" in html
    for total in pulka["total"]:
        assert f">{total / 100:.1f}<" in html


def test_a_finished_game_shows_the_final_ranking(game):
    game = store(game, play(game.state, JOKER.is_over), status=Game.Status.FINISHED)
    html = sheet_html(game)
    assert "Final ranking" in html
    ranking = JOKER.sheet(game.state)["ranking"]
    first = html.index(f"Player {ranking[0]} —")
    last = html.index(f"Player {ranking[-1]} —")
    assert first < last


def test_the_sheet_fragment_for_the_game_page(game):
    response = Client().get(reverse("sheet_fragment", args=[game.pk]))
    assert response.status_code == 200 and b"joker-sheet" in response.content


def test_the_sheet_of_a_private_game_is_not_public(django_user_model):
    owner = django_user_model.objects.create_user("owner")
    game = services.create_game(owner, "joker", is_private=True)
    assert Client().get(reverse("sheet", args=[game.pk])).status_code == 404
