"""Do the pages stay flat as the tables grow? The lobby, the profile, the
player page, the Joker leaderboard (its first page and page 5), the
moderators' list of games in play, the admin's lists and change pages of
games, seats, moves and chat messages, a series score sheet, My games and its
list in the lobby, timed with a few games, with enough games to fill
every list, and with many games.

    .venv/bin/python -m bench.pages                  # 10, 200, then 10,000 games of 300 moves (3 M moves)
    .venv/bin/python -m bench.pages --quick          # smoke run: 10, 200, then 2,000 games of 30 moves
    .venv/bin/python -m bench.pages --large 100000 --moves 30 --repeats 9

Run it from the project root; it is not part of the test command (nor of
`make bench`). It creates a throwaway database (an SQLite file in a temporary
directory, or a database bench_<pid> on the server DATABASE_URL names:
bench.move_roundtrip's create_database), runs with production-like settings
(DEBUG off: bench.common.production_like_environment) and drops the database
at the end. Everything goes through Django's test client and the real
views, templates, middleware and admin.

The world: four players (player 0 sits at every table, so that his lobby and
profile list all of them), a "regular" player who takes player 3's seat at
every fifth of the first `--full` games only (his My games is measured too:
player 0's games in play grow with the site, his do not), a superuser, a Durak series of `--series` games
(player 0, 1 and 2; all finished but the last), and Joker games written
directly: games, seats and chat messages with bulk_create, the moves with
one executemany per batch (the real actions of a whole Joker game played
with random legal moves). A finished game's state is that game's real final
state, a game in play a real state after `--moves` moves, with the seat to
move on the clock. The first `--full` games are half open or in play, so that
at that size every list on every page is full (50 open tables, 20 games in
play, a page of 20 current and of 20 finished games, 100 rows in each admin
list); of every 100 games after them 1 is open, 4 are in play, 1 is aborted
and 94 are finished, each with `--moves` moves and two chat messages. Game 0
holds all the ~680 moves of a whole Joker game: the admin's game page shows
it at every size. Each game written brings one more rated Joker player (a
Rating row, most of them out of the provisional mark and rated within the
leaderboard's 90 days), so the leaderboard grows with the site; 420 more
are there from the start, so that the leaderboard's page 5 is full at every
size (about 260 of them on the board, 50 a page).

After writing each size the database is copied (SQLite: the backup API;
PostgreSQL: CREATE DATABASE ... TEMPLATE), and the three copies are measured
in turns, so that the load of the rest of the machine falls on every size
alike. Each page is requested signed in as player 0 (lobby, profile, sheet),
the regular player (his My games) or as the superuser (admin): per copy two warm-up requests and one with its
queries counted (CaptureQueriesContext); then `--repeats` rounds, each
requesting every page once from each copy; the median time is reported. The
goal is the same number of queries at every size and at most 1.5x the time
from `--full` to `--large`: from there on only the tables grow, while from
`--small` to `--full` the pages also fill up (an admin list of 100 rows takes
longer to render than one of 20, at any table size). Progress goes to
stderr, the report to stdout; the exit status is 1 when the goal is not
met. See bench/README.md.
"""

from __future__ import annotations

import argparse
import os
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

from bench.common import database_environment, production_like_environment  # noqa: E402
from bench.move_roundtrip import create_database, destroy_database, progress  # noqa: E402

SEATS = 4
REGULAR_EVERY = 5  # the regular player's share of the first `--full` games
GAME_INTERVAL = timedelta(hours=2, minutes=37)  # a game every 2 h 37 min: 10,000 games over three years
BATCH_GAMES = 500
MOVE_BATCH = 20_000
TARGET_RATIO = 1.5
STORED_RESULTS = True  # set in configure_django: whether the schema has Seat.finished_at and PlayerTally (issue 28)


