"""Several web and worker processes on one PostgreSQL database and one Redis.

README "Production": nothing is kept in process memory, so the site scales
out by starting more processes. Here two daphne processes, two Celery
workers (prefork, as production runs them) and beat share one throwaway
PostgreSQL database (on the server of TEST_DATABASE_URL) and one Redis, with
the settings' defaults for PostgreSQL (a connection pool per process):

- players connected to different daphne processes see each other's moves
  live: a move made over a socket of one process reaches the sockets of the
  other through the channel layer, both ways;
- a deadline is enforced exactly once although both workers hold a task for
  it, due at the same instant, and beat's sweep (every second) looks for it
  too: one automatic move is stored, not two.
"""

import json
import time
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from uuid import uuid4

import pytest

from tests.integration.conftest import game_socket, migrated_stack, receive, redis_database
from tests.integration.test_deadlines_with_celery import at, seat_on_clock

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

REDIS_DB = 6  # a Redis database of the module's own, emptied first
DAY = 24 * 3600
MOVE_SECONDS = 5  # the shortest clock a table may have
QUEUES = ("only-worker1", "only-worker2")  # one queue per worker, besides the shared one


@pytest.fixture(scope="module")
def processes(tmp_path_factory, redis_url, postgres_database):
    """(stack, [(daphne, port), (daphne, port)]): every process running."""
    stack = migrated_stack(tmp_path_factory.mktemp("several-processes"), redis_database(redis_url, REDIS_DB),
                           database_url=postgres_database)
    try:
        with stack.together():
            daphnes = [stack.start_daphne(), stack.start_daphne()]
            stack.start_worker(pool="prefork", queues=QUEUES[:1])
            stack.start_worker(alongside=True, pool="prefork", queues=QUEUES[1:])
            stack.start_beat()
        yield stack, daphnes
    finally:
        try:
            stack.helper("abort_active")
        finally:
            stack.stop_all()
            print(stack.logs())


def workers(stack) -> list:
    return [process for process in stack.processes if process.name.startswith("worker")]


def test_players_on_different_daphne_processes_see_each_others_moves_live(processes):
    stack, daphnes = processes
    game = stack.helper("new_game", "live", DAY, DAY)
    cookies = stack.helper("sessions", [seat["username"] for seat in game["seats"]])
    # Seats 0 and 2 on the first daphne, 1 and 3 on the second: turns alternate between them.
    ports = {seat["position"]: daphnes[seat["position"] % 2][1] for seat in game["seats"]}
    with ExitStack() as opened:
        sockets = {seat["position"]: opened.enter_context(
            game_socket(ports[seat["position"]], game["game"], cookies[seat["username"]])) for seat in game["seats"]}
        legal = {position: receive(ws, "state", version=0)["legal"] for position, ws in sockets.items()}

        version, movers = 0, []
        while len(movers) < 4:
            [mover] = [position for position, actions in legal.items() if actions]
            move_id = str(uuid4())
            sockets[mover].send(json.dumps({"type": "move", "action": legal[mover][0], "version": version,
                                            "move_id": move_id}))
            assert receive(sockets[mover], "ack", move_id=move_id)["version"] == version + 1
            version += 1
            # Every seat, on either process, receives its own view of the new state.
            for position, ws in sockets.items():
                state = receive(ws, "state", version=version)
                assert state["seat"] == position, state
                legal[position] = state["legal"]
            movers.append(mover)
        # Moves came from both processes, each seen live on the other.
        assert {ports[position] for position in movers} == {port for _, port in daphnes}, movers

    stored = stack.helper("snapshots", [game["game"]])[str(game["game"])]
    assert stored["version"] == 4 and [(m["seq"], m["by"]) for m in stored["moves"]] == [
        (seq, "player") for seq in (1, 2, 3, 4)], stored
    for daphne, _ in daphnes:
        assert daphne.running() and "Traceback" not in daphne.log(), stack.logs()


def test_a_deadline_two_workers_and_beat_race_for_is_enforced_once(processes):
    stack, _ = processes
    # No reserve: the deadline is the end. Besides the task the start queued (on the shared queue), one
    # on each worker's own queue, queued at once: at the deadline both workers try at the same instant,
    # and beat's sweep looks for overdue seats every second.
    game = stack.helper("new_game_with_deadline_copies", "race", MOVE_SECONDS, 0, list(QUEUES))
    seat = seat_on_clock(game)
    deadline = at(seat["deadline"])
    copies = game["copies"]

    done = stack.helper("wait_for_timeouts", [game["game"]], 20)
    first = done["games"][str(game["game"])]["moves"][0]
    applied = at(first["created_at"])
    # Give any second enforcement time to land (several sweeps), but not the next seat's clock, which
    # started at `applied` and runs out MOVE_SECONDS later.
    time.sleep(max(0.0, (applied + timedelta(seconds=MOVE_SECONDS / 2) - datetime.now(UTC)).total_seconds()))
    after = stack.helper("snapshots", [game["game"]])[str(game["game"])]

    # On a loaded machine the snapshot may come after the next seat's own deadline (MOVE_SECONDS after
    # `applied`): its legitimate time-out is no second enforcement. Anything earlier would be.
    next_deadline = applied + timedelta(seconds=MOVE_SECONDS)
    moves = [m for m in after["moves"] if at(m["created_at"]) < next_deadline]
    assert [(m["seq"], m["position"], m["by"]) for m in moves] == [(1, seat["position"], "timeout")], (
        f"one automatic move for the deadline, no more: {after['moves']}\n{stack.logs()}")
    assert after["version"] == len(after["moves"]), after
    assert first["action"].get("auto") is True, first
    assert deadline <= applied < deadline + timedelta(seconds=3), (deadline, applied)
    # Both workers really ran their copy (and lost nothing: no error).
    for worker, queue in zip(workers(stack), QUEUES, strict=True):
        log = worker.log()
        assert f"enforce_deadlines[{copies[queue]}] succeeded" in log, stack.logs()
        assert "Traceback" not in log, stack.logs()
    print(f"deadline {deadline.time()}, enforced at {applied.time()} "
          f"({(applied - deadline).total_seconds():.3f}s late)")
