"""Do a tournament's pages stay flat as it grows? A Swiss of Durak (two-player
tables) of 50 entrants against one of 1,000, each after 9 rounds: the
tournament's page (standings, a page of them, and the latest round's first
tables), the standings part the page refreshes live, the cross-table (a page
of it) and `tournaments.pairing.current_standings` alone, timed and their
queries counted; then (`--pair`) pairing round 10 of the large one from the
database, as the next round's task does (`tournaments.pairing.pair_next`).

    .venv/bin/python -m bench.tournament_pages            # 50 against 1,000 entrants, 9 rounds
    .venv/bin/python -m bench.tournament_pages --quick    # smoke run: 50 against 200, 3 rounds
    .venv/bin/python -m bench.tournament_pages --pair     # and the pairing of round 10 (minutes)

Run it from the project root; not part of the test command. A throwaway
database (bench.move_roundtrip's create_database), production-like settings
(bench.pages.configure_django), dropped at the end. The world is written with
bulk_create, not through the services (4,500 games through them would take
too long): entries numbered by rating, each round's tables paired at random
among the players still without a table that round (an odd one out has a
bye), every game finished with one winner. Both tournaments live in the same
database. Per target: two warm-up calls, one with its queries counted, then
`--repeats` calls, the two tournaments taking turns to go first; the median
is reported with the ratio large/small. Nothing is asserted (bench/README.md).
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import database_environment  # noqa: E402
from bench.move_roundtrip import create_database, destroy_database, progress  # noqa: E402
from bench.pages import configure_django  # noqa: E402


def write_tournament(name: str, entrants: int, rounds: int, rng: random.Random, organizer):
    """A running Swiss of `entrants` after `rounds` finished rounds (see the module)."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from gameplay.models import Game, Seat, seed_hash
    from tournaments.models import Bye, Entry, Round, Table, Tournament

    users = get_user_model().objects
    prefix = name.split()[0].lower()
    people = users.bulk_create([users.model(username=f"{prefix}{i}", language="en", display_name=f"{name} {i}")
                                for i in range(entrants)])
    if people[0].pk is None:
        people = list(users.filter(username__startswith=prefix).order_by("pk"))
    started = timezone.now() - timedelta(days=7 * rounds + 1)
    tournament = Tournament.objects.create(
        name=name, slug=prefix, organizer=organizer, engine="durak", players=2, rounds=rounds + 1,
        status=Tournament.Status.RUNNING, started_at=started)
    entries = Entry.objects.bulk_create([Entry(tournament=tournament, user=u, number=i + 1, rating=2000 - i)
                                         for i, u in enumerate(people)])
    if entries[0].pk is None:
        entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    by_entry = {e.pk: e.user for e in entries}
    for number in range(1, rounds + 1):
        with transaction.atomic():
            begun = started + timedelta(days=7 * (number - 1))
            round_ = Round.objects.create(tournament=tournament, number=number, started_at=begun,
                                          deadline=begun + timedelta(days=7), finished_at=begun + timedelta(days=6))
            order = [e.pk for e in entries]
            rng.shuffle(order)
            if len(order) % 2:
                Bye.objects.create(round=round_, entry_id=order.pop(), kind=Bye.Kind.PAIRING, points=1)
            pairs = [order[i:i + 2] for i in range(0, len(order), 2)]
            games = []
            for pair in pairs:
                seed = str(rng.getrandbits(40))
                games.append(Game(engine="durak", options={}, seats_count=2, created_by=by_entry[pair[0]],
                                  status=Game.Status.FINISHED, time_preset="correspondence", version=40, seed=seed,
                                  seed_sha256=seed_hash(seed), state={}, started_at=begun,
                                  finished_at=begun + timedelta(days=3)))
            Game.objects.bulk_create(games)
            if games[0].pk is None:
                ids = list(Game.objects.order_by("-pk").values_list("pk", flat=True)[:len(games)])[::-1]
                for game, pk in zip(games, ids, strict=True):
                    game.pk = game.id = pk
            Table.objects.bulk_create(Table(round=round_, board=board, seats=pair, game=game)
                                      for board, (pair, game) in enumerate(zip(pairs, games, strict=True), start=1))
            seats = []
            for pair, game in zip(pairs, games, strict=True):
                winner = rng.randrange(2)
                seats += [Seat(game=game, position=p, user=by_entry[pk], reserve_seconds_left=0,
                               place=1 if p == winner else 2, points=1 if p == winner else 0)
                          for p, pk in enumerate(pair)]
            Seat.objects.bulk_create(seats)
    progress(f"{name}: {entrants} entrants, {rounds} rounds written")
    return tournament


