"""My games: every game I sit in, my moves first by the nearest deadline,
then the games waiting for others, my open tables and the games that ended
lately; with the other players, whose move it is and the time left; in a
fixed number of queries whatever the number of games."""

from datetime import datetime, time, timedelta, UTC

import re

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from correspondence import selectors
from gameplay import labels, services
from gameplay.models import Game, Seat

from .conftest import client_for, durak_between

pytestmark = pytest.mark.django_db


def put_on_clock(game: Game, user, deadline: datetime, reserve: int = 0) -> None:
    """Make it `user`'s move in `game` until `deadline` (and nobody else's)."""
    Seat.objects.filter(game=game).update(deadline=None, clock_started_at=None)
    Seat.objects.filter(game=game, user=user).update(deadline=deadline, clock_started_at=timezone.now(),
                                                     reserve_seconds_left=reserve, in_reserve=False)


def test_my_moves_come_first_the_nearest_deadline_on_top_then_the_others_then_open_then_finished(players):
    me, a, b, c, d = players
    now = timezone.now()
    later = durak_between(me, a)
    sooner = durak_between(me, b)
    theirs = durak_between(me, c)
    put_on_clock(later, me, now + timedelta(hours=20))
    put_on_clock(sooner, me, now + timedelta(hours=2))
    put_on_clock(theirs, c, now + timedelta(hours=1))
    open_table = services.create_game(me, "durak", {}, players=2)
    ended = durak_between(me, d)
    services.resign(ended.pk, me)

    rows = selectors.my_games(me)

    assert [row.game_id for row in rows] == [sooner.pk, later.pk, theirs.pk, open_table.pk, ended.pk]
    assert [row.group for row in rows] == ["my_move", "my_move", "waiting", "open", "finished"]
    assert [p.name for p in rows[2].on_move] == [c.name]
    assert rows[4].result["place"] == 2


def test_a_row_names_the_other_players_with_their_ratings_and_the_partner_in_pairs(players):
    me, a, b, c, _ = players
    game = services.create_seated_game([me, a, b, c], "durak", {"teams": True})
    row = selectors.my_games(me)[0]
    assert row.partner.name == b.name  # seat 2 sits opposite seat 0
    assert sorted(p.name for p in row.opponents) == sorted([a.name, c.name])
    assert all(p.rating is not None for p in row.others)
    assert row.engine == "durak" and row.variant == labels.variant_label(game)


def test_my_time_left_is_the_move_time_then_the_reserve_counted_with_my_night_pause(players):
    me, a, *_ = players
    me.night_pause_start, me.night_pause_end = time(23, 0), time(7, 0)
    me.save()
    game = durak_between(me, a, time_preset="correspondence")
    deadline = datetime(2030, 1, 1, 20, 0, tzinfo=UTC)
    put_on_clock(game, me, deadline, reserve=6 * 3600)
    row = selectors.my_games(me, now=datetime(2030, 1, 1, 12, 0, tzinfo=UTC))[0]
    # 20:00 + 3 h to the night, 8 h of night, then the 3 h left of the reserve: 10:00 the next day.
    assert row.me.clock.deadline == deadline
    assert row.me.clock.final_deadline == datetime(2030, 1, 2, 10, 0, tzinfo=UTC)
    assert row.me.clock.reserve_seconds == 6 * 3600


def test_a_vacation_moves_the_end_of_the_reserve_as_the_clocks_count_it(players):
    me, a, *_ = players
    game = durak_between(me, a)
    deadline = timezone.now() + timedelta(hours=1)
    put_on_clock(game, me, deadline, reserve=3600)
    Vacation.objects.create(user=me, starts_at=deadline + timedelta(minutes=30), ends_at=deadline + timedelta(days=2))
    row = selectors.my_games(me)[0]
    assert row.me.clock.final_deadline == deadline + timedelta(days=2, minutes=30)


def test_games_that_ended_long_ago_leave_the_list(players):
    me, a, *_ = players
    game = durak_between(me, a)
    services.resign(game.pk, me)
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(days=selectors.RECENT_DAYS + 1))
    assert selectors.my_games(me) == []


