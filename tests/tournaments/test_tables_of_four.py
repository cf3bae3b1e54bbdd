"""A Swiss tournament of Joker at tables of four through its services: the
seating's tables, the bye worth the table average, scores by place."""

import pytest

from gameplay import services as game_services
from gameplay.models import Game
from tests.tournaments.conftest import committed, entered, round_tables, start, tournament_of
from tournaments import pairing
from tournaments.models import Bye, Entry

pytestmark = pytest.mark.django_db


def _end_all(tournament, number: int) -> None:
    """Every table of the round ends: the players in seats 3, 2, 1 resign while it goes on (a Joker
    game ends at the first resignation, the others placed by the score sheet)."""
    for table in round_tables(tournament, number):
        for position in (3, 2, 1):
            table.game.refresh_from_db()
            if table.game.status == Game.Status.ACTIVE:
                with committed():
                    game_services.resign(table.game_id, table.game.seats.get(position=position).user)


def test_nine_players_sit_at_two_tables_of_four_and_the_lowest_sits_out_for_half_a_point(people):
    tournament = entered(tournament_of(people[0], engine="joker", players=4, rounds=3), people[1:10])
    start(tournament.pk, people[0])
    tables = round_tables(tournament, 1)
    assert [len(t.seats) for t in tables] == [4, 4]
    assert all(t.game.seats_count == 4 for t in tables)
    bye = Bye.objects.get()
    assert bye.points == 0.5
    assert bye.entry.number == 9  # everyone on 0: the lowest starting rank sits out


def test_places_score_one_two_thirds_one_third_nothing_and_the_next_round_mixes_the_tables(people):
    tournament = entered(tournament_of(people[0], engine="joker", players=4, rounds=3), people[1:9])
    start(tournament.pk, people[0])
    first = round_tables(tournament, 1)
    _end_all(tournament, 1)
    points = {row.entry_id: row.points for row in pairing.current_standings(tournament)}
    winners = set()
    for table in first:
        game = Game.objects.get(pk=table.game_id)
        places = {table.seats[s.position]: s.place for s in game.seats.all()}
        for entry, place in places.items():
            assert points[entry] == pytest.approx({1: 1, 2: 2 / 3, 3: 1 / 3, 4: 0}[place])
        winners |= {entry for entry, place in places.items() if place == 1}
    second = round_tables(tournament, 2)
    # the two winners (equal scores) meet, and nobody sits with the same three again
    assert any(winners <= set(t.seats) for t in second)
    old = [set(t.seats) for t in first]
    assert all(len(set(t.seats) & o) <= 2 for t in second for o in old)


def test_the_first_seat_passes_to_someone_who_has_not_had_it(people):
    tournament = entered(tournament_of(people[0], engine="joker", players=4, rounds=3), people[1:9])
    start(tournament.pk, people[0])
    firsts = {t.seats[0] for t in round_tables(tournament, 1)}
    _end_all(tournament, 1)
    assert all(t.seats[0] not in firsts for t in round_tables(tournament, 2))
    assert Entry.objects.count() == 8
