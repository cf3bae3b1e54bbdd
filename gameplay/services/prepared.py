"""Querysets of the move's hot path compiled once per database connection.

Building and compiling a queryset is Python work that Django repeats on
every call: for the four seats of a game with their users, about 1.4 ms of
CPU against 0.07 ms for running the SQL it produces (SQLite, two shared
cores); a move reads the game row and its seats in every transaction, on
the one thread of a daphne process that runs the database work of all its
sockets. A `PreparedQuery` compiles its queryset once per connection (the
SQL is Django's own, for that connection's database) and then only
substitutes the parameter values, runs the SQL and turns the rows into
model instances with Django's own converters and related-object
populators, as `QuerySet.__iter__` does.
"""

from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.db import connections
from django.db.models import Field, QuerySet
from django.db.models.query import get_related_populators


class PreparedQuery:
    """`build(**values)` returns the queryset; `parameters` names each value's
    field ("app_label.Model.field", which prepares the value for the
    database) and a sentinel value used at compile time to find where the
    value goes among the SQL's parameters. The queryset may use `select_related`, `annotate`,
    `order_by` and `select_for_update`; not `prefetch_related`, `values`,
    `only`/`defer`, nor `_known_related_objects`."""

    def __init__(self, name: str, build: Callable[..., QuerySet], parameters: dict[str, tuple[str, Any]]):
        self.name = name
        self.build = build
        self.parameters = parameters

    def __call__(self, using: str = "default", **values) -> list:
        return self.compiled(connections[using]).run(values)

    def compiled(self, connection) -> "_Compiled":
        compiled = connection.__dict__.setdefault("_prepared_queries", {}).get(self.name)
        if compiled is None:
            compiled = connection._prepared_queries[self.name] = _Compiled(self, connection)
        return compiled


def run_together(queries: list[tuple[PreparedQuery, dict]], using: str = "default") -> list[list]:
    """Each (query, its values)'s objects, as `query(**values)` returns them;
    on PostgreSQL in one round trip (one string of statements, run in their
    order: Django's psycopg cursors bind parameters on the client, which
    allows that; each statement's rows come as a result set of their own).
    For queries none of which depends on another's rows; a lock the first
    takes is held when the next runs, as with separate calls."""
    connection = connections[using]
    compiled = [query.compiled(connection) for query, _ in queries]
    if not several_statements_per_call(connection):
        return [each.run(values) for each, (_, values) in zip(compiled, queries)]
    sql = "; ".join(each.sql for each in compiled)
    params = [value for each, (_, values) in zip(compiled, queries) for value in each.params_for(values)]
    results = []
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for index, each in enumerate(compiled):
            if index:
                cursor.nextset()
            results.append(each.objects(cursor.fetchall()))
    return results


def several_statements_per_call(connection) -> bool:
    """PostgreSQL with client-side parameter binding (Django's default for psycopg 3)."""
    return (connection.vendor == "postgresql"
            and not connection.settings_dict.get("OPTIONS", {}).get("server_side_binding"))


def _field(path: str) -> Field:
    app_label, model, name = path.split(".")
    return apps.get_model(app_label, model)._meta.get_field(name)


class _Compiled:
    def __init__(self, query: PreparedQuery, connection):
        sentinels = {name: sentinel for name, (_field, sentinel) in query.parameters.items()}
        queryset = query.build(**sentinels)
        self.compiler = queryset.query.get_compiler(connection=connection)
        self.sql, params = self.compiler.as_sql()
        self.params = list(params)
        self.fields = {name: _field(path) for name, (path, _sentinel) in query.parameters.items()}
        self.slots = {}  # name -> positions among the parameters
        for name, field in self.fields.items():
            prepared = field.get_db_prep_value(sentinels[name], connection, prepared=False)
            self.slots[name] = [i for i, value in enumerate(self.params) if value == prepared]
            if not self.slots[name]:
                raise ValueError(f"{query.name}: the value of {name!r} is not among the query's parameters")
        self.connection = connection
        self.db = queryset.db
        select, klass_info = self.compiler.select, self.compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.init_list = [f[0].target.attname for f in select[self.start:self.end]]
        self.related_populators = get_related_populators(klass_info, select, self.db)
        self.annotations = self.compiler.annotation_col_map or {}
        self.converters = self.compiler.get_converters([column[0] for column in select[:self.compiler.col_count]])

    def run(self, values: dict) -> list:
        with self.connection.cursor() as cursor:
            cursor.execute(self.sql, self.params_for(values))
            return self.objects(cursor.fetchall())

    def params_for(self, values: dict) -> list:
        params = list(self.params)
        for name, value in values.items():
            prepared = self.fields[name].get_db_prep_value(value, self.connection, prepared=False)
            for position in self.slots[name]:
                params[position] = prepared
        return params

    def objects(self, rows: list) -> list:
        objects = []
        if self.converters:
            rows = self.compiler.apply_converters(rows, self.converters)
        for row in rows:
            obj = self.model.from_db(self.db, self.init_list, row[self.start:self.end])
            for populator in self.related_populators:
                populator.populate(row, obj)
            for attribute, position in self.annotations.items():
                setattr(obj, attribute, row[position])
            objects.append(obj)
        return objects
