"""The example client (examples/durak_bot.py) against a live server: daphne
really started on a fresh database, two bot accounts with tokens. One bot
waits for a challenge and accepts it, the other challenges it (or: one opens
a Durak table and waits, the other joins it); both play random legal moves
over the HTTP API and the NDJSON streams to the end of the game."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import BASE_DIR, migrated_stack

pytestmark = pytest.mark.slow
EXAMPLE = BASE_DIR / "examples" / "durak_bot.py"
GAME_SECONDS = 240

SETUP = r'''
import json
import django
django.setup()
from accounts.bots import make_bot
from accounts.models import User
from api.tokens import create_token
tokens = []
for name in ("alpha", "beta"):
    user = User.objects.create_user(name, password="pw-not-used-1", language="en")
    make_bot(user, by=user)
    tokens.append(create_token(user, "example bot", ["read", "play", "challenge"], 1)[1])
print(json.dumps(tokens))
'''

RESULT = r'''
import json
import django
django.setup()
from gameplay.models import Game
game = Game.objects.get()
print(json.dumps({"status": game.status, "version": game.version, "engine": game.engine,
                  "places": sorted(game.seats.values_list("place", flat=True))}))
'''


def run_python(stack, script: str) -> object:
    done = subprocess.run([sys.executable, "-c", script], cwd=BASE_DIR, env=stack.env, capture_output=True,
                          text=True, timeout=90)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def bot(stack, port: int, token: str, *args: str, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, str(EXAMPLE), "--site", f"http://127.0.0.1:{port}", "--token", token,
                             *args], cwd=BASE_DIR, env=stack.env, stdout=open(log, "w"), stderr=subprocess.STDOUT)


def wait_for_line(path: Path, prefix: str, process: subprocess.Popen) -> str:
    import time

    give_up = time.monotonic() + 60
    while time.monotonic() < give_up:
        for line in path.read_text().splitlines():
            if line.startswith(prefix):
                return line
        assert process.poll() is None, path.read_text()
        time.sleep(0.1)
    raise AssertionError(path.read_text())


@pytest.fixture
def live(tmp_path):
    """(stack, daphne's port, the two bots' tokens)."""
    stack = migrated_stack(tmp_path, redis_url="")
    stack.env.pop("REDIS_URL")  # one daphne process: the in-process channel layer, the tasks run in it
    stack.env.update({"CELERY_TASK_ALWAYS_EAGER": "true", "API_STREAM_POLL_SECONDS": "1"})
    tokens = run_python(stack, SETUP)
    try:
        _daphne, port = stack.start_daphne()
        yield stack, port, tokens
    finally:
        stack.stop_all()


def play_out(stack, bots: list[tuple[subprocess.Popen, Path]]) -> str:
    """Wait for both bots to end; their logs. Each must have played the game to its end."""
    try:
        for process, _log in bots:
            process.wait(timeout=GAME_SECONDS)
    finally:
        for process, _log in bots:
            if process.poll() is None:
                process.kill()
    logs = "".join(log.read_text() for _process, log in bots)
    assert [process.returncode for process, _log in bots] == [0, 0], logs + stack.logs()
    for _process, log in bots:
        assert log.read_text().count("game over: finished") == 1, logs
    result = run_python(stack, RESULT)
    assert result["status"] == "finished" and result["engine"] == "durak" and result["version"] > 10, result
    assert sorted(result["places"]) == [1, 2]
    return logs


def test_the_example_bot_accepts_a_challenge_and_plays_a_whole_durak_game(live, tmp_path):
    stack, port, (alpha, beta) = live
    waiting_log, challenger_log = tmp_path / "beta.log", tmp_path / "alpha.log"
    waiting = bot(stack, port, beta, "--seed", "2", log=waiting_log)
    wait_for_line(waiting_log, "waiting for a challenge", waiting)
    challenger = bot(stack, port, alpha, "--challenge", "beta", "--seed", "1", log=challenger_log)
    logs = play_out(stack, [(waiting, waiting_log), (challenger, challenger_log)])
    assert "from alpha accepted" in waiting_log.read_text(), logs
    assert "logged in as BOT alpha" in challenger_log.read_text()


def test_the_example_bot_opens_a_table_and_another_joins_it(live, tmp_path):
    stack, port, (alpha, beta) = live
    creator_log, joiner_log = tmp_path / "alpha.log", tmp_path / "beta.log"
    creator = bot(stack, port, alpha, "--create", "--seed", "1", log=creator_log)
    table = int(wait_for_line(creator_log, "table ", creator).split()[1])
    joiner = bot(stack, port, beta, "--join", str(table), "--seed", "2", log=joiner_log)
    play_out(stack, [(creator, creator_log), (joiner, joiner_log)])
