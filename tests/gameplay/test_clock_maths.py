"""Pure clock arithmetic: running time, night pauses across DST changes, vacations."""

from datetime import UTC, datetime, time, timedelta

from gameplay.clocks import Pauses, advance, is_paused, running_seconds

HOUR = 3600
MOSCOW_NIGHTS = Pauses("Europe/Moscow", time(23), time(8))


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_without_pauses_the_deadline_is_plain_addition():
    assert advance(utc(2026, 1, 1, 12), 90) == utc(2026, 1, 1, 12, 1, 30)
    assert running_seconds(utc(2026, 1, 1, 12), utc(2026, 1, 1, 13)) == HOUR


def test_the_night_window_stops_the_clock():
    start = utc(2026, 11, 21, 19)  # 22:00 in Moscow: one hour before the pause
    deadline = advance(start, 2 * HOUR, MOSCOW_NIGHTS)
    assert deadline == utc(2026, 11, 22, 6)  # 09:00 in Moscow: 1 h before 23:00 + 1 h after 08:00
    assert running_seconds(start, deadline, MOSCOW_NIGHTS) == 2 * HOUR
    assert is_paused(utc(2026, 11, 21, 21), MOSCOW_NIGHTS)
    assert not is_paused(utc(2026, 11, 21, 12), MOSCOW_NIGHTS)


def test_a_turn_started_during_the_night_runs_from_the_morning():
    start = utc(2026, 11, 21, 22)  # 01:00 in Moscow
    assert advance(start, 30 * 60, MOSCOW_NIGHTS) == utc(2026, 11, 22, 5, 30)


def test_a_window_that_does_not_cross_midnight():
    siesta = Pauses("UTC", time(13), time(15))
    assert advance(utc(2026, 6, 1, 12), 2 * HOUR, siesta) == utc(2026, 6, 1, 16)


def test_the_night_keeps_its_local_hours_across_the_spring_dst_change():
    berlin = Pauses("Europe/Berlin", time(23), time(8))
    # Night of 28→29 March 2026: clocks jump from 02:00 to 03:00 (CET → CEST).
    start = utc(2026, 3, 28, 21)  # 22:00 CET
    deadline = advance(start, 2 * HOUR, berlin)
    # One hour before 23:00 CET, then from 08:00 CEST (06:00 UTC) one more hour.
    assert deadline == utc(2026, 3, 29, 7)
    assert running_seconds(start, deadline, berlin) == 2 * HOUR


def test_the_night_keeps_its_local_hours_across_the_autumn_dst_change():
    berlin = Pauses("Europe/Berlin", time(23), time(8))
    # Night of 24→25 October 2026: clocks go back from 03:00 to 02:00 (CEST → CET).
    start = utc(2026, 10, 24, 20)  # 22:00 CEST
    deadline = advance(start, 2 * HOUR, berlin)
    assert deadline == utc(2026, 10, 25, 8)  # 08:00 CET is 07:00 UTC, plus one hour
    assert running_seconds(start, deadline, berlin) == 2 * HOUR


def test_a_vacation_stops_the_clock_and_merges_with_nights():
    vacation = (utc(2026, 11, 22, 0), utc(2026, 11, 25, 0))
    pauses = Pauses("Europe/Moscow", time(23), time(8), (vacation,))
    start = utc(2026, 11, 21, 19)  # 22:00 Moscow
    # 1 h until 23:00; night and vacation run together until 25 Nov 00:00 UTC (03:00 Moscow),
    # then the night goes on until 08:00 Moscow (05:00 UTC): 1 h more.
    assert advance(start, 2 * HOUR, pauses) == utc(2026, 11, 25, 6)


def test_advancing_is_additive():
    start = utc(2026, 11, 21, 10)
    once = advance(start, 20 * HOUR, MOSCOW_NIGHTS)
    twice = advance(advance(start, 7 * HOUR, MOSCOW_NIGHTS), 13 * HOUR, MOSCOW_NIGHTS)
    assert once == twice


def test_running_time_is_zero_for_an_empty_interval():
    assert running_seconds(utc(2026, 1, 1), utc(2025, 1, 1)) == 0
    assert running_seconds(utc(2026, 1, 1), utc(2026, 1, 1) + timedelta(hours=1), Pauses(
        "UTC", None, None, ((utc(2025, 12, 31), utc(2026, 1, 2)),))) == 0
