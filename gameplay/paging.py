"""Paginators for long lists: one whose count of a whole big table is
PostgreSQL's estimate, and one that pages a ranked list without counting it.

An exact `COUNT(*)` reads every row (PostgreSQL keeps no row count): the
admin's list of moves took 31 ms at 10 games and 148 ms at 10,000 (3 M
moves), most of it counting. Over a whole table of more than
`ESTIMATE_ABOVE` rows, the page count comes from the planner's statistics
(`pg_class.reltuples`, kept by autovacuum's ANALYZE; on SQLite, which keeps
none, the table's own count): a page number off by
a few percent at the far end of millions of rows is no loss. So is a
whole table as its reader may see it (`whole_table`: the admin's list with
no search or filter of his own, less the rows his role may not read, such
as a moderator's own games in play). A list he filtered (a search, a
filter), a small table, another database or a table never analysed is
counted exactly.
"""

from __future__ import annotations

import math

from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.db import connections
from django.utils.functional import cached_property

ESTIMATE_ABOVE = 100_000


class EstimatedCountPaginator(Paginator):
    def __init__(self, object_list, per_page, orphans: int = 0, allow_empty_first_page: bool = True, *,
                 whole_table: bool = False) -> None:
        super().__init__(object_list, per_page, orphans, allow_empty_first_page)
        self.whole_table = whole_table

    @cached_property
    def count(self) -> int:
        estimate = estimated_rows(self.object_list, whole_table=self.whole_table)
        if estimate is not None and estimate > ESTIMATE_ABOVE:
            return estimate
        return super().count


def estimated_rows(queryset, *, whole_table: bool = False) -> int | None:
    """The planner's row estimate of the queryset's table when the queryset
    reads the whole table (no filter, unless `whole_table` says its filter
    is only what its reader may not see; no distinct) on PostgreSQL; else None."""
    query = getattr(queryset, "query", None)
    if query is None or (query.where and not whole_table) or query.distinct or query.combinator or query.is_sliced:
        return None
    connection = connections[queryset.db]
    if connection.vendor != "postgresql":
        # No statistics: the whole table's exact count, which needs no row of another table (SQLite
        # counts an index), for a list its reader did not filter; the list itself otherwise.
        return queryset.model._base_manager.using(queryset.db).count() if query.where and whole_table else None
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", [queryset.model._meta.db_table])
        row = cursor.fetchone()
    return int(row[0]) if row and row[0] >= 0 else None


class OpenEndedPaginator(Paginator):
    """Pages of an ordered list that is never counted: page ``n`` holds the
    same rows as Django's page ``n`` (rows ``per_page * (n - 1) + 1`` on),
    read with one more row to learn whether a next page exists, so a page
    costs what its offset costs, however long the list (counting the
    ratings leaderboard's active players read all of them: 3.8 ms at 10
    games, 14.2 ms at 10,000). The page says no total ("Page 5", not "Page
    5 of 812"). A page past the end, which only a hand-made link asks for,
    counts the list once to show the last page, as ``paginated`` promises.
    """

    open_ended = True

    def page(self, number) -> Page:
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        rows = list(self.object_list[bottom:bottom + self.per_page + 1])
        if not rows and number > 1:
            raise EmptyPage(self.error_messages["no_results"])
        return OpenEndedPage(rows[:self.per_page], number, self, has_more=len(rows) > self.per_page)

    def validate_number(self, number) -> int:
        try:
            if isinstance(number, float) and not number.is_integer():
                raise ValueError
            number = int(number)
        except (TypeError, ValueError):
            raise PageNotAnInteger(self.error_messages["invalid_page"]) from None
        if number < 1:
            raise EmptyPage(self.error_messages["min_page"])
        return number

    def get_page(self, number) -> Page:
        try:
            return self.page(number)
        except PageNotAnInteger:
            return self.page(1)
        except EmptyPage:
            return self.page(max(1, math.ceil(self.count / self.per_page)))


class OpenEndedPage(Page):
    """A page of ``OpenEndedPaginator``: it knows whether a next page exists, not how many follow."""

    def __init__(self, object_list, number: int, paginator: OpenEndedPaginator, has_more: bool) -> None:
        super().__init__(object_list, number, paginator)
        self.has_more = has_more

    def has_next(self) -> bool:
        return self.has_more

    def start_index(self) -> int:
        return self.paginator.per_page * (self.number - 1) + 1 if self.object_list else 0

    def end_index(self) -> int:
        return self.start_index() + len(self.object_list) - 1 if self.object_list else 0
