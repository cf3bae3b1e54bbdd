"""Counts read right in Russian's three plural forms (1, 2, 5), in Python
and in the JavaScript catalogue; no text assumes that every player is a
"he", and no Russian sentence about a player uses a gendered past tense."""

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import ngettext

from gameplay import inbound
from gameplay.services.base import GameError

LOCALE = Path(__file__).resolve().parents[2] / "locale"
PERSON = re.compile(r"%\((who|player|loser|winner|name)\)s")
# A Russian past-tense verb agrees with its subject's gender: "взял", "сдался", "проиграла".
GENDERED_PAST = re.compile(r"(?<![а-яё])[а-яё]+(л|лся|ла|лась)(?![а-яё])")
NOT_ABOUT_THE_PLAYER = {"достался",  # "the first ace went to %(who)s": the ace is the subject
                        "попросил"}  # "someone (hopefully you) asked": "кто-то" is the subject


def entries(path: Path) -> list[tuple[str, str]]:
    """(msgid, every msgstr joined) of a .po file, continuation lines included."""
    result, msgid, msgstr, field = [], "", "", None
    for line in path.read_text(encoding="utf-8").splitlines() + [""]:
        if line.startswith("msgid "):
            if msgid:
                result.append((msgid, msgstr))
            msgid, msgstr, field = json.loads(line[6:]), "", "id"
        elif line.startswith("msgid_plural"):
            field = "plural"
        elif line.startswith("msgstr"):
            msgstr += " " + json.loads(line.split(" ", 1)[1])
            field = "str"
        elif line.startswith('"') and field == "id":
            msgid += json.loads(line)
        elif line.startswith('"') and field == "str":
            msgstr += json.loads(line)
    result.append((msgid, msgstr))
    return [(i, s) for i, s in result if i]


CATALOGUES = [LOCALE / "ru" / "LC_MESSAGES" / "django.po", LOCALE / "ru" / "LC_MESSAGES" / "djangojs.po"]


@pytest.mark.parametrize("n, word", [(1, "карту"), (2, "карты"), (5, "карт"), (11, "карт"), (21, "карту"), (22, "карты")])
def test_a_count_of_cards_takes_its_russian_plural_form(n, word):
    with translation.override("ru"):
        text = ngettext("%(who)s passes %(n)s card", "%(who)s passes %(n)s cards", n) % {"who": "Олга", "n": n}
    assert text == f"Олга отдаёт {n} {word}"


@pytest.mark.parametrize("n, word", [(1, "фишку"), (2, "фишки"), (5, "фишек")])
def test_a_stake_takes_its_russian_plural_form(n, word):
    with translation.override("ru"):
        text = ngettext("%(who)s stakes %(n)s token", "%(who)s stakes %(n)s tokens", n) % {"who": "Иван", "n": n}
    assert text == f"Иван ставит {n} {word}"


def test_an_error_with_a_count_uses_the_plural_form_of_its_number():
    with translation.override("ru"):
        assert "не больше 64 уровней" in inbound.Refused(
            inbound.ngettext_lazy("The message is nested too deeply (at most %(n)s level).",
                                  "The message is nested too deeply (at most %(n)s levels).", 64), {"n": 64}).text()
        assert "не больше 21 уровня" in inbound.Refused(
            inbound.ngettext_lazy("The message is nested too deeply (at most %(n)s level).",
                                  "The message is nested too deeply (at most %(n)s levels).", 21), {"n": 21}).text()


@pytest.mark.django_db
def test_the_javascript_catalogue_has_russians_three_forms_and_its_plural_rule():
    source = Client().get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    catalog = json.loads(re.search(r"const newcatalog = (\{.*?\});\n", source, re.S).group(1))
    assert catalog["%(n)s card"] == ["%(n)s карта", "%(n)s карты", "%(n)s карт"]
    assert catalog["%(n)s card each"] == ["По %(n)s карте каждому", "По %(n)s карты каждому", "По %(n)s карт каждому"]
    assert "n%10==1 && n%100!=11 ? 0" in source.replace(" ", "").replace("&&", " && ").replace("?0", " ? 0")


def test_the_javascript_counts_of_cards_go_through_ngettext():
    scripts = "".join(p.read_text() for p in (Path(__file__).resolve().parents[2] / "static" / "js").rglob("*.js"))
    assert 'gettext("%(n)s cards' not in scripts and "gettext(\"Stake %(n)s tokens" not in scripts
    assert scripts.count("ngettext(") >= 6


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.name)
def test_no_english_text_calls_every_player_he(catalogue):
    assumed = [msgid for msgid, _ in entries(catalogue) if re.search(r"\b(he|his|him|himself)\b", msgid)]
    assert assumed == []


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda p: p.name)
def test_no_russian_sentence_about_a_player_uses_a_gendered_past_tense(catalogue):
    gendered = [(msgid, msgstr) for msgid, msgstr in entries(catalogue)
                if PERSON.search(msgid) and {m.group(0) for m in GENDERED_PAST.finditer(msgstr.lower())}
                - NOT_ABOUT_THE_PLAYER]
    assert gendered == []
