"""A failing channel retries with exponential back-off, gives up after the cap, forgets a
destination that is gone, and never holds another channel's notices."""

import pytest

from notifications import channels, dispatch, notices
from notifications.channels import LEAGUE_ROUND
from notifications.models import Delivery

from .conftest import FakeChannel

pytestmark = pytest.mark.django_db(transaction=True)


def words(user):
    return notices.Words("Round 2", "Your game", notices.my_games_url(), "Open My games")


@pytest.fixture
def second():
    channel = FakeChannel("second")
    channels.register(channel)
    yield channel
    channels._channels.pop(channel.name, None)


def test_a_temporary_failure_is_retried_until_it_is_sent(fake, players, settings):
    fake.fail_times = 2
    dispatch.notify(LEAGUE_ROUND, players[:1], key="k:retry", compose=words)

    delivery = Delivery.objects.get(destination=f"fake:{players[0].pk}")
    assert (delivery.state, delivery.attempts) == (Delivery.State.SENT, 3)
    assert len(fake.sent) == 1


def test_the_waits_between_attempts_double_up_to_the_cap(fake, players, settings, monkeypatch):
    settings.NOTIFY_RETRY_SECONDS, settings.NOTIFY_RETRY_MAX_SECONDS, settings.NOTIFY_MAX_ATTEMPTS = 10, 35, 5
    fake.fail_times = 99
    waits = []
    real = dispatch.send_delivery
    monkeypatch.setattr(dispatch, "send_delivery", lambda pk, **kw: waits.append(real(pk, **kw)) or waits[-1])

    dispatch.notify(LEAGUE_ROUND, players[:1], key="k:backoff", compose=words)

    assert waits == [10, 20, 35, 35, None]
    delivery = Delivery.objects.get(destination=f"fake:{players[0].pk}")
    assert (delivery.state, delivery.attempts) == (Delivery.State.FAILED, 5)
    assert "down" in delivery.note


def test_a_failing_channel_does_not_hold_the_others(fake, second, players, settings):
    settings.NOTIFY_MAX_ATTEMPTS = 3
    fake.fail_times = 99

    dispatch.notify(LEAGUE_ROUND, players[:2], key="k:others", compose=words)

    assert len(second.sent) == 2
    assert fake.sent == []
    assert set(Delivery.objects.filter(destination__startswith="fake:").values_list("state", flat=True)) == {"failed"}


def test_a_destination_that_is_gone_is_forgotten_and_never_retried(fake, second, players):
    fake.gone = True

    dispatch.notify(LEAGUE_ROUND, players[:1], key="k:gone", compose=words)

    assert fake.attempts == 1
    assert fake.forgotten == [f"fake:{players[0].pk}"]
    assert Delivery.objects.get(destination=f"fake:{players[0].pk}").state == Delivery.State.DROPPED
    assert len(second.sent) == 1
