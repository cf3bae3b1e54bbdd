"""Challenges arrive live over the badge socket (/ws/me/, through Channels'
consumer): the challenged player's open tabs get a notice after the commit;
the challenger hears when the table starts; nobody else hears anything."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from correspondence import services
from tests.gameplay.test_badge import communicator, headers_for

pytestmark = pytest.mark.django_db(transaction=True)


async def next_notice(ws, kind: str) -> dict:
    """The next notice of that kind (a badge frame or a "games" notice may
    come before it, or not: whose move it is depends on the deal)."""
    while True:
        frame = await ws.receive_json_from(timeout=5)
        if frame["type"] == "notice" and frame["kind"] == kind:
            return frame


def test_the_challenged_player_gets_a_notice_and_the_challenger_hears_the_table_start(players):
    me, a, outsider, *_ = players
    headers = {u.pk: headers_for(u) for u in (me, a, outsider)}

    async def scenario():
        sockets = {}
        for u in (me, a, outsider):
            sockets[u.pk] = communicator(headers[u.pk])
            assert (await sockets[u.pk].connect())[0]
            assert (await sockets[u.pk].receive_json_from(timeout=5))["type"] == "badge"
        challenge = await database_sync_to_async(services.create_challenge)(me, ["player1"], "durak", {}, {})
        received = await next_notice(sockets[a.pk], "challenge")
        await database_sync_to_async(services.answer_challenge)(challenge.pk, a, True)
        started = await next_notice(sockets[me.pk], "challenge_answered")
        quiet = await sockets[outsider.pk].receive_nothing(timeout=0.5)
        for ws in sockets.values():
            await ws.disconnect()
        return challenge, received, started, quiet

    challenge, received, started, quiet = async_to_sync(scenario)()
    challenge.refresh_from_db()
    assert received == {"type": "notice", "kind": "challenge", "challenge": challenge.pk, "by": me.name,
                        "engine": "durak", "engine_name": "Durak", "terms": received["terms"]}
    assert received["terms"][:2] == ["podkidnoy, 2 players", "1 d a move + 3 d reserve"]
    assert started == {"type": "notice", "kind": "challenge_answered", "challenge": challenge.pk, "status": "started",
                      "by": a.name, "accepted": True, "game": challenge.game_id}
    assert quiet


@pytest.mark.parametrize("event", ["game_started", "turn_changed", "game_finished", "game_aborted"])
def test_every_seated_players_lists_refresh_after_a_change_of_one_of_his_games(players, event):
    from channels.layers import get_channel_layer

    from gameplay import events
    from gameplay.badge import user_group
    from gameplay.services import create_seated_game

    game = create_seated_game(players[:3], "durak", {})
    layer = get_channel_layer()
    channels = {}
    for user in players[:4]:
        channels[user.pk] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(user_group(user.pk), channels[user.pk])
    events.deliver(event, game.pk, 5, {"positions": [1]} if event == "turn_changed" else {})
    for user in players[:3]:
        frame = async_to_sync(layer.receive)(channels[user.pk])
        assert frame["notice"] == {"type": "notice", "kind": "games", "game": game.pk, "version": 5}
        assert frame["for_watchers"] is True
    outsider = players[3]

    async def nothing_for_outsider():
        import asyncio

        try:
            await asyncio.wait_for(layer.receive(channels[outsider.pk]), timeout=0.3)
        except asyncio.TimeoutError:
            return True
        return False

    assert async_to_sync(nothing_for_outsider)()


def test_the_badge_socket_passes_list_notices_only_to_a_page_that_watches_lists(players):
    from gameplay import events
    from gameplay.services import create_seated_game

    me, other, *_ = players
    game = create_seated_game([me, other], "durak", {})
    headers = headers_for(me)

    async def scenario():
        plain, watching = communicator(headers), communicator(headers)
        for ws in (plain, watching):
            assert (await ws.connect())[0]
            assert (await ws.receive_json_from(timeout=5))["type"] == "badge"
        await watching.send_json_to({"type": "watch"})
        await watching.receive_nothing(timeout=0.2)  # "watch" has no answer
        await database_sync_to_async(events.deliver)(events.TURN_CHANGED, game.pk, 3, {"positions": [0]})
        seen = await watching.receive_json_from(timeout=5)
        quiet = await plain.receive_nothing(timeout=0.5)
        for ws in (plain, watching):
            await ws.disconnect()
        return seen, quiet

    seen, quiet = async_to_sync(scenario)()
    assert seen == {"type": "notice", "kind": "games", "game": game.pk, "version": 3}
    assert quiet
