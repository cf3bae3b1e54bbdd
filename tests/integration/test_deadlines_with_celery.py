"""Deadlines enforced by real processes: Redis, a Celery worker and beat
(see conftest.py for how they are started).

ARCHITECTURE.md "Time": a deadline is a row; after commit a task is queued
for it, and beat's sweep (every second here) enforces whatever a lost or late
task did not. So a table runs out of time by itself, and a worker killed with
the deadline task in its hands is replaced without the deadline being missed
or enforced twice.
"""

import re
import time
from datetime import UTC, datetime, timedelta

import pytest

pytestmark = pytest.mark.slow

POLL_LIMIT = 20  # seconds to wait for the first time-out of a table
RESTART_LIMIT = 10  # seconds a new worker may take to enforce an overdue deadline


def at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def seat_on_clock(game: dict) -> dict:
    on_clock = [seat for seat in game["seats"] if seat["deadline"]]
    assert len(on_clock) == 1, f"one seat should be on the clock: {game['seats']}"
    return on_clock[0]


def check_only_timeouts_once_each(game: dict, logs: str) -> list[dict]:
    """Nobody but the clock moved, and each time-out was applied once: the
    version went up by one per time-out move, seqs 1..version, and every
    later time-out came after a whole move time of the next seat (a second
    enforcement of the same deadline would follow within milliseconds)."""
    moves = game["moves"]
    timeouts = [m for m in moves if m["by"] == "timeout"]
    assert timeouts, f"no time-out move in game {game['game']}: {game}\n{logs}"
    assert timeouts == moves, f"only the clock should have moved: {moves}"
    assert game["version"] == len(timeouts), f"version {game['version']} for {len(timeouts)} time-outs: {moves}"
    assert [m["seq"] for m in moves] == list(range(1, game["version"] + 1)), moves
    for before, after in zip(moves, moves[1:]):
        gap = (at(after["created_at"]) - at(before["created_at"])).total_seconds()
        assert gap >= game["move_seconds"], f"time-outs {before['seq']} and {after['seq']} only {gap:.3f}s apart: {moves}"
    return timeouts


def first_timeout(done: dict, original: dict, logs: str) -> tuple[dict, dict]:
    """(the game as the helper read it at the end, its first time-out move), after checking that only the
    clock moved, once per deadline, and that the first time-out hit the seat that was on the clock."""
    game = done["games"][str(original["game"])]
    first = check_only_timeouts_once_each(game, logs)[0]
    assert first["position"] == seat_on_clock(original)["position"], first
    return game, first


def test_a_table_with_a_2_second_clock_times_out_by_itself(stack):
    game = stack.helper("new_game", "alone", 2, 2)
    assert game["status"] == "active" and game["version"] == 0, game
    started = at(game["started_at"])
    seat = seat_on_clock(game)
    assert at(seat["deadline"]) == started + timedelta(seconds=2), seat
    assert seat["reserve_seconds_left"] == 2 and not seat["in_reserve"], seat

    done = stack.helper("wait_for_timeouts", [game["game"]], POLL_LIMIT)
    after = done["games"][str(game["game"])]
    timeouts = check_only_timeouts_once_each(after, stack.logs())

    first = timeouts[0]
    assert first["seq"] == 1 and first["position"] == seat["position"], first
    assert first["action"].get("auto") is True, first
    late = (at(first["created_at"]) - started).total_seconds()
    # 2 s of move time, then the 2 s reserve; enforced by the queued task or the 1-second sweep.
    assert 4.0 <= late < 4.0 + 6.0, f"applied {late:.3f}s after the start"
    timed_out_seat = after["seats"][seat["position"]]
    assert timed_out_seat["reserve_seconds_left"] == 0, timed_out_seat
    assert timed_out_seat["auto_streak"] == 1, timed_out_seat

    # The commit really queued the deadline check in Redis (not eagerly) and the worker ran it.
    worker_log = stack.worker.log()
    assert re.search(r"Task gameplay\.tasks\.enforce_deadlines\[[\w-]+\] received", worker_log), stack.logs()
    assert "Traceback" not in worker_log, stack.logs()
    print(f"time-out applied {late:.3f}s after the start; seen after {done['waited']:.1f}s of polling")


def held_deadline_tasks(stack, game_id: int) -> list[str]:
    """The worker's unacknowledged (held) enforce_deadlines tasks for this game."""
    return [raw for raw in stack.unacked_tasks()
            if "gameplay.tasks.enforce_deadlines" in raw and f"({game_id}, 0)" in raw]


def test_a_new_worker_enforces_a_deadline_the_killed_worker_held(stack):
    # Table A starts while the worker runs: its deadline task (an ETA task)
    # goes to the worker at once, which holds it unacknowledged until then.
    held = stack.helper("new_game", "held", 3, 0)
    held_deadline = at(seat_on_clock(held)["deadline"])
    while not held_deadline_tasks(stack, held["game"]):
        assert datetime.now(UTC) < held_deadline - timedelta(seconds=0.5), (
            "no enforce_deadlines task of table A in kombu's `unacked` hash (held by the worker) "
            "before its deadline\n" + stack.logs())
        time.sleep(0.05)
    # SIGKILL: no warm shutdown, so the task is not given back; Redis would
    # redeliver it only after the visibility timeout (an hour).
    stack.worker.kill_hard()
    killed_at = datetime.now(UTC)
    assert killed_at < held_deadline, "the worker was killed too late for this test to mean anything"

    # Table B starts with no worker at all: its deadline task waits in the queue.
    queued = stack.helper("new_game", "queued", 2, 0)
    queued_deadline = at(seat_on_clock(queued)["deadline"])
    ids = [held["game"], queued["game"]]

    # Both deadlines pass (by a second) with beat running and no worker: nothing happens.
    overdue_from = max(held_deadline, queued_deadline) + timedelta(seconds=1)
    time.sleep(max(0.0, (overdue_from - datetime.now(UTC)).total_seconds()))
    before = stack.helper("snapshots", ids)
    for game in before.values():
        assert game["version"] == 0 and game["moves"] == [], f"moved with no worker running: {game}"
    assert held_deadline_tasks(stack, held["game"]), "table A's task should still be lost in `unacked`"

    started_at = datetime.now(UTC)
    stack.start_worker()
    ready_at = datetime.now(UTC)
    done = stack.helper("wait_for_timeouts", ids, RESTART_LIMIT)

    for original, deadline in ((held, held_deadline), (queued, queued_deadline)):
        game, first = first_timeout(done, original, stack.logs())
        assert first["action"].get("auto") is True, first
        applied = at(first["created_at"])
        assert applied >= started_at > deadline, (first, started_at, deadline)
        took = (applied - ready_at).total_seconds()
        assert took < RESTART_LIMIT, f"enforced {took:.1f}s after the new worker was ready"
        print(f"game {game['game']}: enforced {(applied - started_at).total_seconds():.2f}s after the new worker "
              f"was started ({(ready_at - started_at).total_seconds():.2f}s to its 'ready' line), "
              f"{(applied - deadline).total_seconds():.2f}s after its deadline")
    new_worker_log = stack.worker.log()
    assert "Traceback" not in new_worker_log, stack.logs()
