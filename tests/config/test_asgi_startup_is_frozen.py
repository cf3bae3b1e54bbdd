"""A daphne process' startup objects are kept out of the garbage collector's
full collections (`config.asgi` ends with `gc.freeze()`)."""

import subprocess
import sys

PROBE = """
import gc, os
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import config.asgi
print(gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_the_objects_made_while_the_application_loads_are_frozen():
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True)
    frozen, still_tracked = map(int, done.stdout.split()[-2:])
    assert frozen > 50_000  # Django and the apps
    assert still_tracked < frozen / 10  # a full collection walks only what came after
