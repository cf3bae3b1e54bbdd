"""The waiting room is live: a socket on an open table hears every seat taken
or left, the computer players sitting down and the start of the game, through
the real ASGI application (session auth, origin check, routing)."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.asgi import application
from gameplay import services
from moderation.services import games as moderation_actions
from gameplay.models import Game, Seat

from .conftest import client_for

pytestmark = pytest.mark.django_db(transaction=True)
ORIGIN = (b"origin", b"http://127.0.0.1")


def headers_of(client: Client) -> list:
    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
    return [ORIGIN, (b"cookie", cookie.encode())]


def headers_for(user) -> list:
    return headers_of(client_for(user))


def invited_headers(game: Game, user=None) -> list:
    """The cookie of someone who opened the table's invite link (signed in as `user`, or anonymous)."""
    client = client_for(user) if user else Client()
    client.get(reverse("invite", args=[game.invite_code]))
    return headers_of(client)


async def connected(game_id: int, headers: list) -> WebsocketCommunicator:
    """A socket on the table, past its first state and chat history."""
    ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
    assert (await ws.connect())[0]
    first = await ws.receive_json_from(timeout=5)
    assert first["type"] == "state" and first["status"] == "open"
    assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
    return ws


async def next_state(ws: WebsocketCommunicator) -> dict:
    while True:
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == "state":
            return message

def state_after(game_id: int, headers, change, *args) -> dict:
    """The next state message a socket connected to the game hears once `change(*args)` (a service) is made."""
    async def scenario():
        ws = await connected(game_id, headers)
        await database_sync_to_async(change)(*args)
        state = await next_state(ws)
        await ws.disconnect()
        return state

    return async_to_sync(scenario)()


def names(state: dict) -> list:
    return [p["name"] for p in state["players"]]


def test_the_creator_hears_a_player_take_a_seat_and_leave_it(players):
    game = services.create_game(players[0], "joker", players=4)
    creator = headers_for(players[0])

    async def scenario():
        ws = await connected(game.pk, creator)
        await database_sync_to_async(services.join_game)(game.pk, players[1])
        joined = await next_state(ws)
        await database_sync_to_async(services.leave_game)(game.pk, players[1])
        left = await next_state(ws)
        await ws.disconnect()
        return joined, left

    joined, left = async_to_sync(scenario)()
    assert joined["status"] == "open" and joined["seat"] == 0
    assert names(joined) == [players[0].name, players[1].name, None, None]
    assert names(left) == [players[0].name, None, None, None]


def test_a_visitor_of_a_public_table_hears_the_seats_fill(players):
    game = services.create_game(players[0], "joker", players=4)

    state = state_after(game.pk, [ORIGIN], services.join_game, game.pk, players[2], 3)
    assert state["seat"] is None and names(state) == [players[0].name, None, None, players[2].name]


def test_a_seated_player_hears_the_game_start_when_the_last_seat_is_taken(players):
    game = services.create_game(players[0], "durak", players=3)
    services.join_game(game.pk, players[1])
    early = headers_for(players[1])

    state = state_after(game.pk, early, services.join_game, game.pk, players[2])
    assert state["status"] == "active" and state["seat"] == 1
    assert state["view"] is not None and state["view"]["hand"]
    assert names(state) == [p.name for p in players[:3]]


def test_the_creator_hears_the_computer_players_sit_down_and_the_game_start(players):
    game = services.create_game(players[0], "durak", {"mode": "podkidnoy"}, players=3)
    creator = headers_for(players[0])

    state = state_after(game.pk, creator, services.fill_with_bots, game.pk, players[0])
    assert state["status"] == "active"
    assert [p["is_bot"] for p in state["players"]] == [False, True, True]


def test_the_last_player_leaving_gives_the_table_up_and_a_visitor_hears_it(players):
    game = services.create_game(players[0], "joker", players=4)

    async def scenario():
        ws = await connected(game.pk, [ORIGIN])
        await database_sync_to_async(services.leave_game)(game.pk, players[0])
        state = await next_state(ws)
        await ws.disconnect()
        return state

    assert async_to_sync(scenario)()["status"] == "aborted"


