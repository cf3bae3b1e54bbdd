"""Ratings: openskill's Plackett-Luce model, updated when a rated game finishes."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from gameplay import services
from gameplay.models import Game
from ratings.models import Rating, RatingChange
from ratings.services import INITIAL, MODEL, rating_at, rating_of
from tests.gameplay.conftest import client_for, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"rated{i}", password="pw-not-used-1", language="en")
            for i in range(4)]


def expected(order_of_teams, ratings=None):
    """What openskill itself gives for teams of (user, (mu, sigma)) at these ranks."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for _user, (mu, sigma) in team] for team, _rank in order_of_teams]
    return MODEL.rate(teams, ranks=[rank for _team, rank in order_of_teams])


def snapshot():
    return {(r.user_id, r.engine): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}


def test_a_rated_game_that_finishes_rates_its_players_by_their_places(people):
    game = started_game("joker", people)
    services.resign(game.pk, people[2])
    places = {s.user_id: s.place for s in game.seats.all()}
    start = (INITIAL.mu, INITIAL.sigma)
    want = expected([([(u.pk, start)], places[u.pk]) for u in people])
    for user, team in zip(people, want):
        rating = Rating.objects.get(user=user, engine="joker")
        assert (rating.mu, rating.sigma, rating.games) == (team[0].mu, team[0].sigma, 1)
    assert rating_of(people[2], "joker").value < min(rating_of(u, "joker").value for u in people if u != people[2])
    assert RatingChange.objects.filter(game=game).count() == 4


def test_a_casual_table_changes_no_rating(people):
    game = started_game("joker", people, rated=False)
    services.resign(game.pk, people[0])
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_game_with_a_computer_player_is_not_rated(people):
    game = services.create_game(people[0], "joker", players=4)
    services.join_game(game.pk, people[1])
    services.fill_with_bots(game.pk, people[0])
    services.resign(game.pk, people[1])
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    assert not Rating.objects.exists()


def test_durak_pairs_are_rated_as_teams_at_their_pairs_place(people):
    game = started_game("durak", people, {"teams": True})
    services.resign(game.pk, people[1])  # seats 1 and 3 are partners: their pair loses
    seats = {s.position: s for s in game.seats.all()}
    assert seats[0].place == seats[2].place < seats[1].place == seats[3].place
    start = (INITIAL.mu, INITIAL.sigma)
    want = expected([([(people[0].pk, start), (people[2].pk, start)], 1),
                     ([(people[1].pk, start), (people[3].pk, start)], 2)])
    got = {u.pk: Rating.objects.get(user=u, engine="durak") for u in people}
    assert (got[people[0].pk].mu, got[people[2].pk].mu) == (want[0][0].mu, want[0][1].mu)
    assert (got[people[1].pk].mu, got[people[3].pk].mu) == (want[1][0].mu, want[1][1].mu)
    assert got[people[0].pk].value > got[people[1].pk].value


def test_the_rating_at_a_moment_is_the_one_after_the_games_finished_by_then(people):
    before = timezone.now() - timedelta(seconds=1)
    services.resign(started_game("joker", people).pk, people[3])
    after_first = rating_of(people[0], "joker")
    between = timezone.now()
    services.resign(started_game("joker", people).pk, people[3])
    assert rating_at(people[0], "joker", before) == INITIAL
    assert rating_at(people[0], "joker", between) == after_first
    assert rating_at(people[0], "joker", timezone.now()) == rating_of(people[0], "joker")
    assert rating_of(people[0], "joker").games == 2 and rating_of(people[0], "joker").is_provisional


def test_recompute_ratings_gives_the_same_numbers_as_the_live_updates(people):
    for loser in (3, 1, 3, 0):
        services.resign(started_game("joker", people).pk, people[loser])
    services.resign(started_game("durak", people[:3]).pk, people[2])
    services.resign(started_game("joker", people, rated=False).pk, people[0])
    live = snapshot()
    history = list(RatingChange.objects.order_by("at", "game_id", "user_id")
                   .values_list("game_id", "user_id", "mu", "sigma", "games"))
    Rating.objects.update(mu=0, sigma=1)  # damage, which the rebuild repairs
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))
    assert snapshot() == live
    assert list(RatingChange.objects.order_by("at", "game_id", "user_id")
                .values_list("game_id", "user_id", "mu", "sigma", "games")) == history
    assert len(live) == 4 + 3


def test_a_new_table_is_rated_unless_the_creator_unticks_it(people):
    client = client_for(people[0])
    form = {"engine": "joker", "players": 4, "time_preset": "correspondence", "on_timeout": "autoplay"}
    client.post("/games/new/", {**form, "rated": "on"})
    client.post("/games/new/", form)
    assert list(Game.objects.order_by("pk").values_list("rated", flat=True)) == [True, False]


def test_the_next_game_of_a_series_is_rated_as_the_first(people):
    game = started_game("joker", people, rated=False, series_length=2)
    services.resign(game.pk, people[0])
    following = Game.objects.get(series_first=game)
    assert following.rated is False
