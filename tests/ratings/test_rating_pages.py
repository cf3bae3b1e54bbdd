"""Where ratings are shown: the leaderboard of each game and the player page's ratings with their charts."""

import zoneinfo
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from gameplay import services
from ratings.charts import rating_chart
from ratings.models import PROVISIONAL_GAMES, Rating
from tests.gameplay.conftest import client_for, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"board{i}", password="pw-not-used-1", language="en",
                                                  display_name=f"Board {i}") for i in range(4)]


def play_rated_games(people, count: int, loser: int = 3) -> None:
    for _ in range(count):
        services.resign(started_game("joker", people).pk, people[loser])


def test_the_leaderboard_ranks_established_active_players_by_rating(people, django_user_model):
    play_rated_games(people, PROVISIONAL_GAMES)
    newcomer = django_user_model.objects.create_user("newcomer", password="pw-not-used-1")
    Rating.objects.create(user=newcomer, engine="joker", mu=3000, sigma=10, games=1, updated_at=timezone.now())
    idle = django_user_model.objects.create_user("idle", password="pw-not-used-1")
    Rating.objects.create(user=idle, engine="joker", mu=3000, sigma=10, games=50,
                          updated_at=timezone.now() - timedelta(days=91))
    response = client_for(people[0]).get(reverse("leaderboard", args=["joker"]))
    assert response.status_code == 200
    ranked = [rating.user.username for _rank, rating in response.context["rows"]]
    assert set(ranked) == {"board0", "board1", "board2", "board3"}
    assert ranked[-1] == "board3"  # resigned every game
    values = [rating.value for _rank, rating in response.context["rows"]]
    assert values == sorted(values, reverse=True)
    # The newcomer is not ranked, but listed below as provisional; the idle player is not listed.
    assert [r.user.username for r in response.context["provisional"]] == ["newcomer"]
    assert "idle" not in response.text


def test_the_leaderboard_of_an_unknown_game_is_not_found_and_the_index_leads_to_a_game(people):
    client = client_for(people[0])
    assert client.get("/ratings/chess/").status_code == 404
    assert client.get("/ratings/").url == reverse("leaderboard", args=["joker"])


def test_the_leaderboard_reads_the_same_number_of_queries_for_one_page_or_many(people, django_user_model,
                                                                               django_assert_max_num_queries):
    client = client_for(people[0])
    now = timezone.now()
    users = [django_user_model.objects.create_user(f"many{i}", password=None) for i in range(120)]
    Rating.objects.bulk_create(Rating(user=u, engine="joker", mu=1500 + i, sigma=100, games=9, updated_at=now)
                               for i, u in enumerate(users))
    with django_assert_max_num_queries(6):
        response = client.get(reverse("leaderboard", args=["joker"]) + "?page=2")
    assert [rank for rank, _r in response.context["rows"]][:1] == [51]


def test_the_player_page_shows_each_games_rating_with_a_provisional_mark_and_a_chart(people):
    play_rated_games(people, 2)
    response = client_for(people[1]).get(reverse("player", args=["board0"]))
    row = response.context["ratings"][0]
    assert row["engine"] == "joker" and row["rating"].games == 2 and row["rating"].is_provisional
    assert row["chart"] is not None and len(row["chart"].points.split()) == 2
    assert 'class="provisional"' in response.text and "<polyline" in response.text


def test_a_player_without_rated_games_has_no_ratings_yet(people):
    response = client_for(people[1]).get(reverse("player", args=["board0"]))
    assert response.context["ratings"] == []
    assert "No rated games yet." in response.text


def test_the_chart_puts_the_highest_rating_at_the_top_and_the_lowest_at_the_bottom():
    chart = rating_chart([10, 30, 20])
    ys = [float(p.split(",")[1]) for p in chart.points.split()]
    assert ys[1] < ys[2] < ys[0]
    assert (chart.low, chart.high) == (10, 30)
    assert rating_chart([5]) is None
    assert rating_chart([7, 7]).points  # a flat line still draws


def test_a_provisional_player_is_listed_under_the_leaderboard_with_a_mark_and_the_reason(people):
    play_rated_games(people, 1)
    response = client_for(people[0]).get(reverse("leaderboard", args=["joker"]))
    assert response.context["rows"] == []
    assert "a player joins it on finishing 5 rated games" in response.text
    section = response.text.split('id="provisional"')[1]
    assert "Board 0" in section and "Board 3" in section and 'class="provisional"' in section
    assert "fewer than 5 rated games" in section


def test_the_rating_chart_has_a_value_axis_and_a_date_axis(people):
    play_rated_games(people, 3)
    response = client_for(people[1]).get(reverse("player", args=["board0"]))
    chart = response.context["ratings"][0]["chart"]
    assert [tick.label for tick in chart.values] == [str(v) for v in sorted({chart.high, chart.low,
                                                                             round((chart.low + chart.high) / 2)},
                                                                            reverse=True)]
    viewers_today = timezone.localdate(timezone=zoneinfo.ZoneInfo(people[1].time_zone))  # the page's zone, his
    assert chart.dates and chart.dates[0].label == viewers_today.strftime("%m/%d/%Y")
    svg = response.text.split('class="rating-chart"')[1].split("</svg>")[0]
    assert 'class="axis value-axis"' in svg and 'class="axis date-axis"' in svg
    assert f">{chart.high}</text>" in svg and f">{chart.dates[0].label}</text>" in svg


def test_the_chart_labels_its_first_and_last_date():
    from datetime import date

    chart = rating_chart([10, 30, 20], [date(2026, 1, 2), date(2026, 1, 5), date(2026, 2, 1)])
    assert [t.label for t in chart.dates] == ["2026-01-02", "2026-02-01"]
    assert [t.label for t in chart.values] == ["30", "20", "10"]
    assert chart.values[0].position < chart.values[-1].position  # the highest at the top


def test_the_leaderboard_pages_its_players_without_counting_them(people, django_user_model):
    client = client_for(people[0])
    now = timezone.now()
    users = [django_user_model.objects.create_user(f"paged{i}", password=None) for i in range(120)]
    Rating.objects.bulk_create(Rating(user=u, engine="joker", mu=1500 + i, sigma=100, games=9, updated_at=now)
                               for i, u in enumerate(users))
    url = reverse("leaderboard", args=["joker"])
    with CaptureQueriesContext(connection) as queries:
        second = client.get(url + "?page=2")
    assert not any("COUNT(" in q["sql"].upper() for q in queries.captured_queries)
    assert [rank for rank, _r in second.context["rows"]] == list(range(51, 101))
    assert "Page 2<" in second.text and 'href="?page=3"' in second.text and 'href="?page=1"' in second.text
    last = client.get(url + "?page=3")
    assert [rating.user.username for _rank, rating in last.context["rows"]] == [f"paged{i}" for i in range(19, -1, -1)]
    assert 'rel="next"' not in last.text
    # A page past the end (a hand-made link) shows the last one, as the other lists do.
    beyond = client.get(url + "?page=9")
    assert beyond.context["page"].number == 3 and len(beyond.context["rows"]) == 20


def test_equal_provisional_ratings_are_listed_in_the_order_the_players_joined(people, django_user_model):
    now = timezone.now()
    users = [django_user_model.objects.create_user(name, password=None) for name in ("zed", "amy", "kim")]
    Rating.objects.bulk_create(Rating(user=u, engine="joker", mu=1500, sigma=100, games=2, updated_at=now)
                               for u in users)
    response = client_for(people[0]).get(reverse("leaderboard", args=["joker"]))
    assert [r.user.username for r in response.context["provisional"]] == ["zed", "amy", "kim"]
