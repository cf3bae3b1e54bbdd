"""The next game in one click: the most urgent game waiting for my move,
other than the one I come from; the badge's link; the setting that goes
there by itself."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from gameplay.models import Seat

from .conftest import client_for, durak_between
from .test_my_games_by_deadline import put_on_clock

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_games(players):
    me, a, b, c, _ = players
    now = timezone.now()
    games = [durak_between(me, a), durak_between(me, b), durak_between(me, c)]
    put_on_clock(games[0], me, now + timedelta(hours=5))
    put_on_clock(games[1], me, now + timedelta(hours=1))
    put_on_clock(games[2], c, now + timedelta(minutes=5))
    return games


def test_next_game_goes_to_the_nearest_deadline_among_the_games_waiting_for_me(players, three_games):
    response = client_for(players[0]).get(reverse("next_game"))
    assert response["Location"] == reverse("game", args=[three_games[1].pk])


def test_next_game_skips_the_game_i_come_from(players, three_games):
    response = client_for(players[0]).get(reverse("next_game") + f"?from={three_games[1].pk}")
    assert response["Location"] == reverse("game", args=[three_games[0].pk])


def test_with_no_other_game_waiting_next_game_leads_to_my_games(players, three_games):
    Seat.objects.filter(game=three_games[0]).update(deadline=None)
    response = client_for(players[0]).get(reverse("next_game") + f"?from={three_games[1].pk}")
    assert response["Location"] == reverse("my_games")


def test_asked_for_json_next_game_answers_the_address_or_nothing(players, three_games):
    client = client_for(players[0])
    answer = client.get(reverse("next_game") + f"?from={three_games[0].pk}", HTTP_ACCEPT="application/json").json()
    assert answer == {"url": reverse("game", args=[three_games[1].pk])}
    Seat.objects.filter(game=three_games[1]).update(deadline=None)
    answer = client.get(reverse("next_game") + f"?from={three_games[0].pk}", HTTP_ACCEPT="application/json").json()
    assert answer == {"url": None}


def test_a_malformed_from_is_ignored(players, three_games):
    response = client_for(players[0]).get(reverse("next_game") + "?from=%F0%9F%98%80")
    assert response["Location"] == reverse("game", args=[three_games[1].pk])


def test_the_badge_leads_to_the_game_when_only_one_waits_and_to_my_games_otherwise(players, three_games):
    client = client_for(players[0])
    assert client.get(reverse("waiting_game"))["Location"] == reverse("my_games")
    Seat.objects.filter(game=three_games[0]).update(deadline=None)
    assert client.get(reverse("waiting_game"))["Location"] == reverse("game", args=[three_games[1].pk])
    html = client.get(reverse("lobby")).content.decode()
    assert f'id="games-waiting" class="games-waiting" href="{reverse("waiting_game")}"' in html


def test_the_game_page_offers_the_next_game_and_tells_the_script_of_the_setting(players, three_games):
    me = players[0]
    client = client_for(me)
    html = client.get(reverse("game", args=[three_games[0].pk])).content.decode()
    assert f'data-url="{reverse("next_game")}?from={three_games[0].pk}" data-auto=""' in html
    me.next_game_after_move = True
    me.save()
    html = client.get(reverse("game", args=[three_games[0].pk])).content.decode()
    assert 'data-auto="1"' in html


def test_the_setting_is_on_the_profile_form(players):
    me = players[0]
    client = client_for(me)
    page = client.get(reverse("profile_edit")).content.decode()
    assert 'name="next_game_after_move"' in page and 'name="challenges_from_friends_only"' in page
