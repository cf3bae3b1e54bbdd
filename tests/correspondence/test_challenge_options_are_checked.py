"""A challenge's table is checked as a new table is (issue 38, item 5): each
time-control field of its type and among its values, an unknown preset
refused rather than taken for the default, at creation, through the API and
the service the site's form calls; nothing is created for a refusal. A
challenge stored with junk before this was checked fails when accepted,
instead of a server error that left it pending for ever."""

from datetime import timedelta

import pytest
from django.utils import timezone

from correspondence import services
from correspondence.models import Challenge, Invitation
from gameplay.models import Game
from tests.api.conftest import api_for

pytestmark = pytest.mark.django_db

JUNK = [
    {"is_private": "yes"},
    {"night_pause": "maybe"},
    {"on_timeout": "<script>alert(1)</script>"},
    {"move_seconds": {"nested": {"object": 1}}},
    {"timer_seconds": {"attacker": "soon"}},
    {"series_length": "3"},
    {"time_preset": "blitz"},
    {"rated": True},  # not a time-control field
]


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en")
            for i in range(3)]


@pytest.mark.parametrize("time_control", JUNK)
def test_junk_in_a_challenge_s_time_control_is_a_400_through_the_api(players, time_control):
    answer = api_for(players[0]).post("/api/v1/challenges", {"usernames": ["player1"], "engine": "durak",
                                                             "time_control": time_control})

    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert not Challenge.objects.exists()


@pytest.mark.parametrize("time_control", JUNK)
def test_the_service_the_site_calls_refuses_it_too(players, time_control):
    with pytest.raises(services.CorrespondenceError) as refused:
        services.create_challenge(players[0], ["player1"], "durak", {}, time_control)

    assert refused.value.code == "bad_request"
    assert not Challenge.objects.exists()


def test_an_unknown_preset_says_so(players):
    with pytest.raises(services.CorrespondenceError) as refused:
        services.create_challenge(players[0], ["player1"], "durak", {}, {"time_preset": "blitz"})

    assert refused.value.message == "Unknown time control."


def test_a_good_time_control_makes_the_table_it_says(players):
    made = api_for(players[0]).post("/api/v1/challenges", {
        "usernames": ["player1"], "engine": "durak",
        "time_control": {"time_preset": "rapid", "on_timeout": "forfeit", "is_private": True, "night_pause": False}})
    assert made.status_code == 200, made.json()

    accepted = api_for(players[1]).post(f"/api/v1/challenges/{made.json()['id']}/accept")

    game = Game.objects.get(pk=accepted.json()["game"])
    assert (game.time_preset, game.on_timeout, game.is_private, game.night_pause) == ("rapid", "forfeit", True, False)


def test_a_challenge_stored_with_junk_fails_when_accepted_instead_of_a_500(players):
    challenge = Challenge.objects.create(created_by=players[0], engine="durak", seats_count=2, options={},
                                         table={"is_private": "yes"}, expires_at=timezone.now() + timedelta(days=1))
    Invitation.objects.create(challenge=challenge, user=players[1], position=1)

    answer = api_for(players[1]).post(f"/api/v1/challenges/{challenge.pk}/accept")

    assert answer.status_code == 200 and answer.json()["status"] == "failed"
    assert not Game.objects.exists()


def test_a_new_table_with_an_unknown_preset_is_refused_not_made_with_the_default(players):
    answer = api_for(players[0]).post("/api/v1/games", {"engine": "durak", "time_preset": "blitz"})

    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
    assert not Game.objects.exists()
