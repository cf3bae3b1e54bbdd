"""The queries of the hot path, a move, are counted so that a regression fails here.

A move's request runs one locked transaction (the service) and, after its
commit, the fan-out of every seat's view, built from what the transaction
already read (no query), and the queueing of its follow-up Celery task
(`tasks.after_changes`) with the rest: the deadline task, "your turn" emails,
badges, the computer's move. The task's queries are counted too, apart.
"""

import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import Vacation
from gameplay import broadcast, services, tasks
from gameplay.models import Game, Move
from gameplay.services import after_commit
from gameplay.services.base import insert_rows, locked_game, save_rows, writes_sent_together
from gameplay.engine import get_engine
from tests.engine.durak_helpers import scripted

from .conftest import JOKER, acting_player, started_game

DURAK = get_engine("durak")

# In the request: SAVEPOINT, the locked game, its seats with their users (and
# whether each has a vacation), the game's UPDATE, one UPDATE of the seats
# whose clocks changed, the Move INSERT, RELEASE. On PostgreSQL the two reads
# go to the server in one call (`services.prepared.run_together`), and so do
# the three writes (`services.base.writes_sent_together`).
# The fan-out after the commit: nothing. A player with a recent or coming
# vacation: one more query.
SQLITE_REQUEST_QUERIES = 7
POSTGRESQL_REQUEST_QUERIES = 4


def request_queries() -> int:
    return POSTGRESQL_REQUEST_QUERIES if connection.vendor == "postgresql" else SQLITE_REQUEST_QUERIES


