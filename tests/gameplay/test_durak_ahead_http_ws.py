"""Durak's "done for me in this bout", said in advance, through the real
HTTP endpoint (POST /games/<id>/ahead/) and the WebSocket consumer; made
at the player's secret release time once the window waits for him, never
at once, and at a moment that does not depend on his cards.

The table: 3 players; seat 0 attacked 7♠, seat 1 defends, seat 2 throws in.
Both throwers hold cards, so the window will wait for both of them.
"""

import json
from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.engine import get_engine
from gameplay.models import Game, Move, Seat
from gameplay.movelog import move_log
from tests.engine.durak_helpers import scripted

from .conftest import client_for, started_game
from .test_consumer import ORIGIN, communicator, headers_for

DURAK = get_engine("durak")
ATTACKER, DEFENDER, THROWER = 0, 1, 2
NOT_SEATED = 3


@pytest.fixture
def table(players) -> Game:
    """Seat 0 has attacked with 7♠; the defender (seat 1) can beat it with 8♠."""
    game = started_game("durak", players[:3])
    state = scripted([["7S", "KC", "AD"], ["8S", "9D", "TD", "JD"], ["QC", "6D"]])
    state, _ = DURAK.apply(state, ATTACKER, {"type": "attack", "cards": ["7S"]})
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    services.update_clocks(game, DURAK, timezone.now(), mover=None)
    return game


def post_ahead(client, game, body) -> tuple[int, dict]:
    data = body if isinstance(body, str) else json.dumps(body)
    response = client.post(reverse("game_ahead", args=[game.pk]), data=data, content_type="application/json")
    return response.status_code, response.json()


def state_for(user, game) -> dict:
    reply = client_for(user).get(reverse("game_state", args=[game.pk])).json()
    reply.pop("server_time")
    return reply


def beat_the_attack(game, players) -> Game:
    """The defender beats 7♠: the throwers' window opens."""
    services.submit_move(game.pk, players[DEFENDER], {"type": "beat", "attack": "7S", "card": "8S"}, game.version)
    game.refresh_from_db()
    return game


def released_at_his_time(game, position: int) -> Game:
    """The seat's secret release time comes (beat's sweep, without waiting for it): its "done" said in
    advance is made then, and not a moment before."""
    seat = Seat.objects.get(game=game, position=position)
    assert seat.order_at is not None and seat.order_at >= seat.clock_started_at + timedelta(seconds=1)
    with time_machine.travel(seat.order_at - timedelta(milliseconds=1), tick=False):
        assert services.release_orders(game.pk) == 0  # not yet
    with time_machine.travel(seat.order_at, tick=False):
        assert services.release_orders(game.pk) == 1
    game.refresh_from_db()
    return game


# ---- HTTP ------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_thrower_ticks_done_in_advance_over_http_and_only_his_own_state_shows_it(table, players):
    assert state_for(players[THROWER], table)["ahead"] == {"available": True, "on": False}
    others_before = {seat: state_for(players[seat], table) for seat in (ATTACKER, DEFENDER)}

    assert post_ahead(client_for(players[THROWER]), table, {"on": True}) == (200, {"type": "ahead_ack", "on": True})

    assert state_for(players[THROWER], table)["ahead"] == {"available": True, "on": True}
    assert table.seats.get(position=THROWER).ahead_scope == table.state["bout"]
    for seat, before in others_before.items():
        assert state_for(players[seat], table) == before  # nothing about his tick, not even a new version
    assert state_for(players[ATTACKER], table)["ahead"] == {"available": True, "on": False}
    assert state_for(players[DEFENDER], table)["ahead"] == {"available": False, "on": False}
    assert "ahead" not in Client().get(reverse("game_state", args=[table.pk])).json()  # spectators


@pytest.mark.django_db
def test_a_thrower_can_take_his_tick_back(table, players):
    client = client_for(players[THROWER])
    post_ahead(client, table, {"on": True})
    assert post_ahead(client, table, {"on": False}) == (200, {"type": "ahead_ack", "on": False})
    assert state_for(players[THROWER], table)["ahead"] == {"available": True, "on": False}
    table = beat_the_attack(table, players)
    assert table.state["done"] == [] and THROWER in DURAK.actors(table.state)


@pytest.mark.django_db
def test_the_defender_is_told_he_cannot_say_done_in_advance(table, players):
    status, reply = post_ahead(client_for(players[DEFENDER]), table, {"on": True})
    assert (status, reply["code"], reply["message"]) == (422, "illegal", "You cannot say that in advance now.")
    assert reply["version"] == table.version
    assert table.seats.get(position=DEFENDER).ahead_scope is None


@pytest.mark.django_db
def test_someone_not_seated_at_the_table_is_refused(table, players):
    status, reply = post_ahead(client_for(players[NOT_SEATED]), table, {"on": True})
    assert (status, reply["code"], reply["message"]) == (403, "not_seated", "You are not playing at this table.")
    status, reply = post_ahead(Client(), table, {"on": True})
    assert (status, reply["code"]) == (401, "login_required")


