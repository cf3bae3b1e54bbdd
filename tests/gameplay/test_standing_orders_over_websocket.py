"""Standing orders set, cancelled and dismissed over the game's WebSocket: the same service as the
page's endpoint and the API (`services.order_message`), the same answers and refusals; the new
list reaches the player's own socket alone; a bad frame gets a clear error, changes nothing and
leaves the connection open."""

import pytest
from asgiref.sync import async_to_sync

from gameplay.engine import get_engine
from gameplay.models import Game, StandingOrder

from .conftest import started_game
from .test_consumer import ORIGIN, communicator, headers_for

JOKER = get_engine("joker")

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(players) -> Game:
    """A Joker table at the bids of its first deal."""
    game = started_game("joker", players)
    assert game.state["phase"] == "bid"
    return game


def next_bidder(game: Game) -> int:
    return (game.state["turn"] + 1) % 4


async def connected(game: Game, headers: list):
    ws = communicator(game.pk, headers)
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
    return ws


async def answers(ws, count: int) -> list[dict]:
    return [await ws.receive_json_from(timeout=5) for _ in range(count)]


def test_a_player_sets_and_cancels_an_order_over_the_socket_and_the_others_hear_nothing(table, players):
    seat = next_bidder(table)
    other = (seat + 1) % 4
    headers = {p: headers_for(players[p]) for p in (seat, other)}

    async def scenario():
        mine, theirs = await connected(table, headers[seat]), await connected(table, headers[other])
        spectator = await connected(table, [ORIGIN])
        await mine.send_json_to({"type": "orders", "set": {"kind": "bid", "params": {"tricks": 1}}})
        after_set = await answers(mine, 2)
        order_id = next(a["id"] for a in after_set if a["type"] == "orders_ack")
        await mine.send_json_to({"type": "orders", "cancel": order_id})
        after_cancel = await answers(mine, 2)
        silent = [await theirs.receive_nothing(timeout=0.5), await spectator.receive_nothing(timeout=0.5)]
        for ws in (mine, theirs, spectator):
            await ws.disconnect()
        return after_set, after_cancel, silent

    after_set, after_cancel, silent = async_to_sync(scenario)()
    ack = next(a for a in after_set if a["type"] == "orders_ack")
    state = next(a for a in after_set if a["type"] == "state")
    assert [(o["id"], o["kind"], o["params"], o["status"]) for o in state["orders"]["list"]] == [
        (ack["id"], "bid", {"tricks": 1}, "pending")]
    assert {"type": "orders_ack"} in after_cancel
    assert next(a for a in after_cancel if a["type"] == "state")["orders"]["list"] == []
    assert StandingOrder.objects.get(pk=ack["id"]).status == "cancelled"
    assert silent == [True, True]
    assert Game.objects.get(pk=table.pk).version == table.version


@pytest.mark.parametrize("frame, code, message", [
    ({"type": "orders", "set": {"kind": "take", "params": {}}}, "illegal",
     "You cannot set the order 'take' now in this game."),
    ({"type": "orders", "set": {"kind": "bid", "params": {"tricks": 42}}}, "illegal",
     "The value 42 is not allowed for tricks now."),
    ({"type": "orders", "set": {"kind": "bid", "params": "two"}}, "illegal",
     "The parameters of an order must be an object."),
    ({"type": "orders", "set": {"kind": 5}}, "illegal", "An order must name its kind."),
    ({"type": "orders", "cancel": "x"}, "bad_request", "Say which order to cancel."),
    ({"type": "orders", "cancel": 999999}, "not_found", "You have no such pending order."),
    ({"type": "orders", "set": "bid"}, "bad_request",
     'Send {"set": {"kind": ..., "params": {...}}}, {"cancel": id} or {"dismiss": true}.'),
    ({"type": "orders"}, "bad_request",
     'Send {"set": {"kind": ..., "params": {...}}}, {"cancel": id} or {"dismiss": true}.'),
])
def test_a_bad_order_frame_gets_a_clear_error_changes_nothing_and_the_socket_stays_open(
        table, players, frame, code, message):
    seat = next_bidder(table)
    headers = headers_for(players[seat])

    async def scenario():
        ws = await connected(table, headers)
        await ws.send_json_to(frame)
        refusal = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "sync"})
        still_open = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return refusal, still_open

    refusal, still_open = async_to_sync(scenario)()
    assert (refusal["type"], refusal["code"], refusal["message"]) == ("error", code, message)
    assert still_open["type"] == "state" and still_open["orders"]["list"] == []
    assert not StandingOrder.objects.exists()
    game = Game.objects.get(pk=table.pk)
    assert (game.state, game.version) == (table.state, table.version)


def test_a_spectator_or_a_stranger_cannot_set_an_order_over_the_socket(table, players, django_user_model):
    stranger = django_user_model.objects.create_user("stranger", password="pw-not-used-1", language="en")
    frame = {"type": "orders", "set": {"kind": "forced", "params": {}}}
    visitors = ([ORIGIN], headers_for(stranger))

    async def scenario():
        replies = []
        for headers in visitors:
            ws = await connected(table, headers)
            await ws.send_json_to(frame)
            replies.append(await ws.receive_json_from(timeout=5))
            await ws.disconnect()
        return replies

    for reply in async_to_sync(scenario)():
        assert (reply["type"], reply["code"], reply["message"]) == (
            "error", "not_seated", "You are not playing at this table.")
    assert not StandingOrder.objects.exists()


def test_order_frames_are_answered_in_the_players_language(table, players):
    seat = next_bidder(table)
    players[seat].language = "ru"
    players[seat].save()
    headers = headers_for(players[seat])

    async def scenario():
        ws = await connected(table, headers)
        await ws.send_json_to({"type": "orders", "cancel": "x"})
        reply = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return reply

    reply = async_to_sync(scenario)()
    assert reply["code"] == "bad_request" and reply["message"] != "Say which order to cancel."
