"""Deadlines, reserve time, expiry, night pauses and vacations, through the
services, with a controllable clock (time-machine)."""

from datetime import UTC, datetime, time, timedelta

import pytest
import time_machine

from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.models import Game, Move

from .conftest import JOKER, a_legal_action, started_game

pytestmark = pytest.mark.django_db
START = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
MOVE, RESERVE = 3600, 2 * 3600


@pytest.fixture
def traveller():
    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


@pytest.fixture
def game(players, traveller) -> Game:
    return started_game("joker", players, move_seconds=MOVE, reserve_seconds=RESERVE)


def on_clock(game: Game):
    position = JOKER.actors(game.state)[0]
    return game.seats.get(position=position)


def test_the_first_player_to_act_is_on_the_clock_and_nobody_else(game):
    seat = on_clock(game)
    assert (seat.clock_started_at, seat.deadline) == (START, START + timedelta(seconds=MOVE))
    assert game.seats.exclude(pk=seat.pk).filter(deadline__isnull=False).count() == 0
    assert seat.warn_at == START + timedelta(seconds=0.8 * (MOVE + RESERVE))


def test_a_move_records_the_time_used_and_starts_the_next_clock(game, players, traveller):
    seat = on_clock(game)
    traveller.shift(timedelta(minutes=10))
    services.submit_move(game.pk, players[seat.position], a_legal_action(game, seat.position), 0)
    game.refresh_from_db()
    assert Move.objects.get(game=game).time_used_ms == 10 * 60 * 1000
    seat.refresh_from_db()
    assert (seat.deadline, seat.reserve_seconds_left) == (None, RESERVE)
    assert on_clock(game).deadline == START + timedelta(minutes=10, seconds=MOVE)


def test_time_over_the_move_time_is_taken_from_the_reserve(game, players, traveller):
    seat = on_clock(game)
    traveller.shift(timedelta(seconds=MOVE + 1800))
    services.expire_deadlines(game.pk)  # the reserve starts
    services.submit_move(game.pk, players[seat.position], a_legal_action(game, seat.position), 0)
    seat.refresh_from_db()
    assert seat.reserve_seconds_left == RESERVE - 1800


def test_an_early_check_changes_nothing(game):
    services.expire_deadlines(game.pk)
    seat = on_clock(game)
    assert (seat.in_reserve, game.moves.count()) == (False, 0)


def test_deadline_then_reserve_then_an_automatic_move(game, traveller):
    seat = on_clock(game)
    traveller.shift(timedelta(seconds=MOVE + 1))
    assert services.expire_deadlines(game.pk) == 0
    seat.refresh_from_db()
    assert seat.in_reserve and seat.deadline == START + timedelta(seconds=MOVE + RESERVE)
    traveller.shift(timedelta(seconds=RESERVE))
    assert services.expire_deadlines(game.pk) == 1
    move = game.moves.get()
    assert (move.by, move.position, move.action["auto"]) == ("timeout", seat.position, True)
    assert move.action == {**JOKER.auto_action(game.state, seat.position), "auto": True}
    seat.refresh_from_db()
    assert (seat.reserve_seconds_left, seat.auto_streak) == (0, 1)


def test_running_the_expiry_twice_or_late_applies_it_once(game, traveller):
    traveller.shift(timedelta(seconds=MOVE + RESERVE + 3600))  # a late sweep after a worker restart
    assert services.expire_deadlines(game.pk) == 1  # reserve counted from the move deadline: already spent
    game.refresh_from_db()
    version = game.version
    services.expire_deadlines(game.pk, version=version - 1)  # a stale task
    services.expire_deadlines(game.pk)  # the next seat's clock has only just started
    game.refresh_from_db()
    assert game.version == version == 1


def test_a_move_just_before_the_deadline_wins_against_the_timeout(game, players, traveller):
    seat = on_clock(game)
    traveller.shift(timedelta(seconds=MOVE + RESERVE - 1))
    services.expire_deadlines(game.pk)  # starts the reserve, which still has a second
    services.submit_move(game.pk, players[seat.position], a_legal_action(game, seat.position), 0)
    traveller.shift(timedelta(seconds=2))
    assert services.expire_deadlines(game.pk, version=0) == 0
    assert services.expire_deadlines(game.pk) == 0
    assert list(game.moves.values_list("by", flat=True)) == ["player"]


def test_three_automatic_moves_in_a_row_lose_the_game(players, traveller):
    game = services.create_game(players[0], "joker", move_seconds=60, reserve_seconds=0)
    for user in players[1:]:
        services.join_game(game.pk, user)
    late = on_clock(Game.objects.get(pk=game.pk)).position
    for _ in range(200):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        actor = JOKER.actors(game.state)[0]
        if actor == late:
            traveller.shift(timedelta(seconds=61))
            services.expire_deadlines(game.pk)
        else:
            services.submit_move(game.pk, players[actor], JOKER.auto_action(game.state, actor), game.version)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    by_late = list(game.moves.filter(position=late).values_list("by", "action__type"))
    assert by_late[-1] == ("timeout", "timeout")
    assert len([m for m in by_late if m[0] == "timeout"]) == 4  # three automatic moves, then the loss
    assert game.seats.get(position=late).place == 4