@pytest.fixture
def queued(monkeypatch, settings):
    """The tasks a move queues, caught instead of sent (no worker here); the
    deadline task is queued as in production (not eagerly skipped)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    caught = []
    monkeypatch.setattr(tasks.after_changes, "apply_async",
                        lambda kwargs, **options: caught.extend(kwargs["follow_ups"]))
    monkeypatch.setattr(tasks.enforce_deadlines, "apply_async", lambda *a, **k: None)
    monkeypatch.setattr(tasks.play_bot, "apply_async", lambda *a, **k: None)
    monkeypatch.setattr("notifications.emails.send_turn_email.apply_async", lambda *a, **k: None)
    return caught


def count_move(game, user, action, capture_on_commit, queued) -> tuple[int, int, int]:
    """(queries in the service's transaction, of its after-commit work in the
    request, of the task it queued)."""
    with CaptureQueriesContext(connection) as service:
        with capture_on_commit() as callbacks:
            services.submit_move(game.pk, user, action, game.version)
    with CaptureQueriesContext(connection) as after:
        for callback in callbacks:
            callback()
    after_commit.wait_until_queued(timeout=10)  # the task is queued by a thread of its own
    assert len(queued) == 1, "one task after the move"
    with CaptureQueriesContext(connection) as task:
        tasks.after_changes([queued[0]])
    return len(service), len(after), len(task)


@pytest.mark.django_db
def test_a_joker_move_costs_seven_queries_in_the_request_four_on_postgresql(
        joker_game, players, django_capture_on_commit_callbacks, queued):
    position, user = acting_player(joker_game, players)
    action = JOKER.legal_actions(joker_game.state, position)[0]
    counts = count_move(joker_game, user, action, django_capture_on_commit_callbacks, queued)
    assert counts == (request_queries(), 0, JOKER_MOVE_TASK)
    assert queued[0]["deadlines"] and queued[0]["clock_started"] and not queued[0]["bot"]


@pytest.mark.django_db
def test_a_durak_move_that_opens_the_throwers_window_costs_seven_queries_in_the_request_four_on_postgresql(
        players, django_capture_on_commit_callbacks, queued):
    game = started_game("durak", players[:3])
    state, _ = DURAK.apply(scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]], talon=["8S", "QH"]), 0,
                           {"type": "attack", "cards": ["7S"]})
    game.state = state
    game.save(update_fields=["state"])
    services.update_clocks(game, DURAK, game.started_at, mover=None)
    queued.clear()
    action = {"type": "beat", "attack": "7S", "card": "9S"}
    counts = count_move(game, players[1], action, django_capture_on_commit_callbacks, queued)
    assert counts == (request_queries(), 0, DURAK_WINDOW_MOVE_TASK)
    assert len(queued[0]["clock_started"]) == 2  # both throwers' clocks start


@pytest.mark.django_db
def test_a_vacation_of_a_player_costs_one_more_query_and_still_stops_his_clock(
        joker_game, players, django_capture_on_commit_callbacks, queued):
    position, user = acting_player(joker_game, players)
    action = JOKER.legal_actions(joker_game.state, position)[0]
    after, _ = JOKER.apply(joker_game.state, position, action)
    next_position = JOKER.actors(after)[0]
    next_user = next(s.user for s in joker_game.seats.all() if s.position == next_position)
    now = timezone.now()
    Vacation.objects.create(user=next_user, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(days=2))
    counts = count_move(joker_game, user, action, django_capture_on_commit_callbacks, queued)
    assert counts[:2] == (request_queries() + 1, 0)
    seat = joker_game.seats.get(position=next_position)
    assert seat.deadline > now + timedelta(days=2)  # his clock runs only after his vacation


@pytest.mark.django_db
def test_a_move_sent_again_after_it_was_applied_is_answered_from_its_record(joker_game, players):
    """The move_id is checked by the unique constraint and, on a refusal, by one query: not on every move."""
    position, user = acting_player(joker_game, players)
    action = JOKER.legal_actions(joker_game.state, position)[0]
    first = services.submit_move(joker_game.pk, user, action, joker_game.version, "m-1")
    again = services.submit_move(joker_game.pk, user, action, joker_game.version, "m-1")
    assert again.duplicate and again.version == first.version
    other = next(u for u in players if u != user)
    with pytest.raises(services.GameError) as refused:
        services.submit_move(joker_game.pk, other, action, joker_game.version, "m-1")
    assert refused.value.code == "bad_request"


# The task: the deadline check (the game's next clock event comes with the
# follow-up, from the seats the move's transaction held; a deadline within the
# task horizon writes the game's deadline_check_at), "your turn" (who wants an
# email), each changed player's badge count.
JOKER_MOVE_TASK = 3  # the next deadline is a day away: beyond the horizon
DURAK_WINDOW_MOVE_TASK = 4


@pytest.mark.django_db
def test_the_next_clock_event_a_follow_up_carries_is_the_one_the_seats_hold(
        joker_game, players, django_capture_on_commit_callbacks, queued):
    position, user = acting_player(joker_game, players)
    action = JOKER.legal_actions(joker_game.state, position)[0]
    count_move(joker_game, user, action, django_capture_on_commit_callbacks, queued)
    carried = queued[0]["clock_event_at"]
    assert carried is not None
    assert carried == tasks.next_clock_event(joker_game.pk).timestamp()


@pytest.mark.django_db
def test_the_fan_out_of_a_change_that_moved_no_clock_reads_vacations_only_of_those_who_have_one(
        joker_game, players):
    """The clocks read the vacations of those who have one (`has_vacations`)
    when a clock stops or starts; a change that moved none (a seat taken, a
    move by someone whose clock was not running) leaves the fan-out to read
    them: only for a player who has one."""
    def fan_out_queries() -> tuple[int, dict]:
        with transaction.atomic():
            game = locked_game(joker_game.pk, seats=True)
            with CaptureQueriesContext(connection) as captured:
                fan_out = broadcast.FanOut(game, [])
        away = {p["position"]: p["vacation_until"] for p in fan_out.shared["players"] if p["vacation_until"]}
        return len(captured), away

    assert fan_out_queries() == (0, {})
    now = timezone.now()
    Vacation.objects.create(user=players[2], starts_at=now - timedelta(hours=1), ends_at=now + timedelta(days=2))
    queries, away = fan_out_queries()
    assert queries == 1 and list(away) == [next(s.position for s in joker_game.seats.all() if s.user == players[2])]


@pytest.mark.django_db
def test_writes_sent_together_land_together_and_a_refused_one_is_raised_at_the_blocks_end(joker_game):
    version = joker_game.version
    joker_game.version = version + 1
    with CaptureQueriesContext(connection) as captured:
        with transaction.atomic():
            with writes_sent_together():
                save_rows([joker_game], ["version"])
                insert_rows([Move(game=joker_game, seq=version + 1, position=0, action={"type": "x"},
                                  by=Move.By.PLAYER, client_move_id="together")])
                assert Game.objects.get(pk=joker_game.pk).version == version  # not sent yet
    assert Game.objects.get(pk=joker_game.pk).version == version + 1
    assert Move.objects.filter(game=joker_game, client_move_id="together").count() == 1
    sent = [q for q in captured.captured_queries if "gameplay_move" in q["sql"] or "gameplay_game" in q["sql"]]
    assert len(sent) == (2 if connection.vendor != "postgresql" else 1) + 1  # + the check inside

    joker_game.version = version + 2
    with pytest.raises(IntegrityError), transaction.atomic():
        with writes_sent_together():
            save_rows([joker_game], ["version"])
            insert_rows([Move(game=joker_game, seq=version + 2, position=0, action={"type": "x"},
                              by=Move.By.PLAYER, client_move_id="together")])  # the id is taken
    assert Game.objects.get(pk=joker_game.pk).version == version + 1  # nothing of the block stayed


@pytest.mark.django_db
def test_the_locked_game_and_its_seats_are_read_in_one_call_on_postgresql(joker_game):
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        game = locked_game(joker_game.pk, seats=True)
        seats = list(game.seats.all())
    reads = [q for q in captured.captured_queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(reads) == (1 if connection.vendor == "postgresql" else 2)
    assert "FOR UPDATE" in reads[0]["sql"] or connection.vendor == "sqlite"  # SQLite locks the whole file
    assert game.version == joker_game.version and game.state == joker_game.state
    assert [s.position for s in seats] == sorted(s.position for s in joker_game.seats.all())
    assert {s.user for s in seats} == {s.user for s in joker_game.seats.all()} and all(s.game is game for s in seats)
    assert all(hasattr(s, "has_vacations") for s in seats)
    with pytest.raises(services.GameError) as missing, transaction.atomic():
        locked_game(joker_game.pk + 1000, seats=True)
    assert missing.value.code == "not_found"


@pytest.mark.django_db
def test_a_block_of_writes_on_one_thread_holds_back_no_write_of_another_thread(joker_game):
    """The writes a block holds back are its own thread's: the database threads
    run several games' moves at once, and `django.db.connection` is one object
    shared by every thread."""
    inside, leave = threading.Event(), threading.Event()

    def a_block_on_another_thread() -> None:
        with writes_sent_together():
            inside.set()
            leave.wait(10)

    other = threading.Thread(target=a_block_on_another_thread)
    other.start()
    try:
        assert inside.wait(10)
        joker_game.version += 5
        save_rows([joker_game], ["version"])
        assert Game.objects.get(pk=joker_game.pk).version == joker_game.version  # written at once
    finally:
        leave.set()
        other.join(10)
