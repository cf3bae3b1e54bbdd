"""League schedules (issue 13): round robins and n-player tables, pure Python."""

import json
import math
import time
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from leagues.schedule import (
    Round,
    Table,
    describe_balance,
    expand_pair_table,
    expand_pairs,
    fitting_games,
    from_json,
    round_robin,
    table_schedule,
    to_json,
)


def ids(n: int) -> list[int]:
    return [100 + 7 * i for i in range(n)]


def assert_sound(schedule: list[Round], entries: list[int], table_size: int, games: int) -> None:
    """Everyone plays `games` games at full tables, never twice in a round, seats even."""
    balance = describe_balance(schedule)
    assert [r.number for r in schedule] == list(range(1, len(schedule) + 1))
    assert all(len(t.seats) == table_size for r in schedule for t in r.tables)
    assert balance.twice_in_a_round == ()
    for r in schedule:
        assert sorted([e for t in r.tables for e in t.seats] + list(r.byes)) == sorted(entries)
    assert set(balance.games) == set(entries)
    assert set(balance.games.values()) == {games}
    assert len(set(balance.byes.values())) == 1
    assert balance.seat_spread <= 1


# --- round robin -------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 11))
@pytest.mark.parametrize("meetings", [1, 2, 3])
def test_a_round_robin_meets_every_pair_the_given_number_of_times(n, meetings):
    entries = ids(n)
    schedule = round_robin(entries, meetings)
    balance = describe_balance(schedule)
    per_cycle = n - 1 if n % 2 == 0 else n
    assert len(schedule) == meetings * per_cycle
    assert balance.meetings_min == balance.meetings_max == meetings
    assert set(balance.games.values()) == {meetings * (n - 1)}
    assert balance.twice_in_a_round == ()
    assert all(len(t.seats) == 2 for r in schedule for t in r.tables)


@pytest.mark.parametrize("n", range(2, 11))
@pytest.mark.parametrize("meetings", [1, 2, 3])
def test_a_round_robin_gives_each_player_the_first_move_in_half_his_games(n, meetings):
    balance = describe_balance(round_robin(ids(n), meetings))
    for first, second in balance.seats.values():
        assert abs(first - second) <= 1


@pytest.mark.parametrize("n", range(2, 11))
def test_a_round_robin_alternates_the_first_move_between_a_pairs_meetings(n):
    schedule = round_robin(ids(n), 4)
    firsts: dict[frozenset, list[int]] = {}
    for r in schedule:
        for t in r.tables:
            firsts.setdefault(frozenset(t.seats), []).append(t.seats[0])
    for pair, movers in firsts.items():
        assert len(movers) == 4
        assert all(a != b for a, b in zip(movers, movers[1:])), pair


@pytest.mark.parametrize("n", range(2, 11))
def test_a_round_robin_alternates_the_first_move_across_rounds_with_at_most_one_break(n):
    entries = ids(n)
    schedule = round_robin(entries)
    for e in entries:
        moves_first = [t.seats[0] == e for r in schedule for t in r.tables if e in t.seats]
        breaks = sum(a == b for a, b in zip(moves_first, moves_first[1:]))
        assert breaks <= 1


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_a_round_robin_of_an_odd_count_gives_everyone_one_bye_per_cycle(n):
    schedule = round_robin(ids(n), 2)
    assert all(len(r.byes) == 1 for r in schedule)
    assert set(describe_balance(schedule).byes.values()) == {2}


def test_a_round_robin_of_an_even_count_has_no_byes():
    assert all(r.byes == () for r in round_robin(ids(6), 2))


def test_a_round_robin_refuses_a_single_entry_or_no_meetings():
    with pytest.raises(ValueError, match="at least 2 entries"):
        round_robin([1])
    with pytest.raises(ValueError, match="at least once"):
        round_robin([1, 2], 0)
    with pytest.raises(ValueError, match="twice"):
        round_robin([1, 2, 1])


