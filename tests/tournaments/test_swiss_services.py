"""A Swiss tournament at two-player tables through its services: entry,
the start, rounds paired by the Swiss library, byes, late entries,
leaving and rejoining, the end; bad input refused with nothing changed."""

import pytest

from gameplay.models import Game
from gameplay.services.base import GameError
from tests.tournaments.conftest import entered, play_round, round_tables, start, tournament_of
from tournaments import pairing, services
from tournaments.models import Bye, Entry, Round, Tournament

pytestmark = pytest.mark.django_db


def test_a_tournament_is_created_open_for_entry(people):
    tournament = tournament_of(people[0])
    assert tournament.status == Tournament.Status.OPEN
    assert tournament.slug == "autumn-swiss"


@pytest.mark.parametrize("fields,message", [
    ({"engine": "chess"}, "Unknown game"),
    ({"players": 9}, "players"),
    ({"name": " "}, "name"),
    ({"rounds": 99}, "rounds"),
    ({"tiebreaks": ["buchholz", "height"]}, "tie-break"),
])
def test_a_tournament_with_bad_settings_is_refused(people, fields, message):
    with pytest.raises(GameError, match=message):
        tournament_of(people[0], **fields)
    assert not Tournament.objects.exists()


def test_joining_twice_is_refused_and_changes_nothing(people):
    tournament = entered(tournament_of(people[0]), people[1:3])
    with pytest.raises(GameError, match="already in this tournament"):
        services.join(tournament.pk, people[1])
    assert tournament.entries.count() == 2


def test_joining_a_full_tournament_is_refused(people):
    tournament = entered(tournament_of(people[0], max_entries=2), people[1:3])
    with pytest.raises(GameError, match="full"):
        services.join(tournament.pk, people[3])
    assert tournament.entries.count() == 2


def test_starting_pairs_round_one_as_games_with_the_odd_player_given_a_bye(people):
    tournament = entered(tournament_of(people[0]), people[1:6])
    start(tournament.pk, people[0])
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    tables = round_tables(tournament, 1)
    assert len(tables) == 2
    assert all(t.game.status == Game.Status.ACTIVE and t.game.rated for t in tables)
    bye = Bye.objects.get()
    assert bye.kind == Bye.Kind.PAIRING and bye.points == 1
    # the seat order is the pairing's colour: the first player sits first
    for table in tables:
        users = [s.user_id for s in table.game.seats.order_by("position")]
        assert users == [Entry.objects.get(pk=pk).user_id for pk in table.seats]


