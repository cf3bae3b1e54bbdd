"""Pages that list games, seats, moves or chat run as many queries with many
rows as with few, never load a game's state for a list, and paginate.

Each test builds the same page twice, once with 2 rows and once with 12
(games, moves, seats, chat messages, games of a series), and compares the
queries. See bench/pages.py for the times with 10,000 games.
"""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from gameplay.engine import get_engine
from gameplay.models import ChatMessage, Game, Move, Seat

from .conftest import client_for

pytestmark = pytest.mark.django_db

JOKER = get_engine("joker")
DURAK = get_engine("durak")
FEW, MANY = 2, 12
STATE_COLUMN = re.compile(r'\."(state|history)"')  # only games have columns of those names


@pytest.fixture
def moderator(django_user_model):
    return django_user_model.objects.create_superuser("moderator", password="pw", email="m@example.com", language="en")


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en")
            for i in range(4)]


def add_games(players, count: int, status: str, moves: int = 0, chat: int = 0) -> list[Game]:
    """`count` Joker games of the four players, player 0 in seat 0 and on the
    clock in the games in play; with `moves` moves and `chat` messages each."""
    state = JOKER.start(players=4, options={}, seed=7)
    games = []
    for _ in range(count):
        game = Game.objects.create(engine="joker", seats_count=4, created_by=players[0], status=status,
                                   state=None if status == "open" else state,
                                   finished_at=timezone.now() if status in ("finished", "aborted") else None)
        Seat.objects.bulk_create(
            Seat(game=game, position=p, user=players[p] if status != "open" or p == 0 else None,
                 deadline=timezone.now() if status == "active" and p == 0 else None,
                 place=p + 1 if status == "finished" else None, points=10.0 * p if status == "finished" else None)
            for p in range(4)
        )
        Move.objects.bulk_create(Move(game=game, seq=seq, position=seq % 4, action={"type": "bid", "tricks": seq % 3},
                                      user=players[seq % 4]) for seq in range(1, moves + 1))
        ChatMessage.objects.bulk_create(ChatMessage(game=game, user=players[n % 4], text=f"hello {n}")
                                        for n in range(chat))
        games.append(game)
    return games


