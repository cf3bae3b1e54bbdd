"""Differential secrecy over the API's payloads: with what a seat may not
know changed in the stored game (two hidden cards swapped, a secret stake
changed, ... : the engine secrecy tests' adapters), every observing seat's
(and a spectator's) answers from the state and legal-moves endpoints are
identical (except the state's server time)."""

import pytest

from gameplay.models import Game
from tests.engine.test_secrecy import compared, observers
from tests.gameplay.test_secrecy_payloads import GAMES, a_table, one_change_of_each_kind, states_to_check

from .conftest import api_for

pytestmark = pytest.mark.django_db


def answers(game: Game, state: dict, clients: dict) -> dict:
    Game.objects.filter(pk=game.pk).update(state=state)
    seen = {}
    for position, client in clients.items():
        for path in ("", "/legal"):
            response = client.get(f"/api/v1/games/{game.pk}{path}")
            assert response.status_code == 200
            body = response.json()
            body.pop("server_time", None)
            seen[f"{position}{path}"] = body
    return seen


@pytest.mark.parametrize("slug", GAMES)
def test_changing_what_a_seat_may_not_know_changes_no_api_answer_it_gets(slug, players, django_user_model):
    game = a_table(slug, players)
    users = {seat.position: seat.user for seat in game.seats.select_related("user")}
    stranger = django_user_model.objects.create_user("stranger", password="pw-not-used-1", language="en")
    clients = {position: api_for(users[position] if position is not None else stranger)
               for position in [None, *users]}
    checked = 0
    for state in states_to_check(slug, game.state):
        for change in one_change_of_each_kind(slug, state):
            watching = {p: clients[p] for p in observers(state, change.knowers)}
            assert compared(repr(change), answers(game, state, watching),
                            answers(game, change.world(state), watching)) == []
            checked += 1
    assert checked
