import pytest
from django.test import TestCase

from gameplay import services as game_services
from gameplay.models import Game
from tournaments import rounds, services
from tournaments.models import Table, Tournament


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"tp{i}", password="pw-not-used-1", language="en")
            for i in range(12)]


def tournament_of(organizer, **fields) -> Tournament:
    settings = {"name": "Autumn Swiss", "engine": "durak", "players": 2, "rounds": 3}
    settings.update(fields)
    return services.create_tournament(organizer, **settings)


def entered(tournament: Tournament, users) -> Tournament:
    for user in users:
        services.join(tournament.pk, user)
    return tournament


def round_tables(tournament: Tournament, number: int) -> list[Table]:
    return list(Table.objects.filter(round__tournament=tournament, round__number=number)
                .select_related("game").order_by("board"))


def committed():
    """Run what the block queues after its commit (the next round's task, the notices), as a real commit
    would: the tests' transaction is never committed."""
    return TestCase.captureOnCommitCallbacks(execute=True)


def play_round(tournament: Tournament, number: int, loser_seat: int = 1) -> None:
    """Every game of the round still in play ends: the player in `loser_seat` resigns; what that queues
    after the commit runs (the last game's end queues the next round's task)."""
    for table in round_tables(tournament, number):
        if table.game.status == Game.Status.ACTIVE:
            loser = table.game.seats.get(position=loser_seat).user
            with committed():
                game_services.resign(table.game_id, loser)


def start(tournament_id: int, by) -> Tournament:
    """The organizer starts the tournament, and round 1 is paired as the task queued after the commit
    pairs it (run here at once; a second run of the task, after a real commit, changes nothing)."""
    tournament = services.start(tournament_id, by)
    rounds.advance(tournament_id)
    return tournament
