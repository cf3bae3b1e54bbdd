"""Computer players think in a queue of their own (issue 43): real processes, Redis, workers and beat.

A computer's move (`gameplay.tasks.play_bot`) goes to the computers' queue
(settings.CELERY_TASK_ROUTES), which `make run` gives a worker of its own
(config/supervisord.conf, `computers`); the deadlines and notices stay in the
default queue. So however many computers are thinking, however long, a
person's deadline does not wait for them: shown here with the worst case, a
computers' queue that nobody consumes at all, and then with both running.
"""

from datetime import datetime

import pytest

from tests.integration.conftest import migrated_stack, redis_database

pytestmark = pytest.mark.slow

REDIS_DB = 7
WAIT = 20  # seconds at most for what each step waits for
MOVE_SECONDS = 2


@pytest.fixture(scope="module")
def split_stack(tmp_path_factory, redis_url):
    """A stack whose first worker consumes only the default queue, and beat (no computers' worker yet)."""
    stack = migrated_stack(tmp_path_factory.mktemp("computers-queue"), redis_database(redis_url, REDIS_DB))
    try:
        stack.start_worker(only=("celery",))
        stack.start_beat()
        yield stack
    finally:
        try:
            stack.helper("abort_active")
        finally:
            stack.stop_all()


def timeouts(game: dict) -> list[dict]:
    return [move for move in game["moves"] if move["by"] == "timeout"]


def test_a_table_of_computers_never_holds_up_a_persons_deadline(split_stack):
    stack = split_stack
    computers = stack.helper("new_computer_game", "bots")
    person = stack.helper("new_game", "people", MOVE_SECONDS, 0)

    # No worker takes the computers' queue: their table waits, the person's deadline is enforced all the same.
    done = stack.helper("wait_for_timeouts", [person["game"]], WAIT)["games"][str(person["game"])]
    assert timeouts(done), f"the person's deadline was not enforced: {done}\n{stack.logs()}"
    waiting = stack.helper("snapshots", [computers["game"]])[str(computers["game"])]
    assert waiting["version"] == 0, f"a computer moved with no worker on its queue: {waiting['moves']}"

    # The computers' worker starts: their table moves, and a deadline met meanwhile is enforced on time too.
    stack.start_worker(alongside=True, only=("computers",))
    moving = stack.helper("wait_for_version", computers["game"], 4, WAIT)
    assert moving["version"] >= 4 and {m["by"] for m in moving["moves"]} == {"bot"}, moving["moves"]
    second = stack.helper("new_game", "more-people", MOVE_SECONDS, 0)
    done = stack.helper("wait_for_timeouts", [second["game"]], WAIT)["games"][str(second["game"])]
    [timeout] = timeouts(done)[:1] or [None]
    assert timeout is not None, f"the deadline was not enforced while the computers played\n{stack.logs()}"
    later = stack.helper("wait_for_version", computers["game"], moving["version"] + 4, WAIT)
    enforced_at = datetime.fromisoformat(timeout["created_at"])
    computer_moves = [datetime.fromisoformat(m["created_at"]) for m in later["moves"]]
    assert any(at < enforced_at for at in computer_moves) and any(at > enforced_at for at in computer_moves), (
        "the computers should have kept moving before and after the deadline", later["moves"], timeout)
    assert "Traceback" not in stack.logs(20000), stack.logs()
