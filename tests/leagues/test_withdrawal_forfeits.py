"""A withdrawn player's games (issue 24): the annulment counts the games he
finished before withdrawing; when he is not annulled, every game he can no
longer play is his loss by forfeit, the tables never started too, and the
standings and their "why above" lines say so."""

import pytest

from gameplay.models import Game
from leagues import services
from leagues.models import Entry, Fixture, League
from leagues.standings import division_standings
from scoresheets.standings_view import standings_table
from tests.leagues.conftest import start
from tests.leagues.test_league_services import finish, league_of, people, registered  # noqa: F401

pytestmark = pytest.mark.django_db


def row_of(division, user):
    return next(r for r in division_standings(division).rows if r.name == user.name)


def fixtures_of(entry: Entry):
    return [f for f in Fixture.objects.filter(division=entry.division).select_related("game").order_by("round", "pk")
            if entry.pk in f.seats]


def opponent(fixture: Fixture, entry: Entry):
    other = next(pk for pk in fixture.seats if pk != entry.pk)
    return Entry.objects.get(pk=other).user


def test_with_the_defaults_a_player_who_finished_one_of_three_games_and_withdrew_is_annulled(people):
    league = league_of(people[0], division_size=4)  # all at once, lost games, annul below half
    season = registered(league, people[:4])
    start(season.pk, people[0])
    quitter = Entry.objects.get(season=season, user=people[1])
    first = fixtures_of(quitter)[0]
    finish(first.game, opponent(first, quitter))  # he wins the one game he finishes
    services.withdraw(quitter.pk, people[1])  # his two other games are resigned for him
    row = row_of(quitter.division, people[1])
    assert row.annulled and row.rank is None and row.points == 0


def test_round_by_round_a_withdrawn_players_tables_not_started_are_his_forfeit_losses(people):
    league = league_of(people[0], division_size=4, start=League.Start.ROUNDS, annul_below_half=False)
    season = registered(league, people[:4])
    start(season.pk, people[0])
    quitter = Entry.objects.get(season=season, user=people[1])
    mine = fixtures_of(quitter)
    finish(mine[0].game, people[1])  # round 1: he loses, finished before withdrawing
    assert mine[1].game is None and mine[2].game is None  # rounds 2 and 3 wait for round 1
    services.withdraw(quitter.pk, people[1])
    standings = division_standings(quitter.division)
    row = next(r for r in standings.rows if r.entry_id == quitter.pk)
    assert (row.played, row.left, row.forfeits_lost) == (3, 0, 2)
    for fixture in mine[1:]:
        winner = next(r for r in standings.rows if r.name == opponent(fixture, quitter).name)
        assert winner.forfeits_won >= 1 and winner.points >= 1
    page = standings_table(standings)
    table_row = next(r for r in page.rows if r.entry_id == quitter.pk)
    assert table_row.left == 0 and table_row.forfeits_lost == 2
    assert any("by forfeit" in r.why for r in page.rows)


def test_the_games_resigned_on_withdrawal_are_forfeits_and_the_division_page_says_so(people, client):
    league = league_of(people[0], division_size=4, annul_below_half=False)
    season = registered(league, people[:4])
    start(season.pk, people[0])
    quitter = Entry.objects.get(season=season, user=people[1])
    first = fixtures_of(quitter)[0]
    finish(first.game, people[1])
    services.withdraw(quitter.pk, people[1])
    assert Game.objects.filter(status=Game.Status.ACTIVE, seats__user=people[1]).count() == 0
    row = row_of(quitter.division, people[1])
    assert (row.played, row.forfeits_lost, row.annulled) == (3, 2, False)
    page = client.get(quitter.division.get_absolute_url()).content.decode()
    assert "2 lost by forfeit" in page and "won by forfeit" in page


def test_a_player_who_finished_half_his_games_before_withdrawing_keeps_them_and_loses_the_rest(people):
    league = league_of(people[0], division_size=3)  # two games each
    season = registered(league, people[:3])
    start(season.pk, people[0])
    quitter = Entry.objects.get(season=season, user=people[1])
    first, second = fixtures_of(quitter)
    finish(first.game, opponent(first, quitter))
    services.withdraw(quitter.pk, people[1])
    row = row_of(quitter.division, people[1])
    assert not row.annulled and (row.played, row.forfeits_lost, row.points) == (2, 1, 1)