# --- tables of 3 to 6 ----------------------------------------------------------


def test_eight_players_at_tables_of_four_play_six_games_meeting_each_other_two_or_three_times():
    entries = ids(8)
    schedule = table_schedule(entries, 4, 6, seed=1)
    assert_sound(schedule, entries, 4, 6)
    assert len(schedule) == 6
    balance = describe_balance(schedule)
    # 6 games × 3 opponents over 7 others: λ = 18/7.
    assert (balance.meetings_min, balance.meetings_max) == (2, 3)


def test_twelve_players_at_tables_of_three_for_four_games_never_meet_twice():
    entries = ids(12)
    schedule = table_schedule(entries, 3, 4, seed=1)
    assert_sound(schedule, entries, 3, 4)
    assert describe_balance(schedule).meetings_max == 1


def test_nine_players_at_tables_of_three_all_meet_exactly_once_in_four_games():
    entries = ids(9)
    schedule = table_schedule(entries, 3, None, seed=1)
    assert_sound(schedule, entries, 3, 4)
    balance = describe_balance(schedule)
    assert balance.meetings_min == balance.meetings_max == 1


def test_fifteen_players_at_tables_of_three_all_meet_once_in_seven_games():
    # Kirkman's schoolgirls: the lower bound is reached.
    entries = ids(15)
    schedule = table_schedule(entries, 3, None, seed=1)
    assert_sound(schedule, entries, 3, 7)
    assert describe_balance(schedule).meetings_max == 1


def test_ten_players_at_tables_of_five_all_meet_in_the_fewest_games():
    # ⌈9 / 4⌉ = 3 games cannot cover every pair with two tables a round; 4 can.
    entries = ids(10)
    schedule = table_schedule(entries, 5, None, seed=1)
    assert_sound(schedule, entries, 5, 4)
    assert describe_balance(schedule).meetings_min >= 1


def test_six_pairs_of_durak_two_by_two_all_meet_once():
    pairs = {i: (10 * i, 10 * i + 1) for i in range(1, 7)}
    schedule = table_schedule(list(pairs), 2, None, seed=5)
    assert_sound(schedule, list(pairs), 2, 5)
    balance = describe_balance(schedule)
    assert balance.meetings_min == balance.meetings_max == 1


@pytest.mark.parametrize("n, k, g", [(7, 3, 3), (10, 4, 6), (11, 6, 6), (13, 4, None), (5, 2, 4)])
def test_when_the_entries_do_not_fill_the_tables_the_same_number_sit_out_and_all_play_alike(n, k, g):
    entries = ids(n)
    schedule = table_schedule(entries, k, g, seed=2)
    games = set(describe_balance(schedule).games.values())
    assert len(games) == 1
    assert_sound(schedule, entries, k, games.pop())
    assert all(len(r.byes) == n - k * len(r.tables) for r in schedule)
    assert all(len(r.byes) < n for r in schedule)


def test_no_two_players_keep_meeting_when_the_others_meet_at_most_twice():
    # 30 players at tables of 6 for 5 games: a plain sum of squares got stuck
    # with one pair together in 4 of the 5 games.
    balance = describe_balance(table_schedule(ids(30), 6, 5, seed=1))
    assert balance.meetings_max <= 2


def test_a_round_with_a_single_table_still_spreads_the_meetings():
    # 11 players at one table of 6 a round: only the byes can change who meets.
    balance = describe_balance(table_schedule(ids(11), 6, 6, seed=2))
    assert balance.meetings_min == balance.meetings_max == 3


@pytest.mark.parametrize("n", range(2, 13))
def test_two_seat_tables_for_any_number_of_games_keep_meetings_and_first_moves_even(n):
    entries = ids(n)
    for games in range(1, 2 * n):
        if n * games % 2:
            continue
        schedule = table_schedule(entries, 2, games, seed=n)
        assert_sound(schedule, entries, 2, games)
        assert describe_balance(schedule).meetings_spread <= 1


