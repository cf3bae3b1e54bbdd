"""Beat reconnects to the broker as the worker does, at most a second apart
(issue 24): its scheduler's connection, and any connection's implicit
reconnect (kombu's default channel, read from the transport options), wait
0, 0.5, 1, 1... s between tries, not kombu's 2, 4, 6 s (which once left a
deadline 7 s late after Redis came back, on a loaded machine)."""

from unittest import mock

from celery.beat import Scheduler as CeleryScheduler
from django.conf import settings
from kombu import Connection

from config.celery import RECONNECT_INTERVAL_MAX, Scheduler, app


def test_beat_uses_the_scheduler_that_reconnects_at_most_a_second_apart():
    assert app.conf.beat_scheduler == "config.celery:Scheduler"
    assert issubclass(Scheduler, CeleryScheduler)
    scheduler = Scheduler.__new__(Scheduler)
    scheduler.app = app
    connection = mock.Mock()
    scheduler.__dict__["connection"] = connection
    scheduler._ensure_connected()
    kwargs = connection.ensure_connection.call_args.kwargs
    assert kwargs["interval_start"] <= RECONNECT_INTERVAL_MAX and kwargs["interval_max"] <= RECONNECT_INTERVAL_MAX
    assert connection.ensure_connection.call_args.args[1] is None  # never gives up


def test_a_connections_implicit_reconnect_waits_at_most_a_second():
    connection = Connection("redis://127.0.0.1:1/0", transport_options=settings.CELERY_BROKER_TRANSPORT_OPTIONS)
    options = connection._extract_failover_opts()
    assert options["interval_start"] <= RECONNECT_INTERVAL_MAX
    assert options["interval_max"] <= RECONNECT_INTERVAL_MAX
