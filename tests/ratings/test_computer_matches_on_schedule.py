"""The computer levels' matches on Celery beat's schedule (issue 43): a periodic task on the computers'
queue, every COMPUTER_MATCHES_SECONDS (0: off); each run plays a small portion of the duplicate-deal
matches, records and rates it in the computers' pool, and gives way to any table waiting for a computer."""

import runpy
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone

from gameplay import bots, services
from gameplay.computer_matches import Interrupted, deal_seed, play_game
from gameplay.models import Game, Seat
from ratings import tasks
from ratings.models import Rating

SETTINGS = Path(settings.BASE_DIR) / "config" / "settings.py"


@pytest.fixture
def quick_search(monkeypatch):
    monkeypatch.setattr(bots, "budget_for", lambda slug, level: 2)


def durak_slot(first: int, second: int) -> int:
    return tasks.matchups().index(("durak", first, second))


def test_beat_queues_the_matches_on_the_computers_queue_at_the_set_interval():
    entry = settings.CELERY_BEAT_SCHEDULE["computer-matches"]
    assert entry["task"] == "ratings.tasks.play_computer_matches"
    assert entry["schedule"] == settings.COMPUTER_MATCHES_SECONDS == 3600
    assert entry["options"]["queue"] == settings.CELERY_COMPUTER_QUEUE == "computers"
    assert settings.CELERY_TASK_ROUTES["ratings.tasks.play_computer_matches"]["queue"] == "computers"


@pytest.mark.parametrize("seconds, scheduled", [("0", False), ("900", True)])
def test_the_interval_is_a_setting_and_zero_turns_the_matches_off(monkeypatch, seconds, scheduled):
    monkeypatch.setenv("COMPUTER_MATCHES_SECONDS", seconds)
    schedule = runpy.run_path(str(SETTINGS))["CELERY_BEAT_SCHEDULE"]
    assert ("computer-matches" in schedule) is scheduled
    if scheduled:
        assert schedule["computer-matches"]["schedule"] == 900


def test_each_run_takes_the_next_game_kind_and_pair_of_levels():
    every = tasks.matchups()
    assert len(every) == len(set(every)) == 5 * 3
    assert {engine for engine, _a, _b in every} == {"joker", "durak", "odessa", "domino_poker", "ipuker"}


@pytest.mark.django_db
def test_a_run_plays_a_tiny_match_and_rates_the_levels_in_the_computers_pool(quick_search):
    assert tasks.play_computer_matches.apply(args=[durak_slot(1, 2)]).get() == 2  # one deal, both arrangements
    games = list(Game.objects.filter(engine="durak"))
    assert len(games) == 2 and all(g.status == Game.Status.FINISHED and g.rated for g in games)
    assert set(Rating.objects.values_list("engine", "user__computer_level")) == {
        ("durak:computers", 1), ("durak:computers", 2)}


@pytest.mark.django_db
def test_a_run_gives_way_to_a_table_waiting_for_a_computer(django_user_model, quick_search):
    person = django_user_model.objects.create_user("waiting", password="pw-not-used-1")
    game = services.create_game(person, "durak", players=2, rated=False)
    services.fill_with_bots(game.pk, person, [1])
    Seat.objects.filter(game=game, is_bot=True).update(deadline=timezone.now() + timedelta(minutes=1))
    assert tasks.play_computer_matches.apply(args=[durak_slot(1, 3)]).get() == 0
    assert not Game.objects.filter(seats__computer_level=3).exists()


def test_a_game_in_play_is_given_up_as_soon_as_it_is_told_to_stop():
    answers = iter([True] * 5 + [False])
    with pytest.raises(Interrupted, match="given up after 5 moves"):
        play_game("durak", [1, 1], deal_seed(1, "durak", 0), keep_going=lambda: next(answers))
