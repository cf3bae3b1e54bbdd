"""The first step beyond one machine: two sets of processes, one game.

Each set is what one machine would run: a daphne process and a Celery worker
(prefork, as production runs it), with settings of its own (its own
environment: its own task queue, `CELERY_QUEUE`, which its worker consumes;
its own database pool size and worker name). Both sets share one throwaway
PostgreSQL database (on the server of TEST_DATABASE_URL) and one Redis (the
channel layer and the broker). No beat runs: a deadline is met only by the
task its set queued, so which worker met it is known.

Player A (seat 0) is connected to set 1, the other three seats to set 2:

- A's move, made over set 1's daphne, reaches the sockets on set 2, and
  their moves, made over set 2, reach A;
- when A's clock runs out, the deadline task that set 2 queued (with the
  last move made there) is run by set 2's worker, and its automatic move
  reaches A's socket on set 1.
"""

import json
import re
from contextlib import ExitStack
from uuid import uuid4

import pytest

from tests.integration.conftest import CeleryStack, game_socket, migrated_stack, receive, redis_database

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

REDIS_DB = 7  # a Redis database of the module's own, emptied first
MOVE_SECONDS = 20  # time enough for the helpers, the sockets and each move on a busy machine; then it runs out
A = 0  # player A's seat, on set 1; every other seat is on set 2


def start_set(stack: CeleryStack, number: int) -> int:
    """Set `number`'s daphne and worker (its worker consumes only its set's queue): the daphne's port."""
    _, port = stack.start_daphne()
    stack.start_process(
        f"set{number}-worker",
        ["-m", "celery", "-A", "config", "worker", "--loglevel=INFO", "--pool=prefork", "--concurrency=1",
         "-n", f"set{number}@%h", "-Q", f"set{number}", "--without-gossip", "--without-mingle",
         "--without-heartbeat"],
        ready=lambda process: " ready." in process.log(),
    )
    return port


@pytest.fixture(scope="module")
def two_sets(tmp_path_factory, redis_url, postgres_database):
    """([set 1's stack, set 2's stack], [set 1's daphne port, set 2's]), every process running."""
    first = migrated_stack(tmp_path_factory.mktemp("set1"), redis_database(redis_url, REDIS_DB),
                           database_url=postgres_database)
    first.env.update({"CELERY_QUEUE": "set1", "DATABASE_POOL": "4"})
    second = CeleryStack(workdir=tmp_path_factory.mktemp("set2"),
                         env={**first.env, "CELERY_QUEUE": "set2", "DATABASE_POOL": "6"}, redis_url=first.redis_url)
    stacks = [first, second]
    try:
        with first.together(), second.together():
            ports = [start_set(first, 1), start_set(second, 2)]
        yield stacks, ports
    finally:
        try:
            first.helper("abort_active")
        finally:
            for stack in stacks:
                stack.stop_all()
                print(stack.logs())


def expiries(stack: CeleryStack, game_id: int) -> list[str]:
    return re.findall(rf"game {game_id}: the deadline of seat \d+ expired; now at version \d+", stack.logs())


def test_players_on_two_sets_share_a_game_its_moves_and_its_deadline(two_sets):
    (first, second), ports = two_sets
    game = first.helper("new_game", "sets", MOVE_SECONDS, 0)
    cookies = first.helper("sessions", [seat["username"] for seat in game["seats"]])
    set_of = {seat["position"]: 1 if seat["position"] == A else 2 for seat in game["seats"]}
    with ExitStack() as opened:
        sockets = {seat["position"]: opened.enter_context(
            game_socket(ports[set_of[seat["position"]] - 1], game["game"], cookies[seat["username"]]))
            for seat in game["seats"]}
        legal = {position: receive(ws, "state", version=0)["legal"] for position, ws in sockets.items()}

        # Moves until A has moved over set 1 and it is A's turn again after a move made over set 2.
        version, movers = 0, []
        while not (A in movers and movers[-1] != A and legal[A]):
            [mover] = [position for position, actions in legal.items() if actions]
            move_id = str(uuid4())
            sockets[mover].send(json.dumps({"type": "move", "action": legal[mover][0], "version": version,
                                            "move_id": move_id}))
            assert receive(sockets[mover], "ack", move_id=move_id)["version"] == version + 1
            version += 1
            for position, ws in sockets.items():  # on either set, every seat sees the move
                legal[position] = receive(ws, "state", version=version)["legal"]
            movers.append(mover)
            assert len(movers) <= 12, movers

        # A waits: A's clock runs out; set 2 queued its deadline with the last move; its worker meets it,
        # and the automatic move reaches A on set 1 (and the others on set 2).
        for position, ws in sockets.items():
            state = receive(ws, "state", seconds=MOVE_SECONDS + 15, version=version + 1)
            assert state["seat"] == position, state

    stored = first.helper("snapshots", [game["game"]])[str(game["game"])]
    assert [m["by"] for m in stored["moves"]] == ["player"] * len(movers) + ["timeout"], stored["moves"]
    assert stored["moves"][-1]["position"] == A, stored["moves"]
    assert expiries(second, game["game"]) == [f"game {game['game']}: the deadline of seat {A} expired; "
                                              f"now at version {version + 1}"], second.logs()
    assert expiries(first, game["game"]) == [], first.logs()
    for stack in (first, second):
        assert "Traceback" not in stack.logs(), stack.logs()