@pytest.mark.parametrize("n, k", [(4, 4), (9, 3), (12, 4), (10, 5), (12, 6), (7, 2), (8, 2), (16, 4)])
def test_everyone_meets_everyone_covers_every_pair_in_equal_games(n, k):
    entries = ids(n)
    schedule = table_schedule(entries, k, None, seed=3)
    balance = describe_balance(schedule)
    assert balance.meetings_min >= 1
    assert len(set(balance.games.values())) == 1
    assert_sound(schedule, entries, k, balance.games_min)
    assert balance.games_min >= math.ceil((n - 1) / (k - 1))


def test_a_schedule_is_the_same_from_the_same_seed_and_differs_from_another():
    entries = ids(12)
    first = table_schedule(entries, 4, 6, seed=42)
    assert table_schedule(entries, 4, 6, seed=42) == first
    assert table_schedule(entries, 4, 6, seed=43) != first
    assert table_schedule(entries, 2, None, seed=42) == table_schedule(entries, 2, None, seed=42)


def test_a_hundred_entries_at_tables_of_four_for_twenty_games_build_well_under_a_second():
    entries = ids(100)
    started = time.process_time()
    schedule = table_schedule(entries, 4, 20, seed=7)
    assert time.process_time() - started < 0.8  # CPU time: other processes may share the machine
    assert_sound(schedule, entries, 4, 20)
    assert describe_balance(schedule).meetings_max <= 2


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=2, max_value=16),
    k=st.integers(min_value=2, max_value=6),
    g=st.integers(min_value=1, max_value=8),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_any_schedule_seats_everyone_for_the_same_number_of_games_at_even_seats(n, k, g, seed):
    if n < k or n * g % k:
        with pytest.raises(ValueError):
            table_schedule(ids(n), k, g, seed)
        return
    entries = ids(n)
    schedule = table_schedule(entries, k, g, seed)
    assert_sound(schedule, entries, k, g)
    assert describe_balance(schedule).meetings_max <= g


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(min_value=3, max_value=12), k=st.integers(min_value=2, max_value=6), seed=st.integers(0, 1000))
def test_everyone_meets_everyone_covers_every_pair_for_any_size(n, k, seed):
    if n < k:
        return
    schedule = table_schedule(ids(n), k, None, seed)
    balance = describe_balance(schedule)
    assert balance.meetings_min >= 1
    assert_sound(schedule, ids(n), k, balance.games_min)


# --- refusals --------------------------------------------------------------------


def test_fewer_entries_than_a_table_are_refused():
    with pytest.raises(ValueError, match="A table of 4 needs at least 4 entries; there are 3"):
        table_schedule(ids(3), 4, 4, seed=1)


def test_games_that_cannot_fill_whole_tables_are_refused_with_the_numbers_that_work():
    with pytest.raises(ValueError, match=r"8 entries playing 5 games each take 40 seats.*choose 3 or 6 games"):
        table_schedule(ids(8), 3, 5, seed=1)
    with pytest.raises(ValueError, match=r"choose 4 games each \(any multiple of 4\)"):
        table_schedule(ids(9), 4, 2, seed=1)


@pytest.mark.parametrize("size", [1, 7, "4"])
def test_table_sizes_outside_two_to_six_are_refused(size):
    with pytest.raises(ValueError, match="Tables seat 2 to 6"):
        table_schedule(ids(8), size, 2, seed=1)


@pytest.mark.parametrize("games", [0, -2, 1001])
def test_no_games_or_absurdly_many_are_refused(games):
    with pytest.raises(ValueError):
        table_schedule(ids(8), 4, games, seed=1)


def test_an_entry_listed_twice_is_refused():
    with pytest.raises(ValueError, match="appears twice"):
        table_schedule([1, 2, 3, 1], 2, 2, seed=1)


def test_fitting_games_names_the_nearest_numbers_that_fill_tables():
    assert fitting_games(8, 3, 5) == (3, 6)
    assert fitting_games(9, 4, 2) == (0, 4)
    assert fitting_games(10, 4, 6) == (4, 8)


