"""Many simultaneous submissions from real threads, each with its own
database connection (SQLite here; PostgreSQL when TEST_DATABASE_URL is set,
see the Makefile). Each legal move must apply exactly once."""

import threading
import time
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import connection

from gameplay import services
from gameplay.models import Game

from .conftest import JOKER, a_legal_action, acting_player

pytestmark = pytest.mark.django_db(transaction=True)


def run_in_threads(jobs) -> list:
    """Start every job at once (behind a barrier) and collect what each returned or raised."""
    barrier = threading.Barrier(len(jobs))
    results = [None] * len(jobs)

    def worker(index, job):
        try:
            barrier.wait()
            results[index] = job()
        except Exception as exc:  # noqa: BLE001 — the test inspects it
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def test_the_same_move_sent_many_times_at_once_applies_once(joker_game, players):
    position, user = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)
    results = run_in_threads([lambda i=i: services.submit_move(joker_game.pk, user, action, 0, f"m{i}")
                              for i in range(8)])
    applied = [r for r in results if isinstance(r, services.MoveResult)]
    refused = [r for r in results if isinstance(r, services.GameError)]
    assert len(applied) == 1 and len(refused) == 7, results
    assert {r.code for r in refused} == {"stale"}
    joker_game.refresh_from_db()
    assert joker_game.version == 1 and joker_game.moves.count() == 1


def test_one_move_id_racing_itself_is_stored_once_and_every_caller_gets_its_result(joker_game, players):
    position, user = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)
    results = run_in_threads([lambda: services.submit_move(joker_game.pk, user, action, 0, "one-id")] * 6)
    assert all(isinstance(r, services.MoveResult) and r.version == 1 for r in results), results
    assert Counter(r.duplicate for r in results) == {True: 5, False: 1}
    assert joker_game.moves.count() == 1


def test_four_players_hammering_the_server_never_corrupt_the_game(joker_game, players):
    """Every player keeps submitting whatever he believes is legal from the
    state he last read; stale and out-of-turn moves are refused."""
    stop_after = 60

    def player_loop(position):
        applied = 0
        give_up = time.monotonic() + 90
        while time.monotonic() < give_up:
            game = Game.objects.get(pk=joker_game.pk)
            if game.version >= stop_after:
                break
            legal = JOKER.legal_actions(game.state, position)
            if not legal:
                continue
            try:
                services.submit_move(game.pk, players[position], legal[-1], game.version)
                applied += 1
            except services.GameError as exc:
                assert exc.code in {"stale", "illegal"}, exc.message
        return applied

    results = run_in_threads([lambda p=p: player_loop(p) for p in range(4)])
    assert all(isinstance(r, int) for r in results), results
    joker_game.refresh_from_db()
    assert sum(results) == joker_game.version >= stop_after
    assert list(joker_game.moves.values_list("seq", flat=True)) == list(range(1, joker_game.version + 1))
    call_command("replay_games", joker_game.pk)
