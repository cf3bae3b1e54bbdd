"""The league form offers the chosen game's options with the new-table form's
own fields and option building (gameplay.forms.GameOptionsForm), the engine
validates them, the league page shows them and the league's tables get them."""

import pytest

from gameplay.engine import ENGINES, get_engine
from gameplay.forms import GameOptionsForm, NewGameForm
from gameplay.models import Game
from leagues import services
from leagues.forms import LeagueForm
from leagues.models import Fixture, League
from tests.gameplay.conftest import client_for
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db

LEAGUE = {"name": "Friday league", "time_preset": "correspondence", "on_timeout": "autoplay", "meetings": 1,
          "division_size": 8, "start": "all", "promotion": 1, "relegation": 1, "tiebreak_1": "wins",
          "tiebreak_2": "lot"}
ODESSA = {"odessa_deck": "52", "odessa_trump": "S", "odessa_dealer_rule": "free", "odessa_joker_demand": "off",
          "odessa_special_1": "golden", "odessa_special_2": "miser", "odessa_special_3": "",
          "odessa_special_4": "", "odessa_specials_mode": "once", "odessa_special_multiplier": "3",
          "odessa_max_hand": "10"}


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"lo{i}", password="pw-not-used-1", language="en",
                                                  display_name=f"Player {i}") for i in range(4)]


def table_options(engine: str, players: int, fields: dict) -> dict:
    """What the new-table form makes of the same fields."""
    form = NewGameForm({"engine": engine, "players": players, "time_preset": "correspondence",
                        "on_timeout": "autoplay", **fields})
    assert form.is_valid(), form.errors
    return form.engine_options()


def test_the_league_form_has_every_games_option_fields_and_they_are_the_new_table_forms_own():
    for slug, names in GameOptionsForm.OPTIONS.items():
        for name in names:
            assert LeagueForm.base_fields[name] is NewGameForm.base_fields[name], name
    page_fieldsets = [slug for slug, _fields in LeagueForm().game_fieldsets()]
    assert page_fieldsets == [slug for slug in GameOptionsForm.OPTIONS if slug in ENGINES]
    assert "attacker_seconds" not in LeagueForm.base_fields  # a table's clocks, not the game's options


def test_the_form_page_offers_each_games_options_and_shows_only_the_chosen_one(people):
    page = client_for(people[0]).get("/leagues/new/").content.decode()
    assert "data-engine-options" in page
    for slug in GameOptionsForm.OPTIONS:
        if slug in ENGINES:
            assert f'data-for-engine="{slug}"' in page
    assert 'name="odessa_deck"' in page and 'name="ipuker_max_stake"' in page and 'name="durak_mode"' in page


def test_an_odessa_league_keeps_the_chosen_options_shows_them_and_its_tables_get_them(people):
    client = client_for(people[0])
    response = client.post("/leagues/new/", {**LEAGUE, "engine": "odessa", "players": 4, **ODESSA})
    assert response.status_code == 302, response.content.decode()[:2000]
    league = League.objects.get()
    expected = get_engine("odessa").validate_options(table_options("odessa", 4, ODESSA))
    assert league.options == expected
    assert league.options["deck"] == 52 and league.options["specials"] == ["golden", "miser"]
    page = client.get(league.get_absolute_url()).content.decode()
    assert "52 cards" in page and "trump ♠" in page and "up to 10 in a hand" in page
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    start(season.pk, people[0])
    game = Fixture.objects.get(division__season=season).game
    assert game.options == league.options and game.state["options"]["deck"] == 52


def test_the_engine_refuses_odessa_options_that_do_not_fit_with_its_own_words(people):
    client = client_for(people[0])
    too_long = client.post("/leagues/new/", {**LEAGUE, "engine": "odessa", "players": 6, **ODESSA,
                                             "odessa_deck": "36", "odessa_max_hand": "12"})
    assert too_long.status_code == 400
    assert "With 6 players and a 36-card deck a hand holds at most 6 cards" in too_long.content.decode()
    twice = client.post("/leagues/new/", {**LEAGUE, "engine": "odessa", "players": 4, **ODESSA,
                                          "odessa_special_2": "golden"})
    assert twice.status_code == 400 and "Each special deal may be chosen only once." in twice.content.decode()
    assert not League.objects.exists()


def test_the_refusals_read_in_russian(people):
    people[0].language = "ru"
    people[0].save(update_fields=["language"])
    response = client_for(people[0]).post("/leagues/new/", {**LEAGUE, "engine": "odessa", "players": 6, **ODESSA,
                                                            "odessa_deck": "36", "odessa_max_hand": "12"})
    text = response.content.decode()
    assert response.status_code == 400 and "With 6 players" not in text
    assert "При 6 игроках и колоде в 36 карт на руки сдаётся не больше 6 карт" in text
    assert "Параметры этой игры" in text and not League.objects.exists()


def test_a_joker_league_has_the_jokers_options_and_ignores_the_other_games_fields(people):
    client = client_for(people[0])
    # The hidden fields of other games are posted too (a browser sends them all): they change nothing.
    response = client.post("/leagues/new/", {**LEAGUE, "engine": "joker", "players": 4, "durak_mode": "perevodnoy",
                                             "durak_teams": "on", **ODESSA, "ipuker_max_stake": "7"})
    assert response.status_code == 302, response.content.decode()[:2000]
    league = League.objects.get()
    assert league.options == get_engine("joker").validate_options(table_options("joker", 4, {}))
    assert not league.in_pairs
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    start(season.pk, people[0])
    game = Fixture.objects.get(division__season=season).game
    assert game.engine == "joker" and game.status == Game.Status.ACTIVE and game.options == league.options


def test_an_ipuker_league_keeps_its_options(people):
    fields = {"ipuker_leader_order": "random", "ipuker_min_stake": "1", "ipuker_max_stake": "40",
              "ipuker_overflow": "kids"}
    client = client_for(people[0])
    response = client.post("/leagues/new/", {**LEAGUE, "engine": "ipuker", "players": 4, **fields})
    assert response.status_code == 302
    league = League.objects.get()
    assert league.options == get_engine("ipuker").validate_options(table_options("ipuker", 4, fields))
    shown = client.get(league.get_absolute_url()).content.decode()
    assert "stakes 1 to 40" in shown and "leaders: random" in shown and "overflow: kids: nobody wins" in shown
    from django.utils import translation

    with translation.override("ru"):
        assert league.variant_label == ("4 игрока, ставки от 1 до 40, порядок ведущих: случайный, "
                                        "когда карт больше, чем полей: детский: никто не выигрывает")


def test_a_durak_league_in_pairs_from_the_shared_fields(people):
    response = client_for(people[0]).post("/leagues/new/", {**LEAGUE, "engine": "durak", "players": 4,
                                                            "durak_mode": "perevodnoy", "durak_teams": "on"})
    assert response.status_code == 302
    league = League.objects.get()
    assert league.options["mode"] == "perevodnoy" and league.in_pairs
