"""Rules for players: a page per game in Russian and English, the links to
them, and the notice offering them at a player's first game of a kind."""

import html

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from gameplay import services
from gameplay.engine import ENGINES
from gameplay.forms import NewGameForm
from gameplay.models import Game
from gameplay.rules import first_time_at, rules_template

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db

LANGUAGES = ["ru", "en"]
KEY_TERMS = {
    ("joker", "ru"): ["Джокер", "Пулька", "Штанга", "Премия", "хочу", "забирает", "сверху", "снизу", "Заказ"],
    ("joker", "en"): ["Joker", "pulka", "shtanga", "Premium", "high", "low", "bid", "trump"],
    ("durak", "ru"): ["Дурак", "подкидной", "переводной", "Бито", "Отбой", "Забирай", "козырь"],
    ("durak", "en"): ["Durak", "throw-in", "transfer", "attacker", "defender", "trump"],
    ("ipuker", "ru"): ["Ипукер", "ведущий", "Поля", "банк", "получено", "отдано", "пуля"],
    ("ipuker", "en"): ["Ipuker", "leader", "Fields", "bank", "taken", "given"],
    ("odessa", "ru"): ["Одесский покер", "Заказ", "пас", "тёмная", "золотая", "мизер", "бескозырка", "перебор",
                       "недобор", "требую", "7♠"],
    ("odessa", "en"): ["Odessa poker", "bid", "pass", "blind", "golden", "miser", "no trump", "demand", "joker"],
}


def rules_text(slug: str, language: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("rules_game", args=[slug]))
    assert response.status_code == 200
    assert f'<html lang="{language}">' in response.content.decode()
    return html.unescape(response.content.decode())


def form_options_of(slug: str) -> list[str]:
    """The labels a player meets on the new-table form for this game: every
    field (but the game's choice) and every choice of a choice field."""
    form = NewGameForm()
    names = [n for n in NewGameForm.COMMON if n != "engine"] + NewGameForm.PER_GAME.get(slug, [])
    labels = []
    for name in names:
        field = form.fields[name]
        labels.append(str(field.label))
        labels += [str(label) for value, label in getattr(field, "choices", []) if value != ""]
    return labels


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", list(ENGINES))
def test_every_game_has_a_rules_page_in_both_languages_with_its_key_terms(slug, language):
    text = rules_text(slug, language)
    missing = [term for term in KEY_TERMS[slug, language] if term.casefold() not in text.casefold()]
    assert not missing, f"{slug} ({language}) lacks {missing}"
    for section in ("aim", "deal", "turn", "scoring", "end", "options"):
        assert f'id="{section}"' in text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", list(ENGINES))
def test_a_rules_page_explains_every_option_of_the_new_table_form_for_its_game(slug, language):
    text = rules_text(slug, language)
    with translation.override(language):
        labels = form_options_of(slug)
    assert len(labels) > 10
    missing = [label for label in labels if label not in text]
    assert not missing, f"the {slug} rules ({language}) do not explain {missing}"


def test_the_option_walk_covers_each_games_own_options():
    with translation.override("en"):
        assert "podkidnoy (throw-in)" in form_options_of("durak")
        assert "kids: nobody wins" in form_options_of("ipuker")
        assert "Durak variant" not in form_options_of("joker")


def test_the_russian_and_english_pages_differ():
    assert "Правила игры «Джокер»" in rules_text("joker", "ru")
    assert "Rules of Joker" in rules_text("joker", "en")
    assert "Правила" not in rules_text("joker", "en")


@pytest.mark.parametrize("slug", ["chess", "domino_poker", "JOKER"])
def test_a_game_without_rules_is_not_found(slug):
    assert Client().get(f"/rules/{slug}/").status_code == 404


def test_a_language_without_a_text_falls_back_to_english():
    assert rules_template("joker", "de") == "rules/joker.en.html"
    assert rules_template("joker", "ru") == "rules/joker.ru.html"
    assert rules_template("chess") is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_index_links_every_game(language):
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(reverse("rules"))
    assert response.status_code == 200
    for slug in ENGINES:
        assert f'href="/rules/{slug}/"' in response.content.decode()


# -- links ---------------------------------------------------------------------------


def rules_links(page: str) -> set[str]:
    return {slug for slug in ENGINES if f'href="/rules/{slug}/"' in page}


def test_the_new_table_form_links_the_rules_of_every_game(players):
    page = client_for(players[0]).get(reverse("new_game")).content.decode()
    assert rules_links(page) == set(ENGINES)


def test_the_lobby_links_the_rules_for_visitors_and_players(players):
    assert rules_links(Client().get(reverse("lobby")).content.decode()) == set(ENGINES)
    assert rules_links(client_for(players[0]).get(reverse("lobby")).content.decode()) == set(ENGINES)


def test_the_game_page_names_the_rules_of_its_game(joker_game):
    page = html.unescape(Client().get(joker_game.get_absolute_url()).content.decode())
    assert 'class="rules-link" href="/rules/joker/"' in page
    assert "Rules of Joker" in page


# -- the first game of a kind --------------------------------------------------------


NOTICE = "rules-offer"


def game_page(user, game: Game) -> str:
    return client_for(user).get(game.get_absolute_url()).content.decode()


def test_a_player_new_to_the_game_is_offered_its_rules(joker_game, players):
    page = game_page(players[1], joker_game)
    assert NOTICE in page and 'data-dismissable="rules-offer-joker"' in page


def test_a_player_who_has_played_the_game_before_is_not_offered_the_rules_again(joker_game, players):
    second = started_game("joker", players)
    assert NOTICE not in game_page(players[1], second)
    assert NOTICE in game_page(players[1], joker_game)  # a later game is not "before" the first


def test_a_finished_game_counts_as_played(joker_game, players):
    Game.objects.filter(pk=joker_game.pk).update(status=Game.Status.FINISHED)
    assert NOTICE not in game_page(players[1], started_game("joker", players))


def test_a_game_of_another_kind_does_not_count_as_played(joker_game, players):
    durak = started_game("durak", players[:2])
    assert NOTICE in game_page(players[0], durak)


def test_an_open_table_he_never_played_does_not_count(players):
    services.create_game(players[0], "joker", players=4)
    game = started_game("joker", players)
    assert NOTICE in game_page(players[2], game)
    assert NOTICE in game_page(players[0], game)


def test_spectators_and_finished_games_get_no_notice(joker_game, players, django_user_model):
    watcher = django_user_model.objects.create_user("watcher", password="pw-not-used-1", language="en")
    assert NOTICE not in game_page(watcher, joker_game)
    Game.objects.filter(pk=joker_game.pk).update(status=Game.Status.FINISHED)
    assert NOTICE not in game_page(players[1], joker_game)


def test_never_played_is_decided_with_one_query(joker_game, players, django_assert_num_queries):
    with django_assert_num_queries(1):
        assert first_time_at(players[1], joker_game)
    second = started_game("joker", players)
    with django_assert_num_queries(1):
        assert not first_time_at(players[1], second)


def test_the_notice_costs_the_game_page_exactly_one_query(joker_game, players):
    def queries(game: Game) -> list[str]:
        client = client_for(players[1])
        with CaptureQueriesContext(connection) as captured:
            assert client.get(game.get_absolute_url()).status_code == 200
        return [q["sql"] for q in captured.captured_queries]

    first = queries(joker_game)
    second_game = started_game("joker", players)
    second = queries(second_game)
    assert len(first) == len(second)  # one check either way, whatever it finds
    checks = [sql for sql in first if '"gameplay_seat"' in sql and '"gameplay_game"."engine"' in sql]
    assert len(checks) == 1, checks
