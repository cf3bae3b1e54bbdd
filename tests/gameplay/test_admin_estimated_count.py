"""The admin's lists count a whole big table from PostgreSQL's statistics
(gameplay.paging), not with a COUNT(*) over every row, also when the
reader's role hides some of its rows; a list he filtered, a small table and
SQLite are counted exactly."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import paging
from gameplay.models import Game, Move
from tests.gameplay.conftest import a_legal_action, acting_player, client_for

pytestmark = pytest.mark.django_db


def count_of(queryset) -> tuple[int, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        count = paging.EstimatedCountPaginator(queryset, 100).count
    return count, [q["sql"] for q in captured.captured_queries]


def analysed_moves(joker_game, players, count: int) -> None:
    from gameplay import services

    for _ in range(count):
        joker_game = Game.objects.get(pk=joker_game.pk)
        position, user = acting_player(joker_game, players)
        services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), joker_game.version)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"ANALYZE {Move._meta.db_table}")


def test_a_whole_big_table_on_postgresql_is_counted_from_its_statistics(joker_game, players, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL's statistics (run with DATABASE_URL=postgres://...)")
    analysed_moves(joker_game, players, 5)
    monkeypatch.setattr(paging, "ESTIMATE_ABOVE", 2)
    count, sql = count_of(Move.objects.all())
    assert count == 5
    assert len(sql) == 1 and "reltuples" in sql[0] and "COUNT(" not in sql[0].upper()


def test_a_filtered_list_is_counted_exactly(joker_game, players, monkeypatch):
    analysed_moves(joker_game, players, 5)
    monkeypatch.setattr(paging, "ESTIMATE_ABOVE", 2)
    count, sql = count_of(Move.objects.filter(seq__gte=3))
    assert count == 3
    assert any("COUNT(" in q.upper() for q in sql)


def test_a_small_table_is_counted_exactly(joker_game, players):
    analysed_moves(joker_game, players, 5)
    count, sql = count_of(Move.objects.all())
    assert count == 5
    assert any("COUNT(" in q.upper() for q in sql)


def test_the_admin_move_list_shows_its_moves(joker_game, players, django_user_model):
    analysed_moves(joker_game, players, 3)
    admin = django_user_model.objects.create_superuser("estimator", password="pw-not-used-1", language="en")
    page = client_for(admin).get("/admin/gameplay/move/").content.decode()
    assert "3 moves" in page


def admin_list_queries(user, url: str) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        page = client_for(user).get(url).content.decode()
    return page, [q["sql"] for q in captured.captured_queries]


def counts_moves(sql: list[str]) -> bool:
    """Whether a query counted the list's rows (not the whole table's, which SQLite counts from an index)."""
    return any("COUNT(" in q.upper() and Move._meta.db_table in q and "WHERE" in q.upper() for q in sql)


def test_the_move_list_a_moderators_role_restricts_is_still_counted_as_the_whole_table(
        joker_game, players, django_user_model, monkeypatch):
    analysed_moves(joker_game, players, 5)
    monkeypatch.setattr(paging, "ESTIMATE_ABOVE", 2)
    admin = django_user_model.objects.create_superuser("estimator", password="pw-not-used-1", language="en")
    page, sql = admin_list_queries(admin, "/admin/gameplay/move/")
    assert "5 moves" in page
    assert not counts_moves(sql)
    page, sql = admin_list_queries(admin, "/admin/gameplay/move/?by__exact=player")
    assert "5 moves" in page
    assert counts_moves(sql)  # his own filter: counted exactly
