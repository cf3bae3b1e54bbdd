"""Migrated SQLite files for the tests' child processes (daphne, Celery, scenario scripts).

Every browser module and most integration modules serve the site from a fresh
SQLite file of their own, migrated by `manage.py migrate`: seconds each, much
longer on a busy machine. `migrate_sqlite` runs that command once per test
process, into a template file, and gives every caller a copy of the template
(SQLite's online backup): the same schema, permissions and groups the
command would have written, in an instant. The template lives in pytest's
temporary directory of this process (`use_template_dir`, set by a session
fixture in tests/conftest.py); without one (outside pytest) every call
migrates its own file.
"""

import os
import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[1]
MIGRATE_SECONDS = 180

_lock = threading.Lock()
_template_dir: Path | None = None
_template: Path | None = None


def use_template_dir(directory: Path | None) -> None:
    """Where this process keeps its migrated template (None: no template, migrate every file)."""
    global _template_dir, _template
    with _lock:
        _template_dir, _template = directory, None


def run_migrate(env: dict, database_path: Path) -> None:
    """`manage.py migrate` with `env`, into the SQLite file `database_path`."""
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=BASE_DIR, env={**env, "DATABASE_URL": f"sqlite:///{database_path}"},
        capture_output=True, text=True, timeout=MIGRATE_SECONDS,
    )
    if migrated.returncode != 0:
        raise RuntimeError(f"migrate failed:\n{migrated.stdout}\n{migrated.stderr}")


def _migrated_template(env: dict) -> Path | None:
    global _template
    with _lock:
        if _template is None and _template_dir is not None:
            template = _template_dir / "migrated-template.sqlite3"
            run_migrate(env, template)
            _template = template
        return _template


def migrate_sqlite(env: dict, database_path: Path) -> None:
    """A freshly migrated database in the (new) SQLite file `database_path`."""
    template = _migrated_template(env)
    if template is None:
        run_migrate(env, database_path)
        return
    if os.path.exists(database_path):
        raise FileExistsError(f"{database_path} exists already: migrate_sqlite fills a new file")
    with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(database_path)) as copy:
        source.backup(copy)
