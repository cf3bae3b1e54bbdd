"""An aborted league game goes through the same league hook as a finished
one (`leagues.services.game_over`): its standings are pushed, a league
played round by round goes on to its next round, and the game is void in the
standings: neither played nor scheduled for anyone at its table. The abort is
made by someone outside the table (people[11]): nobody ends a game he plays in."""

import pytest

from gameplay.models import Game
from moderation.services.games import abort_game
from leagues.models import Division, Entry, Fixture, League
from leagues.standings import division_standings
from tests.leagues.conftest import start
from tests.leagues.test_league_services import finish, league_of, people, registered  # noqa: F401

pytestmark = pytest.mark.django_db


def users_of(season) -> dict:
    return {e.pk: e.user for e in Entry.objects.filter(season=season).select_related("user")}


def test_aborting_the_last_game_of_a_round_starts_the_next_round(people):
    league = league_of(people[0], start=League.Start.ROUNDS, division_size=4)
    season = registered(league, people[:4])
    start(season.pk, people[0])
    first_round = list(Fixture.objects.filter(division__season=season, round=1).select_related("game"))
    assert len(first_round) == 2
    abort_game(first_round[0].game_id, people[11], "The table broke")
    assert not Fixture.objects.filter(division__season=season, round=2).exclude(game=None).exists()
    users = users_of(season)
    finish(first_round[1].game, users[first_round[1].seats[1]])
    second_round = Fixture.objects.filter(division__season=season, round=2)
    assert second_round.count() == 2 and not second_round.filter(game=None).exists()
    assert Game.objects.get(pk=first_round[0].game_id).status == Game.Status.ABORTED


def test_an_aborted_game_after_the_others_starts_the_next_round_too(people):
    league = league_of(people[0], start=League.Start.ROUNDS, division_size=4)
    season = registered(league, people[:4])
    start(season.pk, people[0])
    first_round = list(Fixture.objects.filter(division__season=season, round=1).select_related("game"))
    users = users_of(season)
    finish(first_round[0].game, users[first_round[0].seats[1]])
    abort_game(first_round[1].game_id, people[11], "The table broke")
    assert not Fixture.objects.filter(division__season=season, round=2, game=None).exists()


def test_an_aborted_game_counts_neither_as_played_nor_as_scheduled(people):
    league = league_of(people[0], division_size=3)
    season = registered(league, people[:3])
    start(season.pk, people[0])  # a round robin of three: everyone has two games
    division = Division.objects.get(season=season)
    fixtures = list(Fixture.objects.filter(division=division).order_by("round", "pk"))
    aborted, played = fixtures[0], fixtures[1:]
    users = users_of(season)
    abort_game(aborted.game_id, people[11], "The table broke")
    for fixture in played:
        finish(fixture.game, users[fixture.seats[1]])
    rows = {row.entry_id: row for row in division_standings(division).rows}
    for entry_id, row in rows.items():
        at_aborted = entry_id in aborted.seats
        assert (row.played, row.scheduled, row.left) == ((1, 1, 0) if at_aborted else (2, 2, 0))
    assert sum(row.points for row in rows.values()) == len(played)  # one point a won game; none from the abort


def test_an_abort_pushes_the_division_standings(people, monkeypatch, django_capture_on_commit_callbacks):
    league = league_of(people[0], division_size=3)
    season = registered(league, people[:3])
    start(season.pk, people[0])
    division = Division.objects.get(season=season)
    pushed = []
    monkeypatch.setattr("leagues.live.queue_push", pushed.append)
    with django_capture_on_commit_callbacks(execute=True):
        abort_game(Fixture.objects.filter(division=division).first().game_id, people[11], "The table broke")
    assert pushed == [division.pk]


def test_an_aborted_game_outside_any_league_changes_no_league(people, django_assert_num_queries):
    from gameplay import services as game_services

    game = game_services.create_seated_game(people[:2], "durak")
    with django_assert_num_queries(1):  # the one look-up: no fixture, nothing else
        from leagues.services import game_over

        game_over(game)
    abort_game(game.pk, people[11], "Broken")
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
