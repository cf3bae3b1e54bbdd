"""The follow-ups of commits that come close together are queued as one task,
in the order of their commits (`gameplay.services.after_commit`), and each
runs on its own in the task (`gameplay.tasks.after_changes`)."""

import threading

import pytest

from gameplay import services, tasks
from gameplay.services import after_commit

from .conftest import a_legal_action, acting_player


@pytest.fixture
def sent(monkeypatch, settings):
    """The follow-up tasks queued (each a list of follow-ups), caught instead of sent."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    caught = []
    monkeypatch.setattr(tasks.after_changes, "apply_async", lambda kwargs, **options: caught.append(kwargs["follow_ups"]))
    return caught


def play_moves(game, players, count: int) -> list[int]:
    """`count` moves, each committed; the versions they made."""
    versions = []
    for _ in range(count):
        game.refresh_from_db()
        position, user = acting_player(game, players)
        versions.append(services.submit_move(game.pk, user, a_legal_action(game, position), game.version).version)
    return versions


def hold_the_queueing_thread() -> threading.Event:
    """Keep the queueing thread busy until the returned event is set."""
    release = threading.Event()
    after_commit._publisher.submit(release.wait, 10)
    return release


@pytest.mark.django_db(transaction=True)
def test_moves_committed_while_the_thread_is_busy_are_queued_as_one_task_in_commit_order(joker_game, players, sent):
    release = hold_the_queueing_thread()
    versions = play_moves(joker_game, players, 3)
    release.set()
    after_commit.wait_until_queued(timeout=10)
    assert len(sent) == 1
    assert [f["version"] for f in sent[0]] == versions
    assert {f["game_id"] for f in sent[0]} == {joker_game.pk}


@pytest.mark.django_db(transaction=True)
def test_a_move_committed_after_the_batch_was_taken_goes_in_the_next_task(joker_game, players, sent, monkeypatch):
    queueing, go_on = threading.Event(), threading.Event()

    def slow_queueing(kwargs, **options):
        queueing.set()
        go_on.wait(10)
        sent.append(kwargs["follow_ups"])

    monkeypatch.setattr(tasks.after_changes, "apply_async", slow_queueing)
    [first] = play_moves(joker_game, players, 1)
    assert queueing.wait(10)  # the thread took the first move's batch and is queueing it
    [second] = play_moves(joker_game, players, 1)
    go_on.set()
    after_commit.wait_until_queued(timeout=10)
    assert [[f["version"] for f in batch] for batch in sent] == [[first], [second]]


@pytest.mark.django_db(transaction=True)
def test_a_lone_move_is_queued_within_the_wait(joker_game, players, sent):
    play_moves(joker_game, players, 1)
    after_commit.wait_until_queued(timeout=10)
    assert len(sent) == 1 and len(sent[0]) == 1


@pytest.mark.django_db
def test_one_failing_follow_up_does_not_keep_the_next_from_running(monkeypatch, caplog):
    done = []

    def queue_deadline_check(game_id, version):
        if game_id == 1:
            raise RuntimeError("the broker went away")
        done.append((game_id, version))

    monkeypatch.setattr(tasks, "queue_deadline_check", queue_deadline_check)
    follow_up = {"clock_started": [], "turn_changed": [], "deadlines": True, "started": False, "published": [],
                 "bot": False, "players": None}
    tasks.after_changes([{**follow_up, "game_id": 1, "version": 5}, {**follow_up, "game_id": 2, "version": 7}])
    assert done == [(2, 7)]
    assert "the work after a change of game 1 failed" in caplog.text


@pytest.mark.django_db
def test_a_follow_up_queued_alone_before_an_upgrade_still_runs(monkeypatch):
    done = []
    monkeypatch.setattr(tasks, "queue_deadline_check", lambda game_id, version: done.append((game_id, version)))
    tasks.after_change(game_id=3, version=9, clock_started=[], turn_changed=[], deadlines=True, started=False,
                       published=[], bot=False, players=None)
    assert done == [(3, 9)]


@pytest.mark.django_db
def test_when_the_broker_refuses_the_task_each_follow_ups_events_are_delivered_in_place(monkeypatch, caplog):
    delivered = []

    def refuse(*args, **kwargs):
        raise ConnectionError("Redis is down")

    def deliver(game_id, version, published):
        if game_id == 1:
            raise RuntimeError("a subscriber failed")
        delivered.append((game_id, version, published))

    monkeypatch.setattr(tasks.after_changes, "apply_async", refuse)
    monkeypatch.setattr(tasks, "deliver_published", deliver)
    follow_up = {"clock_started": [], "turn_changed": [], "deadlines": False, "started": False, "bot": False,
                 "players": None}
    tasks.queue_follow_ups([{**follow_up, "game_id": 1, "version": 5, "published": [["game_over", {}]]},
                            {**follow_up, "game_id": 2, "version": 7, "published": [["game_over", {}]]}])
    assert delivered == [(2, 7, [["game_over", {}]])]
    assert "could not queue the work after changes of games [1, 2]" in caplog.text
