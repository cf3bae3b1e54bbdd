"""Notifications for 10,000 players whose games are due at the same minute.

    python -m bench.notifications              # 10,000 players (2,500 Joker tables of 4), a few minutes
    python -m bench.notifications --quick      # 1,000 players
    python -m bench.notifications --players 20000

Every player has a game whose clock runs out within the same minute; each
gets its "time is running out" notice through the product's dispatcher
(`notifications.subscribers.clock_warning` -> `notifications.dispatch.notify`
-> one `deliver` task per destination, eager Celery, so the task's work is
measured too) to a recording in-memory channel (the stand-in for push and
Telegram; email is off, no SMTP in the measure). Measured, with the same
work at 100 players as the baseline of the same run:

- time to send all, and time per notice (ratio against the baseline);
- queries per notice (ratio: 1.00 means constant);
- duplicates: every event is published a second time; the channel must have
  received exactly one notice per player, and there is one Delivery row each.

Everything is real but the channel: SQLite file in a temporary directory
(or DATABASE_URL's server), migrated as the test runner does. Nothing is
asserted; the exit status is 1 when a duplicate or a missing notice is seen.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from bench.common import production_like_environment, remove_temp

SEATS = 4
BASELINE_PLAYERS = 100


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


def configure_django() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ.pop("REDIS_URL", None)
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "1"  # the deliver tasks run here, and are measured
    os.environ.update(production_like_environment())
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers.base")
    django.setup()


class RecordingChannel:
    """One destination per player; counts what it is sent per (destination, notice key)."""

    name = "bench"

    def __init__(self) -> None:
        self.sent: dict[tuple[str, str], int] = {}

    def is_configured(self) -> bool:
        return True

    def destinations(self, user):
        from notifications.channels import Destination

        return [Destination(self.name, str(user.pk), "bench")]

    def send(self, destination, notice) -> None:
        self.sent[(destination.key, notice.key)] = self.sent.get((destination.key, notice.key), 0) + 1

    def forget(self, destination) -> None:
        pass


def make_tables(players: int, tag: str) -> list[tuple[int, int, int]]:
    """`players` accounts at Joker tables of four, every seat's clock due within the same minute:
    (game id, version, position) of each seat."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse
    from django.utils import timezone

    from gameplay import services
    from gameplay.models import Game, Seat

    User = get_user_model()
    users = User.objects.bulk_create(
        User(username=f"{tag}{i}", email="", language="en", time_zone="UTC", turn_emails="off",
             email_notifications=False, password="!") for i in range(players))
    reverse("my_games")  # the URL configuration is loaded before the clock starts
    games = [services.create_seated_game(users[i:i + SEATS], "joker")
             for i in range(0, players - players % SEATS, SEATS)]
    due = timezone.now() + timedelta(seconds=30)
    Seat.objects.filter(game__in=games).update(deadline=due)
    versions = dict(Game.objects.filter(pk__in=[g.pk for g in games]).values_list("pk", "version"))
    return [(g.pk, versions[g.pk], position) for g in games for position in range(SEATS)]


def run(seats: list[tuple[int, int, int]]) -> tuple[float, int]:
    """Publish each seat's clock warning to the dispatcher: (seconds, queries)."""
    from django.db import connection

    from notifications import subscribers

    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        started = time.perf_counter()
        for game_id, version, position in seats:
            subscribers.clock_warning(game_id, version, position)
        seconds = time.perf_counter() - started
    return seconds, queries


def quiet_setup() -> None:
    """No notices while the tables are made (their "your move" is not what is measured)."""
    from gameplay import events
    from notifications import emails, subscribers

    for event, handler in ((events.TURN_CHANGED, subscribers.turn_changed), (events.TURN_CHANGED, emails.turn_started)):
        events.unsubscribe(event, handler)


def measure(players: int, tag: str, channel: RecordingChannel) -> dict:
    progress(f"{players} players: making the tables")
    seats = make_tables(players, tag)
    progress(f"{players} players: sending")
    seconds, queries = run(seats)
    progress(f"{players} players: publishing every event again (duplicates)")
    _, replay_queries = run(seats)
    from notifications.models import Delivery

    keys = {f"time_warning:game={g}:v={v}:seat={p}" for g, v, p in seats}
    received = {key: count for key, count in channel.sent.items() if key[1] in keys}
    return {
        "players": len(seats), "seconds": seconds, "queries": queries, "replay_queries": replay_queries,
        "notices": sum(received.values()), "duplicates": sum(count - 1 for count in received.values() if count > 1),
        "rows": Delivery.objects.filter(key__in=keys).count(),
    }


def report(base: dict, full: dict) -> None:
    per = lambda r, what: r[what] / r["players"]  # noqa: E731
    print("Notifications: every player's game due in the same minute, one notice each (bench/notifications.py)")
    print(f"{'':24} {'baseline':>12} {'measured':>12} {'ratio':>8}")
    print(f"{'players':24} {base['players']:>12} {full['players']:>12}")
    print(f"{'time to send all (s)':24} {base['seconds']:>12.2f} {full['seconds']:>12.2f}")
    print(f"{'ms per notice':24} {per(base, 'seconds') * 1000:>12.2f} {per(full, 'seconds') * 1000:>12.2f} "
          f"{per(full, 'seconds') / per(base, 'seconds'):>8.2f}")
    print(f"{'queries per notice':24} {per(base, 'queries'):>12.2f} {per(full, 'queries'):>12.2f} "
          f"{per(full, 'queries') / per(base, 'queries'):>8.2f}")
    print(f"{'queries per replayed one':24} {per(base, 'replay_queries'):>12.2f} "
          f"{per(full, 'replay_queries'):>12.2f}")
    print(f"{'notices received':24} {base['notices']:>12} {full['notices']:>12}")
    print(f"{'duplicates':24} {base['duplicates']:>12} {full['duplicates']:>12}")
    print(f"{'delivery rows':24} {base['rows']:>12} {full['rows']:>12}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--quick", action="store_true", help="1,000 players")
    parser.add_argument("--keep-temp", action="store_true")
    args = parser.parse_args(argv)
    players = 1_000 if args.quick else args.players
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-notifications-"))
    configure_django()
    from bench.move_roundtrip import create_database, destroy_database
    from notifications import channels

    old_name = create_database(tmpdir)
    try:
        quiet_setup()
        channel = RecordingChannel()
        channels.register(channel)
        base = measure(BASELINE_PLAYERS, "base", channel)
        full = measure(players, "full", channel)
        report(base, full)
    finally:
        destroy_database(old_name)
        remove_temp(tmpdir, args.keep_temp)
    ok = all(r["notices"] == r["players"] == r["rows"] and r["duplicates"] == 0 for r in (base, full))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
