"""Rules versions on the platform: games record the version they started under, a Durak game of the old
window is upgraded at the start of a bout through a recorded move, replay_games reports per kind and version,
and "done" said in advance is applied when the window waits for the player."""

import pytest
import time_machine
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from gameplay import services
from gameplay.engine import get_engine
from gameplay.models import Game, Move
from tests.engine.durak_helpers import scripted

from .conftest import started_game

DURAK = get_engine("durak")


def durak_game(players, count=3) -> Game:
    return started_game("durak", players[:count])


def put_state(game: Game, state: dict, rules_version: int | None = None) -> Game:
    """Play from a scripted position (clocks restarted for whoever must act)."""
    Game.objects.filter(pk=game.pk).update(state=state, rules_version=rules_version or state["rules"])
    game.refresh_from_db()
    services.update_clocks(game, DURAK, game.started_at, mover=None)
    return game


def move(game: Game, user, action: dict) -> Game:
    services.submit_move(game.pk, user, action, game.version)
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_a_new_table_records_the_rules_version_it_starts_under(players):
    game = durak_game(players)
    assert game.rules_version == game.state["rules"] == DURAK.rules_version == 2
    joker = started_game("joker", players)
    assert joker.rules_version == joker.state["rules"] == 1


@pytest.mark.django_db
def test_a_game_of_the_old_window_finishes_its_bout_under_it_then_is_upgraded_by_a_recorded_move(players):
    game = durak_game(players)
    old = {**scripted([["7S", "7D", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]], talon=["8S", "QH"]), "rules": 1}
    # As if it had been replayed from its start under version 1: its moves are those of the scripted position.
    game = put_state(game, old)
    game = move(game, players[0], {"type": "attack", "cards": ["7S"]})
    game = move(game, players[1], {"type": "beat", "attack": "7S", "card": "9S"})
    assert game.state["rules"] == 1 and game.state["phase"] == "window"
    assert DURAK.actors(game.state) == [0]  # version 1: only the thrower with a card that fits
    game = move(game, players[0], {"type": "done"})
    assert game.state["rules"] == 2 and game.state["phase"] == "attack"
    last = game.moves.order_by("-seq").first()
    assert (last.seq, last.by, last.position, last.action) == (4, Move.By.SYSTEM, None, {"type": "rules", "version": 2})
    assert game.version == 4 and game.rules_version == 1


@pytest.mark.django_db
def test_replay_reports_per_game_kind_and_rules_version(players, capsys):
    durak = durak_game(players, count=2)
    attacker = DURAK.actors(durak.state)[0]
    move(durak, players[attacker], DURAK.legal_actions(durak.state, attacker)[0])
    started_game("joker", players)
    call_command("replay_games")
    out = capsys.readouterr().out
    assert "durak rules v2: 1 of 1 replayed identically" in out
    assert "joker rules v1: 1 of 1 replayed identically" in out
    assert "2 game(s) replayed, 0 differ." in out


@pytest.mark.django_db
def test_a_recorded_rules_upgrade_replays_and_a_tampered_one_is_reported(players, capsys):
    game = started_game("durak", players[:2])
    old = DURAK.start(players=2, options=game.options, seed=int(game.seed), rules_version=1)
    game = put_state(game, old)
    while game.state["rules"] == 1:
        seat = DURAK.actors(game.state)[0]
        game = move(game, players[seat], DURAK.legal_actions(game.state, seat)[-1])
    call_command("replay_games", game.pk)
    assert "durak rules v1: 1 of 1 replayed identically" in capsys.readouterr().out
    upgrade = game.moves.get(by=Move.By.SYSTEM)
    Move.objects.filter(pk=upgrade.pk).update(action={"type": "rules", "version": 3})
    with pytest.raises(CommandError, match=str(game.pk)):
        call_command("replay_games", game.pk)
    assert "rules can be upgraded" in capsys.readouterr().out


@pytest.mark.django_db
def test_done_said_in_advance_is_applied_when_the_window_waits_for_the_player(players):
    game = durak_game(players)
    game = put_state(game, scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]], talon=["8S", "QH"]))
    services.order_ahead(game.pk, players[2], True)
    game = move(game, players[0], {"type": "attack", "cards": ["7S"]})
    game = move(game, players[1], {"type": "beat", "attack": "7S", "card": "9S"})
    assert game.state["phase"] == "window" and game.state["done"] == []  # made at his release time
    with time_machine.travel(game.seats.get(position=2).order_at, tick=False):
        assert services.release_orders(game.pk) == 1
    game.refresh_from_db()
    assert game.state["done"] == [2]
    said = game.moves.order_by("-seq").first()
    assert (said.position, said.action, said.by, said.user) == (2, {"type": "done"}, Move.By.PLAYER, players[2])
    assert DURAK.actors(game.state) == [0]
    game = move(game, players[0], {"type": "done"})
    assert game.state["bout"] == 3


@pytest.mark.django_db
def test_done_said_in_advance_holds_for_its_bout_only_and_can_be_taken_back(players):
    game = durak_game(players)
    game = put_state(game, scripted([["7S", "KC", "QD"], ["9S", "6C", "8C"], ["TD", "6D"]], talon=["8S", "QH"]))
    services.order_ahead(game.pk, players[2], True)
    services.order_ahead(game.pk, players[2], False)
    game = move(game, players[0], {"type": "attack", "cards": ["7S"]})
    game = move(game, players[1], {"type": "beat", "attack": "7S", "card": "9S"})
    assert game.state["done"] == [] and DURAK.actors(game.state) == [0, 2]
    with pytest.raises(services.GameError, match="in advance"):
        services.order_ahead(game.pk, players[2], True)  # the window is open: he presses done himself
    with pytest.raises(services.GameError, match="in advance"):
        services.order_ahead(game.pk, players[1], True)  # no: the defender
    with pytest.raises(services.GameError):
        services.order_ahead(game.pk, players[2], "yes")


@pytest.mark.django_db(transaction=True)
def test_the_migration_stamps_games_stored_before_rules_versions_as_version_one(players):
    executor = MigrationExecutor(connection)
    executor.migrate([("gameplay", "0001_initial")])
    old_apps = executor.loader.project_state([("gameplay", "0001_initial")]).apps
    OldGame = old_apps.get_model("gameplay", "Game")
    state = {"game": "durak", "phase": "attack"}
    old = OldGame.objects.create(engine="durak", seats_count=2, created_by_id=players[0].pk, state=state,
                                 invite_code="old-game", seed="1", seed_sha256="x")
    unstarted = OldGame.objects.create(engine="durak", seats_count=2, created_by_id=players[0].pk,
                                       invite_code="unstarted", seed="2", seed_sha256="y")
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    old_game = Game.objects.get(pk=old.pk)
    assert old_game.state == {**state, "rules": 1} and old_game.rules_version == 1
    assert Game.objects.get(pk=unstarted.pk).state is None