def configure_django() -> None:
    """Settings come from the environment: set it before django.setup()."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["REDIS_URL"] = ""  # in-process channel layer, eager tasks: nothing else to start
    os.environ.update(production_like_environment())  # DEBUG off, plain HTTP
    os.environ["ALLOWED_HOSTS"] = "testserver"  # the test client's host
    os.environ["DATABASE_POOL"] = "0"  # PostgreSQL: no pooled connection may hold a database being copied
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers.base")
    django.setup()
    from gameplay.models import Seat

    global STORED_RESULTS
    STORED_RESULTS = any(field.name == "finished_at" for field in Seat._meta.fields)  # also run on older commits


# --- recorded games: real states and actions ---------------------------------------------


@dataclass
class Recording:
    """A whole Joker game played with random legal moves: its moves, the
    state after `mid` of them (a game in play, and whose move it is then)
    and the final state with its outcome."""

    options: dict
    seed: int
    moves: list[tuple[int, dict]]
    mid_state: dict
    mid_actor: int
    final_state: dict
    outcome: dict


def record_joker(seed: int, mid: int) -> Recording:
    from gameplay.engine import get_engine

    engine, rng = get_engine("joker"), random.Random(seed)
    options = engine.validate_options({})
    state = engine.start(players=SEATS, options=options, seed=seed)
    moves, mid_state = [], None
    while not engine.is_over(state):
        if len(moves) == mid:
            mid_state = state
        position = engine.actors(state)[0]
        action = rng.choice(engine.legal_actions(state, position))
        state, _ = engine.apply(state, position, action)
        moves.append((position, action))
    if mid_state is None:
        raise SystemExit(f"--moves {mid}: a whole Joker game has only {len(moves)} moves")
    return Recording(options, seed, moves, mid_state, engine.actors(mid_state)[0], state, engine.outcome(state))


def durak_game(seed: int, players: int = 3) -> tuple[dict, dict]:
    """A whole Durak game, random legal moves: (final state, outcome)."""
    from gameplay.engine import get_engine

    engine, rng = get_engine("durak"), random.Random(seed)
    state = engine.start(players=players, options=engine.validate_options({}), seed=seed)
    while not engine.is_over(state):
        position = engine.actors(state)[0]
        state, _ = engine.apply(state, position, rng.choice(engine.legal_actions(state, position)))
    return state, engine.outcome(state)


# --- the world: players, games, seats, moves, chat -------------------------------------------


# Rated players there before the first game (numbered below zero): the leaderboard's page 5 full at every size.
RATED_AT_START = 420


class World:
    def __init__(self, moves_per_game: int, full: int, series_length: int, epoch) -> None:
        from django.contrib.auth import get_user_model

        users = get_user_model().objects
        self.players = [users.create_user(f"player{i}", password=None, language="en", display_name=f"Player {i}")
                        for i in range(SEATS)]
        self.moderator = users.create_superuser("moderator", password=None, email="m@example.com", language="en")
        # A player of his own tables only: player 3's seat in every REGULAR_EVERY-th of the first `full` games.
        self.regular = users.create_user("regular", password=None, language="en", display_name="Regular")
        self.regular_tables = len(range(1, full, REGULAR_EVERY))
        self.recording = record_joker(seed=20260101, mid=moves_per_game)
        self.moves_per_game = moves_per_game
        self.full = full
        self.series_length = series_length
        self.epoch = epoch  # when game number 0 was created
        self.games = 0  # Joker games written so far
        self.long_game_id = None
        self.series_last_id = None
        self._actions = None
        self._add_rated_players(range(-RATED_AT_START, 0))

    def status_of(self, number: int) -> str:
        if number == 0:
            return "finished"  # the long game
        if number < self.full:  # every list fills up
            return ["finished", "open", "active", "aborted" if number % 20 == 3 else "finished"][number % 4]
        rest = number % 100
        return "open" if rest == 0 else "active" if rest <= 4 else "aborted" if rest == 5 else "finished"

    def add_games(self, count: int) -> None:
        """`count` more Joker games, in batches (one transaction each)."""
        from django.db import transaction

        done = 0
        while done < count:
            n = min(BATCH_GAMES, count - done)
            with transaction.atomic():
                self._write_batch(range(self.games, self.games + n))
            self.games += n
            done += n
            if self.games % 2000 == 0 or done == count:
                progress(f"{self.games} games written")
        self.count_finished()

    def _write_batch(self, numbers: range) -> None:
        from django.db import connection

        from gameplay.models import ChatMessage, Game, Move, Seat, seed_hash

        rec = self.recording
        games, tables = [], []
        for number in numbers:
            status = self.status_of(number)
            created = self.epoch + number * GAME_INTERVAL
            shift = (number + number // 4) % SEATS
            users = [self.players[(p + shift) % SEATS] for p in range(SEATS)]  # player 0 sits anywhere
            if number < self.full and number % REGULAR_EVERY == 1:
                users = [self.regular if user == self.players[3] else user for user in users]
            moves = (len(rec.moves) if number == 0 else 0 if status == "open" else self.moves_per_game)
            seed = str(rec.seed + number)
            games.append(Game(
                engine="joker", options=rec.options, seats_count=SEATS, created_by=users[0], status=status,
                time_preset="correspondence", version=moves, seed=seed, seed_sha256=seed_hash(seed),
                state=None if status == "open" else rec.mid_state if status == "active" else rec.final_state,
                started_at=None if status == "open" else created + timedelta(minutes=5),
                turn_started_at=created + timedelta(days=1) if status == "active" else None,
                finished_at=created + timedelta(days=2) if status in ("finished", "aborted") else None,
                abort_reason="bench" if status == "aborted" else "",
            ))
            tables.append((number, created, users))
        Game.objects.bulk_create(games)
        if games[0].pk is None:  # a database that does not return the new ids from bulk_create
            ids = list(Game.objects.order_by("-pk").values_list("pk", flat=True)[:len(games)])[::-1]
            for game, pk in zip(games, ids, strict=True):
                game.pk = game.id = pk
        # auto_now_add wrote "now": spread the games over time, as real ones are.
        with connection.cursor() as cursor:
            cursor.executemany(f"UPDATE {Game._meta.db_table} SET created_at = %s WHERE id = %s",
                               [(self._db_datetime(created), game.pk) for game, (_, created, _) in zip(games, tables)])

        seats, chat, move_rows = [], [], []
        scores, places = rec.outcome["scores"], rec.outcome["places"]
        for game, (number, created, users) in zip(games, tables):
            for p in range(SEATS):
                seat = Seat(game=game, position=p, reserve_seconds_left=3 * 86400)
                if game.status != "open" or p == 0:
                    seat.user = users[p]
                if game.status == "active" and p == rec.mid_actor:
                    seat.clock_started_at = created + timedelta(days=1)
                    seat.clock_seconds = 86400
                    seat.deadline = seat.clock_started_at + timedelta(days=1)
                if game.status == "finished":
                    seat.place, seat.points = places[p], scores[p]
                    if STORED_RESULTS:
                        seat.finished_at = game.finished_at  # as services.moves.finish_with_result writes it
                seats.append(seat)
            if game.status != "open":
                chat += [ChatMessage(game=game, user=users[0], text=f"Good luck, table {game.pk}!"),
                         ChatMessage(game=game, user=users[1], text="Thanks, you too.")]
                at = self._db_datetime(created + timedelta(minutes=10))
                for seq, (position, _action) in enumerate(rec.moves[:game.version], start=1):
                    move_rows.append((game.pk, seq, position, self.actions[seq - 1], "player", users[position].pk,
                                      1500 + (seq * 7919) % 60000, at))
        Seat.objects.bulk_create(seats)
        ChatMessage.objects.bulk_create(chat)
        self._add_rated_players(numbers)
        sql = (f"INSERT INTO {Move._meta.db_table} (game_id, seq, position, action, by, user_id, time_used_ms, "
               f"created_at) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)")
        with connection.cursor() as cursor:
            for start in range(0, len(move_rows), MOVE_BATCH):
                cursor.executemany(sql, move_rows[start:start + MOVE_BATCH])
        if self.long_game_id is None:
            self.long_game_id = games[0].pk

    def count_finished(self) -> None:
        """The players' tallies of finished games, as the services count them
        game by game (gameplay.PlayerTally), rebuilt from the seats."""
        if not STORED_RESULTS:
            return
        from django.db.models import Count, Q

        from gameplay.models import PlayerTally, Seat

        PlayerTally.objects.all().delete()
        rows = (Seat.objects.filter(finished_at__isnull=False, user__isnull=False).values("user_id")
                .annotate(finished=Count("pk"), won=Count("pk", filter=Q(place=1)),
                          public_finished=Count("pk", filter=Q(game__is_private=False))))
        PlayerTally.objects.bulk_create(PlayerTally(**row) for row in rows)

    def _add_rated_players(self, numbers: range) -> None:
        """A rated Joker player for each number (one per game written: the
        leaderboards grow with the site), rated recently, most out of the
        provisional mark."""
        from django.contrib.auth import get_user_model
        from django.utils import timezone

        from ratings.models import Rating

        model = get_user_model()
        users = model.objects.bulk_create(model(username=f"rated{n}", password="!", display_name=f"Rated {n}",
                                                language="en") for n in numbers)
        if users[0].pk is None:
            users = list(model.objects.filter(username__in=[u.username for u in users]))
        now = timezone.now()
        Rating.objects.bulk_create(
            Rating(user=user, engine="joker", mu=25 + (user.pk * 7919 % 2000) / 100, sigma=2 + (user.pk % 70) / 10,
                   games=3 + user.pk % 40, updated_at=now - timedelta(days=user.pk % 120))
            for user in users)

    @property
    def actions(self) -> list:
        """The recording's actions as the database takes them (prepared once)."""
        if self._actions is None:
            from django.db import connection

            from gameplay.models import Move

            field = Move._meta.get_field("action")
            self._actions = [field.get_db_prep_value(action, connection) for _, action in self.recording.moves]
        return self._actions

    @staticmethod
    def _db_datetime(value):
        from django.db import connection

        from gameplay.models import Move

        return Move._meta.get_field("created_at").get_db_prep_value(value, connection)

    def add_series(self) -> None:
        """A Durak series of three players (player 0, 1, 2): every game
        finished but the last, which is in play."""
        from gameplay.engine import get_engine
        from gameplay.models import Game, Seat, seed_hash

        engine = get_engine("durak")
        options = engine.validate_options({})
        first = None
        for number in range(1, self.series_length + 1):
            seed = 777 + number
            last = number == self.series_length
            if last:
                state, outcome = engine.start(players=3, options=options, seed=seed), None
            else:
                state, outcome = durak_game(seed)
            game = Game.objects.create(
                engine="durak", options=options, seats_count=3, created_by=self.players[0],
                status="active" if last else "finished", state=state, seed=str(seed),
                seed_sha256=seed_hash(str(seed)), series_length=self.series_length, series_first=first,
                series_number=number, started_at=self.epoch,
                finished_at=None if last else self.epoch + timedelta(hours=number))
            Seat.objects.bulk_create(
                Seat(game=game, position=p, user=self.players[p], reserve_seconds_left=3 * 86400,
                     points=outcome and outcome["scores"][p], place=outcome and outcome["places"][p])
                for p in range(3)
            )
            first = first or game
            self.series_last_id = game.pk


