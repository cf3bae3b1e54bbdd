"""Reads that scale out, for real on one machine (README "Read replicas").

A PostgreSQL primary and a streaming replica made from it by `pg_basebackup`
(both throwaway servers of the module's own, started here as `.ci/run`
starts its server), two Redis servers that the channel layer is sharded over
(CHANNEL_REDIS_URLS), two daphne processes and a Celery worker, all with
DATABASE_REPLICA_URLS naming the replica:

- a game is played across the two daphne processes, every seat receiving
  every move live, and the channel layer's keys are spread over both Redis
  servers;
- a page (the game's record of moves) is read from the replica: with the
  replica's replay paused (`pg_wal_replay_pause()`), a visitor's page lacks
  the move just made, and has it once replay resumes;
- that lag does not leave a player's own move missing from his page: the
  player who made it reads the primary for READ_OWN_WRITES_SECONDS.
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.request
from contextlib import ExitStack, contextmanager
from pathlib import Path
from uuid import uuid4

import pytest

from config.embedded_redis import free_port
from tests.integration.conftest import (
    START_SECONDS, STOP_SECONDS, RedisServer, _die_with_parent, game_socket, migrated_stack, receive,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

DAY = 24 * 3600
DATABASE = "kitchen"
PAGE_SECONDS = 20  # how long a page may take to show what the replica replays


def _postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class PostgresServer:
    """A PostgreSQL server of the test's own, a child of the test process (as
    the `postgres` account when the tests run as root: PostgreSQL refuses root)."""

    def __init__(self, bindir: Path, data: Path, socket_dir: Path):
        self.bindir, self.data, self.socket_dir = bindir, data, socket_dir
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def url(self, database: str = DATABASE) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def start(self, log: Path) -> None:
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [str(self.bindir / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.socket_dir),
                 "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=100"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent,
                **_as_postgres())
        give_up = time.monotonic() + START_SECONDS
        while subprocess.run([str(self.bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres"],
                             capture_output=True).returncode != 0:
            if self.proc.poll() is not None or time.monotonic() > give_up:
                raise RuntimeError(f"PostgreSQL on port {self.port} did not start:\n{log.read_text()[-3000:]}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()  # "smart" shutdown; fast enough for a throwaway server
            try:
                self.proc.wait(timeout=STOP_SECONDS)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=STOP_SECONDS)

    def sql(self, statement: str, database: str = DATABASE):
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            cursor = conn.execute(statement)
            return cursor.fetchall() if cursor.description else None


def _as_postgres() -> dict:
    return {"user": "postgres", "group": "postgres"} if os.geteuid() == 0 else {}


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, **_as_postgres())
    if done.returncode != 0:
        raise RuntimeError(f"{command[0]} failed:\n{done.stdout}\n{done.stderr}")


@contextmanager
def primary_and_replica():
    """(primary, replica): a fresh cluster with the database DATABASE, and a hot
    standby streaming from it, made by pg_basebackup; both stopped and removed afterwards."""
    bindir = _postgres_bin()
    if bindir is None:
        if os.environ.get("CI") == "true":
            pytest.fail("PostgreSQL's programs are missing: CI runs the PostgreSQL tests")
        pytest.skip("needs PostgreSQL's programs (initdb, pg_basebackup)")
    # Not under pytest's tmp dir: when the tests run as root, that is root's alone.
    workdir = Path(tempfile.mkdtemp(prefix="kitchen-replica-"))
    if os.geteuid() == 0:
        shutil.chown(workdir, "postgres", "postgres")
    primary = PostgresServer(bindir, workdir / "primary", workdir)
    replica = PostgresServer(bindir, workdir / "replica", workdir)
    try:
        _run([str(bindir / "initdb"), "-D", str(primary.data), "-A", "trust", "-U", "postgres", "--no-sync"])
        # wal_level=replica and max_wal_senders are PostgreSQL's defaults; the default pg_hba lets
        # 127.0.0.1 replicate.
        primary.start(workdir / "primary.log")
        primary.sql(f'CREATE DATABASE "{DATABASE}"', database="postgres")
        _run([str(bindir / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
              "-D", str(replica.data), "-R", "-X", "stream", "--no-sync", "--checkpoint=fast"])
        replica.start(workdir / "replica.log")
        yield primary, replica
    finally:
        replica.stop()
        primary.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(stack, [(daphne, port), (daphne, port)], primary, replica, [redis, redis]): every process running."""
    workdir = tmp_path_factory.mktemp("read-replicas")
    with ExitStack() as cleanup:
        primary, replica = cleanup.enter_context(primary_and_replica())
        redis_servers = [RedisServer(workdir / f"redis{number}") for number in (1, 2)]
        for server in redis_servers:
            server.workdir.mkdir()
            server.start()
            cleanup.callback(server.stop)
        stack = migrated_stack(workdir, redis_servers[0].url, database_url=primary.url())
        stack.env.update({
            "DATABASE_REPLICA_URLS": replica.url(),
            "CHANNEL_REDIS_URLS": ",".join(server.url for server in redis_servers),
            "READ_OWN_WRITES_SECONDS": "60",
        })
        cleanup.callback(lambda: print(stack.logs()))
        cleanup.callback(stack.stop_all)
        with stack.together():
            daphnes = [stack.start_daphne(), stack.start_daphne()]
            stack.start_worker()
        yield stack, daphnes, primary, replica, redis_servers


