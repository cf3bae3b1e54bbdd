"""The database router of a site with read replicas (DATABASE_REPLICA_URLS;
README "Read replicas"). Installed only when replicas are configured.

- Writes, and migrations, go to the primary ("default").
- A read goes to a replica (one of DATABASE_REPLICAS, drawn at random) only
  where `accounts.primary_reads.replica_allowed()` says so: in the view of a
  page (lists, records, sheets, standings, leaderboards, the API's reads), for
  a viewer who changed nothing in the last READ_OWN_WRITES_SECONDS.
- Everything else reads the primary: a read inside a transaction on the
  primary (what a service locks and changes: the move path), the sockets'
  consumers, Celery's tasks, commands, other methods than GET and HEAD, the
  views marked `reads_primary`, and the rows a login or a token check must
  find the moment they are written (sessions, API tokens).
- A page's view that writes reads the primary from its first write on, and
  its viewer is marked as after any change of his own.
- An object read from a replica keeps its database for the reads that
  follow from it (its related objects), as Django's default does.
"""

import random

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

from accounts.primary_reads import note_write, replica_allowed

# Rows that must be found the moment they are written, whoever reads them.
PRIMARY_ONLY = frozenset({"sessions.session", "api.apitoken"})


class ReplicaRouter:
    def db_for_read(self, model, **hints) -> str:
        if model._meta.label_lower in PRIMARY_ONLY or not replica_allowed():
            return DEFAULT_DB_ALIAS
        if connections[DEFAULT_DB_ALIAS].in_atomic_block:
            return DEFAULT_DB_ALIAS
        instance = hints.get("instance")
        if instance is not None and instance._state.db:
            return instance._state.db
        return random.choice(settings.DATABASE_REPLICAS)

    def db_for_write(self, model, **hints) -> str:
        note_write()  # a page that writes reads the primary from then on
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1, obj2, **hints) -> bool:
        return True  # the replicas hold the primary's very rows

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints) -> bool:
        return db == DEFAULT_DB_ALIAS
