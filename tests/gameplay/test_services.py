import hashlib
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from gameplay import services
from gameplay.models import Game, Move

from .conftest import JOKER, a_legal_action, acting_player
from moderation.services import games as moderation_actions

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> tuple:
    game.refresh_from_db()
    return game.version, json.dumps(game.state, sort_keys=True), game.moves.count()


def test_creating_a_table_seats_its_creator_and_waits_for_players(players):
    game = services.create_game(players[0], "joker")
    assert game.status == Game.Status.OPEN
    assert [s.user for s in game.seats.all()] == [players[0], None, None, None]
    assert game.seed_sha256 == hashlib.sha256(game.seed.encode()).hexdigest()
    assert game.state is None


def test_the_game_starts_when_the_last_seat_is_taken(joker_game):
    assert joker_game.status == Game.Status.ACTIVE
    assert joker_game.version == 0
    assert joker_game.started_at is not None
    assert JOKER.actors(joker_game.state)


def test_an_unknown_game_is_refused(players):
    with pytest.raises(services.GameError, match="Unknown game"):
        services.create_game(players[0], "chess")


def test_a_player_cannot_take_two_seats(players):
    game = services.create_game(players[0], "joker")
    with pytest.raises(services.GameError, match="already have a seat"):
        services.join_game(game.pk, players[0])


def test_nobody_can_join_a_started_game(joker_game, django_user_model):
    late = django_user_model.objects.create_user("late")
    with pytest.raises(services.GameError, match="no longer taking players"):
        services.join_game(joker_game.pk, late)


def test_leaving_frees_the_seat_and_the_last_to_leave_closes_the_table(players):
    game = services.create_game(players[0], "joker")
    services.join_game(game.pk, players[1])
    services.leave_game(game.pk, players[1])
    assert game.seats.filter(user=players[1]).count() == 0
    services.leave_game(game.pk, players[0])
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED


def test_only_a_seated_player_can_call_in_computer_players(players):
    game = services.create_game(players[0], "joker")
    with pytest.raises(services.GameError):
        services.fill_with_bots(game.pk, players[1])
    services.fill_with_bots(game.pk, players[0])
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.seats.filter(is_bot=True).count() == 3


def test_a_legal_move_is_applied_and_recorded(joker_game, players):
    position, user = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)
    result = services.submit_move(joker_game.pk, user, action, 0, "move-1")
    joker_game.refresh_from_db()
    assert result.version == 1 and joker_game.version == 1
    move = joker_game.moves.get()
    assert (move.seq, move.position, move.action, move.by, move.user) == (1, position, action, "player", user)
    expected_state, _ = JOKER.apply(JOKER.start(4, {}, int(joker_game.seed)), position, action)
    assert joker_game.state == expected_state


def test_a_stale_version_is_refused_with_the_current_version(joker_game, players):
    position, user = acting_player(joker_game, players)
    before = snapshot(joker_game)
    with pytest.raises(services.GameError) as refused:
        services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), 7)
    assert refused.value.code == "stale" and refused.value.version == 0
    assert snapshot(joker_game) == before


def test_an_illegal_move_is_refused_with_the_engines_message_and_changes_nothing(joker_game, players):
    position, user = acting_player(joker_game, players)
    before = snapshot(joker_game)
    with pytest.raises(services.GameError) as refused:
        services.submit_move(joker_game.pk, user, {"type": "bid", "tricks": 99}, 0)
    assert refused.value.code == "illegal"
    assert refused.value.message
    assert snapshot(joker_game) == before


def test_a_move_for_someone_elses_turn_is_refused(joker_game, players):
    position, _ = acting_player(joker_game, players)
    other = players[(position + 1) % 4]
    before = snapshot(joker_game)
    with pytest.raises(services.GameError) as refused:
        services.submit_move(joker_game.pk, other, a_legal_action(joker_game, position), 0)
    assert refused.value.code == "illegal"
    assert snapshot(joker_game) == before


def test_a_spectator_cannot_move(joker_game, django_user_model):
    stranger = django_user_model.objects.create_user("stranger")
    with pytest.raises(services.GameError) as refused:
        services.submit_move(joker_game.pk, stranger, {"type": "bid", "tricks": 0}, 0)
    assert refused.value.code == "not_seated"


