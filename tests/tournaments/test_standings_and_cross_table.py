"""The standings (a page of them, refreshed live while the tournament runs),
each round's pairings on its own page with each finished game's record
linked, and the cross-table; the pages cost the same queries however many
players there are."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.conftest import entered, play_round, round_tables, start, tournament_of
from tournaments import crosstable, pairing, views
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


@pytest.fixture
def after_a_round(people):
    tournament = entered(tournament_of(people[0]), people[1:6])  # five: two tables and a bye
    start(tournament.pk, people[0])
    play_round(tournament, 1, loser_seat=1)
    return tournament


def test_the_cross_table_gives_each_round_its_points_and_table_mates_ranks(after_a_round):
    rows, lines, numbers = crosstable.cross_table(after_a_round)
    assert numbers == [1, 2]
    rank = {row.entry_id: row.rank for row in rows}
    bye = Bye.objects.get(round__tournament=after_a_round, round__number=1)
    for line in lines:
        cell = line.cells[0]
        if line.row.entry_id == bye.entry_id:
            assert cell.bye == "pairing" and cell.points == 1
            continue
        table = next(t for t in round_tables(after_a_round, 1) if line.row.entry_id in t.seats)
        other = next(e for e in table.seats if e != line.row.entry_id)
        assert cell.others == [rank[other]] and cell.finished and cell.game_id == table.game_id
        assert cell.points == (1 if table.seats[0] == line.row.entry_id else 0)
        second = line.cells[1]
        assert second is None or second.bye or (not second.finished and second.points is None)


def test_the_cross_table_page_links_each_finished_game_to_its_record(client, after_a_round):
    page = client.get(reverse("tournament_crosstable", args=[after_a_round.slug])).content.decode()
    for table in round_tables(after_a_round, 1):
        assert reverse("game_record", args=[table.game_id]) in page
    for table in round_tables(after_a_round, 2):
        assert reverse("game", args=[table.game_id]) in page


def test_a_rounds_page_lists_its_tables_with_the_records_and_its_byes(client, after_a_round, people):
    page = client.get(reverse("tournament_round", args=[after_a_round.slug, 1])).content.decode()
    for table in round_tables(after_a_round, 1):
        assert reverse("game_record", args=[table.game_id]) in page
    assert "bye" in page
    assert client.get(reverse("tournament_round", args=[after_a_round.slug, 9])).status_code == 404


def test_the_standings_come_a_page_at_a_time_and_refresh_live_while_running(client, after_a_round, monkeypatch):
    monkeypatch.setattr(views, "STANDINGS_PER_PAGE", 2)
    rows = pairing.current_standings(after_a_round)
    page = client.get(reverse("tournament", args=[after_a_round.slug])).content.decode()
    assert rows[0].name in page and rows[2].name not in page.split('id="standings"')[1].split("</section>")[0]
    assert 'data-refresh="' + reverse("tournament_standings_part", args=[after_a_round.slug]) + '?page=1"' in page
    part = client.get(reverse("tournament_standings_part", args=[after_a_round.slug]), {"page": 2}).content.decode()
    assert rows[2].name in part and rows[0].name not in part and "<html" not in part


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_pages_cost_the_same_queries_for_four_players_as_for_ten(client, people):
    counts = []
    for size, name in ((4, "Small Swiss"), (10, "Bigger Swiss")):
        tournament = entered(tournament_of(people[0], name=name), people[1:1 + size])
        start(tournament.pk, people[0])
        play_round(tournament, 1)
        counts.append([_queries(client, reverse(view, args=[tournament.slug]))
                       for view in ("tournament", "tournament_standings_part", "tournament_crosstable")]
                      + [_queries(client, reverse("tournament_round", args=[tournament.slug, 1]))])
    assert counts[0] == counts[1]


def test_the_pages_compute_the_standings_again_only_after_something_changed(client, people, monkeypatch):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    computed = []
    real = pairing.current_standings
    monkeypatch.setattr(pairing, "current_standings", lambda t: computed.append(t.pk) or real(t))
    url = reverse("tournament", args=[tournament.slug])
    client.get(url)
    client.get(reverse("tournament_standings_part", args=[tournament.slug]))
    assert len(computed) == 1
    play_round(tournament, 1)  # results: the next reader computes them again
    page = client.get(url).content.decode()
    assert len(computed) == 2
    winners = [r for r in real(tournament) if r.points == 1]
    assert len(winners) == 2 and all(r.name in page for r in winners)
