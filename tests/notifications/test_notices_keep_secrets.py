"""No notice tells a seat anything it may not know: with what a seat may not know changed
(two hidden cards swapped, a secret stake changed, the seed, ...) in a real game of every kind,
every notice worded for every seat is unchanged."""

from __future__ import annotations

import random

import pytest
import time_machine

from gameplay.engine import ENGINES
from gameplay.models import Game
from notifications import dispatch, notices, subscribers
from tests.engine.test_secrecy import HIDDEN_PLACES, observers

from .conftest import started_game

pytestmark = pytest.mark.django_db


def worded(monkeypatch, game: Game, state: dict) -> dict:
    """Every notice the game's events word for each seat, with `state` stored."""
    Game.objects.filter(pk=game.pk).update(state=state)
    sent = {}

    def notify(kind, users, *, key, compose, **_options):
        for user in users:
            sent[(kind, key, user.pk)] = notices.in_language(user, compose, user)
        return 0

    monkeypatch.setattr(dispatch, "notify", notify)
    positions = list(range(len(state.get("hands") or game.seats.all())))
    subscribers.turn_changed(game.pk, game.version, positions)
    for position in positions:
        subscribers.clock_warning(game.pk, game.version, position)
    monkeypatch.undo()
    return sent


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_changing_what_a_seat_may_not_know_changes_no_notice_it_is_sent(slug, fake, players, monkeypatch):
    count, options = HIDDEN_PLACES[slug].setups[-1]
    game = started_game(slug, players[:count], options)
    changes = HIDDEN_PLACES[slug].changes(game.state)
    assert changes
    choices = random.Random(5)
    with time_machine.travel(game.started_at, tick=False):
        for kind in sorted({change.kind for change in changes}):
            change = choices.choice([c for c in changes if c.kind == kind])
            before, after = worded(monkeypatch, game, game.state), worded(monkeypatch, game, change.world(game.state))
            assert before, "no notice was worded"
            seats = {position for position in observers(game.state, change.knowers) if position is not None}
            users = {s.user_id for s in game.seats.all() if s.position in seats}
            assert {k: v for k, v in before.items() if k[2] in users} == {k: v for k, v in after.items()
                                                                           if k[2] in users}, change
