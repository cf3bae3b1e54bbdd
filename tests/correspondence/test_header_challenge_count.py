"""The header's count of challenges waiting for my answer, next to the
"your move" badge: asked for over the badge socket (/ws/me/, through
Channels' consumer), pushed after every commit that changes it, and drawn by
the page without a query of its own, so that no page runs more queries for
it, however many challenges wait."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from correspondence import services
from correspondence.models import Challenge
from tests.gameplay.test_badge import communicator, headers_for

from .conftest import client_for, durak_between


async def next_counts(ws) -> dict:
    """The next counts frame (badge frames and notices may come between)."""
    while True:
        frame = await ws.receive_json_from(timeout=5)
        if frame["type"] == "counts":
            return frame


@pytest.mark.django_db(transaction=True)
def test_the_socket_says_how_many_challenges_wait_when_asked_and_again_on_a_sync(players):
    me, a, b, *_ = players
    services.create_challenge(a, [me.username], "durak", {}, {})
    services.create_challenge(b, [me.username], "durak", {}, {})
    services.create_challenge(me, [a.username], "durak", {}, {})  # mine, waiting for someone else: not counted
    headers = headers_for(me)

    async def scenario():
        ws = communicator(headers)
        assert (await ws.connect())[0]
        badge = await ws.receive_json_from(timeout=5)
        quiet = await ws.receive_nothing(timeout=0.3)  # a page that shows no counts gets none
        await ws.send_json_to({"type": "counts"})
        asked = await ws.receive_json_from(timeout=5)
        await ws.send_json_to({"type": "sync"})
        synced = [await ws.receive_json_from(timeout=5) for _ in range(2)]
        await ws.disconnect()
        return badge, quiet, asked, synced

    badge, quiet, asked, synced = async_to_sync(scenario)()
    assert badge["type"] == "badge" and quiet
    assert asked == {"type": "counts", "challenges": 2}
    assert synced == [{"type": "badge", "waiting": 0}, {"type": "counts", "challenges": 2}]


@pytest.mark.django_db(transaction=True)
def test_a_challenge_sent_answered_withdrawn_or_expired_pushes_the_new_count(players):
    me, a, b, *_ = players
    headers = headers_for(me)

    def expire(challenge_id: int) -> bool:
        Challenge.objects.filter(pk=challenge_id).update(expires_at=timezone.now() - timedelta(seconds=1))
        return services.expire_challenge(challenge_id)

    async def scenario():
        ws = communicator(headers)
        assert (await ws.connect())[0]
        await ws.send_json_to({"type": "counts"})
        seen = [await next_counts(ws)]
        first = await database_sync_to_async(services.create_challenge)(a, [me.username], "durak", {}, {})
        seen.append(await next_counts(ws))
        second = await database_sync_to_async(services.create_challenge)(b, [me.username], "durak", {}, {})
        seen.append(await next_counts(ws))
        await database_sync_to_async(services.answer_challenge)(first.pk, me, False, "Not today")
        seen.append(await next_counts(ws))
        third = await database_sync_to_async(services.create_challenge)(a, [me.username], "durak", {}, {})
        seen.append(await next_counts(ws))
        await database_sync_to_async(services.withdraw_challenge)(third.pk, a)
        seen.append(await next_counts(ws))
        await database_sync_to_async(expire)(second.pk)
        seen.append(await next_counts(ws))
        await ws.disconnect()
        return seen

    seen = async_to_sync(scenario)()
    assert [frame["challenges"] for frame in seen] == [0, 1, 2, 1, 2, 1, 0]


@pytest.mark.django_db
def test_every_page_has_the_hidden_count_linking_to_the_challenges(players):
    me, *_ = players
    html = client_for(me).get(reverse("lobby")).content.decode()
    assert (f'id="challenges-waiting" class="games-waiting challenges-badge" data-count="challenges" '
            f'href="{reverse("challenges")}"') in html
    assert "Challenges waiting for your answer" in html


def _queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


@pytest.mark.django_db
def test_the_pages_with_the_header_run_as_many_queries_with_challenges_waiting_as_without(players):
    me, a, b, c, d = players
    game = durak_between(me, a)
    client = client_for(me)
    urls = [reverse("lobby"), reverse("my_games"), reverse("game", args=[game.pk]), reverse("friends"),
            reverse("profile")]
    before = [_queries(client, url) for url in urls]
    for challenger in (a, b, c, d):
        services.create_challenge(challenger, [me.username], "durak", {}, {})
    assert [_queries(client, url) for url in urls] == before
