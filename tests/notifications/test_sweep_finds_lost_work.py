"""Beat's sweep queues again what a lost task left behind: a delivery never sent, one whose worker
died in the middle of sending, a burst of "your move" whose flush never came."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from notifications import dispatch, notices
from notifications.channels import LEAGUE_ROUND, YOUR_MOVE
from notifications.models import Delivery

pytestmark = pytest.mark.django_db(transaction=True)


def words(user):
    return notices.Words("Round 2", "Your game", notices.my_games_url(), "Open My games")


@pytest.fixture
def broker_lost_everything(monkeypatch):
    monkeypatch.setattr(dispatch, "_queue_delivery", lambda pk, eta=None: None)
    monkeypatch.setattr(dispatch, "_queue_flush", lambda user_id, eta: None)
    return monkeypatch


def later(seconds: int):
    return time_machine.travel(timezone.now() + timedelta(seconds=seconds), tick=False)


def test_a_delivery_whose_task_was_lost_is_sent_by_the_sweep(fake, players, broker_lost_everything, settings):
    dispatch.notify(LEAGUE_ROUND, players[:1], key="k:lost", compose=words)
    broker_lost_everything.undo()
    assert fake.sent == []

    assert dispatch.sweep() == 0  # not before the grace period: its task may still come
    with later(settings.NOTIFY_STALE_SECONDS + 1):
        assert dispatch.sweep() == 1
    assert len(fake.notices_to(players[0])) == 1


def test_a_delivery_whose_worker_died_while_sending_is_sent_again(fake, players, broker_lost_everything, settings):
    dispatch.notify(LEAGUE_ROUND, players[:1], key="k:died", compose=words)
    broker_lost_everything.undo()
    Delivery.objects.update(state=Delivery.State.SENDING, claimed_at=timezone.now())

    with later(settings.NOTIFY_STALE_SECONDS + 1):
        dispatch.sweep()
    assert len(fake.notices_to(players[0])) == 1
    assert Delivery.objects.get().state == Delivery.State.SENT


def test_a_burst_whose_flush_was_lost_is_flushed(fake, players, broker_lost_everything, settings):
    dispatch.notify(YOUR_MOVE, players[:1], key="your_move:game=99:v=1", game_id=99, compose=words)
    broker_lost_everything.undo()
    assert Delivery.objects.get().state == Delivery.State.WAITING

    with later(settings.NOTIFY_STALE_SECONDS + settings.NOTIFY_COALESCE_SECONDS + 1):
        dispatch.sweep()
    # The flush ran: game 99 does not exist, so nothing waits for him any more and nothing is sent.
    assert Delivery.objects.get().state == Delivery.State.DROPPED
    assert fake.sent == []
