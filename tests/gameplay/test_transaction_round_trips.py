"""On PostgreSQL a transaction's BEGIN goes to the server with its first
statement (config/postgresql/base.py), and a move's COMMIT with its writes
(`writes_sent_together(last=True)`): a move's transaction takes two round
trips, not four. Counted on the wire (libpq's protocol trace), and the
transactions' guarantees checked where BEGIN and COMMIT now travel: the
first statement's lock is held to the commit, a rollback takes back the
first statement's writes whatever carried it, a move inside an enclosing
transaction leaves the commit to it, a failed write commits nothing, and a
connection goes back to the pool owing nothing. Run by the PostgreSQL pass
of `make test`."""

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.db import OperationalError, connection, transaction
from psycopg import pq
from psycopg_pool import ConnectionPool

from gameplay import services
from gameplay.models import Game, Move, Seat

from .conftest import a_legal_action, acting_player
from .wire import queries_sent

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif("connection.vendor != 'postgresql'", reason="PostgreSQL's round trips"),
]


@contextmanager
def queries_on_the_wire() -> Iterator[list[str]]:
    """The Query messages this thread's connection sends to the server inside the block: one per round trip."""
    connection.ensure_connection()
    with queries_sent(connection.connection) as sent:
        yield sent


def on_another_connection(job: Callable[[], object]) -> object:
    """What `job` returns or raises, run on a thread of its own (its own connection)."""
    result = []

    def run() -> None:
        try:
            result.append(job())
        except Exception as exc:  # noqa: BLE001 — the test inspects it
            result.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    return result[0]


def lock_now(game_id: int) -> bool:
    """Whether the game's row can be locked at once (False: another transaction holds it)."""
    try:
        with transaction.atomic():
            Game.objects.select_for_update(nowait=True).get(pk=game_id)
        return True
    except OperationalError:
        return False


def test_a_moves_transaction_takes_two_round_trips_begin_with_its_reads_commit_with_its_writes(joker_game, players):
    position, user = acting_player(joker_game, players)

    with queries_on_the_wire() as sent:
        services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), joker_game.version)

    transaction_sent = sent[:2]  # then its follow-up, run in place here (eager Celery)
    assert transaction_sent[0].startswith("BEGIN; SELECT") and "FOR UPDATE" in transaction_sent[0]
    assert transaction_sent[1].startswith("UPDATE") and "INSERT" in transaction_sent[1]
    assert transaction_sent[1].endswith("; COMMIT")  # two round trips: the locked reads, the writes and COMMIT
    assert sent[2:3] != ["COMMIT"]  # no COMMIT of its own after them
    assert Move.objects.filter(game=joker_game).count() == 1


def test_a_move_inside_an_enclosing_transaction_leaves_the_commit_to_it(joker_game, players):
    position, user = acting_player(joker_game, players)

    with pytest.raises(ZeroDivisionError), transaction.atomic():
        services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), joker_game.version)
        1 / 0

    assert Game.objects.get(pk=joker_game.pk).version == joker_game.version  # the move went with the rollback
    assert not Move.objects.filter(game=joker_game).exists()


def test_a_move_whose_writes_fail_with_the_commit_beside_them_leaves_nothing(joker_game, players):
    position, user = acting_player(joker_game, players)
    services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), joker_game.version, "same-id")
    game = Game.objects.get(pk=joker_game.pk)
    while acting_player(game, players)[1] != user:  # round the table to the same player
        other_position, other = acting_player(game, players)
        services.submit_move(game.pk, other, a_legal_action(game, other_position), game.version)
        game = Game.objects.get(pk=game.pk)

    # A new move with the id of his first one: its Move INSERT fails in the string that carries the COMMIT.
    result = services.submit_move(game.pk, user, a_legal_action(game, position), game.version, "same-id")

    assert result.duplicate and result.version == 1  # answered from the first move's record
    assert Game.objects.get(pk=game.pk).version == game.version  # nothing of the refused move stayed
    assert Move.objects.filter(game=game).count() == game.version
    assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE


def test_a_transaction_that_runs_nothing_sends_nothing():
    with queries_on_the_wire() as sent, transaction.atomic():
        pass

    assert sent == []


def test_the_first_statements_lock_is_held_until_the_commit(joker_game):
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=joker_game.pk)  # the transaction's first statement
        assert on_another_connection(lambda: lock_now(joker_game.pk)) is False

    assert on_another_connection(lambda: lock_now(joker_game.pk)) is True


def test_a_named_cursors_lock_as_the_first_statement_is_held_until_the_commit(joker_game):
    with transaction.atomic():
        list(Game.objects.select_for_update().filter(pk=joker_game.pk).iterator(chunk_size=10))
        assert on_another_connection(lambda: lock_now(joker_game.pk)) is False

    assert on_another_connection(lambda: lock_now(joker_game.pk)) is True


@pytest.mark.parametrize("first_statement", ["execute", "executemany"])
def test_a_rollback_takes_back_the_first_statements_writes(joker_game, first_statement):
    version = joker_game.version
    sql = "UPDATE gameplay_game SET version = version + 7 WHERE id = %s"

    with pytest.raises(ZeroDivisionError), transaction.atomic():
        with connection.cursor() as cursor:
            if first_statement == "execute":
                cursor.execute(sql, [joker_game.pk])
            else:
                cursor.executemany(sql, [[joker_game.pk], [joker_game.pk]])
        assert on_another_connection(lambda: Game.objects.get(pk=joker_game.pk).version) == version  # not committed
        1 / 0

    assert Game.objects.get(pk=joker_game.pk).version == version
    assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE


def test_a_savepoint_rolled_back_keeps_the_outer_transactions_first_write(joker_game):
    version = joker_game.version

    with transaction.atomic():
        Game.objects.filter(pk=joker_game.pk).update(version=version + 1)
        with pytest.raises(ZeroDivisionError), transaction.atomic():
            Seat.objects.filter(game=joker_game).update(points=99)
            1 / 0

    assert Game.objects.get(pk=joker_game.pk).version == version + 1
    assert not Seat.objects.filter(game=joker_game, points=99).exists()


def test_outside_a_transaction_each_statement_is_committed_at_once(joker_game):
    Game.objects.filter(pk=joker_game.pk).update(version=joker_game.version + 3)

    assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE
    assert on_another_connection(lambda: Game.objects.get(pk=joker_game.pk).version) == joker_game.version + 3


def test_a_connection_handed_back_while_a_begin_was_owed_goes_to_its_next_user_owing_nothing(joker_game):
    connection.ensure_connection()
    handed_back = connection.connection
    connection.set_autocommit(False)  # a BEGIN is owed to the next statement...
    connection.close()  # ...which never comes: the connection goes back to the pool

    ConnectionPool.check_connection(handed_back)  # what the pool runs on it before lending it again
    assert handed_back.info.transaction_status == pq.TransactionStatus.IDLE  # no transaction left open
    Game.objects.filter(pk=joker_game.pk).update(version=joker_game.version + 5)  # the next user, autocommitting
    assert on_another_connection(lambda: Game.objects.get(pk=joker_game.pk).version) == joker_game.version + 5
