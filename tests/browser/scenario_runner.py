"""One long-lived process per live server that runs the browser tests' scenarios.

Each scenario module (`tests/browser/*scenario.py`) is a command: `python -m
MODULE NAME ARGS...` prints one JSON line. Started once per call, every call
paid Python's and Django's start (about 1.5 s of CPU), and the suite makes
hundreds of them. This process starts once, with the live server's
environment, and runs each module's `main(argv)` as that command would:

- a request is one JSON line on stdin, ``{"module": ..., "argv": [...]}``;
- the answer is one JSON line on the process' own channel (the stdout it was
  started with), ``{"ok": true, "output": "<what main printed>"}`` or
  ``{"ok": false, "error": "<what it printed and the traceback>"}``.

Between scenarios it leaves nothing a fresh process would not have: the
database connections are closed, the in-memory cache is emptied, the
language and the time zone are back to the settings'. Whatever else writes
to stdout (a log handler) goes to stderr, so the answers cannot be garbled.
"""

import contextlib
import importlib
import io
import json
import os
import sys
import traceback


def answer_channel():
    """The stdout this process was started with, for answers only; fd 1 now leads to stderr."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return channel


def run_one(request: dict) -> dict:
    printed = io.StringIO()
    try:
        module = importlib.import_module(request["module"])
        with contextlib.redirect_stdout(printed):
            module.main(list(request["argv"]))
        return {"ok": True, "output": printed.getvalue()}
    except BaseException:  # SystemExit too: the command would have failed
        return {"ok": False, "error": printed.getvalue() + traceback.format_exc()}


def forget_between_scenarios() -> None:
    from django.core.cache import cache
    from django.db import connections
    from django.utils import timezone, translation

    connections.close_all()
    cache.clear()
    translation.deactivate()
    timezone.deactivate()


def main() -> None:
    channel = answer_channel()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    for line in sys.stdin:
        if not line.strip():
            continue
        answer = run_one(json.loads(line))
        forget_between_scenarios()
        channel.write(json.dumps(answer) + "\n")
        channel.flush()


if __name__ == "__main__":
    main()
