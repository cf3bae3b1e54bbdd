"""Russian and English: complete catalogs, Russian pages, engine refusals in the player's language.

The tests run in English by default (tests/conftest.py); these ask for
Russian through the user's profile or the browser's Accept-Language. They
need the compiled catalogs (`make translations`, which `make test` runs).
"""

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from django.test import Client
from django.urls import reverse
from django.utils import translation

from gameplay.engine import get_engine
from gameplay.engine.core import IllegalMove, InvalidSetup
from gameplay.i18n import engine_message_text, illegal_move_text
from gameplay.models import Game

from .conftest import acting_player, client_for

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale"
ENGINE_DIR = ROOT / "gameplay" / "engine"
JOKER = get_engine("joker")
RU_PLURALS = "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{\{\s*(\w+)\s*\}\}")
CATALOGS = [LOCALE / lang / "LC_MESSAGES" / f"{domain}.po" for lang in ("ru", "en") for domain in ("django", "djangojs")]


def catalog(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def forms(value) -> list[str]:
    return list(value) if isinstance(value, (list, tuple)) else [value]


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


# -- the catalogs ------------------------------------------------------------------


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_every_russian_message_is_translated_and_none_is_fuzzy(domain):
    ru = catalog(LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.po")
    assert ru.locale is not None and str(ru.locale) == "ru"
    assert ru.num_plurals == 3 and ru.plural_expr == RU_PLURALS
    assert not ru.fuzzy, "the header is marked fuzzy: Babel would not compile the catalog"
    untranslated, fuzzy = [], []
    for message in ru:
        if not message.id:
            continue
        if message.fuzzy:
            fuzzy.append(message.id)
        strings = forms(message.string)
        if isinstance(message.id, (list, tuple)):
            assert len(strings) == 3, message.id
        if not all(s and s.strip() for s in strings):
            untranslated.append(message.id)
    assert not untranslated, f"untranslated: {untranslated}"
    assert not fuzzy, f"fuzzy: {fuzzy}"


@pytest.mark.parametrize("domain", ["django", "djangojs"])
def test_russian_translations_keep_every_placeholder(domain):
    ru = catalog(LOCALE / "ru" / "LC_MESSAGES" / f"{domain}.po")
    for message in ru:
        if not message.id:
            continue
        wanted = set().union(*(placeholders(i) for i in forms(message.id)))
        for string in forms(message.string):
            # A plural form may leave out the count, never add a placeholder.
            found = placeholders(string)
            assert found <= wanted, (message.id, string)
            if not isinstance(message.id, (list, tuple)):
                assert found == wanted, (message.id, string)


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_no_catalog_header_is_fuzzy_so_babel_compiles_them_all(path):
    assert not catalog(path).fuzzy
    assert "#, fuzzy" not in path.read_text(encoding="utf-8")


def _engine_templates() -> set[str]:
    """Every string marked N_("...") in the engines' source."""
    found = set()
    for source in ENGINE_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "N_"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                found.add(node.args[0].value)
    return found


def test_every_engine_message_is_in_the_russian_catalog():
    templates = _engine_templates()
    assert "Bid from 0 to %(cards)s tricks." in templates
    ru_ids = {m.id for m in catalog(LOCALE / "ru" / "LC_MESSAGES" / "django.po") if m.id}
    missing = sorted(templates - ru_ids)
    assert not missing, f"run `make messages` and translate: {missing}"


def test_the_engines_import_nothing_from_django():
    code = "import sys, gameplay.engine; print(any(m.split('.')[0] == 'django' for m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"


# -- engine messages in the active language ------------------------------------------


def test_illegal_move_keeps_its_template_params_and_english_message():
    exc = IllegalMove("You must follow suit: you hold %(suit)s.", suit="♥")
    assert (exc.template, exc.params, exc.message) == (
        "You must follow suit: you hold %(suit)s.", {"suit": "♥"}, "You must follow suit: you hold ♥.")
    assert str(exc) == exc.message


def test_illegal_move_text_translates_in_the_active_language():
    exc = IllegalMove("Bid from 0 to %(cards)s tricks.", cards=3)
    with translation.override("ru"):
        assert illegal_move_text(exc) == "Заказ — от 0 до 3."
    with translation.override("en"):
        assert illegal_move_text(exc) == "Bid from 0 to 3 tricks."


def test_a_refused_card_names_the_card_and_suit_in_russian():
    state = JOKER.start(seed=1)
    dealer = state["dealer"]
    # Seat after the dealer leads a spade; the next seat holds a spade and a heart.
    leader, follower = (dealer + 1) % 4, (dealer + 2) % 4
    state.update({"phase": "play", "turn": leader, "cards": 2, "trump": "D", "bids": [0, 0, 0, 0],
                  "hands": [[], [], [], []]})
    state["hands"][leader] = ["7S", "8C"]
    state["hands"][follower] = ["QS", "9H"]
    state["hands"][(dealer + 3) % 4] = ["TS", "JC"]
    state["hands"][dealer] = ["KS", "AC"]
    state, _ = JOKER.apply(state, leader, {"type": "play", "card": "7S"})
    with pytest.raises(IllegalMove) as refused:
        JOKER.apply(state, follower, {"type": "play", "card": "9H"})
    assert refused.value.message == "You must follow suit: you hold ♠."
    with translation.override("ru"):
        assert illegal_move_text(refused.value) == "Нужно класть в масть: у вас есть ♠."
    with pytest.raises(IllegalMove) as refused:
        JOKER.apply(state, follower, {"type": "play", "card": "AH"})
    with translation.override("ru"):
        assert illegal_move_text(refused.value) == "У вас нет карты A♥."


def test_setup_errors_are_value_errors_and_translate_too():
    with pytest.raises(ValueError) as refused:
        JOKER.validate_options({"deck": 52})
    assert isinstance(refused.value, InvalidSetup)
    with translation.override("ru"):
        assert engine_message_text(refused.value) == "Неизвестные параметры: deck. У этой игры параметров нет."


def test_a_message_without_a_template_falls_back_to_its_text():
    with translation.override("ru"):
        assert engine_message_text(ValueError("plain English")) == "plain English"


# -- Russian pages ------------------------------------------------------------------


@pytest.mark.django_db
def test_the_lobby_is_russian_for_a_russian_browser():
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("lobby")).content.decode()
    assert '<html lang="ru">' in page
    assert "Карточные игры кухонного стола" in page
    assert "Открытые столы" in page
    assert "Open tables" not in page


@pytest.mark.django_db
def test_the_lobby_is_russian_for_a_user_who_chose_russian(django_user_model):
    user = django_user_model.objects.create_user("masha", password="pw-not-used-1", language="ru")
    page = client_for(user).get(reverse("lobby"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Новый стол" in page and "Создать стол" in page
    assert "New table" not in page


@pytest.mark.django_db
def test_the_lobby_stays_english_for_an_english_browser():
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("lobby")).content.decode()
    assert "Open tables" in page


@pytest.mark.django_db
def test_an_illegal_joker_move_over_http_is_refused_in_russian(joker_game, players):
    position, user = acting_player(joker_game, players)
    user.language = "ru"
    user.save(update_fields=["language"])
    assert joker_game.state["phase"] == "bid" and joker_game.state["cards"] == 1
    response = client_for(user).post(
        reverse("game_move", args=[joker_game.pk]),
        data=json.dumps({"action": {"type": "bid", "tricks": 99}, "version": joker_game.version}),
        content_type="application/json",
    )
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "illegal"
    assert body["message"] == "Заказ — от 0 до 1."


@pytest.mark.django_db
def test_an_illegal_joker_move_over_http_is_refused_in_english_for_an_english_player(joker_game, players):
    position, user = acting_player(joker_game, players)
    response = client_for(user).post(
        reverse("game_move", args=[joker_game.pk]),
        data=json.dumps({"action": {"type": "bid", "tricks": 99}, "version": joker_game.version}),
        content_type="application/json",
    )
    assert response.json()["message"] == "Bid from 0 to 1 tricks."


def _played_until(state: dict, deal: int) -> dict:
    while state["deal"] < deal:
        seat = JOKER.actors(state)[0]
        state, _ = JOKER.apply(state, seat, JOKER.auto_action(state, seat))
    return state


@pytest.mark.django_db
def test_the_russian_score_sheet_after_the_first_pulka(joker_game):
    Game.objects.filter(pk=joker_game.pk).update(state=_played_until(joker_game.state, 9))
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("sheet", args=[joker_game.pk])).content.decode()
    assert "Лист счёта" in page
    assert "Пулька 1" in page
    assert "Премия" in page and "Итого" in page
    for term in ("был джокер", "испортился", "заказ", "взято", "очки"):
        assert term in page
    assert "Pulka" not in page and "Score sheet" not in page


def test_game_names_translate():
    from gameplay.i18n import engine_name

    with translation.override("ru"):
        assert engine_name(JOKER) == "Джокер"
    with translation.override("en"):
        assert engine_name(JOKER) == "Joker"
