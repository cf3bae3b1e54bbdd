"""A table says its variant (Durak's mode, pairs, the number of players)
wherever it is listed, and in Durak 2×2 every page says who partners whom;
a player chooses his seat, and so his partner, when he joins."""

import pytest
from django.urls import reverse
from django.utils import translation

from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.labels import variant_label
from gameplay.models import Game
from scoresheets.sheets import sheet_context

from .conftest import client_for

pytestmark = pytest.mark.django_db

PAIRS = {"mode": "perevodnoy", "teams": True}


@pytest.fixture
def pairs_table(players) -> Game:
    return services.create_game(players[0], "durak", PAIRS, players=4)


def seat_users(game: Game) -> dict:
    return dict(game.seats.values_list("position", "user"))


def test_the_variant_is_said_in_english_and_in_russian(players):
    pairs = services.create_game(players[0], "durak", PAIRS, players=4)
    three = services.create_game(players[0], "durak", {"mode": "podkidnoy"}, players=3)
    joker = services.create_game(players[0], "joker", players=4)
    assert variant_label(pairs) == "perevodnoy, 2×2 in pairs"
    assert variant_label(three) == "podkidnoy, 3 players"
    assert variant_label(joker) == "4 players"
    with translation.override("ru"):
        assert variant_label(pairs) == "переводной, 2×2 парами"
        assert variant_label(three) == "подкидной, 3 игрока"


def test_the_lobby_shows_the_variant_of_open_tables_and_of_my_games(players, pairs_table):
    services.create_game(players[1], "durak", {"mode": "podkidnoy"}, players=2)
    page = client_for(players[0]).get(reverse("lobby")).content.decode()
    open_tables = page[page.index('class="list open-tables"'):]
    my_games = page[page.index('class="list my-games"'):page.index("</table>", page.index('class="list my-games"'))]
    assert "perevodnoy, 2×2 in pairs" in open_tables and "podkidnoy, 2 players" in open_tables
    assert "perevodnoy, 2×2 in pairs" in my_games and "podkidnoy" not in my_games


def test_the_waiting_page_shows_the_variant_and_each_seats_partner(players, pairs_table):
    services.join_game(pairs_table.pk, players[1], 1)
    page = client_for(players[2]).get(pairs_table.get_absolute_url()).content.decode()
    assert "perevodnoy, 2×2 in pairs" in page
    assert "seats 1 and 3 play against seats 2 and 4" in page
    seats = page[page.index('id="waiting-seats"'):page.index("</ol>")]
    assert "partner: seat 3, still free" in seats  # seat 1's partner
    assert f"partner: {players[1].name}" in seats  # seat 4's partner is in seat 2
    assert f"partner: {players[0].name}" in seats  # seat 3's partner is the creator


def test_in_pairs_the_join_form_offers_each_free_seat_with_the_partner_it_gives(players, pairs_table):
    services.join_game(pairs_table.pk, players[1], 1)
    page = client_for(players[2]).get(pairs_table.get_absolute_url()).content.decode()
    form = page[page.index('id="join-form"'):page.index("</form>", page.index('id="join-form"'))]
    assert 'name="position" value="2"' in form and 'name="position" value="3"' in form
    assert 'value="0"' not in form and 'value="1"' not in form
    assert f"Take seat 3 · partner: {players[0].name}" in form
    assert f"Take seat 4 · partner: {players[1].name}" in form


def test_a_table_without_pairs_offers_one_take_a_seat_button(players):
    game = services.create_game(players[0], "durak", {"mode": "podkidnoy"}, players=3)
    page = client_for(players[1]).get(game.get_absolute_url()).content.decode()
    assert "Take a seat" in page and 'name="position"' not in page and "partner" not in page


def test_joining_at_a_chosen_seat_makes_its_opposite_the_partner(players, pairs_table):
    client_for(players[1]).post(reverse("join_game", args=[pairs_table.pk]), {"position": 2})
    assert seat_users(pairs_table)[2] == players[1].pk
    teams = dict(pairs_table.seats.values_list("position", "team"))
    assert teams[0] == teams[2] != teams[1] == teams[3]


