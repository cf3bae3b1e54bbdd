"""A word used in two senses gets a context of its own in each (issue 39,
item 3): in Russian a challenge is withdrawn ("Отозвать", "отозван") while a
player withdraws from a league season ("Выйти из сезона", "снят"); a league's
rounds are "туры" while Ipuker's are "раунды"."""

import pytest
from django.test import Client
from django.utils import translation

from correspondence import services as challenges
from correspondence.models import Challenge
from gameplay.movelog import ipuker
from leagues import services as leagues
from leagues.models import League
from tests.leagues.conftest import start

from .conftest import client_for

pytestmark = pytest.mark.django_db


def in_russian(*users) -> None:
    for user in users:
        user.language = "ru"
        user.save()


def test_the_challenger_withdraws_a_challenge_with_a_button_that_says_so(players):
    in_russian(players[0])
    challenges.create_challenge(players[0], ["player1"], "durak", {}, {})
    page = client_for(players[0]).get("/challenges/").content.decode()
    assert ">Отозвать</button>" in page and "Выйти из сезона" not in page


def test_a_withdrawn_challenge_is_called_withdrawn_not_removed(players):
    sent = challenges.create_challenge(players[0], ["player1"], "durak", {}, {})
    challenges.withdraw_challenge(sent.pk, players[0])
    with translation.override("ru"):
        assert str(Challenge.objects.get().get_status_display()) == "отозван"


def test_a_league_player_still_withdraws_from_the_season(players):
    in_russian(*players[:4])
    league = leagues.create_league(players[0], name="Durak", engine="durak", players=2, division_size=4)
    season = league.seasons.get()
    for user in players[:4]:
        leagues.register(season.pk, user)
    start(season.pk, players[0])
    page = client_for(players[1]).get(f"/leagues/{league.slug}/1/").content.decode()
    assert ">Выйти из сезона</button>" in page and "Отозвать" not in page


def test_a_league_round_is_a_tur_everywhere_while_ipukers_round_stays_a_raund(players):
    in_russian(*players[:4])
    league = leagues.create_league(players[0], name="Durak", engine="durak", players=2, division_size=4,
                                   start=League.Start.ROUNDS)
    season = league.seasons.get()
    for user in players[:4]:
        leagues.register(season.pk, user)
    start(season.pk, players[0])
    page = Client(headers={"Accept-Language": "ru"}).get(f"/leagues/{league.slug}/1/1/").content.decode()
    assert "<h3>Тур 1</h3>" in page and "Раунд" not in page
    with translation.override("ru"):
        assert ipuker.section({"round": 3}) == "Раунд 3"
