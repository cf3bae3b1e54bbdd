"""Bot accounts: marked by the player (irreversibly) or by a moderator;
labelled wherever their name shows; seated only where the table's creator
allows bots; rated in the bots' own pool unless the table says otherwise;
in a league season only if the league allows them."""

import pytest
from django.test import Client

from accounts.bots import BotRefused, make_bot
from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.models import Game
from leagues import services as leagues
from ratings.models import Rating

from .conftest import api_for

pytestmark = pytest.mark.django_db


def test_a_player_marks_his_own_account_a_bot_for_good(players):
    client = Client()
    client.force_login(players[0])
    client.post("/api/bot/", {"confirm": "yes"})
    players[0].refresh_from_db()
    assert players[0].is_bot and players[0].bot_since is not None
    with pytest.raises(BotRefused):
        make_bot(players[0], by=players[0])


def test_the_page_wants_a_confirmation(players):
    client = Client()
    client.force_login(players[0])
    client.post("/api/bot/", {})
    players[0].refresh_from_db()
    assert not players[0].is_bot


def test_through_the_api_too(players):
    answer = api_for(players[0]).post("/api/v1/account/bot")
    assert answer.status_code == 200 and answer.json()["is_bot"] is True
    again = api_for(players[0]).post("/api/v1/account/bot")
    assert again.status_code == 409 and again.json()["code"] == "unchanged"


def test_only_staff_mark_someone_else(players, django_user_model):
    with pytest.raises(BotRefused):
        make_bot(players[1], by=players[0])
    moderator = django_user_model.objects.create_user("mod", password="pw-not-used-1", is_staff=True)
    make_bot(players[1], by=moderator)
    players[1].refresh_from_db()
    assert players[1].is_bot


def test_a_moderator_marks_bots_from_the_admin(players, django_user_model):
    admin = django_user_model.objects.create_superuser("admin", password="pw-not-used-1")
    client = Client()
    client.force_login(admin)
    client.post("/admin/accounts/user/", {"action": "mark_bot", "_selected_action": [players[2].pk]})
    players[2].refresh_from_db()
    assert players[2].is_bot


def test_a_bot_is_labelled_in_the_game_s_players_and_its_chat(players):
    make_bot(players[1], by=players[1])
    game = services.create_game(players[0], "durak", {}, players=2, allow_bots=True)
    services.join_game(game.pk, players[1])
    game.refresh_from_db()
    names = [p["name"] for p in game_payload(game, 0)["players"]]
    assert names == ["player0", "BOT player1"]
    assert services.post_chat(game.pk, players[1], "gl").as_json()["author"] == "BOT player1"


def test_a_bot_joins_only_tables_that_allow_bots(players):
    make_bot(players[1], by=players[1])
    closed = services.create_game(players[0], "durak", {}, players=2)
    with pytest.raises(services.GameError) as refused:
        services.join_game(closed.pk, players[1])
    assert refused.value.code == "bots_not_allowed"
    answer = api_for(players[1]).post(f"/api/v1/games/{closed.pk}/join", {})
    assert answer.status_code == 403 and answer.json()["code"] == "bots_not_allowed"
    open_to_bots = services.create_game(players[0], "durak", {}, players=2, allow_bots=True)
    services.join_game(open_to_bots.pk, players[1])


def test_the_new_table_form_offers_bots_off_by_default(players):
    client = Client()
    client.force_login(players[0])
    form = client.get("/games/new/").content.decode()
    assert 'name="allow_bots"' in form and 'name="allow_bots" checked' not in form
    client.post("/games/new/", {"engine": "durak", "players": "2", "time_preset": "correspondence",
                                "on_timeout": "autoplay", "rated": "on", "allow_bots": "on", "mode": "podkidnoy"})
    assert Game.objects.get().allow_bots is True


def test_a_bot_s_own_table_allows_bots(players):
    make_bot(players[0], by=players[0])
    assert services.create_game(players[0], "durak", {}, players=2).allow_bots is True


def finish_between(players, **table) -> Game:
    game = services.create_game(players[0], "durak", {}, players=2, **table)
    services.join_game(game.pk, players[1])
    services.resign(game.pk, players[0])
    return game


def test_a_bot_s_game_is_rated_in_the_bots_pool(players):
    make_bot(players[1], by=players[1])
    finish_between(players, allow_bots=True)
    assert set(Rating.objects.values_list("engine", flat=True)) == {"durak:bots"}


def test_unless_the_table_rates_bots_with_people(players):
    make_bot(players[1], by=players[1])
    finish_between(players, allow_bots=True, bots_rated_apart=False)
    assert set(Rating.objects.values_list("engine", flat=True)) == {"durak"}


def test_people_s_games_stay_in_the_people_s_pool(players):
    finish_between(players)
    assert set(Rating.objects.values_list("engine", flat=True)) == {"durak"}


def test_the_player_page_names_the_bots_pool(players):
    make_bot(players[1], by=players[1])
    finish_between(players, allow_bots=True)
    client = Client()
    client.force_login(players[2])
    page = client.get(f"/players/{players[1].username}/").content.decode()
    assert "(BOT)" in page


def test_a_bot_enters_a_league_season_only_if_the_league_allows_bots(players):
    make_bot(players[1], by=players[1])
    closed = leagues.create_league(players[0], name="People", engine="durak", players=2)
    with pytest.raises(services.GameError) as refused:
        leagues.register(closed.seasons.get().pk, players[1])
    assert refused.value.code == "bots_not_allowed"
    welcoming = leagues.create_league(players[0], name="Machines", engine="durak", players=2, allow_bots=True)
    leagues.register(welcoming.seasons.get().pk, players[1])
