"""Starting a season is quick: the request splits the players into divisions;
the schedules and games are drawn up after the commit by a Celery task
(`leagues.drawing`), which is idempotent, resumes an interrupted draw, and is
run again by beat's sweep when its task was lost."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from leagues import drawing, services, tasks
from leagues.models import Division, Entry, Fixture, League, Season
from tests.gameplay.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"dr{i}", password=None, language="en", display_name=f"Drawn {i}")
            for i in range(8)]


def registered(people, **fields) -> Season:
    settings = {"name": "Drawn league", "engine": "durak", "players": 2, "division_size": 4}
    settings.update(fields)
    league = services.create_league(people[0], **settings)
    season = league.seasons.get()
    for user in people:
        services.register(season.pk, user)
    return season


def test_the_start_splits_the_divisions_and_queues_the_draw_after_the_commit(people,
                                                                              django_capture_on_commit_callbacks):
    season = registered(people)
    with django_capture_on_commit_callbacks() as callbacks:
        services.start_season(season.pk, people[0])
    season.refresh_from_db()
    assert season.status == Season.Status.DRAWING and season.started_at
    assert Division.objects.filter(season=season).count() == 2
    assert not Entry.objects.filter(season=season, division=None).exists()
    assert not Fixture.objects.exists() and not Game.objects.exists()  # nothing drawn inside the request
    assert len(callbacks) == 1
    callbacks[0]()  # the commit: the task is queued (eager in the tests: it runs)
    season.refresh_from_db()
    assert season.status == Season.Status.RUNNING
    assert Fixture.objects.filter(division__season=season, game=None).count() == 0
    assert Fixture.objects.filter(division__season=season).count() == 12  # two round robins of four


def test_the_season_pages_say_the_schedule_is_being_drawn_up(people):
    season = registered(people)
    services.start_season(season.pk, people[0])
    page = Client().get(season.get_absolute_url()).content.decode()
    assert "The schedule is being drawn up" in page and 'http-equiv="refresh"' in page
    assert "the schedule is being drawn up" in Client().get(season.league.get_absolute_url()).content.decode()
    division = Division.objects.filter(season=season).first()
    assert "The schedule is being drawn up" in Client().get(division.get_absolute_url()).content.decode()
    drawing.draw_season(season.pk)
    assert "being drawn up" not in Client().get(season.get_absolute_url()).content.decode()


def test_drawing_twice_draws_once(people):
    season = registered(people)
    services.start_season(season.pk, people[0])
    assert drawing.draw_season(season.pk) is True
    games = set(Game.objects.values_list("pk", flat=True))
    fixtures = list(Fixture.objects.values_list("pk", "game_id"))
    assert drawing.draw_season(season.pk) is False
    assert set(Game.objects.values_list("pk", flat=True)) == games
    assert list(Fixture.objects.values_list("pk", "game_id")) == fixtures


def test_an_interrupted_draw_is_resumed_without_doubling_anything(people, monkeypatch):
    season = registered(people, engine="joker", players=4, division_size=8, games_per_player=4)
    services.start_season(season.pk, people[0])
    started_chunks = []
    real = drawing._start_fixtures

    def crash_after_the_first_chunk(season_id, fixture_ids):
        if started_chunks:
            raise RuntimeError("worker killed")
        started_chunks.append(fixture_ids)
        real(season_id, fixture_ids)

    monkeypatch.setattr(drawing, "START_CHUNK", 3)
    monkeypatch.setattr(drawing, "_start_fixtures", crash_after_the_first_chunk)
    with pytest.raises(RuntimeError):
        drawing.draw_season(season.pk)
    assert Fixture.objects.count() == 8 and Fixture.objects.exclude(game=None).count() == 3
    assert Season.objects.get(pk=season.pk).status == Season.Status.DRAWING
    monkeypatch.setattr(drawing, "_start_fixtures", real)
    assert drawing.draw_season(season.pk) is True
    assert Fixture.objects.count() == 8 and Fixture.objects.filter(game=None).count() == 0
    assert Game.objects.count() == 8


def test_the_sweep_draws_a_season_whose_task_was_lost(people, monkeypatch, django_capture_on_commit_callbacks,
                                                      settings):
    def broker_down(*args, **kwargs):
        raise ConnectionError("Redis is gone")

    monkeypatch.setattr(drawing.draw_season_task, "delay", broker_down)
    season = registered(people)
    with django_capture_on_commit_callbacks(execute=True):
        services.start_season(season.pk, people[0])  # the task cannot be queued: logged, nothing lost
    assert Season.objects.get(pk=season.pk).status == Season.Status.DRAWING
    assert tasks.sweep_drawing() == 0  # within the grace: its task may still come
    Season.objects.filter(pk=season.pk).update(
        started_at=timezone.now() - timedelta(seconds=settings.LEAGUE_DRAW_GRACE_SECONDS + 1))
    monkeypatch.undo()  # Redis is back: the sweep queues the draw again (eager here: it runs)
    assert tasks.sweep_drawing() == 1
    assert Season.objects.get(pk=season.pk).status == Season.Status.RUNNING
    assert Fixture.objects.filter(division__season=season, game=None).count() == 0
    assert tasks.sweep_drawing() == 0


def test_the_sweep_leaves_a_long_draw_that_is_still_starting_games_to_its_task(people, monkeypatch, settings):
    season = registered(people)
    services.start_season(season.pk, people[0])
    monkeypatch.setattr(drawing, "_put_in_play", lambda season_id: False)  # a draw still under way
    drawing.draw_season(season.pk)
    long_ago = timezone.now() - timedelta(seconds=settings.LEAGUE_DRAW_GRACE_SECONDS + 1)
    Season.objects.filter(pk=season.pk).update(started_at=long_ago)
    assert drawing.seasons_left_drawing(timezone.now() - timedelta(seconds=settings.LEAGUE_DRAW_GRACE_SECONDS)) == []
    Game.objects.update(created_at=long_ago)  # ...and one that stopped starting games
    assert drawing.seasons_left_drawing(timezone.now() - timedelta(seconds=settings.LEAGUE_DRAW_GRACE_SECONDS)) == \
        [season.pk]


def test_a_number_of_games_no_division_can_play_is_refused_at_the_start(people):
    season = registered(people[:5], engine="joker", players=4, division_size=5, games_per_player=2)
    with pytest.raises(GameError, match="nobody can play exactly 2 games: choose 4\\."):
        services.start_season(season.pk, people[0])
    assert Season.objects.get(pk=season.pk).status == Season.Status.REGISTRATION
    assert not Division.objects.exists()


def test_round_by_round_a_first_round_over_while_drawing_lets_the_second_start(people, monkeypatch):
    season = registered(people[:4], start=League.Start.ROUNDS)
    services.start_season(season.pk, people[0])
    real = drawing._put_in_play

    def finish_the_first_round_first(season_id):
        users = {e.pk: e.user for e in Entry.objects.filter(season_id=season_id)}
        for fixture in Fixture.objects.filter(division__season_id=season_id, round=1):
            game_services.resign(fixture.game_id, users[fixture.seats[1]])  # the season is not running yet
        assert not Fixture.objects.filter(division__season_id=season_id, round=2).exclude(game=None).exists()
        return real(season_id)

    monkeypatch.setattr(drawing, "_put_in_play", finish_the_first_round_first)
    drawing.draw_season(season.pk)
    assert Fixture.objects.filter(division__season=season, round=2, game=None).count() == 0


def test_the_organizer_starts_the_season_with_the_button_and_is_told_it_is_being_drawn(people):
    season = registered(people[:4])
    page = client_for(people[0]).post(f"/leagues/{season.league.slug}/1/run/start/", follow=True).content.decode()
    assert "its schedule is being drawn up" in page
