"""Only a league's organizer and the site's moderators run its seasons: a
staff account that is neither withdraws nobody and starts nothing (issue 24)."""

import pytest
from django.contrib.auth.models import Permission

from gameplay.models import Game
from gameplay.services.base import GameError
from leagues import services
from leagues.models import Entry
from tests.leagues.conftest import start
from tests.leagues.test_league_services import league_of, people, registered  # noqa: F401
from tests.moderation.conftest import moderators_group

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    user = django_user_model.objects.create_user("staffer", password="pw-not-used-1", language="en", is_staff=True)
    user.user_permissions.add(*Permission.objects.filter(content_type__app_label="leagues"))
    return user


def test_staff_who_is_not_a_moderator_cannot_withdraw_a_player_from_someone_elses_league(people, staff):
    season = registered(league_of(people[0]), people[:3])
    start(season.pk, people[0])
    entry = Entry.objects.get(season=season, user=people[1])
    with pytest.raises(GameError, match="organizer or a moderator"):
        services.withdraw(entry.pk, staff)
    entry.refresh_from_db()
    assert entry.withdrawn_at is None
    assert not Game.objects.filter(status=Game.Status.FINISHED).exists()


def test_staff_who_is_not_a_moderator_cannot_run_a_season(people, staff):
    season = registered(league_of(people[0]), people[:3])
    for step in (services.close_registration, services.start_season):
        with pytest.raises(GameError, match="organizer or a moderator"):
            step(season.pk, staff)
    assert not services.may_run(season.league, staff)


def test_a_moderator_and_the_organizer_run_it(people, staff):
    league = league_of(people[0])
    staff.groups.add(moderators_group())
    staff = type(staff).objects.get(pk=staff.pk)  # the permissions are read afresh
    assert services.may_run(league, staff) and services.may_run(league, people[0])
    assert not services.may_run(league, people[1])
