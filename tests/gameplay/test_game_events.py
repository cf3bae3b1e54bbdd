"""Issue 23: gameplay publishes what happened to a game (gameplay/events.py);
the apps above subscribe, some in the transaction that records it, others
after its commit. gameplay imports none of them."""

from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from gameplay import events, services
from gameplay.models import Game, Move, Seat

from .conftest import JOKER, a_legal_action, acting_player


@contextmanager
def subscribed(event: str, handler, *, after_commit: bool):
    events.subscribe(event, handler, after_commit=after_commit)
    try:
        yield
    finally:
        events.unsubscribe(event, handler)


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_a_finished_game_is_told_in_its_transaction_then_after_its_commit(joker_game, players, run_on_commit):
    inside, after = [], []

    def in_transaction(game, **details):
        inside.append((game.pk, game.status, transaction.get_connection().in_atomic_block,
                       [s.place for s in game.seats.all()]))

    def after_commit(game_id, version, **details):
        after.append((game_id, version, Game.objects.get(pk=game_id).status))

    with subscribed(events.GAME_FINISHED, in_transaction, after_commit=False), \
            subscribed(events.GAME_FINISHED, after_commit, after_commit=True), run_on_commit():
        services.resign(joker_game.pk, players[2])
        assert after == []  # not before the commit
    joker_game.refresh_from_db()
    places = list(joker_game.seats.order_by("position").values_list("place", flat=True))
    assert inside == [(joker_game.pk, Game.Status.FINISHED, True, places)] and places[2] == 4
    assert after == [(joker_game.pk, joker_game.version, Game.Status.FINISHED)]


def test_a_subscriber_that_fails_in_the_transaction_undoes_the_result(joker_game, players, run_on_commit):
    told = []

    def broken(game, **details):
        raise RuntimeError("the ratings could not be written")

    with subscribed(events.GAME_FINISHED, broken, after_commit=False), \
            subscribed(events.GAME_FINISHED, lambda *a, **k: told.append(a), after_commit=True), run_on_commit():
        with pytest.raises(RuntimeError):
            services.resign(joker_game.pk, players[2])
    joker_game.refresh_from_db()
    assert joker_game.status == Game.Status.ACTIVE and not Move.objects.filter(game=joker_game).exists()
    assert told == [] and not Seat.objects.filter(game=joker_game, place__isnull=False).exists()


def test_a_failing_after_commit_subscriber_does_not_keep_the_others_from_running(joker_game, players, run_on_commit):
    told = []

    def broken(game_id, version, **details):
        raise RuntimeError("the mail server is down")

    with subscribed(events.GAME_FINISHED, broken, after_commit=True), \
            subscribed(events.GAME_FINISHED, lambda game_id, version: told.append(game_id), after_commit=True), \
            run_on_commit():
        services.resign(joker_game.pk, players[2])
    assert told == [joker_game.pk]
    assert Game.objects.get(pk=joker_game.pk).status == Game.Status.FINISHED


def test_the_turn_changes_after_the_commit_of_a_move_with_the_seats_now_on_the_clock(joker_game, players,
                                                                                       run_on_commit):
    told = []
    def recorder(game_id, version, positions, players):
        told.append((game_id, version, positions, players))

    with subscribed(events.TURN_CHANGED, recorder, after_commit=True), run_on_commit():
        position, user = acting_player(joker_game, players)
        services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), joker_game.version, "m1")
    joker_game.refresh_from_db()
    assert told == [(joker_game.pk, joker_game.version, JOKER.actors(joker_game.state), sorted(u.pk for u in players))]


def test_a_clock_running_low_is_told_once_a_turn(joker_game, players, run_on_commit):
    told = []
    position = JOKER.actors(joker_game.state)[0]
    Seat.objects.filter(game=joker_game, position=position).update(warn_at=timezone.now() - timedelta(seconds=1))
    with subscribed(events.CLOCK_WARNING, lambda game_id, version, position: told.append((game_id, position)),
                    after_commit=True), run_on_commit():
        assert services.send_time_warnings() == 1
        assert services.send_time_warnings() == 0
    assert told == [(joker_game.pk, position)]


def test_ratings_leagues_and_notifications_are_subscribed_and_gameplay_imports_none_of_them():
    in_transaction = {f"{h.__module__}.{h.__name__}" for h in events._subscribers[events.GAME_FINISHED].in_transaction}
    after_commit = {f"{h.__module__}.{h.__name__}" for h in events._subscribers[events.GAME_FINISHED].after_commit}
    assert {"ratings.services.rate_finished_game", "leagues.services.game_over"} <= in_transaction
    assert "notifications.emails.game_over" in after_commit
    handlers = list(events._subscribers[events.GAME_FINISHED].in_transaction)
    assert handlers.index(next(h for h in handlers if h.__module__ == "ratings.services")) < \
        handlers.index(next(h for h in handlers if h.__module__ == "leagues.services"))  # ratings first


def test_the_events_after_the_commit_have_no_subscribers_in_the_transaction(joker_game):
    with pytest.raises(ValueError):
        events.publish(events.TURN_CHANGED, joker_game)
    with pytest.raises(ValueError):
        events.subscribe(events.TURN_CHANGED, print, after_commit=False)
