"""A player cannot turn his account into a bot to dodge a rated loss (issue
38, item 4): while he has an unfinished game at a table that allows no bots
or that is rated among people, a pending challenge, or an entry in an
unfinished season of a league that allows no bots, the switch is refused
(403 bots_not_allowed) naming them, through the API and the page alike; the
game then stays rated in the people's pool. A moderator's marking is not held."""

import pytest
from django.test import Client

from accounts.bots import make_bot
from correspondence import services as challenges
from gameplay import services
from leagues import services as leagues
from ratings.models import Rating

from .conftest import api_for, durak_game

pytestmark = pytest.mark.django_db


def test_a_player_seated_at_a_rated_people_only_table_cannot_turn_bot_and_the_game_stays_people_s(players):
    game = durak_game(players[:2])  # rated, no bots: the defaults

    answer = api_for(players[0]).post("/api/v1/account/bot")

    assert answer.status_code == 403 and answer.json()["code"] == "bots_not_allowed"
    assert f"Durak #{game.pk}" in answer.json()["message"]
    players[0].refresh_from_db()
    assert not players[0].is_bot
    services.resign(game.pk, players[0])
    assert set(Rating.objects.values_list("engine", flat=True)) == {"durak"}
    assert Rating.objects.filter(engine="durak").count() == 2


def test_an_open_table_holds_the_switch_too(players):
    game = services.create_game(players[0], "durak", {}, players=2)

    answer = api_for(players[0]).post("/api/v1/account/bot")

    assert answer.status_code == 403 and f"#{game.pk}" in answer.json()["message"]


def test_the_page_says_which_games_hold_it(players):
    game = durak_game(players[:2])
    client = Client()
    client.force_login(players[1])

    page = client.post("/api/bot/", {"confirm": "yes"}, follow=True).content.decode()

    assert f"Durak #{game.pk}" in page
    players[1].refresh_from_db()
    assert not players[1].is_bot


def test_an_unrated_table_that_allows_bots_and_a_finished_game_hold_nothing(players):
    finished = durak_game(players[:2])
    services.resign(finished.pk, players[1])
    services.create_game(players[0], "durak", {}, players=2, allow_bots=True, rated=False)

    assert api_for(players[0]).post("/api/v1/account/bot").status_code == 200


def test_a_rated_table_that_rates_bots_apart_holds_it_even_if_it_allows_bots(players):
    game = durak_game(players[:2], allow_bots=True)

    answer = api_for(players[0]).post("/api/v1/account/bot")

    assert answer.status_code == 403 and f"#{game.pk}" in answer.json()["message"]


def test_an_entry_in_a_league_without_bots_holds_it_until_the_season_ends(players):
    league = leagues.create_league(players[3], name="People's Durak", engine="durak", players=2)
    leagues.register(league.seasons.get().pk, players[0])
    bots_welcome = leagues.create_league(players[3], name="Machines", engine="durak", players=2, allow_bots=True)
    leagues.register(bots_welcome.seasons.get().pk, players[1])

    answer = api_for(players[0]).post("/api/v1/account/bot")

    assert answer.status_code == 403 and "the league People's Durak, season 1" in answer.json()["message"]
    assert api_for(players[1]).post("/api/v1/account/bot").status_code == 200


def test_a_pending_challenge_holds_it_for_both_sides(players):
    made = challenges.create_challenge(players[0], [players[1].username], "durak", {}, None)

    for player in players[:2]:
        answer = api_for(player).post("/api/v1/account/bot")
        assert answer.status_code == 403 and f"challenge #{made.pk}" in answer.json()["message"]


def test_a_moderator_still_marks_a_seated_account(players, django_user_model):
    durak_game(players[:2])
    moderator = django_user_model.objects.create_user("mod", password="pw-not-used-1", is_staff=True)

    make_bot(players[0], by=moderator)

    players[0].refresh_from_db()
    assert players[0].is_bot