def test_the_page_shows_the_rows_in_my_time_zone(players):
    me, a, *_ = players
    me.time_zone = "Asia/Tbilisi"  # UTC+4
    me.save()
    game = durak_between(me, a)
    put_on_clock(game, me, datetime(2030, 3, 5, 10, 0, tzinfo=UTC))
    page = client_for(me).get(reverse("my_games"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Tue 5 Mar, 14:00" in html
    assert a.name in html and "Your move" in html


def _many_games(me, others, count: int) -> None:
    for n in range(count):
        game = durak_between(me, others[n % len(others)])
        if n % 3 == 0:
            services.resign(game.pk, others[n % len(others)])


def _page_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_page_and_its_live_list_run_as_many_queries_with_200_games_as_with_5(players, django_user_model):
    me, *others = players
    few_user = django_user_model.objects.create_user("few", password="pw", language="en")
    _many_games(few_user, others, 5)
    _many_games(me, others, 200)
    for url in (reverse("my_games"), reverse("my_games_fragment"), reverse("my_games_fragment") + "?compact=1"):
        few = _page_queries(client_for(few_user), url)
        many = _page_queries(client_for(me), url)
        assert few == many, url


def test_the_list_never_loads_a_games_state(players):
    me, a, *_ = players
    durak_between(me, a)
    with CaptureQueriesContext(connection) as queries:
        selectors.my_games(me)
    assert not any('"state"' in q["sql"] for q in queries.captured_queries)
    assert len(queries) == 6  # my seats' ids, those seats, the ended ones, all their seats, ratings, vacations


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plan does not depend on statistics")
def test_the_list_reads_my_unfinished_seats_from_their_index_not_my_history(players):
    me, a, *_ = players
    durak_between(me, a)
    sql, params = selectors.current_seats(me).values_list("pk", "game_id").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
    assert "gameplay_seat USING INDEX seat_user_unfinished" in plan, plan


def test_the_page_shows_20_games_at_a_time_in_the_lists_order_across_pages(players):
    me, *others = players
    now = timezone.now()
    games = [durak_between(me, others[n % 4]) for n in range(25)]
    for n, game in enumerate(games):  # the last created is the most urgent
        put_on_clock(game, me, now + timedelta(hours=100 - n))
    client = client_for(me)
    first = client.get(reverse("my_games")).content.decode()
    second = client.get(reverse("my_games") + "?page=2").content.decode()
    order = [game.pk for game in reversed(games)]
    assert [int(pk) for pk in re.findall(r'data-game="(\d+)"', first)] == order[:20]
    assert [int(pk) for pk in re.findall(r'data-game="(\d+)"', second)] == order[20:]
    assert "Page 1 of 2" in first and 'href="/my-games/?page=2"' in first
    assert 'data-live-list="/my-games/list/?page=2"' in second


def test_pages_that_run_past_my_moves_keep_the_lists_order(players):
    """The pages within my moves are read from those alone; a page that
    runs past them orders everything, and the two agree on the order."""
    me, *others = players
    now = timezone.now()
    for n in range(23):
        game = durak_between(me, others[n % 4])
        if n % 4 == 3:  # waiting for the other player
            put_on_clock(game, others[n % 4], now + timedelta(hours=n))
        else:
            put_on_clock(game, me, now + timedelta(hours=50 - n))
    services.create_game(me, "durak", {}, players=2)  # an open table, last
    whole = [row.game_id for row in selectors.my_games(me, finished=False)]
    paged = []
    for per_page in (3, 5, 17, 20):
        paged = []
        for number in range(1, 30):
            rows, page = selectors.my_games_page(me, number, per_page, finished=False)
            paged += [row.game_id for row in rows]
            if not page.has_next():
                break
        assert paged == whole, per_page
    assert [row.group for row in selectors.my_games(me, finished=False)] == ["my_move"] * 18 + ["waiting"] * 5 + ["open"]


def test_a_clock_left_running_at_a_game_no_longer_in_play_does_not_cut_a_page_short(players):
    """His moves are counted from their index alone, which does not know the
    game's status; a page that finds fewer of them than counted is ordered
    from everything instead."""
    me, a, b, c, d = players
    now = timezone.now()
    for other, hours in ((a, 2), (b, 3)):
        put_on_clock(durak_between(me, other), me, now + timedelta(hours=hours))
    put_on_clock(durak_between(me, d), d, now + timedelta(hours=4))  # waiting for the other player
    stray = durak_between(me, c)
    put_on_clock(stray, me, now + timedelta(hours=1))
    Game.objects.filter(pk=stray.pk).update(status=Game.Status.ABORTED)  # its seats keep their deadline
    rows, page = selectors.my_games_page(me, 1, 3, finished=False)
    assert [row.game_id for row in rows] == [row.game_id for row in selectors.my_games(me, finished=False)]
    assert [row.group for row in rows] == ["my_move", "my_move", "waiting"] and page.paginator.count == 3


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's plan does not depend on statistics")
def test_a_page_within_my_moves_walks_their_index_in_order_and_sorts_nothing(players):
    me, a, *_ = players
    durak_between(me, a)
    sql, params = selectors._my_moves(me).values_list("pk", "game_id")[:20].query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        plan = " | ".join(str(row[-1]) for row in cursor.fetchall())
    assert "gameplay_seat USING INDEX seat_user_on_clock" in plan, plan
    assert "TEMP B-TREE" not in plan, plan


def test_the_lobby_links_to_the_live_list(players):
    me, a, *_ = players
    durak_between(me, a)
    html = client_for(me).get(reverse("lobby")).content.decode()
    assert reverse("my_games_fragment") + "?compact=1" in html
    compact = client_for(me).get(reverse("my_games_fragment") + "?compact=1").content.decode()
    assert "Your move" in compact or "Waiting" in compact or a.name in compact


def test_a_visitor_is_sent_to_log_in():
    response = client_for_anonymous().get(reverse("my_games"))
    assert response.status_code == 302 and "login" in response["Location"]


def client_for_anonymous():
    from django.test import Client

    return Client()


def test_my_games_and_the_lobby_say_how_many_challenges_wait_for_my_answer(players):
    from correspondence import services as correspondence

    me, a, *_ = players
    correspondence.create_challenge(a, ["player0"], "durak", {}, {})
    for url in (reverse("my_games"), reverse("my_games_fragment") + "?compact=1"):
        html = client_for(me).get(url).content.decode()
        assert "1 challenge is waiting for your answer." in html and reverse("challenges") in html


def test_the_page_is_in_russian_for_a_russian_speaking_player(players):
    me, a, *_ = players
    me.language = "ru"
    me.save()
    game = durak_between(me, a)
    put_on_clock(game, me, timezone.now() + timedelta(hours=3))
    html = client_for(me).get(reverse("my_games")).content.decode()
    assert "Ваш ход" in html and "Последний ход" in html and "Моё время" in html and "Дурак" in html


def test_a_row_escapes_the_names_and_shows_the_opponents_clock_in_my_language(players):
    me, a, *_ = players
    me.language = "ru"
    me.save()
    a.display_name = 'Anna <b>"&'
    a.save()
    game = durak_between(me, a)
    with time_machine.travel(datetime(2030, 3, 5, 9, 0, tzinfo=UTC), tick=False):
        put_on_clock(game, a, datetime(2030, 3, 5, 14, 30, tzinfo=UTC), reserve=2 * 86400)
        html = client_for(me).get(reverse("my_games")).content.decode()
    row = html[html.index(f'data-game="{game.pk}"'):]
    row = row[:row.index("</tr>")]
    assert "<b>" not in row
    assert ('<span class="their-clock">Anna &lt;b&gt;&quot;&amp;: <span class="clock">5 ч 30 мин + 2 д</span> '
            '<small class="muted deadline-at">Чт 7 Мар, 14:30</small></span>') in row
    assert '<td class="turn" data-label="Ход">Anna &lt;b&gt;&quot;&amp;</td>' in row and ">Открыть</a>" in row