def test_starting_twice_is_refused(people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    with pytest.raises(GameError, match="already started"):
        start(tournament.pk, people[0])
    assert Round.objects.count() == 1


def test_only_the_organizer_starts_it(people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    with pytest.raises(GameError, match="organizer"):
        start(tournament.pk, people[1])
    assert Round.objects.count() == 0


def test_the_next_round_starts_when_every_game_of_the_round_is_over_and_never_repeats_a_pairing(people):
    tournament = entered(tournament_of(people[0]), people[1:7])
    start(tournament.pk, people[0])
    met = set()
    for number in (1, 2, 3):
        tables = round_tables(tournament, number)
        assert len(tables) == 3
        for table in tables:
            pair = frozenset(table.seats)
            assert pair not in met
            met.add(pair)
        play_round(tournament, number)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    ranks = sorted(tournament.entries.values_list("final_rank", flat=True))
    assert ranks == [1, 2, 3, 4, 5, 6]


def test_round_two_pairs_the_winners_together(people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    play_round(tournament, 1, loser_seat=1)
    winners = {t.seats[0] for t in round_tables(tournament, 1)}
    assert any(set(t.seats) == winners for t in round_tables(tournament, 2))


def test_starting_a_round_twice_is_refused_and_changes_nothing(people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    play_round(tournament, 1)  # round 2 starts by itself
    with pytest.raises(GameError, match="Round 2 has already started"):
        services.start_next_round(tournament.pk, people[0], 2)
    with pytest.raises(GameError, match="Round 2 is still being played"):
        services.start_next_round(tournament.pk, people[0], 3)
    assert Round.objects.count() == 2


def test_the_organizer_starts_a_round_on_dates_when_the_previous_is_over(people):
    tournament = entered(tournament_of(people[0], next_round=Tournament.NextRound.SCHEDULED), people[1:5])
    start(tournament.pk, people[0])
    play_round(tournament, 1)
    assert Round.objects.count() == 1  # waits for its date
    services.start_next_round(tournament.pk, people[0], 2)
    assert len(round_tables(tournament, 2)) == 2


def test_nobody_gets_a_second_bye_while_another_player_has_none(people):
    tournament = entered(tournament_of(people[0], rounds=5), people[1:6])
    start(tournament.pk, people[0])
    for number in range(1, 6):
        play_round(tournament, number)
    byes = list(Bye.objects.values_list("entry_id", flat=True))
    assert len(byes) == 5 and len(set(byes)) == 5


def test_a_late_player_gets_one_half_point_bye_until_half_the_rounds_have_started(people):
    tournament = entered(tournament_of(people[0], rounds=4), people[1:5])
    start(tournament.pk, people[0])
    late = services.join(tournament.pk, people[5])
    bye = Bye.objects.get(entry=late)
    assert (bye.kind, bye.points, bye.round.number) == (Bye.Kind.LATE, 0.5, 1)
    play_round(tournament, 1)
    assert any(late.pk in t.seats for t in round_tables(tournament, 2)) or \
        Bye.objects.filter(entry=late, round__number=2).exists()
    with pytest.raises(GameError, match="half the rounds"):
        services.join(tournament.pk, people[6])
    assert not Entry.objects.filter(user=people[6]).exists()


def test_leaving_and_rejoining_gives_no_second_bye(people):
    tournament = entered(tournament_of(people[0], rounds=6), people[1:5])
    start(tournament.pk, people[0])
    late = services.join(tournament.pk, people[5])
    services.leave(tournament.pk, people[5])
    again = services.join(tournament.pk, people[5])
    assert again.pk == late.pk and again.withdrawn_at is None
    assert Bye.objects.filter(entry=late).count() == 1


def test_leaving_a_started_tournament_forfeits_the_game_in_play(people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    table = round_tables(tournament, 1)[0]
    leaver = Entry.objects.get(pk=table.seats[0])
    services.leave(tournament.pk, leaver.user)
    table.refresh_from_db()
    table.game.refresh_from_db()
    assert table.forfeits == [leaver.pk]
    assert table.game.status == Game.Status.FINISHED
    row = next(r for r in pairing.current_standings(tournament) if r.entry_id == table.seats[1])
    assert row.points == 1


def test_a_withdrawn_player_is_not_paired_again(people):
    tournament = entered(tournament_of(people[0]), people[1:5])
    start(tournament.pk, people[0])
    gone = Entry.objects.get(user=people[1])
    services.withdraw(gone.pk, people[0], "asked to leave by email")
    play_round(tournament, 1)
    assert all(gone.pk not in t.seats for t in round_tables(tournament, 2))


def test_leaving_before_the_start_removes_the_entry(people):
    tournament = entered(tournament_of(people[0]), people[1:3])
    services.leave(tournament.pk, people[1])
    assert list(tournament.entries.values_list("user", flat=True)) == [people[2].pk]
    with pytest.raises(GameError, match="not in this tournament"):
        services.leave(tournament.pk, people[1])


def test_the_organizer_may_make_the_games_casual(people):
    tournament = entered(tournament_of(people[0], rated=False), people[1:3])
    start(tournament.pk, people[0])
    assert not round_tables(tournament, 1)[0].game.rated


def test_entry_conditions_on_rating_and_rated_games_are_checked(people):
    tournament = tournament_of(people[0], min_rated_games=5)
    with pytest.raises(GameError, match="at least 5 rated games"):
        services.join(tournament.pk, people[1])
    tournament = tournament_of(people[0], name="Strong", max_rating=-100)
    with pytest.raises(GameError, match="outside this tournament's range"):
        services.join(tournament.pk, people[1])
    assert not Entry.objects.exists()


def test_bot_accounts_enter_only_where_allowed(people):
    people[1].is_bot = True
    people[1].save()
    with pytest.raises(GameError, match="bot accounts"):
        services.join(tournament_of(people[0]).pk, people[1])
    assert services.join(tournament_of(people[0], name="Bots welcome", allow_bots=True).pk, people[1])


def test_the_rounds_are_suggested_from_the_entrants_when_not_set(people):
    tournament = entered(tournament_of(people[0], rounds=0), people[1:10])
    start(tournament.pk, people[0])
    tournament.refresh_from_db()
    assert tournament.rounds == 5  # 9 entrants: log2 9 rounded up, plus one
