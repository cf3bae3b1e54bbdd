"""The settings of read replicas and of a sharded channel layer (config/settings.py,
README "Read replicas"), loaded in fresh processes from the environment, as
tests/config/test_database_settings.py loads the database's."""

import json
import subprocess
import sys

from tests.config.test_production_settings import BASE_DIR, manage, production_env

PRIMARY = "postgres://games:secret@db.invalid:5432/games"
REPLICAS = "postgres://games:secret@replica1.invalid:5432/games,postgres://games:secret@replica2.invalid:5432/games"

SHOW = """
import json
import django
django.setup()
from django.conf import settings
print(json.dumps({
    "databases": {alias: {key: db.get(key) for key in ("HOST", "OPTIONS", "TEST")}
                  for alias, db in settings.DATABASES.items()},
    "replicas": settings.DATABASE_REPLICAS,
    "routers": settings.DATABASE_ROUTERS,
    "middleware": settings.MIDDLEWARE[-1],
    "seconds": settings.READ_OWN_WRITES_SECONDS,
    "channel_layer": settings.CHANNEL_LAYERS["default"],
}))
"""


def loaded(tmp_path, **overrides: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SHOW], cwd=BASE_DIR, env=production_env(tmp_path, **overrides),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_each_replica_url_becomes_a_database_the_router_reads_pages_from(tmp_path):
    site = loaded(tmp_path, DATABASE_URL=PRIMARY, DATABASE_REPLICA_URLS=REPLICAS, READ_OWN_WRITES_SECONDS="5")

    assert site["replicas"] == ["replica1", "replica2"]
    assert [db["HOST"] for db in site["databases"].values()] == [
        "db.invalid", "replica1.invalid", "replica2.invalid"]
    # Pooled like the primary; the tests' database has no copies of its own.
    assert site["databases"]["replica2"]["OPTIONS"] == {"pool": {"min_size": 1, "max_size": 10}}
    assert site["databases"]["replica1"]["TEST"]["MIRROR"] == "default"
    assert site["routers"] == ["config.db_router.ReplicaRouter"]
    assert site["middleware"] == "accounts.primary_reads.ReplicaReadsMiddleware"
    assert site["seconds"] == 5


def test_without_replicas_there_is_one_database_and_no_router(tmp_path):
    site = loaded(tmp_path, DATABASE_URL=PRIMARY)

    assert list(site["databases"]) == ["default"]
    assert site["replicas"] == [] and site["routers"] == []
    assert site["middleware"] != "accounts.primary_reads.ReplicaReadsMiddleware"


def test_replicas_of_an_sqlite_file_are_refused_at_start(tmp_path):
    done = manage(production_env(tmp_path, DATABASE_REPLICA_URLS=REPLICAS), "check")

    assert done.returncode != 0
    assert "DATABASE_REPLICA_URLS needs DATABASE_URL to name the PostgreSQL primary" in done.stderr


def test_the_channel_layer_is_sharded_over_the_redis_servers_named(tmp_path):
    sharded = loaded(tmp_path, REDIS_URL="redis://cache.invalid:6379/0",
                     CHANNEL_REDIS_URLS="redis://layer1.invalid:6379/0,redis://layer2.invalid:6379/0")
    single = loaded(tmp_path, REDIS_URL="redis://cache.invalid:6379/0")
    none = loaded(tmp_path)

    assert sharded["channel_layer"]["CONFIG"]["hosts"] == ["redis://layer1.invalid:6379/0",
                                                           "redis://layer2.invalid:6379/0"]
    assert single["channel_layer"]["CONFIG"]["hosts"] == ["redis://cache.invalid:6379/0"]
    assert none["channel_layer"]["BACKEND"] == "channels.layers.InMemoryChannelLayer"