def page(port: int, path: str, cookie: str | None = None) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(request, timeout=PAGE_SECONDS) as response:
        return response.read().decode()


def recorded_moves(port: int, game_id: int, cookie: str | None = None) -> list[int]:
    """The move numbers the game's record page lists (for a visitor without a cookie)."""
    return [int(seq) for seq in re.findall(r"<tr(?: class=\"auto\")?><td>(\d+)</td>",
                                           page(port, f"/sheets/{game_id}/record/", cookie))]


def replica_has_game(replica: PostgresServer, game_id: int, version: int) -> bool:
    return bool(replica.sql(f"SELECT 1 FROM gameplay_game WHERE id = {game_id} AND version >= {version}"))


def wait_until(condition, seconds: float = PAGE_SECONDS) -> None:
    give_up = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < give_up, "not within the time allowed"
        time.sleep(0.1)


def play(sockets: dict, legal: dict, version: int) -> tuple[int, int]:
    """The seat whose turn it is plays its first legal action; every seat receives the new state.
    (the mover, the new version)."""
    [mover] = [position for position, actions in legal.items() if actions]
    move_id = str(uuid4())
    sockets[mover].send(json.dumps({"type": "move", "action": legal[mover][0], "version": version,
                                    "move_id": move_id}))
    assert receive(sockets[mover], "ack", move_id=move_id)["version"] == version + 1
    for position, ws in sockets.items():
        legal[position] = receive(ws, "state", version=version + 1)["legal"]
    return mover, version + 1


@contextmanager
def seated(stack, daphnes, game):
    """The four seats' sockets, seats 0 and 2 on the first daphne, 1 and 3 on the second:
    ({position: socket}, {position: legal actions}, {position: port}, {position: cookie})."""
    cookies = stack.helper("sessions", [seat["username"] for seat in game["seats"]])
    ports = {seat["position"]: daphnes[seat["position"] % 2][1] for seat in game["seats"]}
    with ExitStack() as opened:
        sockets = {seat["position"]: opened.enter_context(
            game_socket(ports[seat["position"]], game["game"], cookies[seat["username"]])) for seat in game["seats"]}
        legal = {position: receive(ws, "state", version=0)["legal"] for position, ws in sockets.items()}
        yield sockets, legal, ports, {seat["position"]: cookies[seat["username"]] for seat in game["seats"]}


def test_a_game_is_played_across_two_daphne_processes_over_two_redis_servers(site):
    stack, daphnes, _, _, redis_servers = site
    game = stack.helper("new_game", "across", DAY, DAY)
    with seated(stack, daphnes, game) as (sockets, legal, ports, _):
        version, movers = 0, []
        while len(movers) < 4:
            mover, version = play(sockets, legal, version)
            movers.append(mover)
        # Moves came from both processes, each seen live on the other.
        assert {ports[position] for position in movers} == {port for _, port in daphnes}, movers
        # The channel layer's groups and processes' queues are spread over both servers.
        import redis

        for server in redis_servers:
            client = redis.Redis.from_url(server.url)
            try:
                assert client.keys("asgi*"), f"nothing of the channel layer's on {server.url}"
            finally:
                client.close()

    stored = stack.helper("snapshots", [game["game"]])[str(game["game"])]
    assert stored["version"] == 4
    for daphne, _ in daphnes:
        assert daphne.running() and "Traceback" not in daphne.log(), stack.logs()


def test_a_page_is_read_from_the_replica_and_a_players_own_move_survives_its_lag(site):
    stack, daphnes, primary, replica, _ = site
    game = stack.helper("new_game", "lag", DAY, DAY)
    game_id = game["game"]
    with seated(stack, daphnes, game) as (sockets, legal, ports, cookies):
        version = 0
        for _ in range(2):
            _, version = play(sockets, legal, version)
        wait_until(lambda: replica_has_game(replica, game_id, version))
        before = recorded_moves(daphnes[0][1], game_id)
        assert before == [1, 2], before

        replica.sql("SELECT pg_wal_replay_pause()")
        try:
            mover, version = play(sockets, legal, version)
            assert primary.sql(f"SELECT version FROM gameplay_game WHERE id = {game_id}") == [(3,)]
            assert not replica_has_game(replica, game_id, 3), "the replica replayed while paused"
            # The player who moved reads the primary: his move is on his page, on either process.
            for _, port in daphnes:
                assert recorded_moves(port, game_id, cookies[mover]) == [1, 2, 3]
            # Someone else's page is read from the replica, which has not replayed the move yet.
            for _, port in daphnes:
                assert recorded_moves(port, game_id) == [1, 2]
        finally:
            replica.sql("SELECT pg_wal_replay_resume()")
        wait_until(lambda: recorded_moves(daphnes[1][1], game_id) == [1, 2, 3])

    for daphne, _ in daphnes:
        assert daphne.running() and "Traceback" not in daphne.log(), stack.logs()
