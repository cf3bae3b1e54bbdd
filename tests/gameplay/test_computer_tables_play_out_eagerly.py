"""A table of computers only plays to its end under an eager Celery (the tests, a development site
without Redis): each computer's move is played after the move that queued it, not inside it, so
the stack does not grow with the moves (a whole Durak game of two levels used to exceed Python's
recursion limit when it started in a request)."""

import sys

import pytest

from accounts import computers
from gameplay import bots, services
from gameplay.models import Game

pytestmark = pytest.mark.django_db(transaction=True)


def stack_depth() -> int:
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    return depth


def test_a_durak_table_of_two_computer_levels_is_played_to_its_end_at_one_depth(settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    monkeypatch.setitem(bots.BUDGETS, "durak", {2: 2, 3: 2})  # level 2 thinks briefly: the test is about the order
    depths: list[int] = []
    play_bot_move = services.play_bot_move

    def recorded(*args, **kwargs):
        depths.append(stack_depth())
        return play_bot_move(*args, **kwargs)

    monkeypatch.setattr(services, "play_bot_move", recorded)

    game = services.create_seated_game(computers.ensure_computer_accounts([1, 2]), "durak")

    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.FINISHED
    assert sorted(game.seats.values_list("place", flat=True)) in ([1, 2], [1, 1])  # a win, or a draw
    assert len(depths) > 20 and max(depths) == min(depths)  # every move played at the same depth
