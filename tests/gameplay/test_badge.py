"""The badge: how many games wait for the user's move, live over /ws/me/."""

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import path

from gameplay import badge, services
from gameplay.badge import BadgeConsumer, send_badges, waiting_count

from .conftest import JOKER, a_legal_action, acting_player

application = AuthMiddlewareStack(URLRouter([path("ws/me/", BadgeConsumer.as_asgi())]))


def headers_for(user) -> list:
    client = Client()
    client.force_login(user)
    return [(b"cookie", f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode())]


def communicator(headers: list | None = None) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, "/ws/me/", headers=headers or [])


def next_player(game, players):
    """The player whose turn comes after the current one's move (Joker: one actor at a time)."""
    position, _ = acting_player(game, players)
    after, _ = JOKER.apply(game.state, position, a_legal_action(game, position))
    return players[JOKER.actors(after)[0]]


# --- the count ---------------------------------------------------------------------


@pytest.mark.django_db
def test_the_count_is_the_number_of_active_games_waiting_for_the_users_move(joker_game, players):
    position, user = acting_player(joker_game, players)
    second = services.create_game(players[0], "joker")
    for other in players[1:]:
        services.join_game(second.pk, other)
    second.refresh_from_db()
    services.create_game(user, "joker")  # an open table never counts

    expected = {u.pk: 0 for u in players}
    for game in (joker_game, second):
        expected[players[JOKER.actors(game.state)[0]].pk] += 1

    assert {u.pk: waiting_count(u) for u in players} == expected
    assert waiting_count(user.pk) == waiting_count(user) >= 1


@pytest.mark.django_db
def test_a_finished_game_no_longer_counts(joker_game, players):
    position, user = acting_player(joker_game, players)
    assert waiting_count(user) == 1

    services.resign(joker_game.pk, user)

    assert waiting_count(user) == 0


# --- the socket ----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_an_anonymous_visitor_is_refused():
    async def scenario():
        ws = communicator()
        connected, code = await ws.connect()
        return connected, code

    assert async_to_sync(scenario)() == (False, 4403)


@pytest.mark.django_db(transaction=True)
def test_the_count_is_sent_on_connect(joker_game, players):
    position, user = acting_player(joker_game, players)
    other = next(u for u in players if u != user)
    headers = {u.pk: headers_for(u) for u in (user, other)}

    async def scenario():
        received = {}
        for u in (user, other):
            ws = communicator(headers[u.pk])
            assert (await ws.connect())[0]
            received[u.pk] = await ws.receive_json_from(timeout=5)
            await ws.disconnect()
        return received

    received = async_to_sync(scenario)()
    assert received == {user.pk: {"type": "badge", "waiting": 1}, other.pk: {"type": "badge", "waiting": 0}}


@pytest.mark.django_db(transaction=True)
def test_a_move_through_services_pushes_the_new_counts_by_itself(joker_game, players):
    position, mover = acting_player(joker_game, players)
    action = a_legal_action(joker_game, position)
    waiter = next_player(joker_game, players)
    assert waiter != mover
    headers = {u.pk: headers_for(u) for u in (mover, waiter)}

    async def scenario():
        sockets = {}
        for u in (mover, waiter):
            sockets[u.pk] = communicator(headers[u.pk])
            assert (await sockets[u.pk].connect())[0]
        before = {pk: await ws.receive_json_from(timeout=5) for pk, ws in sockets.items()}
        await database_sync_to_async(services.submit_move)(joker_game.pk, mover, action, 0)
        after = {pk: await ws.receive_json_from(timeout=5) for pk, ws in sockets.items()}
        for ws in sockets.values():
            await ws.disconnect()
        return before, after

    before, after = async_to_sync(scenario)()
    assert before == {mover.pk: {"type": "badge", "waiting": 1}, waiter.pk: {"type": "badge", "waiting": 0}}
    assert after == {mover.pk: {"type": "badge", "waiting": 0}, waiter.pk: {"type": "badge", "waiting": 1}}


@pytest.mark.django_db(transaction=True)
def test_an_unchanged_count_is_not_sent_again_but_a_sync_asks_for_it(joker_game, players):
    position, user = acting_player(joker_game, players)
    headers = headers_for(user)

    async def scenario():
        ws = communicator(headers)
        await ws.connect()
        first = await ws.receive_json_from(timeout=5)
        await database_sync_to_async(send_badges)([user.pk])
        quiet = await ws.receive_nothing(timeout=0.3)
        await ws.send_json_to({"type": "sync"})
        synced = await ws.receive_json_from(timeout=5)
        await ws.send_to(text_data="{not json")  # refused with an error, the socket stays open
        refused = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "sync"})
        again = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return first, quiet, synced, refused, again

    first, quiet, synced, refused, again = async_to_sync(scenario)()
    assert first == synced == again == {"type": "badge", "waiting": 1}
    assert (refused["type"], refused["code"], refused["message"]) == ("error", "bad_request", "Malformed JSON.")
    assert quiet is True


@pytest.mark.django_db(transaction=True)
def test_a_change_of_turn_is_pushed_after_its_commit(joker_game, players):
    position, user = acting_player(joker_game, players)
    headers = headers_for(user)

    def resign_and_announce():
        with transaction.atomic():
            services.resign(joker_game.pk, user)  # his clock stops: the move's follow-up task pushes

    async def scenario():
        ws = communicator(headers)
        await ws.connect()
        first = await ws.receive_json_from(timeout=5)
        await database_sync_to_async(resign_and_announce)()
        pushed = await ws.receive_json_from(timeout=5)
        await ws.disconnect()
        return first, pushed

    first, pushed = async_to_sync(scenario)()
    assert first == {"type": "badge", "waiting": 1}
    assert pushed == {"type": "badge", "waiting": 0}


@pytest.mark.django_db
def test_nothing_is_pushed_when_the_transaction_rolls_back(joker_game, players, monkeypatch):
    pushed = []
    monkeypatch.setattr(badge, "send_badges", pushed.append)

    position, user = acting_player(joker_game, players)
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            services.resign(joker_game.pk, user)
            raise RuntimeError("rolled back")

    assert pushed == []


@pytest.mark.django_db
def test_a_broken_channel_layer_does_not_break_the_caller(joker_game, players, monkeypatch):
    class DownLayer:
        async def group_send(self, group, message):
            raise ConnectionError("redis is down")

    monkeypatch.setattr(badge, "get_channel_layer", lambda: DownLayer())

    send_badges([u.pk for u in players])  # logs, does not raise
