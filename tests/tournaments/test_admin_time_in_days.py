"""In the admin a tournament's time per move and reserve are read and entered
in days, hours and minutes, as a league's are (the row keeps seconds)."""

import html

import pytest

from tests.gameplay.conftest import client_for
from tournaments.models import Tournament

from .conftest import tournament_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("boss", password="pw-not-used-1", email="m@example.com",
                                                     language="en")


def test_the_tournament_admin_shows_and_takes_the_time_in_days_hours_and_minutes(moderator):
    tournament = tournament_of(moderator)
    Tournament.objects.filter(pk=tournament.pk).update(move_seconds=2 * 86400, reserve_seconds=90 * 60)
    client = client_for(moderator)
    path = f"/admin/tournaments/tournament/{tournament.pk}/change/"
    response = client.get(path)
    page = html.unescape(response.content.decode())
    assert 'name="move_seconds_days" value="2"' in page and 'name="reserve_seconds_hours" value="1"' in page
    assert 'name="reserve_seconds_minutes" value="30"' in page

    form = response.context["adminform"].form
    data = {name: form[name].value() for name in form.fields if not isinstance(form[name].value(), list)}
    data = {name: "" if value is None else value for name, value in data.items() if value is not False}
    data.update(move_seconds_days="", move_seconds_hours="6", move_seconds_minutes="",
                reserve_seconds_days="1", reserve_seconds_hours="", reserve_seconds_minutes="")
    posted = client.post(path, data)
    assert posted.status_code == 302, posted.content.decode()[:3000]
    tournament.refresh_from_db()
    assert (tournament.move_seconds, tournament.reserve_seconds) == (6 * 3600, 86400)