# --- Durak 2×2 ---------------------------------------------------------------------


def test_a_pairs_table_seats_partners_opposite_each_other():
    pairs = {1: (11, 12), 2: (21, 22)}
    assert expand_pair_table(Table((1, 2)), pairs).seats == (11, 21, 12, 22)
    assert expand_pair_table(Table((2, 1)), pairs, turn=1).seats == (22, 12, 21, 11)


def test_a_pairs_schedule_alternates_which_partner_sits_first():
    pairs = {i: (10 * i, 10 * i + 1) for i in range(1, 5)}
    schedule = expand_pairs(table_schedule(list(pairs), 2, None, seed=1), pairs)
    firsts: dict[int, list[int]] = {p: [] for p in pairs}
    for r in schedule:
        for t in r.tables:
            assert len(t.seats) == 4
            for pair, (a, b) in pairs.items():
                if a in t.seats:
                    i, j = t.seats.index(a), t.seats.index(b)
                    assert abs(i - j) == 2
                    firsts[pair].append(min(i, j) == i)
    for pair, seq in firsts.items():
        assert seq == [True, False, True], pair


def test_expanding_a_table_of_an_unknown_pair_is_refused():
    with pytest.raises(ValueError, match="not a registered pair"):
        expand_pair_table(Table((1, 2)), {1: (11, 12)})
    with pytest.raises(ValueError, match="exactly two pairs"):
        expand_pair_table(Table((1, 2, 3)), {})


# --- storage and balance ---------------------------------------------------------------


def test_a_schedule_survives_a_round_trip_through_json():
    schedule = table_schedule(ids(7), 3, 3, seed=9)
    data = json.loads(json.dumps(to_json(schedule)))
    assert from_json(data) == schedule
    assert data[0].keys() == {"number", "tables", "byes"}


@pytest.mark.parametrize(
    "data",
    [
        {},
        [{"number": 0, "tables": []}],
        [{"number": 1, "tables": [{"seats": ["x"]}]}],
        [{"number": 1, "tables": [[1, 2]]}],
        [{"number": 1, "tables": [], "byes": [True]}],
    ],
)
def test_malformed_stored_schedules_are_refused(data):
    with pytest.raises(ValueError):
        from_json(data)


def test_rounds_and_tables_are_immutable_and_hashable():
    r = Round(1, [Table([1, 2])])
    assert r.tables == (Table((1, 2)),)
    assert hash(r) == hash(Round(1, (Table((1, 2)),)))
    with pytest.raises(AttributeError):
        r.number = 2  # type: ignore[misc]


def test_describe_balance_counts_games_meetings_seats_and_double_bookings():
    schedule = [
        Round(1, [Table([1, 2, 3])], byes=[4]),
        Round(2, [Table([4, 1, 2]), Table([3, 1, 4])]),
    ]
    balance = describe_balance(schedule)
    assert balance.games == {1: 3, 2: 2, 3: 2, 4: 2}
    assert balance.byes == {1: 0, 2: 0, 3: 0, 4: 1}
    assert balance.meetings == {(1, 2): 2, (1, 3): 2, (1, 4): 2, (2, 3): 1, (2, 4): 1, (3, 4): 1}
    assert (balance.meetings_min, balance.meetings_max, balance.meetings_spread) == (1, 2, 1)
    assert balance.seats[1] == (1, 2, 0)
    assert balance.seat_spread == 2
    assert balance.twice_in_a_round == (1, 4)
    assert {frozenset(p) for p in balance.meetings} == {frozenset(p) for p in combinations([1, 2, 3, 4], 2)}


@pytest.mark.parametrize("seed", [None, 1.5, True])
def test_a_seed_that_is_not_an_integer_is_refused(seed):
    with pytest.raises(ValueError, match="seed must be an integer"):
        table_schedule(ids(8), 4, 2, seed)