def test_a_taken_seat_is_refused_and_nothing_changes(players, pairs_table):
    services.join_game(pairs_table.pk, players[1], 2)
    before = seat_users(pairs_table)
    with pytest.raises(services.GameError) as refused:
        services.join_game(pairs_table.pk, players[2], 2)
    assert refused.value.code == "seat_taken" and refused.value.message == "That seat is taken."
    assert seat_users(pairs_table) == before


@pytest.mark.parametrize("position", [-1, 4, "2", 2.0, True, [2]])
def test_a_seat_out_of_range_or_malformed_is_refused_and_nothing_changes(players, pairs_table, position):
    before = seat_users(pairs_table)
    with pytest.raises(services.GameError) as refused:
        services.join_game(pairs_table.pk, players[1], position)
    assert refused.value.code == "bad_request" and refused.value.message == "There is no such seat."
    assert seat_users(pairs_table) == before


@pytest.mark.parametrize("position", ["4", "-1", "two", "2.5"])
def test_the_join_form_refuses_a_bad_seat_with_a_message(players, pairs_table, position):
    response = client_for(players[1]).post(reverse("join_game", args=[pairs_table.pk]), {"position": position},
                                           follow=True)
    assert response.status_code == 200
    assert "There is no such seat." in response.content.decode()
    assert players[1].pk not in seat_users(pairs_table).values()


def test_the_join_form_says_a_taken_seat_is_taken(players, pairs_table):
    response = client_for(players[1]).post(reverse("join_game", args=[pairs_table.pk]), {"position": 0}, follow=True)
    assert "That seat is taken." in response.content.decode()
    assert players[1].pk not in seat_users(pairs_table).values()


def test_every_seat_in_the_state_message_carries_its_pair(players, pairs_table):
    players_info = game_payload(pairs_table, 0)["players"]
    assert [p["team"] for p in players_info] == [0, 1, 0, 1]
    alone = services.create_game(players[0], "durak", {"mode": "podkidnoy"}, players=2)
    assert [p["team"] for p in game_payload(alone, 0)["players"]] == [None, None]


def started_pairs(players) -> Game:
    game = services.create_game(players[0], "durak", PAIRS, players=4)
    for position, user in ((2, players[1]), (1, players[2]), (3, players[3])):
        services.join_game(game.pk, user, position)
    game.refresh_from_db()
    return game


def test_the_game_page_names_the_variant_once_the_game_runs(players):
    game = started_pairs(players)
    page = client_for(players[0]).get(game.get_absolute_url()).content.decode()
    assert "perevodnoy, 2×2 in pairs" in page


def test_the_score_sheet_names_the_pairs(players):
    game = started_pairs(players)
    sheet = sheet_context(game)
    assert sheet["pairs"] == [[players[0].name, players[1].name], [players[2].name, players[3].name]]
    fragment = client_for(players[0]).get(reverse("sheet_fragment", args=[game.pk])).content.decode()
    assert (f"Pairs: {players[0].name} and {players[1].name} against {players[2].name} and {players[3].name}."
            in fragment)


def test_a_sheet_without_pairs_names_none(players):
    game = services.create_game(players[0], "durak", {"mode": "podkidnoy"}, players=2)
    services.join_game(game.pk, players[1])
    game.refresh_from_db()
    assert sheet_context(game)["pairs"] == []
    assert "Pairs:" not in client_for(players[0]).get(reverse("sheet_fragment", args=[game.pk])).content.decode()


def test_the_waiting_page_runs_as_many_queries_with_three_seats_taken_as_with_one(players, pairs_table,
                                                                                  django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    visitor = client_for(players[3])
    with CaptureQueriesContext(connection) as one_taken:
        assert visitor.get(pairs_table.get_absolute_url()).status_code == 200
    services.join_game(pairs_table.pk, players[1], 1)
    services.join_game(pairs_table.pk, players[2], 3)
    with django_assert_max_num_queries(len(one_taken)):
        page = visitor.get(pairs_table.get_absolute_url()).content.decode()
    assert f"partner: {players[2].name}" in page