# --- the pages -----------------------------------------------------------------------------


@dataclass
class Page:
    label: str
    url: str
    staff: bool
    reader: str = ""  # who requests it: "" = player 0 (or the superuser, for staff pages); "regular"

    @property
    def client(self) -> str:
        return self.reader or ("staff" if self.staff else "player")


def pages(world: World) -> list[Page]:
    from django.urls import reverse

    from gameplay.models import ChatMessage, Move, Seat

    long_game = world.long_game_id
    rows = {
        "game": long_game,
        "seat": Seat.objects.filter(game_id=long_game, position=0).values_list("pk", flat=True).get(),
        "move": Move.objects.filter(game_id=long_game, seq=1).values_list("pk", flat=True).get(),
        "chatmessage": ChatMessage.objects.filter(game_id=long_game).order_by("pk").values_list("pk", flat=True)[0],
    }
    result = [Page("lobby", reverse("lobby"), False), Page("profile", reverse("profile"), False),
              Page("player page", reverse("player", args=[world.players[0].username]), False),
              Page("leaderboard", reverse("leaderboard", args=["joker"]), False),
              Page("leaderboard page 5", reverse("leaderboard", args=["joker"]) + "?page=5", False),
              Page("moderation queue", reverse("moderation_games"), True)]
    result += [Page(f"admin {model} list", reverse(f"admin:gameplay_{model}_changelist"), True) for model in rows]
    result += [Page(f"admin {model} page", reverse(f"admin:gameplay_{model}_change", args=[pk]), True)
               for model, pk in rows.items()]
    result.append(Page("series sheet", reverse("sheet", args=[world.series_last_id]), False))
    # Correspondence (issue 25): My games by deadline, and its live list as the lobby shows it.
    result.append(Page("my games", reverse("my_games"), False))
    result.append(Page("my games, lobby list", reverse("my_games_fragment") + "?compact=1", False))
    # The same for a player whose tables stop at `--full` games: player 0's games in play grow with
    # the site (he sits at every table), this player's stay the same while the site grows around him.
    n = world.regular_tables
    result.append(Page(f"my games, {n} tables", reverse("my_games"), False, "regular"))
    result.append(Page(f"lobby list, {n} tables", reverse("my_games_fragment") + "?compact=1", False, "regular"))
    return result


