"""A challenge shows every term of the table it will start before anyone
accepts: the variant, the time per move and the reserve, Durak's own clocks,
what a late move costs, night pauses, the series, private or public, rated
or casual, computer players. On the challenges page, in the email, in the
live notice and in the API's challenge object, in the reader's language."""

import html

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core import mail
from django.urls import reverse

from correspondence import services
from gameplay.badge import user_group
from tests.api.conftest import api_for

from .conftest import client_for

pytestmark = pytest.mark.django_db

SLOW_PEREVODNOY = {"mode": "perevodnoy"}
SLOW = {"time_preset": "slow", "on_timeout": "forfeit", "series_length": 3, "timer_seconds": {"defender": 7200}}
TERMS_EN = ["perevodnoy, 2 players", "3 d a move + 7 d reserve", "defender's clock: 2 h",
            "when time runs out: loss of the game", "night pauses apply", "a series of 3 games", "public table",
            "casual"]
TERMS_RU = ["переводной, 2 игрока", "3 д на ход + 7 д запаса", "часы защищающегося: 2 ч",
            "когда время выходит: поражение", "ночные паузы действуют", "серия из 3 партий", "открытый стол",
            "без рейтинга"]


def slow_challenge(me):
    return services.create_challenge(me, ["player1"], "durak", SLOW_PEREVODNOY, SLOW)


def test_the_challenges_page_shows_the_challenged_player_every_term(players):
    slow_challenge(players[0])
    page = html.unescape(client_for(players[1]).get(reverse("challenges")).content.decode())
    assert "(" + ", ".join(TERMS_EN) + ")" in page


def test_the_challenges_page_words_the_terms_in_russian(players):
    players[1].language = "ru"
    players[1].save()
    slow_challenge(players[0])
    page = client_for(players[1]).get(reverse("challenges"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "(" + ", ".join(TERMS_RU) + ")" in page


def test_the_email_lists_every_term(players, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        slow_challenge(players[0])
    assert "The table: " + ", ".join(TERMS_EN) + "." in mail.outbox[0].body


def test_the_email_lists_every_term_in_the_readers_language(players, django_capture_on_commit_callbacks):
    players[1].language = "ru"
    players[1].save()
    with django_capture_on_commit_callbacks(execute=True):
        slow_challenge(players[0])
    assert "Стол: " + ", ".join(TERMS_RU) + "." in mail.outbox[0].body


def test_the_live_notice_carries_the_game_and_every_term(players, django_capture_on_commit_callbacks):
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(players[1].pk), channel)
    with django_capture_on_commit_callbacks(execute=True):
        slow_challenge(players[0])
    notice = async_to_sync(layer.receive)(channel)["notice"]
    assert notice["engine_name"] == "Durak" and notice["terms"] == TERMS_EN


def test_the_api_challenge_object_has_the_completed_time_control_and_the_terms(players):
    sent = services.create_challenge(players[0], ["player1"], "durak", SLOW_PEREVODNOY, SLOW, fill_with_bots=True,
                                     players=3)
    found = api_for(players[1]).get("/api/v1/challenges").json()["incoming"]
    assert [c["id"] for c in found] == [sent.pk]
    assert found[0]["time_control"] == {"time_preset": "slow", "move_seconds": 3 * 86400,
                                        "reserve_seconds": 7 * 86400, "timer_seconds": {"defender": 7200},
                                        "on_timeout": "forfeit", "night_pause": True, "is_private": False,
                                        "series_length": 3}
    assert found[0]["computer_opponents"] is True and found[0]["options"]["mode"] == "perevodnoy"
    assert found[0]["terms"][0] == "perevodnoy, 3 players" and found[0]["terms"][-1] == "with computer players"
