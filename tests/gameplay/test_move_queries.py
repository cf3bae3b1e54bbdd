"""The queries of the hot path, a move, are counted so that a regression fails here.

A move's request runs one locked transaction (the service) and, after its
commit, the fan-out of every seat's view, built from what the transaction
already read (no query), and the queueing of its follow-up Celery task
(`tasks.after_changes`) with the rest: the deadline task, "your turn" emails,
badges, the computer's move. The task's queries are counted too, apart.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import services, tasks
from gameplay.services import after_commit
from gameplay.engine import get_engine
from tests.engine.durak_helpers import scripted

from .conftest import JOKER, acting_player, started_game

DURAK = get_engine("durak")

# In the request: SAVEPOINT, the locked game, its seats with their users (and
# whether each has a vacation), the game's UPDATE, one UPDATE of the seats
# whose clocks changed, the Move INSERT, RELEASE. The fan-out after the
# commit: nothing. A player with a recent or coming vacation: one more query.
REQUEST_QUERIES = 7


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
def test_a_joker_move_costs_seven_queries_in_the_request(
        joker_game, players, django_capture_on_commit_callbacks, queued):
    position, user = acting_player(joker_game, players)
    action = JOKER.legal_actions(joker_game.state, position)[0]
    counts = count_move(joker_game, user, action, django_capture_on_commit_callbacks, queued)
    assert counts == (REQUEST_QUERIES, 0, JOKER_MOVE_TASK)
    assert queued[0]["deadlines"] and queued[0]["clock_started"] and not queued[0]["bot"]


@pytest.mark.django_db
def test_a_durak_move_that_opens_the_throwers_window_costs_seven_queries_in_the_request(
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
    assert counts == (REQUEST_QUERIES, 0, DURAK_WINDOW_MOVE_TASK)
    assert len(queued[0]["clock_started"]) == 2  # both throwers' clocks start


@pytest.mark.django_db
def test_a_vacation_of_a_player_costs_one_more_query_and_still_stops_his_clock(
        joker_game, players, django_capture_on_commit_callbacks, queued):
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import Vacation

    position, user = acting_player(joker_game, players)
    action = JOKER.legal_actions(joker_game.state, position)[0]
    after, _ = JOKER.apply(joker_game.state, position, action)
    next_position = JOKER.actors(after)[0]
    next_user = next(s.user for s in joker_game.seats.all() if s.position == next_position)
    now = timezone.now()
    Vacation.objects.create(user=next_user, starts_at=now - timedelta(hours=1), ends_at=now + timedelta(days=2))
    counts = count_move(joker_game, user, action, django_capture_on_commit_callbacks, queued)
    assert counts[:2] == (REQUEST_QUERIES + 1, 0)
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
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone

    from accounts.models import Vacation
    from gameplay import broadcast
    from gameplay.services.base import locked_game

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
