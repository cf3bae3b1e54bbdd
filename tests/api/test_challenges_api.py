"""Challenges through the API: correspondence's services (send, accept,
decline, withdraw), their refusals as stable codes, and the account stream
telling of a challenge as it comes and as it starts its table."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async

from accounts.bots import make_bot
from api.models import Scope
from correspondence import services as challenges
from gameplay.models import Game

from .conftest import api_for, token_for
from .test_streams import Stream, quick_streams  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def send(client, *usernames, **fields):
    return client.post("/api/v1/challenges", {"usernames": list(usernames), "engine": "durak", **fields})


def test_a_challenge_is_sent_accepted_and_its_table_starts(players):
    sent = send(api_for(players[0]), "player1")
    assert sent.status_code == 200, sent.json()
    challenge = sent.json()
    assert challenge["status"] == "pending" and challenge["invited"][0]["username"] == "player1"
    incoming = api_for(players[1]).get("/api/v1/challenges").json()["incoming"]
    assert [c["id"] for c in incoming] == [challenge["id"]]
    accepted = api_for(players[1]).post(f"/api/v1/challenges/{challenge['id']}/accept")
    assert accepted.status_code == 200 and accepted.json()["status"] == "started"
    game = Game.objects.get(pk=accepted.json()["game"])
    assert game.status == Game.Status.ACTIVE
    assert list(game.seats.order_by("position").values_list("user__username", flat=True)) == ["player0", "player1"]


def test_a_declined_or_withdrawn_challenge_closes(players):
    first = send(api_for(players[0]), "player1").json()
    declined = api_for(players[1]).post(f"/api/v1/challenges/{first['id']}/decline", {"reason": "busy week"})
    assert declined.json()["status"] == "declined"
    second = send(api_for(players[0]), "player1").json()
    assert api_for(players[0]).post(f"/api/v1/challenges/{second['id']}/withdraw").json()["status"] == "withdrawn"


def test_challenge_refusals_have_stable_codes(players):
    made = send(api_for(players[0]), "player1").json()
    stranger = api_for(players[2]).post(f"/api/v1/challenges/{made['id']}/accept")
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_invited"
    not_mine = api_for(players[1]).post(f"/api/v1/challenges/{made['id']}/withdraw")
    assert not_mine.status_code == 403 and not_mine.json()["code"] == "not_yours"
    api_for(players[1]).post(f"/api/v1/challenges/{made['id']}/accept")
    again = api_for(players[1]).post(f"/api/v1/challenges/{made['id']}/accept")
    assert again.status_code == 409 and again.json()["code"] == "closed"
    assert send(api_for(players[0]), "nobody").json()["code"] == "not_found"
    assert send(api_for(players[0]), "player0").json()["code"] == "bad_request"
    assert api_for(players[0]).post("/api/v1/challenges/999/accept").status_code == 404
    assert api_for(players[0], [Scope.READ]).get("/api/v1/challenges").json()["code"] == "forbidden_scope"


def test_challenges_are_rate_limited_as_on_the_site(players, settings):
    settings.CHALLENGES_PER_USER = "2/h"
    client = api_for(players[0])
    assert [send(client, "player1").status_code for _ in range(3)] == [200, 200, 429]


def test_a_challenged_bot_sits_at_a_table_that_allows_it(players):
    make_bot(players[1], by=players[1])
    made = send(api_for(players[0]), "player1").json()
    game = Game.objects.get(pk=api_for(players[1]).post(f"/api/v1/challenges/{made['id']}/accept").json()["game"])
    assert game.allow_bots and game.status == Game.Status.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_the_account_stream_tells_of_a_challenge_and_of_its_table(players):
    token = token_for(players[1])

    async def scenario():
        stream = Stream("/api/v1/account/stream", token)
        await stream.open()
        made = await database_sync_to_async(challenges.create_challenge)(players[0], ["player1"], "durak")
        incoming = await stream.line()
        await database_sync_to_async(challenges.answer_challenge)(made.pk, players[1], True)
        lines = [await stream.line(), await stream.line()]
        await stream.close()
        return made.pk, incoming, lines

    challenge_id, incoming, lines = async_to_sync(scenario)()
    assert incoming == {"type": "challenge", "challenge": challenge_id, "by": "player0", "engine": "durak",
                        "status": "pending", "incoming": True, "game": None}
    started = next(line for line in lines if line["type"] == "challenge")
    game = next(line for line in lines if line["type"] == "game")
    assert started["status"] == "started" and started["game"] == game["game"] and game["status"] == "active"