@pytest.mark.django_db
def test_an_unknown_game_is_not_found(players):
    status, reply = post_ahead(client_for(players[0]), Game(pk=999_999), {"on": True})
    assert (status, reply["code"], reply["message"]) == (404, "not_found", "There is no such game.")


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, message",
    [
        ({"on": "yes"}, "Say true or false."),
        ({"on": 1}, "Say true or false."),
        ({"on": None}, "Say true or false."),
        ({}, "Say true or false."),
        ("{on: true", "Malformed JSON."),
        ("[true]", "A message must be a JSON object."),
        ("true", "A message must be a JSON object."),
    ],
)
def test_malformed_bodies_are_refused_with_a_clear_message_and_change_nothing(table, players, body, message):
    status, reply = post_ahead(client_for(players[THROWER]), table, body)
    assert (status, reply["type"], reply["code"], reply["message"]) == (400, "error", "bad_request", message)
    assert table.seats.get(position=THROWER).ahead_scope is None


@pytest.mark.django_db
def test_the_endpoint_needs_the_csrf_token_and_a_post(table, players):
    client = Client(enforce_csrf_checks=True)
    client.force_login(players[THROWER])
    response = client.post(reverse("game_ahead", args=[table.pk]), data='{"on": true}', content_type="application/json")
    assert response.status_code == 403
    assert client_for(players[THROWER]).get(reverse("game_ahead", args=[table.pk])).status_code == 405
    assert table.seats.get(position=THROWER).ahead_scope is None


# ---- applied when the window opens -------------------------------------------------------------------


@pytest.mark.django_db
def test_a_ticked_throwers_done_is_applied_as_his_move_when_the_window_opens(table, players):
    post_ahead(client_for(players[THROWER]), table, {"on": True})
    version = table.version
    table = beat_the_attack(table, players)
    assert table.state["phase"] == "window" and table.state["done"] == []  # not at once
    table = released_at_his_time(table, THROWER)

    assert table.state["phase"] == "window" and table.state["done"] == [THROWER]
    assert DURAK.actors(table.state) == [ATTACKER]  # the window still waits for the attacker
    moves = list(table.moves.filter(seq__gt=version).order_by("seq"))
    assert [(m.position, m.action, m.by, m.user_id) for m in moves] == [
        (DEFENDER, {"type": "beat", "attack": "7S", "card": "8S"}, Move.By.PLAYER, players[DEFENDER].pk),
        (THROWER, {"type": "done"}, Move.By.PLAYER, players[THROWER].pk),
    ]
    assert table.version == version + 2
    assert state_for(players[THROWER], table)["ahead"] == {"available": False, "on": True}


def test_the_done_said_in_advance_is_marked_by_your_order_in_his_own_move_list_only(table, players):
    post_ahead(client_for(players[THROWER]), table, {"on": True})
    table = released_at_his_time(beat_the_attack(table, players), THROWER)
    seats = list(table.seats.all())
    assert move_log(table, seats, THROWER)[-1].by == "by your order"
    for other in (None, ATTACKER, DEFENDER):
        assert move_log(table, seats, other)[-1].by == ""
    assert "by your order" not in json.dumps(state_for(players[ATTACKER], table))


@pytest.mark.django_db
def test_when_every_thrower_ticked_the_bout_ends_without_waiting(table, players):
    post_ahead(client_for(players[THROWER]), table, {"on": True})
    post_ahead(client_for(players[ATTACKER]), table, {"on": True})
    bout = table.state["bout"]
    table = beat_the_attack(table, players)
    first, second = sorted((ATTACKER, THROWER), key=lambda p: Seat.objects.get(game=table, position=p).order_at)
    table = released_at_his_time(table, first)
    assert table.state["bout"] == bout  # the window still waits for the other one's time
    table = released_at_his_time(table, second)

    assert table.state["bout"] == bout + 1 and table.state["phase"] == "attack"
    assert table.state["last_bout"]["result"] != "take"
    assert sorted(m.position for m in table.moves.filter(action={"type": "done"})) == [ATTACKER, THROWER]
    assert state_for(players[THROWER], table)["ahead"]["on"] is False  # a new bout: the tick is gone


# ---- WebSocket ---------------------------------------------------------------------------------------


async def connected(game, headers):
    ws = communicator(game.pk, headers)
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "state"
    assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
    return ws


