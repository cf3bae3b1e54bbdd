"""Whole seasons played through by computer-chosen moves (gameplay.bots),
every one submitted as its player through the real services (and so their
after-commit work through Celery, eager in the tests), then the standings
checked against ones computed by hand from the games' places."""

import random
from fractions import Fraction

import pytest

from gameplay import bots
from gameplay import services as game_services
from gameplay.engine import get_engine
from gameplay.models import Game
from leagues import services
from leagues.models import Division, Entry, Fixture, League
from leagues.standings import division_standings
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


def play_out(game: Game, users_by_position: dict) -> None:
    """Every move of the game chosen by the computer players' rules and submitted as that player's own."""
    engine = get_engine(game.engine)
    rng = random.Random(game.pk)
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        position = engine.actors(game.state)[0]
        action = bots.choose_action(engine, game.state, position, rng)
        game_services.submit_move(game.pk, users_by_position[position], action, game.version)


def by_hand(division: Division, players: int) -> dict[int, Fraction]:
    """League points from the seats' places: (n − place)/(n − 1), shared places sharing."""
    points: dict[int, Fraction] = {e.pk: Fraction(0) for e in division.entries.all()}
    for fixture in Fixture.objects.filter(division=division).select_related("game"):
        places = {pk: fixture.game.seats.get(position=i).place for i, pk in enumerate(fixture.seats)}
        for pk, place in places.items():
            shared = [p for p in places.values() if p == place]
            occupied = range(place, place + len(shared))
            points[pk] += sum(Fraction(players - p, players - 1) for p in occupied) / len(shared)
    return points


def test_a_two_player_durak_round_robin_of_six_is_played_through_and_ranked(django_user_model):
    people = [django_user_model.objects.create_user(f"rr{i}", password=None) for i in range(6)]
    league = services.create_league(people[0], name="Round robin", engine="durak", players=2, division_size=6)
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    start(season.pk, people[0])
    for fixture in Fixture.objects.filter(division__season=season).order_by("round", "pk"):
        seats = {s.position: s.user for s in fixture.game.seats.select_related("user")}
        play_out(fixture.game, seats)
    division = Division.objects.get(season=season)
    assert not Game.objects.filter(fixture__division=division).exclude(status=Game.Status.FINISHED).exists()
    expected = by_hand(division, 2)
    rows = division_standings(division).rows
    assert {r.entry_id: Fraction(r.points).limit_denominator(4) for r in rows} == expected
    assert all(r.played == 5 and r.left == 0 for r in rows)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    services.end_season(season.pk, people[0])
    assert sorted(Entry.objects.filter(season=season).values_list("final_rank", flat=True)) == \
        sorted(r.rank for r in rows)


@pytest.mark.slow
def test_a_joker_season_of_two_divisions_is_played_through_and_ranked(django_user_model):
    people = [django_user_model.objects.create_user(f"js{i}", password=None) for i in range(8)]
    league = services.create_league(people[0], name="Joker season", engine="joker", players=4, division_size=4,
                                    games_per_player=3, start=League.Start.ROUNDS)
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    start(season.pk, people[0])
    for _round in range(3):
        for fixture in Fixture.objects.filter(division__season=season, game__status=Game.Status.ACTIVE):
            seats = {s.position: s.user for s in fixture.game.seats.select_related("user")}
            play_out(fixture.game, seats)
    for division in Division.objects.filter(season=season):
        assert Fixture.objects.filter(division=division, game__status=Game.Status.FINISHED).count() == 3
        expected = by_hand(division, 4)
        rows = division_standings(division).rows
        assert {r.entry_id: Fraction(r.points).limit_denominator(12) for r in rows} == expected
        assert all(r.played == 3 and r.left == 0 for r in rows)
