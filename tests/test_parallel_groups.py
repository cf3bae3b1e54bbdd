"""`make test` runs the suite on several workers (pytest-xdist, `--dist
loadgroup`), and tests/conftest.py keeps the tests of a module with a shared
(module-scoped) fixture on one worker, so that the fixture starts once: a live
server, a browser, a Celery stack, games played to their end. pytest 9.2
dropped those groups without a word (pytest-xdist#1386) and every such module
started its fixture on each worker; this runs a small suite the way the
Makefile does and checks that each module's tests ran on one worker, its
fixture set up once."""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from django.conf import settings

MODULE = '''
import json, os, pytest

@pytest.fixture(scope="module")
def shared():
    with open(os.environ["LOG"], "a") as log:
        log.write(json.dumps({"module": __name__, "setup": True, "worker": os.environ["PYTEST_XDIST_WORKER"]}) + "\\n")

@pytest.mark.parametrize("n", range(6))
def test_one(shared, n):
    with open(os.environ["LOG"], "a") as log:
        log.write(json.dumps({"module": __name__, "worker": os.environ["PYTEST_XDIST_WORKER"]}) + "\\n")
'''


def test_the_tests_of_a_module_with_a_shared_fixture_run_on_one_worker_which_sets_it_up_once(tmp_path: Path):
    suite = tmp_path / "suite"
    suite.mkdir()
    # The project's own grouping hook, and nothing else of its conftest.
    (suite / "conftest.py").write_text("from tests.conftest import pytest_collection_modifyitems  # noqa: F401\n")
    for name in ("test_first", "test_second", "test_third"):
        (suite / f"{name}.py").write_text(textwrap.dedent(MODULE))
    log = tmp_path / "log.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-p", "no:cacheprovider",
         "-p", "no:django", "-q", "--rootdir", str(suite), str(suite)],
        cwd=settings.BASE_DIR, env={"PATH": "/usr/bin:/bin", "LOG": str(log), "PYTHONPATH": str(settings.BASE_DIR),
                                    "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    for module in ("test_first", "test_second", "test_third"):
        ran = [entry for entry in entries if entry["module"] == module]
        assert len([entry for entry in ran if not entry.get("setup")]) == 6
        assert len({entry["worker"] for entry in ran}) == 1, f"{module} ran on several workers: {ran}"
        assert len([entry for entry in ran if entry.get("setup")]) == 1, f"{module}'s fixture set up again: {ran}"
