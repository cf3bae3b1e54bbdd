"""A suspended account in a league: it cannot enter a season, and a table
drawn after the suspension goes as a withdrawn player's would (a computer
takes the seat where the league lets computers finish games, else the table
is not played)."""

import pytest

from moderation.services.people import suspend
from gameplay.models import Seat
from gameplay.services.base import GameError
from leagues import services
from leagues.models import Division, Fixture, League
from moderation.models import AuditEntry
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(name, password=None, language="en", display_name=name.title())
            for name in ("olga", "boris", "vera")]


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("boss", password="pw-not-used-1", email="b@example.com")


def league_of(people, **fields) -> League:
    return services.create_league(people[0], name="Suspensions", engine="durak", players=2, **fields)


def test_a_suspended_account_cannot_enter_a_season_nor_be_added_by_the_organizer(people, moderator):
    season = league_of(people).seasons.get()
    suspend(people[2].pk, moderator, "abuse")
    people[2].refresh_from_db()
    with pytest.raises(GameError) as refused:
        services.register(season.pk, people[2])
    assert refused.value.code == "suspended" and "Vera" in refused.value.message
    with pytest.raises(GameError):
        services.invite(season.pk, people[2], by=people[0])
    assert not season.entries.exists()


def test_a_table_drawn_after_a_suspension_starts_with_a_computer_in_the_seat_when_the_league_says_so(
        people, moderator):
    season = league_of(people, on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=True).seasons.get()
    for user in people:
        services.register(season.pk, user)
    suspend(people[2].pk, moderator, "abuse")
    start(season.pk, people[0])
    division = Division.objects.get(season=season)
    tables = [f for f in Fixture.objects.filter(division=division).select_related("game") if f.game]
    assert len(tables) == 3  # every table is played
    assert not Seat.objects.filter(game__in=[f.game for f in tables], user=people[2]).exists()
    substituted = AuditEntry.objects.filter(action=AuditEntry.Action.SUBSTITUTE)
    assert substituted.count() == 2 and all("suspended" in entry.reason for entry in substituted)


def test_a_table_of_a_suspended_player_is_not_played_when_no_computer_finishes_games(people, moderator):
    season = league_of(people, on_withdrawal=League.OnWithdrawal.LOSSES).seasons.get()
    for user in people:
        services.register(season.pk, user)
    suspend(people[2].pk, moderator, "abuse")
    start(season.pk, people[0])
    fixtures = list(Fixture.objects.filter(division__season=season).select_related("game"))
    played = [f for f in fixtures if f.game]
    assert len(played) == 1 and not played[0].game.seats.filter(user=people[2]).exists()
