"""The table and challenge forms take the time per move and the reserve in
days, hours and minutes (issue 39, item 2): the table gets the seconds they
add up to; empty boxes keep the preset; a bad box is a clear error."""

import pytest
from django.urls import reverse

from correspondence.models import Challenge
from gameplay.forms import NewGameForm
from gameplay.models import Game

from .conftest import client_for

pytestmark = pytest.mark.django_db

DAY, HOUR = 86400, 3600


def boxes(name: str, days="", hours="", minutes="") -> dict:
    return {f"{name}_days": days, f"{name}_hours": hours, f"{name}_minutes": minutes}


def test_the_form_offers_days_hours_and_minutes_for_every_clock():
    form = NewGameForm()
    for name in ("move_seconds", "reserve_seconds", "attacker_seconds", "defender_seconds", "throwers_seconds"):
        html = str(form[name])
        for unit in ("days", "hours", "minutes"):
            assert f'name="{name}_{unit}"' in html
    assert "seconds" not in str(form["move_seconds"].label).lower()


def test_a_new_table_gets_the_time_entered_in_days_and_hours(players):
    response = client_for(players[0]).post(reverse("new_game"), {
        "engine": "durak", "players": "2", "time_preset": "correspondence", "on_timeout": "autoplay",
        **boxes("move_seconds", days="2", hours="12"), **boxes("reserve_seconds", days="5"),
        **boxes("defender_seconds", hours="6", minutes="30")})
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.move_seconds, game.reserve_seconds) == (2 * DAY + 12 * HOUR, 5 * DAY)
    assert game.timer_seconds == {"defender": 6 * HOUR + 30 * 60}


def test_empty_boxes_keep_the_preset(players):
    client_for(players[0]).post(reverse("new_game"), {
        "engine": "joker", "players": "4", "time_preset": "slow", "on_timeout": "autoplay",
        **boxes("move_seconds"), **boxes("reserve_seconds")})
    game = Game.objects.get()
    assert (game.move_seconds, game.reserve_seconds) == (3 * DAY, 7 * DAY)


def test_a_challenge_takes_its_time_in_days_hours_and_minutes(players):
    response = client_for(players[0]).post(reverse("new_challenge"), {
        "usernames": "player1", "engine": "durak", "players": "2", "time_preset": "slow", "on_timeout": "autoplay",
        "expires_in": str(72 * HOUR), **boxes("move_seconds", hours="20", minutes="15"),
        **boxes("reserve_seconds", days="0")})
    assert response.status_code == 302
    assert Challenge.objects.get().table["move_seconds"] == 20 * HOUR + 15 * 60
    assert Challenge.objects.get().table["reserve_seconds"] == 0


@pytest.mark.parametrize("bad", [{"move_seconds_days": "x"}, {"move_seconds_hours": "-1"},
                                 {"move_seconds_minutes": "1.5"}, {"move_seconds_days": "31"}])
def test_a_box_that_is_not_a_whole_number_or_too_long_a_time_is_a_clear_error(bad):
    form = NewGameForm({"engine": "durak", "time_preset": "slow", "on_timeout": "autoplay", **bad})
    assert not form.is_valid()
    assert form.errors["move_seconds"][0].startswith(("Enter whole numbers", "At most 30 days"))


def test_the_form_shown_again_keeps_what_was_typed():
    form = NewGameForm({"engine": "durak", "time_preset": "slow", "on_timeout": "forfeit",
                        **boxes("move_seconds", days="31", hours="2")})
    assert not form.is_valid()
    html = str(form["move_seconds"])
    assert 'name="move_seconds_days" value="31"' in html and 'name="move_seconds_hours" value="2"' in html
