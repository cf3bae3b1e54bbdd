"""The computer levels ranked against each other (issue 43): `play_computer_matches` plays
duplicate deals between the levels with the real engines and players, records each as a rated
game of computers, which rates the levels' accounts in the computers' pool; a page ranks them,
linked from the ratings page. People's ratings are untouched."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from accounts.computers import computer_accounts
from gameplay.computer_matches import arrangements, deal_seed, play_game
from gameplay.management.commands.replay_games import replays_identically
from gameplay.models import Game, Move
from ratings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_search_budgets(monkeypatch):
    """What is tested here is the recording and the rating of the matches, not the levels' strength
    (bench/computers.py measures that): the search levels look at a few worlds a decision, not hundreds."""
    monkeypatch.setattr("gameplay.bots.budget_for", lambda slug, level: 2 * level)


def play(*args: str) -> str:
    out = StringIO()
    call_command("play_computer_matches", *args, stdout=out)
    return out.getvalue()


def test_each_deal_is_played_once_per_arrangement_of_the_two_levels():
    assert arrangements(1, 3, 2) == [[1, 3], [3, 1]]
    assert arrangements(1, 3, 4) == [[1, 3, 1, 3], [3, 1, 3, 1]]
    assert arrangements(2, 3, 3) == [[2, 3, 2], [3, 2, 2], [2, 2, 3]]
    assert deal_seed(7, "durak", 0) == deal_seed(7, "durak", 0) != deal_seed(7, "durak", 1)


def test_a_match_game_replays_exactly_from_its_seed_and_levels():
    first, again = (play_game("durak", [1, 3], deal_seed(1, "durak", 0)) for _ in range(2))
    assert first.moves == again.moves and first.outcome == again.outcome


def test_matches_are_recorded_as_rated_games_of_computers_that_rate_the_levels_in_their_own_pool():
    out = play("--games", "durak", "--levels", "1", "3", "--deals", "2")
    games = list(Game.objects.filter(engine="durak"))
    assert len(games) == 4 and "level 1 vs level 3, 2 deals, 4 games" in out
    for game in games:
        assert game.status == Game.Status.FINISHED and game.rated
        assert sorted(s.computer_level for s in game.seats.all()) == [1, 3]
        assert all(s.is_bot and s.user_id is None and s.place for s in game.seats.all())
        assert set(Move.objects.filter(game=game).values_list("by", flat=True)) == {Move.By.BOT}
        assert replays_identically(game) == (True, "")
    accounts = computer_accounts()
    ratings = {r.user_id: r for r in Rating.objects.all()}
    assert set(ratings) == {accounts[1].pk, accounts[3].pk}
    assert {r.engine for r in ratings.values()} == {"durak:computers"} and {r.games for r in ratings.values()} == {4}


def test_a_level_holding_several_seats_of_a_game_is_rated_once_for_it():
    play("--games", "ipuker", "--levels", "1", "2", "--deals", "1")
    for game in Game.objects.filter(engine="ipuker"):
        assert sorted(s.computer_level for s in game.seats.all()) == [1, 1, 2, 2]
        assert RatingChange.objects.filter(game=game).count() == 2
        assert set(RatingChange.objects.filter(game=game).values_list("engine", flat=True)) == {"ipuker:computers"}


def test_the_page_ranks_the_levels_by_their_ratings_and_the_ratings_page_links_it():
    play("--games", "durak", "--deals", "1")
    page = Client().get(reverse("computer_levels")).content.decode()
    section = page[page.index('id="levels-durak"'):page.index('id="levels-ipuker"')]
    assert all(f"Computer, level {level}" in section for level in (1, 2, 3))
    order = sorted((1, 2, 3), key=lambda level: section.index(f"Computer, level {level}"))
    ratings = {r.user.computer_level: r.ordinal for r in Rating.objects.filter(engine="durak:computers")}
    assert order == sorted(ratings, key=lambda level: -ratings[level])
    assert "not rated yet" in page[page.index('id="levels-joker"'):]  # no match played in Joker
    assert "Level 2 deals the cards or tiles it cannot see" in page
    leaderboard = Client().get(reverse("leaderboard", args=["durak"])).content.decode()
    assert reverse("computer_levels") in leaderboard
    assert not Client().get(reverse("leaderboard", args=["durak"])).context["provisional"]  # people's lists


def test_the_page_is_in_russian_too():
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("computer_levels")).content.decode()
    assert "Уровни компьютера по силе" in page and "Компьютер, уровень 3" in page and "ещё без рейтинга" in page


@pytest.mark.parametrize("args, message", [
    (["--levels", "1", "5"], "There is no computer level 5"),
    (["--levels", "2"], "at least two levels"),
    (["--games", "chess"], "Unknown game: chess"),
    (["--deals", "0"], "at least one deal"),
])
def test_bad_arguments_are_refused_and_nothing_is_recorded(args, message):
    with pytest.raises(CommandError, match=message):
        play(*args)
    assert not Game.objects.exists() and not Rating.objects.exists()