def targets(client):
    from django.urls import reverse

    from tournaments import pairing
    from tournaments.models import Tournament

    def page(name):
        def run(slug):
            response = client.get(reverse(name, args=[slug]))
            if response.status_code != 200:
                raise SystemExit(f"bench.tournament_pages: {name} answered HTTP {response.status_code}")
            return len(response.content)
        return run

    def standings(slug):
        pairing.current_standings(Tournament.objects.get(slug=slug))

    return [("tournament page", page("tournament"), 0), ("standings part", page("tournament_standings_part"), 0),
            ("cross-table page", page("tournament_crosstable"), 0), ("current_standings()", standings, 1)]


def count(run, slug, own: int):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(2):
        run(slug)
    with CaptureQueriesContext(connection) as captured:
        size = run(slug)
    return len(captured.captured_queries) - own, size


def measure(slugs: list[str], repeats: int, client) -> list[dict]:
    found = targets(client)
    counted = [{label: count(run, slug, own) for label, run, own in found} for slug in slugs]
    times = [{label: [] for label, _run, _own in found} for _slug in slugs]
    for repeat in range(repeats):
        order = list(enumerate(slugs))
        order = order[repeat % 2:] + order[:repeat % 2]
        for index, slug in order:
            for label, run, _own in found:
                began = time.perf_counter()
                run(slug)
                times[index][label].append(time.perf_counter() - began)
        progress(f"repeat {repeat + 1} of {repeats}")
    return [{label: (statistics.median(times[i][label]), *counted[i][label]) for label in times[i]}
            for i in range(len(slugs))]


def pair_next_round(slug: str) -> float:
    from tournaments import pairing
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(slug=slug)
    number = tournament.round_set.count() + 1
    playing = list(tournament.entries.filter(withdrawn_at=None).select_related("user").order_by("number"))
    began = time.perf_counter()
    tables, byes = pairing.pair_next(tournament, number, playing)
    elapsed = time.perf_counter() - began
    progress(f"round {number} of {slug}: {len(tables)} tables, {len(byes)} byes")
    return elapsed


def report(results: list[dict], sizes: list[int], rounds: int, environment: str, paired: float | None) -> None:
    small, large = results
    print(f"bench.tournament_pages — {environment}")
    print(f"  Swiss of Durak, two-player tables, {rounds} rounds finished: {sizes[0]:,} against {sizes[1]:,} entrants")
    head = f"{'what':<22} {f'ms ({sizes[0]:,})':>12} {f'ms ({sizes[1]:,})':>13} {'ratio':>7}   {'queries':<9} bytes"
    print(head)
    print("-" * len(head))
    for label in small:
        (a, qa, sa), (b, qb, sb) = small[label], large[label]
        size = f"{sa:,} / {sb:,}" if sa else ""
        print(f"{label:<22} {a * 1000:>12.1f} {b * 1000:>13.1f} {b / a:>6.2f}x   {f'{qa} / {qb}':<9} {size}")
    if paired is not None:
        print(f"pairing round {rounds + 1} of the {sizes[1]:,} entrants from the database (pair_next): {paired:.1f} s")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=50)
    parser.add_argument("--large", type=int)
    parser.add_argument("--rounds", type=int)
    parser.add_argument("--repeats", type=int)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--pair", action="store_true", help="also pair the next round of the large tournament")
    args = parser.parse_args(argv)
    large, rounds, repeats = (200, 3, 3) if args.quick else (1000, 9, 7)
    large, rounds, repeats = args.large or large, args.rounds or rounds, args.repeats or repeats
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-tournament-pages-"))
    old_db_name = None
    try:
        configure_django()
        from django.contrib.auth import get_user_model
        from django.test import Client

        progress("creating and migrating the throwaway database")
        old_db_name = create_database(tmpdir)
        environment = database_environment()
        rng = random.Random(41)
        organizer = get_user_model().objects.create_user("organizer", password=None, language="en")
        slugs = [write_tournament("Small Swiss", args.small, rounds, rng, organizer).slug,
                 write_tournament("Large Swiss", large, rounds, rng, organizer).slug]
        client = Client()
        client.force_login(organizer)
        results = measure(slugs, repeats, client)
        paired = pair_next_round(slugs[1]) if args.pair else None
        report(results, [args.small, large], rounds, environment, paired)
        return 0
    finally:
        if old_db_name is not None:
            destroy_database(old_db_name)
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
