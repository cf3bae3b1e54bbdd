"""Leagues through their services: creation, registration, the start of a
season (divisions by rating, schedules, games), rounds, withdrawals, the end
of a season with promotion and relegation."""

import pytest
from django.utils import timezone

from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from leagues import services
from leagues.models import Division, Entry, Fixture, Invitation, League, Season
from leagues.standings import division_standings
from tests.leagues.conftest import start
from ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"lp{i}", password="pw-not-used-1", language="en")
            for i in range(12)]


def league_of(organizer, **fields) -> League:
    settings = {"name": "Kitchen league", "engine": "durak", "players": 2}
    settings.update(fields)
    return services.create_league(organizer, **settings)


def season_of(league: League) -> Season:
    return league.seasons.get(number=1)


def registered(league: League, users) -> Season:
    season = season_of(league)
    for user in users:
        services.register(season.pk, user)
    return season


def rated(user, engine: str, mu: float, sigma: float) -> None:
    """A player with this rating, as a past rated game left it (the history says what it was when)."""
    game = Game.objects.create(engine=engine, seats_count=2, created_by=user, status=Game.Status.FINISHED)
    now = timezone.now()
    RatingChange.objects.create(game=game, user=user, engine=engine, mu_before=mu, sigma_before=sigma, mu=mu,
                                sigma=sigma, games=9, at=now)
    Rating.objects.create(user=user, engine=engine, mu=mu, sigma=sigma, games=9, updated_at=now)


def finish(game: Game, loser) -> None:
    """End a league game: the loser resigns."""
    game_services.resign(game.pk, loser)


@pytest.mark.parametrize("fields,message", [
    ({"engine": "chess"}, "Unknown game"),
    ({"players": 9}, "players"),
    ({"tiebreaks": ["wins", "height"]}, "tie-break"),
    ({"tiebreaks": ["wins", "wins"]}, "tie-break"),
    ({"points_per_place": [0, 1]}, "League points per place"),
    ({"points_per_place": [1, 0.5, 0]}, "League points per place"),
    ({"name": "  "}, "name"),
])
def test_a_league_with_bad_settings_is_refused_and_nothing_is_created(people, fields, message):
    with pytest.raises(GameError, match=message):
        league_of(people[0], **fields)
    assert not League.objects.exists() and not Season.objects.exists()


def test_a_new_league_opens_its_first_season_for_registration(people):
    league = league_of(people[0], name="Durak on Fridays")
    assert league.slug == "durak-on-fridays" and league.organizer == people[0]
    assert season_of(league).status == Season.Status.REGISTRATION
    assert league_of(people[0], name="Durak on Fridays").slug == "durak-on-fridays-2"


def test_only_staff_create_leagues_when_the_site_says_so(people, settings):
    settings.LEAGUES_BY_STAFF_ONLY = True
    with pytest.raises(GameError, match="Only staff"):
        league_of(people[0])
    people[1].is_staff = True
    assert league_of(people[1]).pk


def test_registration_refuses_a_second_entry_and_closes(people):
    league = league_of(people[0])
    season = registered(league, people[:2])
    with pytest.raises(GameError, match="Already registered"):
        services.register(season.pk, people[0])
    with pytest.raises(GameError, match="organizer"):
        services.close_registration(season.pk, people[1])
    services.close_registration(season.pk, people[0])
    with pytest.raises(GameError, match="closed"):
        services.register(season.pk, people[2])
    services.unregister  # noqa: B018 (exists)
    assert season.entries.count() == 2


def test_a_league_in_pairs_registers_pairs(people):
    league = league_of(people[0], players=4, options={"teams": True})
    season = season_of(league)
    with pytest.raises(GameError, match="pairs"):
        services.register(season.pk, people[0])
    invitation = services.register(season.pk, people[0], people[1])  # the partner is asked first
    assert not season.entries.exists()
    entry = services.accept_invitation(invitation.pk, people[1])
    assert (entry.user, entry.partner) == (people[0], people[1])
    with pytest.raises(GameError, match="Already registered"):
        services.register(season.pk, people[2], people[1])


def test_starting_a_season_splits_the_players_by_rating_and_starts_every_scheduled_game(people):
    for i, user in enumerate(people[:8]):
        rated(user, "joker", mu=1000 + 100 * i, sigma=100)
    league = league_of(people[0], engine="joker", players=4, division_size=4, games_per_player=2)
    season = registered(league, people[:8])
    start(season.pk, people[0])
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    top, second = Division.objects.filter(season=season).order_by("number")
    assert {e.user for e in top.entries.all()} == set(people[4:8])  # the four highest ratings
    assert {e.user for e in second.entries.all()} == set(people[:4])
    for division in (top, second):
        fixtures = list(division.fixtures.all())
        assert len(fixtures) == 2 and all(f.game and f.game.status == Game.Status.ACTIVE for f in fixtures)
        assert all(f.game.rated for f in fixtures)
        entries = {e.pk: e.user_id for e in division.entries.all()}
        for fixture in fixtures:
            assert [s.user_id for s in fixture.game.seats.order_by("position")] == [entries[pk] for pk in fixture.seats]


