"""`create_seated_game` (every league fixture's start; a draw makes thousands):
the same started table as its first player creating it and the others
joining, in a fixed handful of queries, with no fan-out after its commit
(nobody can have its page open) and the same follow-up work queued."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game, Seat
from gameplay.services import after_commit
from gameplay.services.base import GameError
from tests.gameplay.test_move_queries import queued  # noqa: F401

pytestmark = pytest.mark.django_db

# In the test's transaction: SAVEPOINT, INSERT the started game, INSERT its
# seats, SELECT the players' vacations (their clocks), UPDATE the seats'
# clocks (one executemany), RELEASE SAVEPOINT. Not one per seat.
SEATED_GAME_QUERIES = 6

SEAT_FIELDS = ["position", "user_id", "is_bot", "team", "reserve_seconds_left", "in_reserve", "warned", "turn_notified",
               "place", "points"]


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"seated{i}", password=None, language="en") for i in range(8)]


@pytest.fixture
def fan_out(monkeypatch):
    sent = []
    monkeypatch.setattr("gameplay.broadcast.send_game", lambda game, events=None: sent.append(game.pk))
    return sent


def joined_game(users, engine: str, options=None, **table) -> Game:
    """The same table made as a player makes it: created by the first, joined seat by seat."""
    game = services.create_game(users[0], engine, options, players=len(users), **table)
    for position, user in enumerate(users[1:], start=1):
        services.join_game(game.pk, user, position)
    return Game.objects.get(pk=game.pk)


def seats_of(game: Game) -> list[dict]:
    """Each seat as stored; its clock by whether the game waits for it (the two games' deals differ)."""
    waits_for = get_engine(game.engine).actors(game.state)
    return [{name: getattr(seat, name) for name in SEAT_FIELDS}
            | {"clock_as_due": (seat.deadline is not None) == (seat.position in waits_for)}
            for seat in Seat.objects.filter(game=game).order_by("position")]


@pytest.mark.parametrize("engine,players,options", [("joker", 4, {}), ("durak", 4, {"teams": True}),
                                                    ("odessa", 3, {"deck": 52}), ("ipuker", 4, {})])
def test_the_table_is_the_one_its_players_would_have_made_by_joining(people, engine, players, options):
    users = people[:players]
    table = {"time_preset": "correspondence", "rated": True}
    seated = services.create_seated_game(users, engine, options, **table)
    joined = joined_game(users, engine, options, **table)
    stored = Game.objects.get(pk=seated.pk)
    assert stored.state == get_engine(engine).start(players=players, options=stored.options, seed=int(stored.seed))
    assert seated.state == stored.state and seated.version == stored.version == 0
    for name in ("engine", "options", "seats_count", "status", "rated", "time_preset", "move_seconds",
                 "reserve_seconds", "night_pause", "timer_seconds", "rules_version", "created_by_id", "version"):
        assert getattr(stored, name) == getattr(joined, name), name
    assert stored.started_at is not None and stored.turn_started_at == stored.started_at
    assert seats_of(stored) == seats_of(joined)
    assert all(s["clock_as_due"] for s in seats_of(stored))
    running = [{s.clock_seconds for s in Seat.objects.filter(game=g).exclude(deadline=None)} for g in (stored, joined)]
    assert running[0] == running[1] and running[0]


def test_a_seated_game_takes_a_fixed_handful_of_queries_and_sends_no_views(
        people, queued, fan_out, django_capture_on_commit_callbacks):
    with CaptureQueriesContext(connection) as made:
        with django_capture_on_commit_callbacks() as callbacks:
            game = services.create_seated_game(people[:4], "joker", {}, time_preset="correspondence")
    assert len(made) == SEATED_GAME_QUERIES, [q["sql"][:80] for q in made.captured_queries]
    with CaptureQueriesContext(connection) as after:
        for callback in callbacks:
            callback()
    assert len(after) == 0 and fan_out == []  # no page can show a game made in this transaction
    after_commit.wait_until_queued(timeout=10)  # the task is queued by a thread of its own
    assert len(queued) == 1  # its follow-up work, as for any start: the clock, "your move"
    follow_up = queued[0]
    acting = get_engine("joker").actors(game.state)
    assert follow_up["game_id"] == game.pk and follow_up["deadlines"] is True
    assert follow_up["clock_started"] == acting
    assert follow_up["turn_changed"] == sorted(people[p].pk for p in acting)


def test_the_same_follow_up_as_a_table_its_players_joined(people, queued, fan_out, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        seated = services.create_seated_game(people[:4], "joker", {}, time_preset="correspondence")
    with django_capture_on_commit_callbacks(execute=True):
        joined = joined_game(people[4:8], "joker", {}, time_preset="correspondence")
    assert fan_out == [joined.pk] * 3  # the joined table sent its views at each join; the seated one none
    after_commit.wait_until_queued(timeout=10)
    by_game = {task["game_id"]: task for task in queued}
    assert set(by_game) == {seated.pk, joined.pk}
    seated_task, joined_task = by_game[seated.pk], by_game[joined.pk]
    assert seated_task["deadlines"] == joined_task["deadlines"] and seated_task["bot"] == joined_task["bot"]
    assert seated_task["started"] == joined_task["started"] is True
    assert seated_task["published"] == joined_task["published"] == []
    users = {u.pk: i for i, u in enumerate(people)}
    positions = {"seated": [users[u] for u in seated_task["turn_changed"]],
                 "joined": [users[u] - 4 for u in joined_task["turn_changed"]]}
    joker = get_engine("joker")
    assert positions["seated"] == joker.actors(seated.state) and positions["joined"] == joker.actors(joined.state)


def test_a_player_twice_or_bad_settings_are_refused_and_nothing_is_written(people):
    games = Game.objects.count()
    with pytest.raises(GameError, match="already have a seat"):
        services.create_seated_game([people[0], people[1], people[0], people[2]], "joker", {})
    with pytest.raises(GameError):
        services.create_seated_game(people[:2], "joker", {})  # Joker is for four
    with pytest.raises(GameError):
        services.create_seated_game(people[:4], "odessa", {"deck": 40})
    assert Game.objects.count() == games and not Seat.objects.exists()
