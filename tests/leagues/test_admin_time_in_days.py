"""In the admin a league's time per move and reserve are read and entered in
days, hours and minutes, with the boxes of the new-table and challenge forms
(gameplay.durations), while the row keeps seconds; a box that is not a whole
number is refused with a clear message and changes nothing (issue 39, 2)."""

import html
import re

import pytest

from leagues import services
from leagues.models import League
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("boss", password="pw-not-used-1", email="m@example.com",
                                                     language="en")


@pytest.fixture
def league(moderator) -> League:
    created = services.create_league(moderator, name="Correspondence Durak", engine="durak", players=2,
                                     time_preset="slow")
    League.objects.filter(pk=created.pk).update(move_seconds=86400 + 2 * 3600 + 30 * 60, reserve_seconds=7 * 86400)
    return League.objects.get(pk=created.pk)


def change_page(league: League) -> str:
    return f"/admin/leagues/league/{league.pk}/change/"


def posted_form(client, league: League, **boxes) -> dict:
    """What the change page's form posts as it stands, with these boxes changed."""
    form = client.get(change_page(league)).context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(value, list):  # days, hours, minutes
            data.update({f"{name}_{unit}": "" if box is None else box
                         for unit, box in zip(("days", "hours", "minutes"), value)})
        elif value is not False:
            data[name] = "" if value is None else value
    data["options"] = data.get("options") or "{}"
    data.update(boxes)
    return data


def test_the_league_admin_shows_the_time_per_move_and_the_reserve_in_days_hours_and_minutes(moderator, league):
    page = html.unescape(client_for(moderator).get(change_page(league)).content.decode())
    for name, days, hours, minutes in (("move_seconds", 1, 2, 30), ("reserve_seconds", 7, 0, 0)):
        assert f'name="{name}_days" value="{days}"' in page
        assert f'name="{name}_hours" value="{hours}"' in page
        assert f'name="{name}_minutes" value="{minutes}"' in page
    assert "Time per move:" in page and "Reserve time:" in page
    assert not [label for label in re.findall(r"<label[^>]*>([^<]*)</label>", page) if "second" in label.lower()]


def test_days_hours_and_minutes_entered_in_the_league_admin_are_kept_as_seconds(moderator, league):
    client = client_for(moderator)
    data = posted_form(client, league, move_seconds_days="3", move_seconds_hours="", move_seconds_minutes="",
                       reserve_seconds_days="", reserve_seconds_hours="12", reserve_seconds_minutes="15")
    response = client.post(change_page(league), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    league.refresh_from_db()
    assert (league.move_seconds, league.reserve_seconds) == (3 * 86400, 12 * 3600 + 15 * 60)


def test_a_box_that_is_not_a_whole_number_is_refused_and_changes_nothing(moderator, league):
    client = client_for(moderator)
    response = client.post(change_page(league), posted_form(client, league, move_seconds_hours="two"))
    assert response.status_code == 200
    assert "Enter whole numbers of days, hours and minutes." in response.content.decode()
    assert League.objects.get(pk=league.pk).move_seconds == league.move_seconds


def test_emptied_boxes_leave_the_time_to_the_leagues_preset(moderator, league):
    client = client_for(moderator)
    empty = {f"{name}_{unit}": "" for name in ("move_seconds", "reserve_seconds")
             for unit in ("days", "hours", "minutes")}
    assert client.post(change_page(league), posted_form(client, league, **empty)).status_code == 302
    league.refresh_from_db()
    assert (league.move_seconds, league.reserve_seconds) == (None, None)


def test_the_league_admin_offers_the_time_controls_to_choose_from_not_a_box_to_type_in(moderator, league):
    page = client_for(moderator).get(change_page(league)).content.decode()
    assert '<select name="time_preset"' in page
    assert '<option value="slow" selected>' in page


def test_the_league_admin_names_the_game_and_does_not_offer_to_change_it(moderator, league):
    response = client_for(moderator).get(change_page(league))
    page = response.content.decode()
    assert "engine" not in response.context["adminform"].form.fields
    assert "Durak" in page and ">durak<" not in page
    assert 'href="/static/css/durations.css"' in page  # the boxes' own sheet: three short boxes with their units


def test_the_league_list_filters_by_the_games_names(moderator, league):
    page = client_for(moderator).get("/admin/leagues/league/").content.decode()
    assert '<a href="?engine__exact=durak">Durak</a>' in page and ">durak</a>" not in page
