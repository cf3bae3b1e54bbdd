"""A player's finished games are counted as they finish (PlayerTally) and
each seat keeps its game's finished_at: the player page shows the counts
and pages through the list without counting or sorting his every seat."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import services
from gameplay.models import Game, PlayerTally, Seat
from moderation.services.games import abort_game, adjudicate_game
from tests.gameplay.conftest import client_for, started_game

pytestmark = pytest.mark.django_db


def tally(user) -> tuple[int, int, int]:
    found = PlayerTally.objects.filter(user=user).first()
    return (found.finished, found.won, found.public_finished) if found else (0, 0, 0)


def resigned_durak(players, loser: int, **table) -> Game:
    game = started_game("durak", players[:2], **table)
    services.resign(game.pk, players[loser])
    return Game.objects.get(pk=game.pk)


def test_a_finished_game_counts_for_each_of_its_players_and_marks_their_seats(players):
    game = resigned_durak(players, loser=1)
    assert game.status == Game.Status.FINISHED
    assert tally(players[0]) == (1, 1, 1) and tally(players[1]) == (1, 0, 1)
    assert {seat.finished_at for seat in game.seats.all()} == {game.finished_at}
    resigned_durak(players, loser=0)
    assert tally(players[0]) == (2, 1, 2) and tally(players[1]) == (2, 1, 2)


def test_an_invite_only_game_counts_but_is_not_listed(players):
    resigned_durak(players, loser=1, is_private=True)
    assert tally(players[0]) == (1, 1, 0)


def test_an_adjudicated_game_counts_and_an_aborted_one_does_not(players, django_user_model):
    moderator = django_user_model.objects.create_superuser("tally-mod", password="pw-not-used-1")
    adjudicated = started_game("durak", players[:2])
    adjudicate_game(adjudicated.pk, moderator, "Agreed", {"places": [2, 1]})
    aborted = started_game("durak", players[:2])
    abort_game(aborted.pk, moderator, "Broken")
    assert tally(players[0]) == (1, 0, 1) and tally(players[1]) == (1, 1, 1)
    assert set(Seat.objects.filter(game=aborted).values_list("finished_at", flat=True)) == {None}


def test_the_player_page_counts_nothing_over_his_seats_unless_a_filter_narrows_the_list(players):
    for loser in (1, 0, 1):
        resigned_durak(players, loser=loser)
    client = client_for(players[2])
    with CaptureQueriesContext(connection) as plain:
        page = client.get("/players/player0/")
    assert page.context["stats"] == {"played": 3, "won": 2}
    assert page.context["finished_page"].paginator.count == 3
    assert not [q for q in plain.captured_queries if "COUNT(" in q["sql"].upper() and "gameplay_seat" in q["sql"]]
    with CaptureQueriesContext(connection) as narrowed:
        page = client.get("/players/player0/?result=won")
    assert page.context["finished_page"].paginator.count == 2
    assert [q for q in narrowed.captured_queries if "COUNT(" in q["sql"].upper() and "gameplay_seat" in q["sql"]]
