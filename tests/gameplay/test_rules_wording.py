"""The rules pages never call every player "he": the English text speaks of
"they", the role or "you", and the Russian text says what a player does in
the present tense or without a verb that agrees with the player's gender;
the same holds for the Durak seat labels and the Ipuker sheet legend."""

import html
import json
import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from gameplay.engine import ENGINES

pytestmark = pytest.mark.django_db

PAGES = [reverse("rules")] + [reverse("rules_game", args=[slug]) for slug in ENGINES]
HE = re.compile(r"\b(he|his|him|himself)\b", re.IGNORECASE)
# The masculine past-tense verbs (and short participles) these pages used
# about a player, each of which would read wrong for a woman.
GENDERED_ABOUT_A_PLAYER = [
    "проиграл", "выиграл", "забрал", "взял", "отдал", "положил", "передал", "побил", "сказал",
    "сыграл", "водил", "узнал", "записан", "сдался", "вышел", "ушёл",
]
# «Бито», «взял», «отдал»: names of calls and of score-sheet columns, not sentences about a player.
QUOTED_NAME = re.compile(r"«[^«»]*»")


class VisibleText(HTMLParser):
    """The text a reader sees: everything outside <script>, <style> and tags."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible_text(path: str, language: str) -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200
    assert f'<html lang="{language}">' in response.content.decode()
    parser = VisibleText()
    parser.feed(response.content.decode())
    return html.unescape(" ".join(" ".join(parser.parts).split()))


def around(text: str, match: re.Match) -> str:
    return text[max(0, match.start() - 60):match.end() + 60]


@pytest.mark.parametrize("path", PAGES)
def test_no_english_rules_page_calls_a_player_he(path):
    text = visible_text(path, "en")
    assert [around(text, m) for m in HE.finditer(text)] == []


@pytest.mark.parametrize("path", PAGES)
def test_no_russian_rules_page_uses_a_gendered_past_tense_about_a_player(path):
    text = QUOTED_NAME.sub("«»", visible_text(path, "ru").replace("ё", "е").lower())
    words = [w.replace("ё", "е") for w in GENDERED_ABOUT_A_PLAYER]
    found = [around(text, m) for m in re.finditer(r"(?<![а-яе])(%s)(?![а-яе])" % "|".join(words), text)]
    assert found == []


def test_the_russian_rules_name_the_score_sheet_columns_as_the_sheet_does():
    text = visible_text(reverse("rules_game", args=["ipuker"]), "ru")
    with translation.override("ru"):
        given, taken = gettext("given"), gettext("taken")  # the Ipuker sheet's column titles
    assert f"«{given}»" in text and f"«{taken}»" in text


def test_the_russian_seat_labels_and_sheet_legend_do_not_assume_a_gender():
    source = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    catalog = json.loads(re.search(r"const newcatalog = (\{.*?\});\n", source, re.S).group(1))
    assert [catalog["resigned"], catalog["lost on time"], catalog["won"]] == ["партия сдана", "поражение по времени", "победа"]
    with translation.override("ru"):
        legend = gettext("Each player writes: tokens given to the bank · cards passed to the leader "
                         "(the leader writes the fields) · tokens taken from the bank.")
    assert "отдано в банк" in legend and not re.search(r"(?<![а-яё])(отдал|передал|забрал)(?![а-яё])", legend)