@pytest.mark.django_db(transaction=True)
def test_a_thrower_ticks_over_websocket_and_the_other_seats_hear_nothing(table, players):
    headers = {seat: headers_for(players[seat]) for seat in (ATTACKER, DEFENDER, THROWER)}

    async def scenario():
        sockets = {seat: await connected(table, h) for seat, h in headers.items()}
        await sockets[THROWER].send_json_to({"type": "ahead", "on": True})
        replies = [await sockets[THROWER].receive_json_from(timeout=5) for _ in range(2)]
        silent = [await sockets[seat].receive_nothing(timeout=0.5) for seat in (ATTACKER, DEFENDER)]
        for ws in sockets.values():
            await ws.disconnect()
        return replies, silent

    replies, silent = async_to_sync(scenario)()
    assert {"type": "ahead_ack", "on": True} in replies
    state = next(r for r in replies if r["type"] == "state")
    assert state["seat"] == THROWER and state["ahead"] == {"available": True, "on": True}
    assert state["version"] == table.version and state["events"] == []
    assert silent == [True, True]


@pytest.mark.django_db(transaction=True)
def test_refusals_over_websocket_come_as_error_frames_and_the_connection_stays_open(table, players):
    defender, thrower = headers_for(players[DEFENDER]), headers_for(players[THROWER])

    async def scenario():
        replies = []
        ws = await connected(table, defender)
        await ws.send_json_to({"type": "ahead", "on": True})
        replies.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        ws = await connected(table, thrower)
        for frame in ({"type": "ahead", "on": "yes"}, {"type": "ahead"}):
            await ws.send_json_to(frame)
            replies.append(await ws.receive_json_from(timeout=5))
        await ws.send_json_to({"type": "sync"})
        replies.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        ws = await connected(table, [ORIGIN])  # a spectator of the public table
        await ws.send_json_to({"type": "ahead", "on": True})
        replies.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        return replies

    illegal, not_bool, missing, state, spectator = async_to_sync(scenario)()
    assert (illegal["type"], illegal["code"], illegal["version"]) == ("error", "illegal", table.version)
    assert illegal["message"] == "You cannot say that in advance now."
    for reply in (not_bool, missing):
        assert (reply["type"], reply["code"], reply["message"]) == ("error", "bad_request", "Say true or false.")
    assert state["type"] == "state" and state["ahead"] == {"available": True, "on": False}
    assert (spectator["code"], spectator["message"]) == ("not_seated", "You are not playing at this table.")
    assert not table.seats.exclude(ahead_scope=None).exists()


@pytest.mark.django_db(transaction=True)
def test_a_tick_over_websocket_is_applied_when_the_window_opens(table, players):
    headers = headers_for(players[THROWER])

    async def scenario():
        ws = await connected(table, headers)
        await ws.send_json_to({"type": "ahead", "on": True})
        replies = [await ws.receive_json_from(timeout=5) for _ in range(2)]
        await ws.disconnect()
        return replies

    assert {"type": "ahead_ack", "on": True} in async_to_sync(scenario)()
    table = beat_the_attack(table, players)
    table = released_at_his_time(table, THROWER)
    assert table.state["done"] == [THROWER]
    assert table.moves.filter(position=THROWER, action={"type": "done"}, by=Move.By.PLAYER).count() == 1


# ---- the table learns nothing from its timing -----------------------------------------------------------


def window_with_ahead(game_id: int, players, thrower_hand: list[str]) -> tuple:
    """The thrower, holding `thrower_hand`, said done in advance; the window opens and his done is made
    (rolled back after): when, and what the attacker, the defender and a spectator are sent."""
    from django.db import transaction

    with transaction.atomic():
        state = scripted([["7S", "KC", "AD"], ["8S", "9D", "TD", "JD"], thrower_hand])
        state, _ = DURAK.apply(state, ATTACKER, {"type": "attack", "cards": ["7S"]})
        Game.objects.filter(pk=game_id).update(state=state)
        game = Game.objects.get(pk=game_id)
        services.update_clocks(game, DURAK, timezone.now(), mover=None)
        services.order_ahead(game_id, players[THROWER], True)
        game = beat_the_attack(game, players)
        seat = Seat.objects.get(game=game, position=THROWER)
        delay = seat.order_at - seat.clock_started_at
        game = released_at_his_time(game, THROWER)
        last = game.moves.order_by("-seq").first()
        sent = {p: game_payload(game, p) for p in (None, ATTACKER, DEFENDER)}
        for payload in sent.values():
            payload.pop("server_time", None)
        transaction.set_rollback(True)
    return delay, (last.position, last.action, last.by), sent


@pytest.mark.django_db
def test_the_moment_of_a_done_said_in_advance_does_not_depend_on_the_throwers_cards(table, players):
    with time_machine.travel(timezone.now().replace(microsecond=0), tick=False):
        fits = window_with_ahead(table.pk, players, ["8D", "6D"])  # 8♦ could be thrown in
        does_not_fit = window_with_ahead(table.pk, players, ["QC", "6D"])  # nothing fits
    assert fits[1] == (THROWER, {"type": "done"}, Move.By.PLAYER)
    assert fits == does_not_fit
