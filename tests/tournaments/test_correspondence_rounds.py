"""Correspondence rounds: a round's deadline, enforced by beat's sweep
(tournaments.tasks.sweep_rounds): every clock still running loses on time,
a forfeit; two forfeits withdraw a player (settable); rounds on dates
start on their date."""

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from gameplay import services as game_services
from moderation.services import games as moderation
from gameplay.models import Game
from tests.tournaments.conftest import committed, entered, play_round, round_tables, start, tournament_of
from tournaments import pairing, tasks
from tournaments.models import Entry, Round, Tournament

pytestmark = pytest.mark.django_db


def sweep() -> int:
    """Beat's sweep, and what it queues after its commit (a round's end queues the next round)."""
    with committed():
        return tasks.sweep_rounds()


def _running_entries(table) -> list[int]:
    seats = table.game.seats.order_by("position")
    return [table.seats[s.position] for s in seats if s.deadline is not None]


def test_the_sweep_is_on_beats_schedule():
    assert settings.CELERY_BEAT_SCHEDULE["tournament-rounds"]["task"] == "tournaments.tasks.sweep_rounds"


def test_at_the_deadline_the_player_whose_clock_runs_forfeits_and_the_next_round_starts(people):
    tournament = entered(tournament_of(people[0], round_days=3), people[1:5])
    start(tournament.pk, people[0])
    tables = round_tables(tournament, 1)
    late = {pk for t in tables for pk in _running_entries(t)}
    assert late
    assert sweep() == 0  # not yet
    with time_machine.travel(timezone.now() + timedelta(days=3, minutes=1)):
        assert sweep() == 1
    for table in round_tables(tournament, 1):
        assert table.game.status == Game.Status.FINISHED
        assert set(table.forfeits) <= late and table.forfeits
    assert set(Entry.objects.filter(forfeits=1).values_list("pk", flat=True)) == late
    assert Round.objects.filter(tournament=tournament).count() == 2
    for row in pairing.current_standings(tournament):
        assert row.points == (0 if row.entry_id in late else 1)


def test_two_forfeits_withdraw_a_player(people):
    tournament = entered(tournament_of(people[0], round_days=1, rounds=4), people[1:5])
    start(tournament.pk, people[0])
    now = timezone.now()
    for number in (1, 2):
        now += timedelta(days=1, minutes=1)
        with time_machine.travel(now):
            sweep()
    twice = Entry.objects.filter(forfeits=2)
    assert all(e.withdrawn_at for e in twice)
    assert all(e.withdrawn_at is None for e in Entry.objects.filter(forfeits__lt=2))
    third = round_tables(tournament, 3)
    assert all(e.pk not in t.seats for e in twice for t in third)


def test_forfeits_never_withdraw_when_the_organizer_says_so(people):
    tournament = entered(tournament_of(people[0], round_days=1, rounds=4, forfeits_to_withdraw=0), people[1:5])
    start(tournament.pk, people[0])
    now = timezone.now()
    for _number in (1, 2, 3):
        now += timedelta(days=1, minutes=1)
        with time_machine.travel(now):
            sweep()
    assert not Entry.objects.exclude(withdrawn_at=None).exists()


def test_a_round_on_dates_starts_on_its_date_not_before(people):
    tournament = entered(tournament_of(people[0], round_days=7, next_round=Tournament.NextRound.SCHEDULED),
                         people[1:5])
    start(tournament.pk, people[0])
    play_round(tournament, 1)
    assert sweep() == 0
    assert Round.objects.count() == 1
    with time_machine.travel(timezone.now() + timedelta(days=7, minutes=1)):
        assert sweep() == 1
    assert len(round_tables(tournament, 2)) == 2
    assert sweep() == 0  # twice is harmless


def test_a_sweep_twice_changes_nothing_more(people):
    tournament = entered(tournament_of(people[0], round_days=3), people[1:5])
    start(tournament.pk, people[0])
    with time_machine.travel(timezone.now() + timedelta(days=3, minutes=1)):
        sweep()
        forfeits = list(Entry.objects.order_by("pk").values_list("forfeits", flat=True))
        sweep()
    assert list(Entry.objects.order_by("pk").values_list("forfeits", flat=True)) == forfeits
    assert Round.objects.count() == 2


def test_a_game_lost_on_time_is_a_forfeit(people):
    tournament = entered(tournament_of(people[0], rounds=4), people[1:3])
    start(tournament.pk, people[0])
    table = round_tables(tournament, 1)[0]
    seat = table.game.seats.exclude(deadline=None).get()
    late = table.seats[seat.position]
    with time_machine.travel(seat.deadline + timedelta(days=30)), committed():
        while game_services.expire_deadlines(table.game_id):
            pass
    table.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    assert table.forfeits == [late]
    assert Entry.objects.get(pk=late).forfeits == 1
    assert Round.objects.filter(tournament=tournament).count() == 2


def test_a_moderators_adjudication_ends_the_game_and_the_round_goes_on(people, django_user_model):
    moderator = django_user_model.objects.create_superuser("mod41", password="pw-not-used-1")
    tournament = entered(tournament_of(people[0], rounds=2), people[1:5])
    start(tournament.pk, people[0])
    first, second = round_tables(tournament, 1)
    with committed():
        moderation.adjudicate_game(first.game_id, moderator, "both agreed on a draw", {"places": [1, 1]})
        moderation.adjudicate_game(second.game_id, moderator, "seat 0 was winning", {"places": [1, 2]})
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert sorted(r.points for r in pairing.current_standings(tournament)) == [0, 0.5, 0.5, 1]


def test_a_round_nobody_can_be_paired_in_ends_the_tournament_and_the_result_stands(people):
    tournament = entered(tournament_of(people[0], rounds=3), people[1:3])  # two players meet once only
    start(tournament.pk, people[0])
    play_round(tournament, 1)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert round_tables(tournament, 1)[0].game.status == Game.Status.FINISHED
    assert Round.objects.filter(tournament=tournament).count() == 1
