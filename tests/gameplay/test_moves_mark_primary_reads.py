"""With read replicas, a change made over a socket sends its player's pages to
the primary (accounts/primary_reads.py, README "Read replicas"): the consumer
marks the player once the change is made, before it answers; a refused move
marks nobody. Driven through the real ASGI application."""

import pytest
from asgiref.sync import async_to_sync

from accounts import primary_reads

from .conftest import a_legal_action, acting_player
from .test_consumer import communicator, headers_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def replicas(settings):
    settings.DATABASE_REPLICAS = ["replica1"]  # the marks only: reads are not routed in this test
    settings.READ_OWN_WRITES_SECONDS = 30
    primary_reads.cache.clear()
    yield
    primary_reads.cache.clear()


def send_over_socket(game_id: int, user, frame: dict) -> dict:
    """The frame sent from the user's socket; the answer it got (an ack or an error)."""
    headers = headers_for(user)

    async def scenario():
        ws = communicator(game_id, headers)
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_json_from(timeout=5)  # state
        await ws.receive_json_from(timeout=5)  # chat history
        await ws.send_json_to(frame)
        while True:
            answer = await ws.receive_json_from(timeout=5)
            if answer["type"] in ("ack", "error"):
                break
        await ws.disconnect()
        return answer

    return async_to_sync(scenario)()


def test_a_move_over_a_socket_sends_its_players_pages_to_the_primary(joker_game, players, replicas):
    position, user = acting_player(joker_game, players)
    others = [player for player in players if player.pk != user.pk]

    answer = send_over_socket(joker_game.pk, user, {"type": "move", "action": a_legal_action(joker_game, position),
                                                   "version": joker_game.version, "move_id": "m-1"})

    assert answer["type"] == "ack"
    assert primary_reads.changed_recently([f"user:{user.pk}"])
    assert not any(primary_reads.changed_recently([f"user:{other.pk}"]) for other in others)


def test_a_refused_move_marks_nobody(joker_game, players, replicas):
    position, user = acting_player(joker_game, players)

    answer = send_over_socket(joker_game.pk, user, {"type": "move", "action": a_legal_action(joker_game, position),
                                                   "version": joker_game.version + 5, "move_id": "m-2"})

    assert answer["type"] == "error"
    assert not primary_reads.changed_recently([f"user:{user.pk}"])


def test_without_replicas_a_move_marks_nobody(joker_game, players, settings):
    settings.DATABASE_REPLICAS = []
    primary_reads.cache.clear()
    position, user = acting_player(joker_game, players)

    answer = send_over_socket(joker_game.pk, user, {"type": "move", "action": a_legal_action(joker_game, position),
                                                   "version": joker_game.version, "move_id": "m-3"})

    assert answer["type"] == "ack"
    assert not primary_reads.changed_recently([f"user:{user.pk}"])