def captured(client, url: str) -> list[str]:
    """The SQL of the queries one request of `url` runs (it must answer 200)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return [query["sql"] for query in queries.captured_queries]


def query_counts(client, url: str, grow) -> tuple[int, int]:
    """The queries of `url` before and after `grow()` adds rows (after a
    first request, which fills the process' caches, e.g. of content types)."""
    captured(client, url)
    before = len(captured(client, url))
    grow()
    return before, len(captured(client, url))


# --- the lobby and the profile ------------------------------------------------------


def every_kind_of_game(players, count: int) -> None:
    for status in ("open", "active", "finished", "aborted"):
        add_games(players, count, status)


def test_the_lobby_runs_as_many_queries_with_twelve_games_of_each_kind_as_with_two(players):
    client = client_for(players[0])
    every_kind_of_game(players, FEW)
    few, many = query_counts(client, reverse("lobby"), lambda: every_kind_of_game(players, MANY - FEW))
    assert few == many


def test_the_profile_runs_as_many_queries_with_twelve_games_of_each_kind_as_with_two(players):
    client = client_for(players[0])
    every_kind_of_game(players, FEW)
    few, many = query_counts(client, reverse("profile"), lambda: every_kind_of_game(players, MANY - FEW))
    assert few == many


@pytest.mark.parametrize("page, args", [("lobby", []), ("profile", []), ("player", ["player1"])])
def test_the_lobby_the_profile_and_the_player_page_never_load_a_games_state(players, page, args):
    every_kind_of_game(players, 3)
    queries = captured(client_for(players[0]), reverse(page, args=args))
    assert not [sql for sql in queries if STATE_COLUMN.search(sql)]


def test_the_lobby_shows_a_page_of_my_games_with_those_waiting_for_my_move_first(players):
    waiting = add_games(players, 2, "active")
    Seat.objects.filter(game__in=waiting[:1], position=0).update(deadline=None)  # someone else's move there
    open_tables = add_games(players, 25, "open")
    page = client_for(players[0]).get(reverse("lobby"))
    rows = page.context["my_games"]
    assert [row["game"] for row in rows[:2]] == [waiting[1], waiting[0]]
    assert [row["my_turn"] for row in rows[:2]] == [True, False]
    assert [row["game"] for row in rows[2:]] == open_tables[::-1][:18]  # the newest first
    assert page.context["my_games_page"].paginator.count == 27
    text = page.content.decode()
    assert "Page 1 of 2" in text and 'href="?page=2#my-games"' in text

    second = client_for(players[0]).get(reverse("lobby"), {"page": 2})
    assert [row["game"] for row in second.context["my_games"]] == open_tables[::-1][18:]
    assert "Page 2 of 2" in second.content.decode()


def test_page_two_of_the_profile_shows_the_older_finished_games(players):
    finished = add_games(players, 45, "finished")
    client = client_for(players[0])
    first = client.get(reverse("profile"))
    second = client.get(reverse("profile"), {"page": 2})
    third = client.get(reverse("profile"), {"page": 3})
    newest_first = finished[::-1]
    assert [seat.game for seat in first.context["past"]] == newest_first[:20]
    assert [seat.game for seat in second.context["past"]] == newest_first[20:40]
    assert [seat.game for seat in third.context["past"]] == newest_first[40:]
    text = second.content.decode()
    assert "Page 2 of 3" in text
    assert 'href="?page=1#finished-games"' in text and 'href="?page=3#finished-games"' in text


def test_the_profile_pages_its_current_and_finished_games_apart(players):
    current = add_games(players, 25, "active")
    finished = add_games(players, 25, "finished")
    response = client_for(players[0]).get(reverse("profile"), {"current": 2, "page": 2})
    assert [row["game"] for row in response.context["current"]] == current[::-1][20:]
    assert [seat.game for seat in response.context["past"]] == finished[::-1][20:]
    text = response.content.decode()
    # Each list's links keep the other list's page.
    assert 'href="?current=1&amp;page=2#current-games"' in text
    assert 'href="?current=2&amp;page=1#finished-games"' in text


@pytest.mark.parametrize("number, shown", [
    ("abc", 1), ("", 1), ("1.5", 1), ("1e3", 1), ("0", 2), ("-1", 2), ("3", 2), ("999999999999999999999999", 2),
    ("%00", 1), ("２", 2),
])
def test_a_bad_page_number_gives_the_first_or_the_last_page_never_an_error(players, number, shown):
    finished = add_games(players, 25, "finished")
    client = client_for(players[0])
    profile = client.get(reverse("profile"), {"page": number})
    assert profile.status_code == 200
    assert profile.context["past"].number == shown
    assert [seat.game for seat in profile.context["past"]] == finished[::-1][(shown - 1) * 20:shown * 20]
    lobby = client.get(reverse("lobby"), {"page": number})
    assert lobby.status_code == 200 and lobby.context["my_games_page"].number == 1  # no games in play: one page


def test_without_games_the_lists_say_so_and_show_no_pages(players):
    response = client_for(players[0]).get(reverse("profile"), {"page": 5, "current": "x"})
    assert response.status_code == 200
    assert response.context["current"] == [] and list(response.context["past"]) == []
    assert "No finished games yet." in response.content.decode()
    assert "Page " not in response.content.decode()


# --- the admin ---------------------------------------------------------------------------------


@pytest.mark.parametrize("model", ["game", "seat", "move", "chatmessage"])
def test_each_admin_list_runs_as_many_queries_with_twelve_games_as_with_two(moderator, players, model):
    client = client_for(moderator)
    add_games(players, FEW, "finished", moves=3, chat=2)
    few, many = query_counts(client, reverse(f"admin:gameplay_{model}_changelist"),
                             lambda: add_games(players, MANY - FEW, "active", moves=3, chat=2))
    assert few == many


@pytest.mark.parametrize("model", ["game", "seat", "move", "chatmessage"])
def test_no_admin_list_loads_a_games_state(moderator, players, model):
    add_games(players, 3, "finished", moves=3, chat=2)
    queries = captured(client_for(moderator), reverse(f"admin:gameplay_{model}_changelist"))
    assert not [sql for sql in queries if STATE_COLUMN.search(sql)]


def test_the_admin_game_page_runs_as_many_queries_with_twelve_moves_as_with_two(moderator, players):
    client = client_for(moderator)
    game = add_games(players, 1, "active", moves=FEW)[0]

    def more_moves():
        Move.objects.bulk_create(Move(game=game, seq=seq, position=seq % 4, action={"type": "bid", "tricks": 1},
                                      user=players[seq % 4]) for seq in range(FEW + 1, MANY + 1))

    few, many = query_counts(client, reverse("admin:gameplay_game_change", args=[game.pk]), more_moves)
    assert few == many


def test_the_admin_game_page_shows_the_last_moves_and_links_to_all_of_them(moderator, players):
    game = add_games(players, 1, "finished", moves=25)[0]
    Move.objects.filter(game=game, seq=25).update(action={"type": "play", "card": "QS"})
    text = client_for(moderator).get(reverse("admin:gameplay_game_change", args=[game.pk])).content.decode()
    assert "The last 20 moves" in text and "QS" in text
    link = reverse("admin:gameplay_move_changelist") + f"?game__id__exact={game.pk}"
    assert f'href="{link}"' in text
    moves = client_for(moderator).get(link)
    assert moves.status_code == 200
    assert {move.game_id for move in moves.context["cl"].result_list} == {game.pk}
    assert [move.seq for move in moves.context["cl"].result_list] == list(range(1, 26))  # in order


@pytest.mark.parametrize("model", ["seat", "move", "chatmessage"])
def test_each_admin_change_page_runs_as_many_queries_with_twelve_games_as_with_two(moderator, players, model):
    client = client_for(moderator)
    game = add_games(players, FEW, "finished", moves=2, chat=2)[0]
    row = {"seat": game.seats.first(), "move": game.moves.first(), "chatmessage": game.chat.first()}[model]
    few, many = query_counts(client, reverse(f"admin:gameplay_{model}_change", args=[row.pk]),
                             lambda: add_games(players, MANY - FEW, "finished", moves=2, chat=2))
    assert few == many


def test_the_admin_filters_offer_every_game_kind_without_reading_the_games(moderator, players):
    add_games(players, 2, "finished")
    queries = captured(client_for(moderator), reverse("admin:gameplay_game_changelist"))
    assert not [sql for sql in queries if "DISTINCT" in sql]
    text = client_for(moderator).get(reverse("admin:gameplay_move_changelist")).content.decode()
    for slug in ("joker", "durak", "ipuker", "odessa", "domino_poker"):
        assert f"?game__engine__exact={slug}" in text


# --- the series score sheet ----------------------------------------------------------------------


def finished_durak_state(seed: int) -> dict:
    rng = random.Random(seed)
    state = DURAK.start(players=3, options={}, seed=seed)
    while not DURAK.is_over(state):
        seat = DURAK.actors(state)[0]
        state, _ = DURAK.apply(state, seat, rng.choice(DURAK.legal_actions(state, seat)))
    return state


def series(players, length: int) -> Game:
    """A Durak series of `length` games (room for 20), all finished but the
    last; returns the last, whose sheet shows the series."""
    final = finished_durak_state(3)
    outcome = DURAK.outcome(final)
    first = last = None
    for number in range(1, length + 1):
        over = number < length
        last = Game.objects.create(engine="durak", seats_count=3, created_by=players[0], series_length=20,
                                   series_first=first, series_number=number,
                                   status="finished" if over else "active",
                                   state=final if over else DURAK.start(players=3, options={}, seed=number))
        Seat.objects.bulk_create(Seat(game=last, position=p, user=players[p],
                                      points=outcome["scores"][p] if over else None) for p in range(3))
        first = first or last
    return last


def test_a_series_sheet_runs_as_many_queries_with_twelve_games_as_with_two(players):
    client = client_for(players[0])
    short = reverse("sheet", args=[series(players, FEW).pk])
    captured(client, short)
    few = len(captured(client, short))
    many_games = series(players, MANY)
    many = len(captured(client, reverse("sheet", args=[many_games.pk])))
    assert few == many
    text = client.get(reverse("sheet", args=[many_games.pk])).content.decode()
    assert text.count("is the durak") == MANY - 1
