"""A game's state is stored without its complete deals' records, which sit in a
column of their own written only when a deal ends: the state a move writes
stays the same size however long the game (issue 28, point 3). In memory, and
for every reader, the state is whole; rows stored whole (older games) load as
they are and are stored apart from their next move on."""

import random
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay import services
from gameplay.engine import get_engine
from gameplay.management.commands.replay_games import replays_identically
from gameplay.models import Game

from .conftest import started_game

pytestmark = pytest.mark.django_db
JOKER = get_engine("joker")


def play(game_id: int, players, moves: int, rng: random.Random) -> list[tuple[bool, bool]]:
    """Random legal moves through the service: for each, (a deal ended, the history column was written)."""
    seen = []
    for _ in range(moves):
        game = Game.objects.get(pk=game_id)
        position = JOKER.actors(game.state)[0]
        action = rng.choice(JOKER.legal_actions(game.state, position))
        with CaptureQueriesContext(connection) as queries:
            services.submit_move(game_id, players[position], action, game.version, uuid.uuid4().hex)
        updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE") and "gameplay_game" in q["sql"]]
        written = any('"history"' in sql for sql in updates)
        after = Game.objects.get(pk=game_id)
        seen.append((len(after.state["history"]) > len(game.state["history"]), written))
    return seen


def stored(game_id: int) -> tuple[dict, list | None]:
    return Game.objects.values_list("state", "history").get(pk=game_id)


def test_a_move_writes_the_state_without_the_history_and_the_history_only_when_a_deal_ends(players):
    game = started_game("joker", players)
    seen = play(game.pk, players, 40, random.Random(28))
    assert any(ended for ended, _ in seen) and not all(ended for ended, _ in seen)
    assert all(written == ended for ended, written in seen)
    state, history = stored(game.pk)
    assert "history" not in state and len(history) >= 2
    whole = Game.objects.get(pk=game.pk).state
    assert whole["history"] == history and whole["deal"] == state["deal"]
    assert replays_identically(Game.objects.get(pk=game.pk))[0]


def test_a_game_stored_whole_loads_whole_and_is_stored_apart_from_its_next_move(players):
    game = started_game("joker", players)
    play(game.pk, players, 12, random.Random(5))
    whole = Game.objects.get(pk=game.pk).state
    Game.objects.filter(pk=game.pk).update(state=whole, history=None)  # as rows were before
    assert Game.objects.get(pk=game.pk).state == whole
    play(game.pk, players, 1, random.Random(6))
    state, history = stored(game.pk)
    assert "history" not in state and history == whole["history"]
    assert replays_identically(Game.objects.get(pk=game.pk))[0]


def test_a_query_that_loads_the_state_alone_still_gets_the_history(players):
    game = started_game("joker", players)
    play(game.pk, players, 12, random.Random(7))
    history = stored(game.pk)[1]
    assert history
    assert Game.objects.only("id", "state").get(pk=game.pk).state["history"] == history


def test_a_state_changed_without_its_history_kept_in_step_is_stored_whole(players):
    game = started_game("joker", players)
    play(game.pk, players, 12, random.Random(8))
    game = Game.objects.get(pk=game.pk)
    game.state = {**game.state, "history": list(game.state["history"])}  # not the list Game.history holds
    game.save(update_fields=["state"])
    state, _history = stored(game.pk)
    assert state["history"] == game.state["history"]
    assert Game.objects.get(pk=game.pk).state == game.state
