"""The lists of games name who plays: "My games" in the lobby and on the
profile, the finished games on the player page, the moderation list; a
league game's mark stands apart from the table's variant (issue 27, 8)."""

import re

import pytest
from django.urls import reverse

from gameplay import services
from tests.gameplay.conftest import client_for, started_game
from tests.moderation.test_organizer_pages import league_game  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def cells(html: str, table: str) -> list[str]:
    body = html.split(f'class="list {table}"')[1].split("</table>")[0]
    return [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r'<td class="opponents"[^>]*>(.*?)</td>', body, re.S)]


def test_my_games_in_the_lobby_name_the_opponents(players):
    started_game("joker", players)
    html = client_for(players[1]).get(reverse("lobby")).content.decode()
    assert cells(html, "my-games") == ["player0, player2, player3"]


def test_the_player_pages_finished_games_name_the_opponents(players):
    game = started_game("durak", players[:3])
    services.resign(game.pk, players[2])
    html = client_for(players[1]).get(reverse("player", args=["player0"])).content.decode()
    assert cells(html, "finished-games") == ["player1, player2"]
    html = client_for(players[0]).get(reverse("profile")).content.decode()
    assert cells(html, "finished-games") == ["player1, player2"]


def test_a_league_games_mark_is_set_apart_from_the_variant(league_game):  # noqa: F811
    game, _organizer = league_game
    player = game.seats.order_by("position").first().user
    html = client_for(player).get(reverse("lobby")).content.decode()
    row = html.split('class="list my-games"')[1].split("</tr>")[1]
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", row))
    assert re.search(r"\S · Kitchen league, season 1, round \d", text), text


def test_the_moderation_list_names_each_games_players(league_game):  # noqa: F811
    game, organizer = league_game
    html = client_for(organizer).get(reverse("moderation_games")).content.decode()
    names = ", ".join(str(seat.player_name) for seat in game.seats.order_by("position"))
    assert f'<span class="players">{names}</span>' in html