def test_a_two_player_league_is_a_round_robin_and_round_by_round_starts_the_next_round_when_one_is_over(people):
    league = league_of(people[0], start=League.Start.ROUNDS, division_size=6)
    season = registered(league, people[:6])
    start(season.pk, people[0])
    fixtures = list(Fixture.objects.filter(division__season=season))
    assert len(fixtures) == 15  # 6 players: every pair once
    pairs = {frozenset(f.seats) for f in fixtures}
    assert len(pairs) == 15
    first_round = [f for f in fixtures if f.round == 1]
    assert all(f.game for f in first_round) and not any(f.game for f in fixtures if f.round > 1)
    users = {e.pk: e.user for e in Entry.objects.filter(season=season)}
    for fixture in first_round[:-1]:
        finish(fixture.game, users[fixture.seats[1]])
    assert not Fixture.objects.filter(division__season=season, round=2).exclude(game=None).exists()
    finish(first_round[-1].game, users[first_round[-1].seats[1]])
    assert Fixture.objects.filter(division__season=season, round=2, game=None).count() == 0


def test_standings_follow_the_finished_games(people):
    league = league_of(people[0], division_size=3)
    season = registered(league, people[:3])
    start(season.pk, people[0])
    users = {e.pk: e.user for e in Entry.objects.filter(season=season)}
    by_user = {e.user_id: e.pk for e in Entry.objects.filter(season=season)}
    for fixture in Fixture.objects.filter(division__season=season).exclude(game=None):
        a, b = (users[pk] for pk in fixture.seats)
        # people[0] beats everyone, people[1] beats people[2]
        loser = b if (a == people[0] or (a == people[1] and b == people[2])) else a
        finish(fixture.game, loser)
    rows = division_standings(Division.objects.get(season=season)).rows
    assert [r.entry_id for r in rows] == [by_user[people[0].pk], by_user[people[1].pk], by_user[people[2].pk]]
    assert [r.points for r in rows] == [2, 1, 0] and [r.played for r in rows] == [2, 2, 2]


def test_a_withdrawn_player_loses_his_unfinished_games(people):
    league = league_of(people[0], division_size=4)
    season = registered(league, people[:4])
    start(season.pk, people[0])
    entry = Entry.objects.get(season=season, user=people[3])
    with pytest.raises(GameError, match="organizer"):
        services.withdraw(entry.pk, people[2])
    services.withdraw(entry.pk, people[3])
    games = Game.objects.filter(fixture__division__season=season, seats__user=people[3])
    assert games.exists() and not games.filter(status=Game.Status.ACTIVE).exists()
    assert all(g.seats.get(user=people[3]).place == 2 for g in games)


def test_ending_a_season_writes_final_ranks_and_the_next_season_moves_players_up_and_down(people):
    league = league_of(people[0], division_size=3, promotion=1, relegation=1)
    season = registered(league, people[:6])
    for i, user in enumerate(people[:6]):
        rated(user, "durak", mu=2000 - 100 * i, sigma=50)
    start(season.pk, people[0])
    users = {e.pk: e.user for e in Entry.objects.filter(season=season)}
    for fixture in Fixture.objects.filter(division__season=season):
        a, b = (users[pk] for pk in fixture.seats)
        finish(fixture.game, a if people.index(a) < people.index(b) else b)  # the lower-rated player wins
    services.end_season(season.pk, people[0])
    season.refresh_from_db()
    assert season.status == Season.Status.FINISHED
    ranks = {e.user: (e.division.number, e.final_rank) for e in Entry.objects.filter(season=season)}
    assert ranks[people[2]] == (1, 1) and ranks[people[0]] == (1, 3)
    assert ranks[people[5]] == (2, 1) and ranks[people[3]] == (2, 3)
    following = league.seasons.get(number=2)
    assert following.status == Season.Status.REGISTRATION
    for user in people[:6]:
        services.register(following.pk, user)
    start(following.pk, people[0])
    top = {e.user for e in Entry.objects.filter(season=following, division__number=1)}
    assert people[5] in top and people[0] not in top  # promoted and relegated


def test_the_organizer_invites_players_until_the_season_starts_and_nobody_else_may(people):
    league = league_of(people[0])
    season = season_of(league)
    services.close_registration(season.pk, people[0])
    with pytest.raises(GameError, match="closed"):
        services.register(season.pk, people[1])
    with pytest.raises(GameError, match="organizer"):
        services.invite(season.pk, people[1], by=people[2])
    for user in people[1:4]:
        services.invite(season.pk, user, by=people[0])
    for user in people[1:3]:
        services.accept_invitation(Invitation.objects.get(user=user).pk, user)
    start(season.pk, people[0])
    with pytest.raises(GameError, match="already started"):
        services.invite(season.pk, people[4], by=people[0])
    with pytest.raises(GameError, match="already started"):  # too late to accept
        services.accept_invitation(Invitation.objects.get(user=people[3]).pk, people[3])
    assert season.entries.count() == 2


def test_registration_closes_at_its_date(people):
    from datetime import timedelta

    league = league_of(people[0], registration_closes_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(GameError, match="closed"):
        services.register(season_of(league).pk, people[1])
