"""The dispatcher's queries do not grow with the number of players told: a fixed cost per call,
and a fixed cost per delivery (claim, read, mark sent)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications import dispatch, notices
from notifications.channels import LEAGUE_ROUND

pytestmark = pytest.mark.django_db(transaction=True)

PER_DELIVERY = 3  # claim (one UPDATE), read the row, mark it sent


def words(user):
    return notices.Words("Round 2", "Your game", notices.my_games_url(), "Open My games")


def queries_to_tell(users, key: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        dispatch.notify(LEAGUE_ROUND, users, key=key, compose=words)
    return len(queries)


def test_the_queries_of_a_notice_do_not_grow_with_the_players(fake, players):
    one = queries_to_tell(players[:1], "k:1")
    four = queries_to_tell(players, "k:4")

    assert len(fake.sent) == 5
    assert four - one == 3 * PER_DELIVERY
    assert one <= 6 + PER_DELIVERY  # preferences, vacations, the transaction's rows, the pending ids
