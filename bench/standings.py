"""Do a division's standings stay at a constant number of queries as its
games grow? A Joker league division of 100 players with 50 finished games
against one with 5,000: `leagues.standings.division_standings` and the
division's page, timed and their queries counted.

    .venv/bin/python -m bench.standings             # 50 against 5,000 finished games, 9 rounds
    .venv/bin/python -m bench.standings --quick     # smoke run: 50 against 500 games, 3 rounds
    .venv/bin/python -m bench.standings --large 10000 --repeats 15

Run it from the project root; it is not part of the test command (nor of
`make bench`). It creates a throwaway database (an SQLite file in a temporary
directory, or a database bench_<pid> on the server DATABASE_URL names:
bench.move_roundtrip's create_database), runs with production-like settings
(DEBUG off: bench.common.production_like_environment) and drops the database
at the end. The page goes through Django's test client and the real view,
template and middleware, signed in as one of the players.

The world: 100 players and two Joker leagues (4 players a table), each with a
running season of one division holding all 100 players. The small league's
division has `--small` finished games (default 50), the large one's
`--large` (default 5,000): rounds of 25 tables, every player at one table a
round, seated by a seeded shuffle (so 50 games are 2 rounds, 5,000 are 200).
Every scheduled table is finished: its Fixture, its Game (holding the final
state of a real Joker game played with random legal moves) and four Seats
with places and points (random game scores, places by score, equal scores
sharing a place) are written with bulk_create, not through the services
(far too slow for 5,000 games). Both divisions live in the same database, so
the tables are the same size for both and only the division's own games
differ.

Measured for each division: `division_standings(division)` (the division
read as the view reads it, with its season and league), the division's page
(`/leagues/<slug>/<season>/<division>/`), and, as a floor, one query reading
the division's seats (game, position, place, points) with nothing else done:
the rows any standings must read. Per division: two warm-up calls, one with
its queries counted (CaptureQueriesContext), then `--repeats` rounds, the two
divisions taking turns to go first; the median time is reported, with the
ratio large/small. Linear in the games, the ratio would be large/small
(100 by default); flat, 1. Progress goes to stderr, the report to stdout;
no goal is checked (exit status 0 unless a page fails). See bench/README.md.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import database_environment  # noqa: E402
from bench.move_roundtrip import create_database, destroy_database, progress  # noqa: E402
from bench.pages import configure_django, record_joker  # noqa: E402

PLAYERS = 100
SEATS = 4
TABLES_A_ROUND = PLAYERS // SEATS
BATCH_GAMES = 1000


# --- the world ----------------------------------------------------------------------------


class World:
    def __init__(self, seed: int) -> None:
        from django.contrib.auth import get_user_model

        users = get_user_model().objects
        self.players = users.bulk_create(
            [users.model(username=f"player{i}", language="en", display_name=f"Player {i}") for i in range(PLAYERS)])
        if self.players[0].pk is None:
            self.players = list(users.filter(username__startswith="player").order_by("pk"))
        self.organizer = users.create_user("organizer", password=None, language="en")
        self.recording = record_joker(seed=seed, mid=1)
        self.rng = random.Random(seed)

    def division(self, name: str, games: int):
        """A running season of a new Joker league, one division of all the
        players, `games` finished games; returns the division."""
        from django.utils import timezone

        from leagues.models import Division, Entry, League, Season

        rounds = games // TABLES_A_ROUND
        league = League.objects.create(
            name=name, slug=name.lower().replace(" ", "-"), organizer=self.organizer, engine="joker",
            options=self.recording.options, players=SEATS, time_preset="correspondence",
            games_per_player=rounds, division_size=PLAYERS)
        season = Season.objects.create(league=league, number=1, status=Season.Status.RUNNING,
                                       started_at=timezone.now() - timedelta(days=rounds))
        division = Division.objects.create(season=season, number=1)
        entries = Entry.objects.bulk_create(
            [Entry(season=season, user=user, division=division, rating_at_start=1400 + self.rng.random() * 300)
             for user in self.players])
        if entries[0].pk is None:
            entries = list(Entry.objects.filter(season=season).order_by("pk"))
        tables = []
        for number in range(1, rounds + 1):
            seating = entries[:]
            self.rng.shuffle(seating)
            tables += [(number, seating[i:i + SEATS]) for i in range(0, PLAYERS, SEATS)]
        for start in range(0, len(tables), BATCH_GAMES):
            self._write(division, tables[start:start + BATCH_GAMES], season.started_at)
        progress(f"{name}: {len(tables)} finished games written")
        return division

    def _write(self, division, tables: list, started) -> None:
        from django.db import transaction

        from gameplay.models import Game, Seat, seed_hash
        from leagues.models import Fixture

        rec = self.recording
        with transaction.atomic():
            games = []
            for number, seated in tables:
                seed = str(self.rng.getrandbits(40))
                games.append(Game(
                    engine="joker", options=rec.options, seats_count=SEATS, created_by=seated[0].user,
                    status=Game.Status.FINISHED, time_preset="correspondence", version=len(rec.moves), seed=seed,
                    seed_sha256=seed_hash(seed), state=rec.final_state, started_at=started + timedelta(days=number - 1),
                    finished_at=started + timedelta(days=number)))
            Game.objects.bulk_create(games)
            if games[0].pk is None:  # a database that does not return the new ids from bulk_create
                ids = list(Game.objects.order_by("-pk").values_list("pk", flat=True)[:len(games)])[::-1]
                for game, pk in zip(games, ids, strict=True):
                    game.pk = game.id = pk
            Fixture.objects.bulk_create(
                Fixture(division=division, round=number, seats=[e.pk for e in seated], game=game)
                for game, (number, seated) in zip(games, tables, strict=True))
            seats = []
            for game, (_number, seated) in zip(games, tables, strict=True):
                scores = [self.rng.randrange(-200, 1001, 50) for _ in seated]
                for position, (entry, score) in enumerate(zip(seated, scores, strict=True)):
                    place = 1 + sum(other > score for other in scores)
                    seats.append(Seat(game=game, position=position, user=entry.user, reserve_seconds_left=0,
                                      place=place, points=score))
            Seat.objects.bulk_create(seats)


# --- measuring ------------------------------------------------------------------------------


@dataclass
class Target:
    label: str
    run: object  # (division id) -> bytes of output or None
    own_queries: int = 0  # queries of the harness itself (the Division lookup), not counted


def targets(client) -> list[Target]:
    from gameplay.models import Seat
    from leagues.models import Division
    from leagues.standings import division_standings

    def standings(division_id: int) -> None:
        division_standings(Division.objects.select_related("season__league").get(pk=division_id))

    urls = {d.pk: d.get_absolute_url() for d in Division.objects.select_related("season__league")}

    def page(division_id: int) -> int:
        response = client.get(urls[division_id])
        if response.status_code != 200:
            raise SystemExit(f"bench.standings: the division page answered HTTP {response.status_code}")
        return len(response.content)

    def floor(division_id: int) -> None:
        list(Seat.objects.filter(game__fixture__division_id=division_id)
             .values_list("game_id", "position", "place", "points"))

    return [Target("division_standings()", standings, own_queries=1), Target("division page", page),
            Target("floor: read the seats", floor)]


@dataclass
class Measure:
    seconds: float
    queries: int
    size: int | None  # the page's bytes


def count(target: Target, division_id: int) -> tuple[int, int | None]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(2):
        target.run(division_id)
    with CaptureQueriesContext(connection) as captured:
        size = target.run(division_id)
    return len(captured.captured_queries) - target.own_queries, size


def measure(target_list: list[Target], divisions: list[int], repeats: int) -> list[dict[str, Measure]]:
    counted = [{t.label: count(t, d) for t in target_list} for d in divisions]
    times = [{t.label: [] for t in target_list} for _ in divisions]
    order = list(enumerate(divisions))
    for round_number in range(repeats):
        turn = round_number % len(order)
        for index, division_id in order[turn:] + order[:turn]:
            for target in target_list:
                started = time.perf_counter()
                target.run(division_id)
                times[index][target.label].append(time.perf_counter() - started)
        progress(f"round {round_number + 1} of {repeats} measured")
    return [{label: Measure(statistics.median(times[i][label]), *counted[i][label]) for label in times[i]}
            for i in range(len(divisions))]


# --- report ---------------------------------------------------------------------------------


def report(results: list[dict[str, Measure]], sizes: list[int], args, environment: str) -> None:
    small, large = results
    growth = sizes[1] / sizes[0]
    print(f"bench.standings — {environment}")
    print(f"  Joker, {SEATS} players a table; one division of {PLAYERS} players; {sizes[0]:,} against "
          f"{sizes[1]:,} finished games ({growth:g}x); median of {args.repeats} calls")
    print()
    head = (f"{'what':<24} {f'ms ({sizes[0]:,})':>12} {f'ms ({sizes[1]:,})':>13} {'ratio':>8} {'/games':>7}   "
            f"{'queries':<9} {'page bytes':<20}")
    print(head)
    print("-" * len(head))
    for label in small:
        a, b = small[label], large[label]
        ratio = b.seconds / a.seconds
        kb = f"{a.size:,} / {b.size:,}" if a.size else ""
        print(f"{label:<24} {a.seconds * 1000:>12.1f} {b.seconds * 1000:>13.1f} {ratio:>7.1f}x {ratio / growth:>7.2f}"
              f"   {f'{a.queries} / {b.queries}':<9} {kb:<12}")
    print()
    print(f"ratio: the time with {sizes[1]:,} games over the time with {sizes[0]:,}; /games: that ratio over "
          f"{growth:g} (1.00 = linear in the games, below = less than linear). Queries and the page's bytes: "
          f"small / large (the page shows one round of the schedule and, for a division this big, the "
          f"cross-table as a CSV link).")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=50, help="finished games of the small division (default 50)")
    parser.add_argument("--large", type=int, default=None, help="finished games of the large division (default 5000)")
    parser.add_argument("--repeats", type=int, default=None, help="timed calls of each (default 9)")
    parser.add_argument("--seed", type=int, default=20261123, help="seed of the seating and scores")
    parser.add_argument("--quick", action="store_true", help="smoke run: 50 against 500 games, 3 calls each")
    args = parser.parse_args(argv)
    defaults = {"large": 500, "repeats": 3} if args.quick else {"large": 5000, "repeats": 9}
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    for name in ("small", "large"):
        if getattr(args, name) < TABLES_A_ROUND or getattr(args, name) % TABLES_A_ROUND:
            parser.error(f"--{name}: a multiple of {TABLES_A_ROUND} (the tables of a round)")
    if not args.small < args.large or args.repeats < 1:
        parser.error("--small must be below --large, --repeats at least 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-standings-"))
    old_db_name = None
    try:
        configure_django()
        from django.db import connection
        from django.test import Client

        progress("creating and migrating the throwaway database")
        old_db_name = create_database(tmpdir)
        environment = database_environment()
        world = World(args.seed)
        divisions = [world.division("Small league", args.small).pk, world.division("Large league", args.large).pk]
        if connection.vendor == "postgresql":  # what autovacuum would have done by then
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
        client = Client()
        client.force_login(world.players[0])
        results = measure(targets(client), divisions, args.repeats)
        report(results, [args.small, args.large], args, environment)
        return 0
    finally:
        if old_db_name is not None:
            destroy_database(old_db_name)
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
