"""Challenges arrive live over the badge socket (/ws/me/, through Channels'
consumer): the challenged player's open tabs get a notice after the commit;
the challenger hears when the table starts; nobody else hears anything."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from correspondence import services
from tests.gameplay.test_badge import communicator, headers_for

pytestmark = pytest.mark.django_db(transaction=True)


async def next_notice(ws) -> dict:
    """The next notice frame (a badge frame may come before it, or not: whose move it is depends on the deal)."""
    while True:
        frame = await ws.receive_json_from(timeout=5)
        if frame["type"] == "notice":
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
        received = await sockets[a.pk].receive_json_from(timeout=5)
        await database_sync_to_async(services.answer_challenge)(challenge.pk, a, True)
        started = await next_notice(sockets[me.pk])
        quiet = await sockets[outsider.pk].receive_nothing(timeout=0.5)
        for ws in sockets.values():
            await ws.disconnect()
        return challenge, received, started, quiet

    challenge, received, started, quiet = async_to_sync(scenario)()
    challenge.refresh_from_db()
    assert received == {"type": "notice", "kind": "challenge", "challenge": challenge.pk, "by": me.name,
                        "engine": "durak"}
    assert started == {"type": "notice", "kind": "challenge_answered", "challenge": challenge.pk, "status": "started",
                      "by": a.name, "accepted": True, "game": challenge.game_id}
    assert quiet
