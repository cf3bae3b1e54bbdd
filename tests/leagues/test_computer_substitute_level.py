"""A league's computer substitutes play at the level its organizer chose (issue 43)."""

import pytest

from gameplay.models import Seat
from gameplay.services.base import GameError
from leagues import services
from leagues.forms import LeagueForm
from leagues.models import Division, Entry, League
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(name, password=None, language="en", display_name=name.title())
            for name in ("olga", "boris", "vera")]


def test_a_withdrawn_players_games_are_finished_by_a_computer_of_the_organizers_level(people):
    league = services.create_league(people[0], name="Subs", engine="durak", players=2, computer_level=3,
                                    on_withdrawal=League.OnWithdrawal.COMPUTER, computer_substitutes=True)
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    start(season.pk, people[0])
    division = Division.objects.get(season=season)
    services.withdraw(Entry.objects.get(division=division, user=people[2]).pk, people[2])
    computers = Seat.objects.filter(game__fixture__division=division, is_bot=True)
    assert computers.count() == 2 and {seat.computer_level for seat in computers} == {3}


@pytest.mark.parametrize("level", [0, 4, "3"])
def test_a_level_that_does_not_exist_is_refused_and_no_league_is_made(people, level):
    with pytest.raises(GameError, match="There is no computer level"):
        services.create_league(people[0], name="Subs", engine="durak", players=2, computer_level=level)
    assert not League.objects.exists()


def test_the_league_form_offers_the_levels_and_says_what_each_does():
    field = LeagueForm().fields["computer_level"]
    assert [value for value, _label in field.choices] == [1, 2, 3]
    assert "Level 3 searches the same way with a larger budget" in str(field.help_text)
