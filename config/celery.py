"""The Celery app, the worker's consumer and beat's scheduler that come back
quickly after a broker outage, and the Redis transport that publishes a task
without building a Redis client for it (`RedisTransport`).

Redis may go away (a restart, a failover, a network cut) and come back at
any time. What a worker needs then, set in config/settings.py (CELERY_*):

- It never gives up reconnecting (`broker_connection_max_retries = None`;
  Celery's default gives up after 100 tries and the worker exits).
- It reconnects within a second of Redis coming back, whatever the outage's
  length (`Consumer` below): Celery's own back-off waits 2, 4, 6 ... up to
  30 s between tries, so after a long outage the worker would come back up
  to 30 s late, and the deadlines with it.
- Beat comes back as quickly (issue 24): its scheduler (`Scheduler` below,
  the `beat_scheduler` setting) connects with the same intervals, and so
  does every implicit reconnect of a connection's default channel (kombu
  reads them from `broker_transport_options`, where its own default waits
  2, then 4 s...): a publish that finds Redis gone retries at most a
  second apart instead of leaving beat's next sweep seconds late.
- Whatever it held when Redis went (deadline tasks waiting for their ETA)
  may be gone with Redis: beat's sweep enforces every overdue deadline from
  the database (gameplay/tasks.py), and a held task that does come back is
  a no-op (it checks the game's version and the deadline).

Celery 5.7.0 is excluded in pyproject.toml: its consumer, on losing the
broker, closes the connection a second time after `collect()` has already
detached the transport from it; the Redis channel, whose first close failed
half-way (Redis was gone), then tries to give its unacknowledged tasks back
through a transport without a client and raises AttributeError ("'NoneType'
object has no attribute 'hostname'"), which is not a connection error, so
the worker exits with "Unrecoverable error". It happens only when the worker
held a task when Redis went: with our deadline tasks, nearly always.
tests/integration/test_redis_outage_celery.py reproduces it.
"""

import functools
import logging
import os

from celery import Celery
from celery.beat import PersistentScheduler
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.transport import redis as kombu_redis

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Seconds between the worker's tries to reach the broker again: the first
# try at once, then 0.5 s, then every second for as long as it takes.
RECONNECT_INTERVAL_START = 0.5
RECONNECT_INTERVAL_STEP = 0.5
RECONNECT_INTERVAL_MAX = 1.0


class Consumer(CeleryConsumer):
    """Celery's consumer, retrying the broker connection at most a second
    apart (`worker_consumer` setting).

    Celery calls `Connection.ensure_connection(errback, max_retries,
    callback=...)` here with kombu's default intervals (2 s, +2 s each try,
    at most 30 s); this passes ours. Everything else, including the number
    of tries (`broker_connection_max_retries`), is Celery's.
    """

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection,
            interval_start=RECONNECT_INTERVAL_START,
            interval_step=RECONNECT_INTERVAL_STEP,
            interval_max=RECONNECT_INTERVAL_MAX,
        )
        return super().ensure_connected(conn)


class Scheduler(PersistentScheduler):
    """Beat's scheduler (with its schedule file, as Celery's default), whose
    broker connection is retried at most a second apart, as the worker's."""

    def _ensure_connected(self):
        def _error_handler(exc, interval):
            logging.getLogger("celery.beat").error(
                "beat: Connection error: %s. Trying again in %s seconds...", exc, interval)

        return self.connection.ensure_connection(
            _error_handler, self.app.conf.broker_connection_max_retries,
            interval_start=RECONNECT_INTERVAL_START, interval_step=RECONNECT_INTERVAL_STEP,
            interval_max=RECONNECT_INTERVAL_MAX,
        )


class RedisChannel(kombu_redis.Channel):
    """kombu's Redis channel, publishing through one Redis client.

    kombu builds a new `redis.Redis` for every message it publishes (its
    `conn_or_acquire`), and redis-py's constructor fills a table of a few
    hundred response callbacks: about a third of a task's queueing time, on
    the thread that queues a move's follow-up, which holds the GIL the event
    loop needs. The client takes its connections from the channel's pool per
    command, as the new ones did (so it is as thread-safe); it is made again
    when the channel's pool is (after a fork or a lost connection).
    """

    _publish_client = None

    def _create_client(self, asynchronous=False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        client = self._publish_client
        if client is None or client.connection_pool is not self.pool:
            client = self._publish_client = super()._create_client()
        return client


class RedisTransport(kombu_redis.Transport):
    """The `redis://` broker with `RedisChannel` (the `broker_transport` setting)."""

    Channel = RedisChannel


app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
