"""A move's fan-out builds a seat's view only if someone has that seat's page
open (its group has a member): most seats of a correspondence game have none.
A page opened later reads the committed state when it connects."""

import pytest
from asgiref.sync import async_to_sync

from gameplay import broadcast

from .conftest import a_legal_action, acting_player
from .test_consumer import communicator, headers_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_only_the_open_pages_views_are_built_and_a_page_opened_later_sees_the_move(
        joker_game, players, redis_channel_layer, monkeypatch):
    position, _user = acting_player(joker_game, players)
    watcher, latecomer = (position + 1) % 4, (position + 2) % 4
    headers = {p: headers_for(players[p]) for p in range(4)}
    built = []
    seat_payload = broadcast.seat_payload

    def counted(engine, state, status, seat, ahead):
        built.append(seat)
        return seat_payload(engine, state, status, seat, ahead)

    async def scenario():
        sockets = {p: communicator(joker_game.pk, headers[p]) for p in (position, watcher)}
        for ws in sockets.values():
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=5)
            assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        monkeypatch.setattr(broadcast, "seat_payload", counted)
        await sockets[position].send_json_to({"type": "move", "action": a_legal_action(joker_game, position),
                                              "version": 0, "move_id": "m1"})
        seen = await sockets[watcher].receive_json_from(timeout=10)
        built_for_the_move = sorted(built)
        monkeypatch.setattr(broadcast, "seat_payload", seat_payload)
        late = communicator(joker_game.pk, headers[latecomer])
        assert (await late.connect())[0]
        on_connect = await late.receive_json_from(timeout=5)
        for ws in [*sockets.values(), late]:
            await ws.disconnect()
        return seen, built_for_the_move, on_connect

    seen, built_for_the_move, on_connect = async_to_sync(scenario)()
    assert seen["type"] == "state" and seen["version"] == 1 and seen["seat"] == watcher
    assert built_for_the_move == sorted([position, watcher])  # not the two other seats', not the spectators'
    assert on_connect["type"] == "state" and on_connect["version"] == 1 and on_connect["seat"] == latecomer
