"""The next round is paired by a Celery task queued after the commit of the
round's last game (`tournaments.rounds.advance_task`), never in that game's
transaction; the task is idempotent, and beat's sweep starts a round whose
task was lost."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from gameplay import services as game_services
from gameplay.models import Game
from tests.tournaments.conftest import entered, round_tables, start, tournament_of
from tournaments import rounds, services, tasks
from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def _end_round_one(tournament, django_capture_on_commit_callbacks, execute=False):
    with django_capture_on_commit_callbacks(execute=execute) as callbacks:
        for table in round_tables(tournament, 1):
            if table.game.status == Game.Status.ACTIVE:
                game_services.resign(table.game_id, table.game.seats.get(position=1).user)
    return callbacks


@pytest.fixture
def queued(monkeypatch):
    """The tournaments whose advance task was queued (the broker's side of `delay`)."""
    sent = []
    monkeypatch.setattr(rounds.advance_task, "delay", lambda tournament_id: sent.append(tournament_id))
    return sent


def test_the_last_game_of_a_round_queues_the_next_round_and_does_not_pair_it(
        people, queued, django_capture_on_commit_callbacks):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    _end_round_one(tournament, django_capture_on_commit_callbacks, execute=True)
    assert queued == [tournament.pk]
    first = Round.objects.get(tournament=tournament, number=1)
    assert first.finished_at is not None
    assert not Round.objects.filter(tournament=tournament, number=2).exists()


def test_running_the_task_twice_starts_the_round_once(people, queued, django_capture_on_commit_callbacks):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    _end_round_one(tournament, django_capture_on_commit_callbacks, execute=True)
    assert rounds.advance_task(tournament.pk) is True
    assert rounds.advance_task(tournament.pk) is False
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert len(round_tables(tournament, 2)) == 2


def test_the_last_rounds_task_ends_the_tournament_once(people, queued, django_capture_on_commit_callbacks):
    tournament = entered(tournament_of(people[0], rounds=1), people[1:5])
    start(tournament.pk, people[0])
    _end_round_one(tournament, django_capture_on_commit_callbacks, execute=True)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # the end is the task's
    assert rounds.advance(tournament.pk) is True
    assert rounds.advance(tournament.pk) is False
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert sorted(tournament.entries.values_list("final_rank", flat=True)) == [1, 2, 3, 4]


def test_the_sweep_starts_a_round_whose_task_was_lost_after_the_grace(
        people, settings, django_capture_on_commit_callbacks):
    settings.TOURNAMENT_ADVANCE_GRACE_SECONDS = 300
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    _end_round_one(tournament, django_capture_on_commit_callbacks, execute=False)  # the task never ran
    assert tasks.sweep_rounds() == 0  # within the grace the queued task is left to do it
    assert Round.objects.filter(tournament=tournament).count() == 1
    with time_machine.travel(timezone.now() + timedelta(seconds=301)):
        assert tasks.sweep_rounds() == 1
        assert tasks.sweep_rounds() == 0
    assert len(round_tables(tournament, 2)) == 2


def test_a_broker_that_refuses_the_task_leaves_the_round_to_the_sweep(
        people, monkeypatch, django_capture_on_commit_callbacks):

    def broker_down(tournament_id):
        raise ConnectionError("redis is gone")

    monkeypatch.setattr(rounds.advance_task, "delay", broker_down)
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    _end_round_one(tournament, django_capture_on_commit_callbacks, execute=True)  # the game's result stands
    assert all(t.game.status == Game.Status.FINISHED for t in round_tables(tournament, 1))
    with time_machine.travel(timezone.now() + timedelta(hours=1)):
        assert tasks.sweep_rounds() == 1
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_the_task_does_not_start_a_round_before_its_date(people, queued, django_capture_on_commit_callbacks):
    tournament = entered(tournament_of(people[0], round_days=7, next_round=Tournament.NextRound.SCHEDULED),
                         people[1:5])
    start(tournament.pk, people[0])
    _end_round_one(tournament, django_capture_on_commit_callbacks, execute=True)
    assert rounds.advance_task(tournament.pk) is False
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_starting_queues_round_one_and_the_sweep_pairs_it_if_the_task_was_lost(
        people, queued, django_capture_on_commit_callbacks):
    tournament = entered(tournament_of(people[0]), people[1:5])
    with django_capture_on_commit_callbacks(execute=True):
        services.start(tournament.pk, people[0])
    assert queued == [tournament.pk]  # the organizer's request pairs nothing
    assert not Round.objects.filter(tournament=tournament).exists()
    assert tasks.sweep_rounds() == 0  # within the grace
    with time_machine.travel(timezone.now() + timedelta(seconds=301)):
        assert tasks.sweep_rounds() == 1
    assert len(round_tables(tournament, 1)) == 2
    assert rounds.advance_task(tournament.pk) is False  # the lost task, arriving late
