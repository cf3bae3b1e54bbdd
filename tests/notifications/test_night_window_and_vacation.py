"""Night window and vacation: notices wait for the morning or the return; "your move" and
"time running out" are dropped while a vacation stops the player's clocks. Nothing is lost silently:
every held or dropped notice is a row that says so."""

from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine

from accounts.models import Vacation
from notifications import dispatch, notices
from notifications.channels import LEAGUE_ROUND, YOUR_MOVE
from notifications.models import Delivery

pytestmark = pytest.mark.django_db(transaction=True)

LATE_EVENING = datetime(2026, 11, 27, 23, 0, tzinfo=UTC)  # 02:00 in Moscow


def words(user):
    return notices.Words("Round 2", "Your game", notices.my_games_url(), "Open My games")


@pytest.fixture
def sleeper(players):
    """Sleeps from 01:00 to 08:00 Moscow time (22:00-05:00 UTC)."""
    player = players[0]
    player.time_zone, player.night_pause_start, player.night_pause_end = "Europe/Moscow", time(1), time(8)
    player.save()
    return player


def test_a_notice_in_the_night_waits_for_the_end_of_the_window(fake, sleeper):
    with time_machine.travel(LATE_EVENING, tick=False):
        dispatch.notify(LEAGUE_ROUND, [sleeper], key="k:night", compose=words)
        delivery = Delivery.objects.get(user=sleeper)
        dispatch.deliver.delay(delivery.pk)  # a task that comes early sends nothing

    assert fake.sent == []
    assert delivery.state == Delivery.State.PENDING
    assert delivery.not_before == datetime(2026, 11, 28, 5, 0, tzinfo=UTC)  # 08:00 in Moscow

    with time_machine.travel(delivery.not_before + timedelta(seconds=1), tick=False):
        dispatch.deliver.delay(delivery.pk)  # the task queued with that eta
    assert len(fake.notices_to(sleeper)) == 1


def test_a_notice_outside_the_window_goes_at_once(fake, sleeper):
    with time_machine.travel(datetime(2026, 11, 27, 12, 0, tzinfo=UTC), tick=False):
        dispatch.notify(LEAGUE_ROUND, [sleeper], key="k:day", compose=words)
    assert len(fake.notices_to(sleeper)) == 1


def test_the_sweep_sends_a_held_notice_whose_task_was_lost(fake, sleeper, monkeypatch):
    monkeypatch.setattr(dispatch, "_queue_delivery", lambda pk, eta=None: None)  # the broker lost them
    with time_machine.travel(LATE_EVENING, tick=False):
        dispatch.notify(LEAGUE_ROUND, [sleeper], key="k:lost", compose=words)
    monkeypatch.undo()

    with time_machine.travel(datetime(2026, 11, 28, 6, 0, tzinfo=UTC), tick=False):
        assert dispatch.sweep() == 1
    assert len(fake.notices_to(sleeper)) == 1


def test_on_vacation_your_move_is_dropped_and_a_league_round_waits_for_the_return(fake, players):
    player = players[1]
    now = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)
    Vacation.objects.create(user=player, starts_at=now - timedelta(days=1), ends_at=now + timedelta(days=2))

    with time_machine.travel(now, tick=False):
        dispatch.notify(YOUR_MOVE, [player], key="your_move:game=1:v=3", game_id=1, compose=words)
        dispatch.notify(LEAGUE_ROUND, [player], key="k:vacation", compose=words)

    assert fake.sent == []
    your_move = Delivery.objects.get(user=player, kind=YOUR_MOVE)
    assert (your_move.state, your_move.note) == (Delivery.State.DROPPED, "vacation")
    league = Delivery.objects.get(user=player, kind=LEAGUE_ROUND)
    assert (league.state, league.not_before) == (Delivery.State.PENDING, now + timedelta(days=2))