@dataclass
class Measure:
    seconds: float
    queries: int
    status: int


class Snapshots:
    """A copy of the database at each size, so that the sizes can be measured
    in turns (round after round), and noise from the rest of the machine
    falls on all of them alike. SQLite: a file copied with SQLite's backup
    API; PostgreSQL: CREATE DATABASE ... TEMPLATE the benchmark's database."""

    def __init__(self, tmpdir: Path) -> None:
        from django.db import connection

        self.tmpdir = tmpdir
        self.main = connection.settings_dict["NAME"]
        self.names: list[str] = []

    def take(self, label: str) -> None:
        from django.db import connection, connections

        if connection.vendor == "sqlite":
            import sqlite3

            path = str(self.tmpdir / f"pages-{label}.sqlite3")
            connection.ensure_connection()
            target = sqlite3.connect(path)
            connection.connection.backup(target)
            target.close()
            self.names.append(path)
        elif connection.vendor == "postgresql":
            name = f"{self.main}_{label}"
            connections.close_all()
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE "{self.main}"')
            self.names.append(name)
        else:
            raise SystemExit(f"bench.pages: no snapshots on {connection.vendor}")

    def use(self, name: str) -> None:
        """Switch the default connection to database `name`, opened and ready."""
        from django.db import connection, connections

        connections.close_all()
        connection.settings_dict["NAME"] = name
        from django.contrib.sessions.models import Session

        Session.objects.exists()  # connect and read the schema, outside the timed requests

    def drop(self) -> None:
        from django.db import connection, connections

        self.use(self.main)
        if connection.vendor == "postgresql":
            connections.close_all()
            with connection._nodb_cursor() as cursor:
                for name in self.names:
                    cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')


