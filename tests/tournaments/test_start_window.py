"""The start window: a round's games must be begun within the organizer's
hours of its start; at the window's end, beat's sweep forfeits each seat a
game waits for that has made no move of its own. On dates, a round opens as
soon as the previous one is over, so players may begin early; it still
starts officially (deadline, window) on its date."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from gameplay import services as game_services
from gameplay.engine import get_engine
from gameplay.models import Game
from gameplay.services.base import GameError
from tests.tournaments.conftest import committed, entered, play_round, round_tables, start, tournament_of
from tournaments import rounds, tasks
from tournaments.models import Entry, Round, Tournament

pytestmark = pytest.mark.django_db


def _both_begin(table) -> None:
    """Moves are made at the table until each seat has made one (or the game is over)."""
    engine = get_engine(table.game.engine)
    moved: set[int] = set()
    for _move in range(30):
        game = Game.objects.get(pk=table.game_id)
        if game.status != Game.Status.ACTIVE or moved == {0, 1}:
            return
        position = sorted(engine.actors(game.state), key=lambda p: p in moved)[0]
        action = engine.legal_actions(game.state, position)[0]
        game_services.submit_move(game.pk, game.seats.get(position=position).user, action, game.version)
        moved.add(position)


def test_who_has_not_begun_by_the_windows_end_forfeits_and_who_has_plays_on(people):
    tournament = entered(tournament_of(people[0], round_days=7, start_window_hours=24), people[1:5])
    start(tournament.pk, people[0])
    begun, idle = round_tables(tournament, 1)
    _both_begin(begun)
    waiting = [idle.seats[s.position] for s in idle.game.seats.exclude(deadline=None)]
    assert Round.objects.get(tournament=tournament).window_ends is not None
    with time_machine.travel(timezone.now() + timedelta(hours=23)):
        assert tasks.sweep_rounds() == 0
    with time_machine.travel(timezone.now() + timedelta(hours=24, minutes=1)), committed():
        assert tasks.sweep_rounds() == 1
        assert tasks.sweep_rounds() == 0  # closed once
    idle.refresh_from_db()
    assert Game.objects.get(pk=idle.game_id).status == Game.Status.FINISHED
    assert idle.forfeits == waiting
    assert Entry.objects.get(pk=idle.forfeits[0]).forfeits == 1
    assert Game.objects.get(pk=begun.game_id).status == Game.Status.ACTIVE
    assert begun.forfeits == []


def test_without_a_window_nobody_forfeits_for_not_beginning(people):
    tournament = entered(tournament_of(people[0], round_days=7), people[1:5])
    start(tournament.pk, people[0])
    assert Round.objects.get(tournament=tournament).window_ends is None
    with time_machine.travel(timezone.now() + timedelta(days=3)):
        assert tasks.sweep_rounds() == 0
    assert all(t.game.status == Game.Status.ACTIVE for t in round_tables(tournament, 1))


def test_on_dates_a_window_opens_the_next_round_early_and_it_starts_officially_on_its_date(people):
    tournament = entered(tournament_of(people[0], round_days=7, start_window_hours=48,
                                       next_round=Tournament.NextRound.SCHEDULED), people[1:5])
    start(tournament.pk, people[0])
    tournament.refresh_from_db()
    play_round(tournament, 1)  # over on the first day
    second = Round.objects.get(tournament=tournament, number=2)
    date = rounds.scheduled_start(tournament, 2)
    assert second.started_at < date  # open for play now
    assert second.deadline == date + timedelta(days=7)
    assert second.window_ends == date + timedelta(hours=48)
    assert all(t.game.status == Game.Status.ACTIVE for t in round_tables(tournament, 2))
    with time_machine.travel(date + timedelta(hours=47)):
        assert tasks.sweep_rounds() == 0  # nobody forfeits before the window's end


def test_a_start_window_longer_than_a_round_is_refused(people):
    with pytest.raises(GameError, match="start window"):
        tournament_of(people[0], round_days=2, start_window_hours=48)
