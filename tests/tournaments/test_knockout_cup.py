"""The knockout cup: the bracket with byes for the best seeds, winners going
on, tables of 3 to 6 whose top places go on, the final, the final ranks;
and its pure rules (tournaments/knockout.py)."""

import pytest

from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from tests.tournaments.conftest import committed, entered, round_tables, start, tournament_of
from tournaments import knockout, services
from tournaments.models import Bye, Entry, Tournament

pytestmark = pytest.mark.django_db


def test_a_bracket_of_six_gives_the_two_best_seeds_a_bye_and_pairs_best_against_worst():
    assert knockout.draw([1, 2, 3, 4, 5, 6], 2) == ([[3, 6], [4, 5]], [1, 2])


def test_tables_of_four_are_dealt_snake_wise():
    assert knockout.draw(list(range(1, 9)), 4) == ([[1, 4, 5, 8], [2, 3, 6, 7]], [])
    assert knockout.draw(list(range(1, 10)), 4) == ([[2, 5, 6, 9], [3, 4, 7, 8]], [1])


def test_the_better_seed_goes_on_from_a_shared_place_and_a_forfeiter_never():
    assert knockout.going_on({5: 1, 3: 1}, 1, {5: 5, 3: 3}) == [3]
    assert knockout.going_on({1: 1, 2: 2, 3: 3}, 2, {1: 1, 2: 2, 3: 3}, frozenset({2})) == [1, 3]


@pytest.mark.parametrize("entrants,size,advance,rounds", [(6, 2, 1, 3), (8, 2, 1, 3), (9, 2, 1, 4),
                                                         (8, 4, 2, 2), (16, 4, 1, 2), (6, 3, 1, 2)])
def test_the_rounds_a_cup_needs(entrants, size, advance, rounds):
    assert knockout.rounds_needed(entrants, size, advance) == rounds


def _win(table, seat: int) -> None:
    """The player in `seat` wins: every other player resigns."""
    game = Game.objects.get(pk=table.game_id)
    for other in game.seats.exclude(position=seat).order_by("-position"):
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            with committed():
                game_services.resign(game.pk, other.user)


def test_a_durak_cup_of_six_plays_to_its_final(people):
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT), people[1:7])
    start(cup.pk, people[0])
    cup.refresh_from_db()
    assert cup.rounds == 3
    seed = {e.number: e.pk for e in Entry.objects.all()}
    assert sorted(Bye.objects.values_list("entry_id", flat=True)) == sorted([seed[1], seed[2]])
    first = round_tables(cup, 1)
    assert [t.seats for t in first] == [[seed[3], seed[6]], [seed[4], seed[5]]]
    _win(first[0], 1)  # 6 beats 3: an upset
    _win(first[1], 0)
    assert Entry.objects.get(pk=seed[3]).out_in_round == 1
    second = round_tables(cup, 2)
    assert sorted(pk for t in second for pk in t.seats) == sorted([seed[1], seed[2], seed[4], seed[6]])
    for table in second:
        _win(table, 0)
    final = round_tables(cup, 3)
    assert len(final) == 1
    _win(final[0], 1)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    champion = final[0].seats[1]
    assert Entry.objects.get(final_rank=1).pk == champion
    assert Entry.objects.get(final_rank=2).pk == final[0].seats[0]
    assert Entry.objects.get(pk=seed[3]).final_rank in (5, 6)


def test_a_joker_cup_sends_the_top_two_of_each_table_to_the_final(people):
    cup = entered(tournament_of(people[0], engine="joker", players=4, format=Tournament.Format.KNOCKOUT,
                                advance=2), people[1:9])
    start(cup.pk, people[0])
    top_two = set()
    for table in round_tables(cup, 1):
        game = Game.objects.get(pk=table.game_id)
        with committed():  # a Joker game ends: places for all
            game_services.resign(game.pk, game.seats.get(position=3).user)
        top_two |= {table.seats[s.position] for s in game.seats.all() if s.place <= 2}
    final = round_tables(cup, 2)
    assert len(final) == 1 and len(final[0].seats) == 4
    assert set(final[0].seats) == top_two
    assert Entry.objects.filter(out_in_round=1).count() == 4


def test_a_cup_takes_no_late_entries_and_a_bad_advance_is_refused(people):
    cup = entered(tournament_of(people[0], format=Tournament.Format.KNOCKOUT), people[1:5])
    start(cup.pk, people[0])
    with pytest.raises(GameError, match="already started"):
        services.join(cup.pk, people[6])
    with pytest.raises(GameError, match="places go on"):
        tournament_of(people[0], name="Bad", engine="joker", players=4, format=Tournament.Format.KNOCKOUT, advance=4)
    assert Tournament.objects.count() == 1
