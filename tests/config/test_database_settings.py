"""Reused database connections (config/settings.py, README "Configuration").

On PostgreSQL every process keeps a pool of connections (DATABASE_POOL, at
most that many; 0 turns it off), checked before each is lent; persistent
connections (DATABASE_CONN_MAX_AGE) only with the pool off. SQLite is left
as it was. The settings are loaded in fresh processes (they are read once, at
import) with the production-like environment of test_production_settings.

The last tests talk to a real PostgreSQL server (TEST_DATABASE_URL): the
pool is really used, by the consumers' thread and by request threads alike.
"""

import json
import os
import subprocess
import sys
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.config.test_production_settings import BASE_DIR, manage, production_env

POSTGRES_URL = "postgres://games:secret@db.invalid:5432/games"

SHOW_DATABASE = """
import json
import django
django.setup()
from django.conf import settings
db = settings.DATABASES["default"]
print(json.dumps({key: db.get(key) for key in ("ENGINE", "CONN_MAX_AGE", "CONN_HEALTH_CHECKS", "OPTIONS")}))
"""


def database_settings(tmp_path, **overrides: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SHOW_DATABASE], cwd=BASE_DIR,
                          env=production_env(tmp_path, **overrides), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_on_postgresql_each_process_pools_its_connections_by_default(tmp_path):
    db = database_settings(tmp_path, DATABASE_URL=POSTGRES_URL)

    assert db["ENGINE"] == "config.postgresql"  # Django's, sending BEGIN with the first statement
    assert db["OPTIONS"] == {"pool": {"min_size": 1, "max_size": 10}}
    assert db["CONN_MAX_AGE"] == 0  # the pool, not persistent connections (Django refuses both)
    assert db["CONN_HEALTH_CHECKS"] is True  # the pool checks a connection before lending it (test_pool_check.py)


def test_the_pool_size_comes_from_the_environment_and_keeps_the_urls_options(tmp_path):
    db = database_settings(tmp_path, DATABASE_URL=POSTGRES_URL + "?sslmode=require", DATABASE_POOL="25")

    assert db["OPTIONS"] == {"sslmode": "require", "pool": {"min_size": 1, "max_size": 25}}


def test_without_the_pool_connections_may_persist_with_health_checks(tmp_path):
    pooled_off = database_settings(tmp_path, DATABASE_URL=POSTGRES_URL, DATABASE_POOL="0")
    persistent = database_settings(tmp_path, DATABASE_URL=POSTGRES_URL, DATABASE_POOL="0",
                                   DATABASE_CONN_MAX_AGE="60")

    assert "pool" not in (pooled_off["OPTIONS"] or {}) and pooled_off["CONN_MAX_AGE"] == 0
    assert "pool" not in (persistent["OPTIONS"] or {})
    assert persistent["CONN_MAX_AGE"] == 60 and persistent["CONN_HEALTH_CHECKS"] is True


def test_a_pool_and_persistent_connections_at_once_are_refused_at_start(tmp_path):
    done = manage(production_env(tmp_path, DATABASE_URL=POSTGRES_URL, DATABASE_CONN_MAX_AGE="60"), "check")

    assert done.returncode != 0
    assert "DATABASE_CONN_MAX_AGE needs DATABASE_POOL=0" in done.stderr


@pytest.mark.parametrize("variable, value", [("DATABASE_POOL", "yes"), ("DATABASE_POOL", "-1"),
                                             ("DATABASE_CONN_MAX_AGE", "1m"), ("DATABASE_CONN_MAX_AGE", "-5")])
def test_a_malformed_value_stops_the_settings_naming_the_variable(tmp_path, variable, value):
    env = production_env(tmp_path, **{"DATABASE_URL": POSTGRES_URL, "DATABASE_POOL": "0", variable: value})

    done = manage(env, "check")

    assert done.returncode != 0
    assert f'Environment variable "{variable}" invalid' in done.stderr, done.stderr


def test_sqlite_is_left_as_it_was(tmp_path):
    db = database_settings(tmp_path, DATABASE_POOL="5")

    assert db["ENGINE"] == "django.db.backends.sqlite3"
    assert "pool" not in db["OPTIONS"] and db["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert db["CONN_MAX_AGE"] == 0 and db["CONN_HEALTH_CHECKS"] is False


# -- on a real PostgreSQL server --------------------------------------------------

# Which server connection (pg_backend_pid) served each of six units of
# database work, each ended the way its process ends it: three consumer calls
# (channels' database_sync_to_async closes the connection before and after),
# then three requests, each in a thread of its own as daphne runs a view,
# each ended by close_old_connections (request_finished).
BACKENDS = """
import asyncio
import json
import threading

import django
django.setup()
from channels.db import database_sync_to_async
from django.db import close_old_connections, connection


def backend_pid():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


async def consumer_calls():
    return [await database_sync_to_async(backend_pid)() for _ in range(3)]


def request_in_a_thread_of_its_own():
    seen = []

    def request():
        close_old_connections()
        seen.append(backend_pid())
        close_old_connections()

    thread = threading.Thread(target=request)
    thread.start()
    thread.join()
    return seen[0]


pids = asyncio.run(consumer_calls()) + [request_in_a_thread_of_its_own() for _ in range(3)]
pool = connection.pool
print(json.dumps({"pids": pids, "pool": type(pool).__name__ if pool else None,
                  "max_size": pool.max_size if pool else None}))
"""


@pytest.fixture
def postgres_url():
    """The PostgreSQL server of TEST_DATABASE_URL, its maintenance database (nothing is written)."""
    url = os.environ.get("TEST_DATABASE_URL", "")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("TEST_DATABASE_URL is not set (CI needs the PostgreSQL tests)")
        pytest.skip("TEST_DATABASE_URL is not set")
    return urlunsplit(urlsplit(url)._replace(path="/postgres"))


def backends(tmp_path, **overrides: str) -> dict:
    done = subprocess.run([sys.executable, "-c", BACKENDS], cwd=BASE_DIR, env=production_env(tmp_path, **overrides),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.postgres
def test_the_pool_serves_consumer_calls_and_request_threads_from_one_connection(tmp_path, postgres_url):
    pooled = backends(tmp_path, DATABASE_URL=postgres_url, DATABASE_POOL="2")
    unpooled = backends(tmp_path, DATABASE_URL=postgres_url, DATABASE_POOL="0")

    assert pooled["pool"] == "ConnectionPool" and pooled["max_size"] == 2, pooled
    # Six units of work on at most the pool's two connections, taken again and again.
    assert len(set(pooled["pids"])) <= 2, f"the pooled connections should be reused: {pooled}"
    # Without it each one opened a connection of its own.
    assert unpooled["pool"] is None and len(set(unpooled["pids"])) == 6, unpooled