def count_queries(client, url: str) -> tuple[int, int]:
    """(queries, HTTP status) of one request, after two warm-up requests."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(2):
        client.get(url)
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    return len(captured.captured_queries), response.status_code


def measure_all(clients: dict, page_list: list[Page], snapshots: Snapshots, repeats: int) -> list[dict[str, Measure]]:
    """Per size (snapshot), per page: the queries, then the median time of
    `repeats` requests made in rounds: each round requests every page once
    at every size, the sizes taking turns to go first."""
    counted, times = [], [{page.label: [] for page in page_list} for _ in snapshots.names]
    for name in snapshots.names:
        snapshots.use(name)
        counted.append({page.label: count_queries(clients[page.client], page.url) for page in page_list})
    order = list(enumerate(snapshots.names))
    for round_number in range(repeats):
        turn = round_number % len(order)  # each size goes first in turn
        for size, name in order[turn:] + order[:turn]:
            snapshots.use(name)
            for page in page_list:
                started = time.perf_counter()
                clients[page.client].get(page.url)
                times[size][page.label].append(time.perf_counter() - started)
        progress(f"round {round_number + 1} of {repeats} measured")
    return [{label: Measure(statistics.median(times[size][label]), *counted[size][label]) for label in times[size]}
            for size in range(len(snapshots.names))]


def counts() -> dict[str, int]:
    from gameplay.models import ChatMessage, Game, Move, Seat

    return {"games": Game.objects.count(), "seats": Seat.objects.count(), "moves": Move.objects.count(),
            "chat messages": ChatMessage.objects.count()}


# --- report -----------------------------------------------------------------------------------


def report(results: list[dict[str, Measure]], sizes: list[int], tables: list[dict], args, environment: str) -> bool:
    small, full, large = results
    print(f"bench.pages — {environment}")
    for size, table in zip(sizes, tables):
        print(f"  {size:,} Joker games: " + ", ".join(f"{v:,} {k}" for k, v in table.items()))
    print(f"  {args.moves} moves a game (game 0: a whole game's); a Durak series of {args.series}; "
          f"median of {args.repeats} requests")
    print()
    ms = [f"ms ({size:,})" for size in sizes]
    head = (f"{'page':<22} {ms[0]:>10} {ms[1]:>10} {ms[2]:>13} {'goal':>8} {'':>8}   {'queries':<12}")
    sub = f"{'':<22} {'':>10} {'':>10} {'':>13} {'L/F':>8} {'L/S':>8}   {'S / F / L':<12}"
    print(head)
    print(sub)
    print("-" * len(head))
    flat = True
    for label in small:
        a, b, c = small[label], full[label], large[label]
        goal, overall = c.seconds / b.seconds, c.seconds / a.seconds
        # No more queries as the site grows (fewer is an estimate taking over from a count: the admin's move list).
        no_more = a.queries >= b.queries >= c.queries
        ok = goal <= TARGET_RATIO and no_more and a.status == b.status == c.status == 200
        flat &= ok
        status = "" if a.status == b.status == c.status == 200 else f" HTTP {a.status}/{b.status}/{c.status}"
        print(f"{label:<22} {a.seconds * 1000:>10.1f} {b.seconds * 1000:>10.1f} {c.seconds * 1000:>13.1f} "
              f"{goal:>7.2f}x {overall:>7.2f}x   {f'{a.queries} / {b.queries} / {c.queries}':<12} "
              f"{'ok' if ok else 'NOT FLAT'}{status}")
    print()
    print(f"S, F, L: {sizes[0]:,}, {sizes[1]:,} and {sizes[2]:,} games. Goal: no more queries at a larger size and "
          f"L/F at most {TARGET_RATIO}x: {'met' if flat else 'not met'}")
    return flat


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--small", type=int, default=10, help="games at the first size (default 10)")
    parser.add_argument("--full", type=int, default=200,
                        help="games at the second size, where every list is full (default 200)")
    parser.add_argument("--large", type=int, default=None, help="games at the last size (default 10000)")
    parser.add_argument("--moves", type=int, default=None, help="moves a game (default 300)")
    parser.add_argument("--series", type=int, default=10, help="games in the Durak series (default 10)")
    parser.add_argument("--repeats", type=int, default=None, help="timed requests per page (default 15)")
    parser.add_argument("--quick", action="store_true",
                        help="smoke run: 10, 200, then 2,000 games of 30 moves, 5 requests a page")
    args = parser.parse_args(argv)
    defaults = {"large": 2000, "moves": 30, "repeats": 5} if args.quick else {"large": 10_000, "moves": 300,
                                                                                "repeats": 15}
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if not 1 <= args.small < args.full < args.large:
        parser.error("the sizes must grow: 1 <= --small < --full < --large")
    if args.full < 200:
        progress(f"warning: with --full {args.full} some lists are not full (200 fill them all)")
    if args.series < 1 or args.moves < 1 or args.repeats < 1:
        parser.error("--series, --moves and --repeats must be at least 1")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-pages-"))
    old_db_name = snapshots = None
    try:
        configure_django()
        from django.db import connection
        from django.test import Client
        from django.utils import timezone

        progress("creating and migrating the throwaway database")
        old_db_name = create_database(tmpdir)
        environment = database_environment()
        world = World(args.moves, args.full, args.series, timezone.now() - args.large * GAME_INTERVAL)
        world.add_series()
        clients = {"player": Client(), "staff": Client(), "regular": Client()}  # signed in before the first copy
        clients["player"].force_login(world.players[0])
        clients["staff"].force_login(world.moderator)
        clients["regular"].force_login(world.regular)
        snapshots = Snapshots(tmpdir)
        sizes, tables, page_list = [args.small, args.full, args.large], [], None
        for size in sizes:
            started = time.monotonic()
            world.add_games(size - world.games)
            if connection.vendor == "postgresql":  # what autovacuum would have done by then
                with connection.cursor() as cursor:
                    cursor.execute("ANALYZE")
            page_list = page_list or pages(world)
            tables.append(counts())
            snapshots.take(str(size))
            progress(f"{size} games written and copied in {time.monotonic() - started:.0f} s")
        results = measure_all(clients, page_list, snapshots, args.repeats)
        return 0 if report(results, sizes, tables, args, environment) else 1
    finally:
        if snapshots is not None:
            snapshots.drop()
        if old_db_name is not None:
            destroy_database(old_db_name)
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
