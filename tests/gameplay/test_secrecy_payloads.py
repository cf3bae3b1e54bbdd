"""Differential secrecy on the platform: what a seat may not know changes nothing it is sent.

``tests/engine/test_secrecy.py`` proves it for the engine contract; this file
checks what the platform builds on it, with the same per-game adapters (where
each game hides things, and who may know each change). A started table of
every game is played at random to a few points (the adapters' "moments");
at each, a change of each kind is made to ``game.state`` (two hidden cards
swapped, a secret stake changed, ...), and for every seat that may not know
it and for spectators these must be identical:

- the state message ``broadcast.game_payload`` sends over the WebSocket
  (except its ``server_time``), the same as a move's fan-out sends it
  (``broadcast.FanOut``), and the same through ``/games/<id>/state/``;
- the game page and the score sheet page and fragment (``/sheets/<id>/``),
  as HTML (except the per-request CSRF tokens and the server time).
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import reverse

from gameplay.broadcast import FanOut, game_payload, vacations_until
from gameplay.engine import ENGINES
from gameplay.engine.core import State
from gameplay.models import Game
from tests.engine.test_secrecy import HIDDEN_PLACES, Change, compared, observers, play_at_random

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db

GAMES = sorted(ENGINES)
PAGES = ("game", "game_state", "sheet", "sheet_fragment")
PER_REQUEST = [re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"'),
               re.compile(r'"server_time": "[^"]*"')]


def a_table(slug: str, players) -> Game:
    """A started table of the adapter's last setup (Durak: 2×2 perevodnoy; Ipuker: random leaders)."""
    count, options = HIDDEN_PLACES[slug].setups[-1]
    return started_game(slug, players[:count], options)


def states_to_check(slug: str, start: State) -> Iterator[State]:
    """The start, then the next state at each of the adapter's moments in one random game."""
    engine, places = ENGINES[slug], HIDDEN_PLACES[slug]
    yield start
    choices = random.Random(7)
    for moment in places.moments.values():
        state = play_at_random(engine, start, places.playout_moves, choices, until=moment)
        if not engine.is_over(state):
            yield state


def one_change_of_each_kind(slug: str, state: State) -> list[Change]:
    changes = HIDDEN_PLACES[slug].changes(state)
    choices = random.Random(11)
    kinds = sorted({change.kind for change in changes})
    return [choices.choice([change for change in changes if change.kind == kind]) for kind in kinds]


def payloads(game: Game, state: State, seats_to_check: list[int | None]) -> dict[str, dict]:
    """Each seat's state message for ``state`` (set in memory only), without its server time: as a
    page's socket gets it on connect, and as a move's fan-out sends it (``broadcast.FanOut``)."""
    game.state = state
    seats = list(game.seats.select_related("user"))
    vacations = vacations_until([seat.user_id for seat in seats if seat.user_id])
    fan_out = FanOut(game, [])
    sent = {}
    for position in seats_to_check:
        label = "spectators" if position is None else f"seat {position}"
        sent[label] = game_payload(game, position, seats, vacations)
        sent[f"{label}, fan-out"] = fan_out.message(position)["payload"]
    for payload in sent.values():
        del payload["server_time"]
    return sent


def pages(game: Game, state: State, clients: dict[int | None, Client]) -> dict[tuple[int | None, str], str]:
    """Every page of the game as each client gets it, with ``state`` stored."""
    Game.objects.filter(pk=game.pk).update(state=state)
    html = {}
    for position, client in clients.items():
        for page in PAGES:
            response = client.get(reverse(page, args=[game.pk]))
            assert response.status_code == 200, (page, position)
            html[position, page] = without_per_request_parts(response.content.decode())
    return html


def without_per_request_parts(text: str) -> str:
    for pattern in PER_REQUEST:
        text = pattern.sub("", text)
    return text


def page_differences(first: dict[tuple[int | None, str], str], second: dict[tuple[int | None, str], str]
                     ) -> list[str]:
    """The first differing lines of each page that differs, labelled with the client and the page."""
    found = []
    for key in first:
        lines = [line for line in difflib.unified_diff(first[key].splitlines(), second[key].splitlines(), n=0,
                                                       lineterm="") if line[:1] in "+-"][2:6]
        if lines:
            found.append(f"{key}: {lines}")
    return found


@pytest.mark.parametrize("slug", GAMES)
def test_changing_what_a_seat_may_not_know_changes_no_state_message_it_is_sent(slug, players):
    game = a_table(slug, players)
    checked = 0
    for state in states_to_check(slug, game.state):
        for change in one_change_of_each_kind(slug, state):
            seats = observers(state, change.knowers)
            sent = payloads(game, state, seats), payloads(game, change.world(state), seats)
            assert compared(repr(change), *sent) == []
            checked += 1
    assert checked >= len(HIDDEN_PLACES[slug].moments)


@pytest.mark.parametrize("slug", GAMES)
def test_changing_what_a_seat_may_not_know_changes_no_page_it_is_shown(slug, players):
    game = a_table(slug, players)
    users = {seat.position: seat.user for seat in game.seats.select_related("user")}
    for state in states_to_check(slug, game.state):
        for change in one_change_of_each_kind(slug, state):
            # Pages are slow to render: a spectator and one seat (every seat's message is checked above).
            clients = {position: Client() if position is None else client_for(users[position])
                       for position in observers(state, change.knowers)[:2]}
            shown = pages(game, state, clients), pages(game, change.world(state), clients)
            assert page_differences(*shown) == [], change