@pytest.mark.parametrize(
    "action, version, move_id",
    [
        ("bid", 0, None),
        ({"tricks": 1}, 0, None),
        ({"type": 5}, 0, None),
        ({"type": "bid", "tricks": 0}, "0", None),
        ({"type": "bid", "tricks": 0}, True, None),
        ({"type": "bid", "tricks": 0}, None, None),
        ({"type": "bid", "tricks": 0}, 0, 123),
        ({"type": "bid", "tricks": 0}, 0, "x" * 65),
        ({"type": "bid", "tricks": "two"}, 0, None),
        ({"type": "play"}, 0, None),
        ({"type": "teleport"}, 0, None),
    ],
)
def test_malformed_moves_get_a_clear_message_and_change_nothing(joker_game, players, action, version, move_id):
    _, user = acting_player(joker_game, players)
    before = snapshot(joker_game)
    with pytest.raises(services.GameError) as refused:
        services.submit_move(joker_game.pk, user, action, version, move_id)
    assert refused.value.code in {"bad_request", "illegal"}
    assert refused.value.message
    assert snapshot(joker_game) == before


def test_a_repeated_move_id_returns_the_first_result_without_moving_twice(joker_game, players):
    position, user = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)
    first = services.submit_move(joker_game.pk, user, action, 0, "same-id")
    again = services.submit_move(joker_game.pk, user, action, 0, "same-id")
    assert (first.version, first.duplicate) == (1, False)
    assert (again.version, again.duplicate) == (1, True)
    assert joker_game.moves.count() == 1


def test_a_player_cannot_mark_his_own_move_as_automatic(joker_game, players):
    position, user = acting_player(joker_game, players)
    services.submit_move(joker_game.pk, user, {**a_legal_action(joker_game, position), "auto": True}, 0)
    assert "auto" not in joker_game.moves.get().action


def test_computer_players_move_until_a_person_is_to_act(players, django_capture_on_commit_callbacks):
    game = services.create_game(players[0], "joker")
    with django_capture_on_commit_callbacks(execute=True):
        services.fill_with_bots(game.pk, players[0])  # tasks run eagerly in tests
    game.refresh_from_db()
    assert JOKER.actors(game.state) == [0]
    assert all(m.by == Move.By.BOT for m in game.moves.all())


def play_to_the_end(game: Game, players) -> None:
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        position, user = acting_player(game, players)
        services.submit_move(game.pk, user, JOKER.auto_action(game.state, position), game.version)
    raise AssertionError("the game did not end")


def test_a_finished_game_records_places_and_points_and_reveals_its_seed(joker_game, players):
    play_to_the_end(joker_game, players)
    joker_game.refresh_from_db()
    outcome = JOKER.outcome(joker_game.state)
    assert joker_game.status == Game.Status.FINISHED and joker_game.finished_at
    assert sorted(s.place for s in joker_game.seats.all()) == [1, 2, 3, 4]
    assert [s.points for s in joker_game.seats.all()] == outcome["scores"]
    assert joker_game.revealed_seed == joker_game.seed
    with pytest.raises(services.GameError):
        services.submit_move(joker_game.pk, players[0], {"type": "bid", "tricks": 0}, joker_game.version)


def test_resigning_ends_the_game_with_the_resigner_last(joker_game, players):
    services.resign(joker_game.pk, players[2])
    joker_game.refresh_from_db()
    assert joker_game.status == Game.Status.FINISHED
    assert joker_game.seats.get(position=2).place == 4
    assert joker_game.moves.get().action == {"type": "resign"}


def test_a_moderator_aborts_a_game_with_a_recorded_reason(joker_game, django_user_model):
    moderator = django_user_model.objects.create_superuser("mod", password="pw")
    with pytest.raises(services.GameError):
        moderation_actions.abort_game(joker_game.pk, moderator, "   ")
    moderation_actions.abort_game(joker_game.pk, moderator, "Players asked for it")
    joker_game.refresh_from_db()
    assert (joker_game.status, joker_game.abort_reason, joker_game.aborted_by) == ("aborted", "Players asked for it", moderator)


def test_replay_finds_every_stored_game_identical(joker_game, players):
    play_to_the_end(joker_game, players)
    call_command("replay_games")


def test_replay_reports_a_game_whose_stored_state_was_tampered_with(joker_game, players, capsys):
    position, user = acting_player(joker_game, players)
    services.submit_move(joker_game.pk, user, a_legal_action(joker_game, position), 0)
    Game.objects.filter(pk=joker_game.pk).update(state={**joker_game.state, "deal": 5})
    with pytest.raises(CommandError, match=str(joker_game.pk)):
        call_command("replay_games")
    assert f"game {joker_game.pk}" in capsys.readouterr().out
