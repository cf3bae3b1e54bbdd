"""The example client (examples/durak_bot.py) against a live server: daphne
really started on a fresh database, two bot accounts with tokens; one bot
opens a Durak table and waits, the other joins it, and both play random
legal moves over the HTTP API and the NDJSON stream to the end of the game."""

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
    tokens.append(create_token(user, "example bot", ["read", "play"], 1)[1])
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


def test_the_example_bot_plays_a_whole_durak_game_against_a_live_server(tmp_path):
    stack = migrated_stack(tmp_path, redis_url="")
    stack.env.pop("REDIS_URL")  # one daphne process: the in-process channel layer, the tasks run in it
    stack.env.update({"CELERY_TASK_ALWAYS_EAGER": "true", "API_STREAM_POLL_SECONDS": "1"})
    first, second = run_python(stack, SETUP)
    bots = []
    try:
        _daphne, port = stack.start_daphne()
        creator_log, joiner_log = tmp_path / "alpha.log", tmp_path / "beta.log"
        creator = bot(stack, port, first, "--create", "--seed", "1", log=creator_log)
        bots.append(creator)
        table = int(wait_for_line(creator_log, "table ", creator).split()[1])
        joiner = bot(stack, port, second, "--join", str(table), "--seed", "2", log=joiner_log)
        bots.append(joiner)
        for process in bots:
            process.wait(timeout=GAME_SECONDS)
        logs = creator_log.read_text() + joiner_log.read_text()
        assert [p.returncode for p in bots] == [0, 0], logs + stack.logs()
        assert creator_log.read_text().count("game over: finished") == 1, logs
        assert joiner_log.read_text().count("game over: finished") == 1, logs
        print(logs)
        result = run_python(stack, RESULT)
        assert result["status"] == "finished" and result["engine"] == "durak" and result["version"] > 10
        assert "logged in as BOT alpha" in creator_log.read_text()
    finally:
        for process in bots:
            if process.poll() is None:
                process.kill()
        stack.stop_all()
