"""How much of a move's time on a database thread is the thread's own work
(CPU) and how much is waiting for the database server (issue 45, item 3).

    DATABASE_URL=postgres://... python -m bench.move_wait --moves 200
    DATABASE_URL=postgres://... python -m bench.move_wait --moves 200 --synchronous-commit off

It plays Joker moves through `services.submit_move` on one thread, as a
daphne process' database thread runs them, and reads for each its wall time
(perf_counter) and the thread's CPU time (thread_time). While a move waits
for the server (its queries' round trips, the commit's WAL flush) the thread
holds no GIL and uses no core: with one such thread per process a process
can use at most CPU / wall of a core for moves, whatever its cores could do.
`--synchronous-commit off` sets PostgreSQL's synchronous_commit for the
session (a diagnostic: the commit then does not wait for its WAL flush).
Moves are chosen at random among the legal ones (seeded); a finished game is
replaced by a new one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
import uuid

from bench.move_roundtrip import make_players, new_game, redis_and_database


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=200, help="moves measured (default 200)")
    parser.add_argument("--warmup", type=int, default=20, help="moves played first, not measured (default 20)")
    parser.add_argument("--synchronous-commit", choices=["on", "off"], default=None,
                        help="PostgreSQL: set synchronous_commit for the session (default: the server's)")
    parser.add_argument("--seed", type=int, default=1)
    return parser.parse_args(argv)


def play(users, moves: int, rng: random.Random) -> tuple[list[float], list[float]]:
    """(wall seconds, thread CPU seconds) of each of `moves` moves."""
    from django.db import close_old_connections

    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game

    engine = get_engine("joker")
    by_id = {u.pk: u for u in users}
    walls, cpus = [], []
    game_id = new_game(users, rng.randrange(10**9))
    while len(walls) < moves:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.ACTIVE:
            game_id = new_game(users, rng.randrange(10**9))
            continue
        seats = {s.position: s.user_id for s in game.seats.all()}
        position = engine.actors(game.state)[0]
        action = rng.choice(engine.legal_actions(game.state, position))
        close_old_connections()  # as `database_sync_to_async` does around each call
        wall, cpu = time.perf_counter(), time.thread_time()
        services.submit_move(game_id, by_id[seats[position]], action, game.version, uuid.uuid4().hex)
        walls.append(time.perf_counter() - wall)
        cpus.append(time.thread_time() - cpu)
        close_old_connections()
    return walls, cpus


def main(argv=None) -> int:
    args = parse_args(argv)
    with redis_and_database("bench-move-wait-"):
        from django.db import connection
        from django.db.backends.signals import connection_created

        if args.synchronous_commit and connection.vendor == "postgresql":
            def set_commit(sender, connection, **kwargs):
                with connection.cursor() as cursor:
                    cursor.execute(f"SET synchronous_commit TO {args.synchronous_commit}")
            connection_created.connect(set_commit, weak=False)
        users, _cookies = make_players()
        rng = random.Random(args.seed)
        play(users, args.warmup, rng)
        walls, cpus = play(users, args.moves, rng)
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        print(f"{connection.vendor}, synchronous_commit {args.synchronous_commit or 'as the server'}, "
              f"{args.moves} moves on one thread")
        print(f"  wall p50 {wall * 1000:.2f} ms, mean {statistics.fmean(walls) * 1000:.2f} ms")
        print(f"  CPU  p50 {cpu * 1000:.2f} ms, mean {statistics.fmean(cpus) * 1000:.2f} ms")
        print(f"  CPU / wall (sums): {sum(cpus) / sum(walls):.2f}: one thread keeps at most that much of a core busy"
              f" with moves, {1 / statistics.fmean(walls):.0f} moves/s at most")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