def test_a_player_who_moves_himself_starts_a_new_streak(game, players, traveller):
    seat = on_clock(game)
    seat.auto_streak = 2
    seat.save()
    services.submit_move(game.pk, players[seat.position], a_legal_action(game, seat.position), 0)
    seat.refresh_from_db()
    assert seat.auto_streak == 0


def test_at_a_forfeit_table_running_out_of_time_loses_the_game(players, traveller):
    game = services.create_game(players[0], "joker", move_seconds=60, reserve_seconds=30, on_timeout="forfeit")
    for user in players[1:]:
        services.join_game(game.pk, user)
    late = on_clock(Game.objects.get(pk=game.pk)).position
    traveller.shift(timedelta(seconds=91))
    services.expire_deadlines(game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.seats.get(position=late).place == 4
    assert game.moves.get().action == {"type": "timeout"}


def test_the_night_pause_of_the_player_on_the_clock_moves_his_deadline(players, traveller):
    sleeper = players[0]
    sleeper.time_zone, sleeper.night_pause_start, sleeper.night_pause_end = "Europe/Moscow", time(23), time(8)
    sleeper.save()
    traveller.move_to(datetime(2026, 11, 20, 19, 30, tzinfo=UTC))  # 22:30 in Moscow
    game = services.create_game(players[1], "joker", move_seconds=MOVE, reserve_seconds=0)
    for user in [players[0], players[2], players[3]]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    seat_of = {s.user_id: s for s in game.seats.all()}
    for seat in seat_of.values():
        if seat.deadline:
            expected = (datetime(2026, 11, 21, 5, 30, tzinfo=UTC) if seat.user_id == sleeper.pk
                        else datetime(2026, 11, 20, 20, 30, tzinfo=UTC))
            assert seat.deadline == expected


def test_a_table_without_night_pauses_ignores_them(players, traveller):
    for user in players:
        user.night_pause_start, user.night_pause_end = time(0), time(23)
        user.save()
    game = services.create_game(players[0], "joker", move_seconds=MOVE, reserve_seconds=0)
    Game.objects.filter(pk=game.pk).update(night_pause=False)
    for user in players[1:]:
        services.join_game(game.pk, user)
    assert on_clock(Game.objects.get(pk=game.pk)).deadline == START + timedelta(seconds=MOVE)


def test_a_vacation_stops_the_players_clocks_and_the_others_see_it(game, players, traveller):
    seat = on_clock(game)
    user = players[seat.position]
    traveller.shift(timedelta(minutes=20))
    services.take_vacation(user, START + timedelta(minutes=20), START + timedelta(days=2, minutes=20))
    seat.refresh_from_db()
    assert seat.deadline == START + timedelta(days=2, seconds=MOVE)
    payload = game_payload(Game.objects.get(pk=game.pk), (seat.position + 1) % 4)
    assert payload["players"][seat.position]["vacation_until"]
    traveller.shift(timedelta(seconds=MOVE))
    assert services.expire_deadlines(game.pk) == 0
    services.end_vacation(user)
    seat.refresh_from_db()
    assert seat.deadline == START + timedelta(minutes=20 + 60 + 40)  # 20 min used, 40 min left from now


def test_vacation_days_are_limited_per_year(players, traveller, settings):
    settings.VACATION_DAYS_PER_YEAR = 10
    user = players[0]
    services.take_vacation(user, START, START + timedelta(days=6))
    with pytest.raises(services.GameError, match="10 vacation days"):
        services.take_vacation(user, START + timedelta(days=7), START + timedelta(days=12))
    with pytest.raises(services.GameError):
        services.take_vacation(user, START + timedelta(days=1), START + timedelta(days=2))  # overlaps
    with pytest.raises(services.GameError):
        services.take_vacation(user, START - timedelta(days=3), START - timedelta(days=1))  # in the past


def test_the_sweep_finds_overdue_games(game, traveller):
    assert services.overdue_game_ids() == []
    traveller.shift(timedelta(seconds=MOVE + 1))
    assert services.overdue_game_ids() == [game.pk]


@pytest.fixture
def queued_for_real(settings):
    """Tasks go to the broker (in memory here) instead of running at once."""
    from config.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = True


def test_the_sweep_queues_a_task_for_a_far_deadline_once_it_comes_within_reach(game, traveller, settings,
                                                                              queued_for_real):
    from gameplay.tasks import queue_approaching_deadlines

    settings.DEADLINE_TASK_HORIZON = 600
    assert queue_approaching_deadlines() == 0  # an hour away: beyond the horizon
    traveller.shift(timedelta(seconds=MOVE - 500))
    assert queue_approaching_deadlines() == 1
    game.refresh_from_db()
    assert game.deadline_check_at == on_clock(game).deadline
    assert queue_approaching_deadlines() == 0  # already queued
