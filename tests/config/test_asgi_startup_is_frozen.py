"""A daphne process' startup objects are kept out of the garbage collector's
full collections (`config.asgi` ends with `gc.freeze()`), and full
collections come ten times less often than Python's default."""

import subprocess
import sys

import pytest

PROBE = """
import gc, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import config.asgi
print(*gc.get_threshold(), gc.get_freeze_count(), len(gc.get_objects()))
"""


@pytest.fixture(scope="module")
def loaded() -> list[int]:
    """(the three thresholds, frozen objects, still tracked objects) of a process that loaded config.asgi."""
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True)
    return [int(word) for word in done.stdout.split()[-5:]]


def test_the_objects_made_while_the_application_loads_are_frozen(loaded):
    frozen, still_tracked = loaded[3:]
    assert frozen > 50_000  # Django and the apps
    assert still_tracked < frozen / 10  # a full collection walks only what came after


def test_a_full_collection_waits_for_a_hundred_collections_of_the_middle_generation(loaded):
    assert loaded[:2] == [700, 10]  # Python's defaults: the young generations as they were
    assert loaded[2] == 100