def test_a_moderator_aborting_an_open_table_reaches_its_waiting_room(players):
    game = services.create_game(players[0], "joker", players=4)
    creator = headers_for(players[0])

    state = state_after(game.pk, creator, moderation_actions.abort_game, game.pk, players[3], "test table")
    assert state["status"] == "aborted" and state["abort_reason"] == "test table"


def test_a_sync_on_the_waiting_socket_answers_the_table_as_it_is_now(players):
    game = services.create_game(players[0], "joker", players=4)
    creator = headers_for(players[0])

    async def scenario():
        ws = await connected(game.pk, creator)
        # A change whose message is lost (as when Redis drops it): the sync repairs it.
        await database_sync_to_async(Seat.objects.filter(game_id=game.pk, position=2).update)(user=players[2])
        await ws.send_json_to({"type": "sync"})
        state = await next_state(ws)
        await ws.disconnect()
        return state

    assert names(async_to_sync(scenario)()) == [players[0].name, None, players[2].name, None]


def test_an_invitee_follows_a_private_waiting_room_then_learns_only_that_it_started(players):
    game = services.create_game(players[0], "durak", players=3, is_private=True)
    invitee = invited_headers(game, players[3])

    async def scenario():
        ws = await connected(game.pk, invitee)
        await database_sync_to_async(services.join_game)(game.pk, players[1])
        joined = await next_state(ws)
        await database_sync_to_async(services.join_game)(game.pk, players[2])
        started = await next_state(ws)
        closed = await ws.receive_output(timeout=5)
        await ws.disconnect()
        return joined, started, closed

    joined, started, closed = async_to_sync(scenario)()
    assert names(joined) == [players[0].name, players[1].name, None]
    assert started["status"] == "active"
    assert started["view"] is None and started["players"] == [] and "seed_sha256" not in started
    assert closed == {"type": "websocket.close", "code": 4403}


def test_an_invitee_cannot_follow_a_private_table_once_it_started(players):
    game = services.create_game(players[0], "durak", players=2, is_private=True)
    invitee = invited_headers(game)
    services.join_game(game.pk, players[1])

    async def scenario():
        ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=invitee)
        return await ws.connect()

    assert async_to_sync(scenario)() == (False, 4403)


def test_an_anonymous_invitee_follows_a_private_waiting_room(players):
    game = services.create_game(players[0], "joker", players=4, is_private=True)
    invitee = invited_headers(game)

    state = state_after(game.pk, invitee, services.join_game, game.pk, players[1])
    assert state["seat"] is None and names(state)[1] == players[1].name


def test_a_socket_of_a_player_who_left_his_seat_never_gets_the_next_occupants_hand(players):
    game = services.create_game(players[0], "durak", players=3)
    services.join_game(game.pk, players[1], 1)
    leaver = headers_for(players[1])

    async def scenario():
        ws = await connected(game.pk, leaver)
        await database_sync_to_async(services.leave_game)(game.pk, players[1])
        closed = await ws.receive_output(timeout=5)
        await database_sync_to_async(services.join_game)(game.pk, players[2], 1)
        await database_sync_to_async(services.join_game)(game.pk, players[3], 2)  # the game starts
        after = await ws.receive_nothing(timeout=0.5)
        await ws.disconnect()
        return closed, after

    closed, nothing_more = async_to_sync(scenario)()
    assert closed == {"type": "websocket.close", "code": 4403}
    assert nothing_more


def test_a_table_everyone_left_says_it_was_given_up_not_aborted_by_a_moderator(players):
    game = services.create_game(players[0], "joker", players=4)
    services.leave_game(game.pk, players[0])
    page = client_for(players[1]).get(game.get_absolute_url()).content.decode()
    assert "This table was given up. Everyone left the table." in page
    assert "moderator" not in page


def test_an_invitee_left_without_a_seat_is_told_the_private_table_started(players):
    game = services.create_game(players[0], "durak", players=2, is_private=True)
    invitee = client_for(players[3])
    invitee.get(reverse("invite", args=[game.invite_code]))
    services.join_game(game.pk, players[1])  # the last seat: the game starts

    response = invitee.get(game.get_absolute_url())
    assert response.status_code == 404
    assert "This private table has already started: only its players can see it." in response.content.decode()
    assert client_for(players[2]).get(game.get_absolute_url()).status_code == 404  # never invited: a plain 404
