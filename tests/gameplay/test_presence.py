"""Who is on a game page (gameplay/presence.py): the page's socket marks its
seat in the cache at connect and at every ping, without writing the seat's
row; "last seen" (`seen_at`) is written at connect and then at most every
SEEN_AT_WRITE_SECONDS. With the cache away, the database stands in."""

import time

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.core import mail
from django.core.cache import cache

from config.embedded_redis import start_server
from gameplay import presence
from gameplay.models import Seat
from notifications import emails

from ..conftest import use_redis_cache
from .conftest import acting_player
from .test_consumer import communicator, headers_for
from .test_inbound import opened

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _cache_not_known_away(monkeypatch):
    monkeypatch.setattr(presence, "_cache_away_until", 0.0)


@pytest.fixture
def players(players):
    """The four players, with email addresses (for the "your turn" email)."""
    for user in players:
        user.email = f"{user.username}@example.org"
        user.save()
    return players


@pytest.fixture
def redis_to_stop(settings, tmp_path):
    """The cache in a Redis server of its own, which the test stops."""
    process, url = start_server(tmp_path)
    use_redis_cache(settings, url)
    yield process
    process.terminate()
    process.wait(timeout=10)


def seat(game, position) -> Seat:
    return Seat.objects.get(game=game, position=position)


def not_told_yet(game, position) -> None:
    """As if his turn had just begun: the game's start told him already (nobody was on its page)."""
    Seat.objects.filter(game=game, position=position).update(turn_notified=False)
    mail.outbox.clear()


def on_the_page(game, user, pings: int, between=None) -> list[dict]:
    """Open `user`'s game page, send `pings` pings (calling `between()` before
    each), close it; the pongs."""
    headers = headers_for(user)

    async def scenario():
        ws = communicator(game.pk, headers)
        await opened(ws)
        pongs = []
        for _ in range(pings):
            if between is not None:
                await database_sync_to_async(between)()
            await ws.send_json_to({"type": "ping"})
            pongs.append(await ws.receive_json_from(timeout=5))
        await ws.disconnect()
        return pongs

    return async_to_sync(scenario)()


def test_a_game_page_marks_its_player_present_and_its_pings_write_no_seat_row(joker_game, players, redis_cache):
    position, user = acting_player(joker_game, players)
    seen = []

    pongs = on_the_page(joker_game, user, 3, between=lambda: seen.append(seat(joker_game, position).seen_at))

    assert pongs == [{"type": "pong", "version": 0}] * 3
    assert seen[0] is not None  # "last seen", written when the page opened
    assert seen == [seen[0]] * 3  # and not by the pings
    assert seat(joker_game, position).seen_at == seen[0]
    assert presence.is_present(seat(joker_game, position))
    assert not presence.is_present(seat(joker_game, (position + 1) % 4))


def test_every_page_of_a_process_marks_through_one_connection_to_redis(joker_game, players, redis_cache,
                                                                      redis_url):
    sockets = [(communicator(joker_game.pk, headers_for(user)), user) for user in players]
    counting = redis.Redis.from_url(redis_url)
    before = len(counting.client_list())

    async def scenario():
        for ws, _user in sockets:
            await opened(ws)
        for ws, _user in sockets:
            await ws.send_json_to({"type": "ping"})
            assert (await ws.receive_json_from(timeout=5))["type"] == "pong"
        for ws, _user in sockets:
            await ws.disconnect()

    async_to_sync(scenario)()

    assert all(presence.is_present(seat(joker_game, position)) for position in range(4))
    opened_since = len(counting.client_list()) - before
    counting.close()
    assert opened_since <= 1  # not one a socket (Django's `caches` holds a cache per asyncio context: config/cache.py)


def test_last_seen_is_written_again_by_a_ping_once_its_interval_has_passed(joker_game, players, redis_cache,
                                                                          settings):
    settings.SEEN_AT_WRITE_SECONDS = 0
    position, user = acting_player(joker_game, players)
    seen = []

    on_the_page(joker_game, user, 2, between=lambda: seen.append(seat(joker_game, position).seen_at))

    assert seen[0] < seen[1] < seat(joker_game, position).seen_at


def test_a_player_who_closed_the_page_is_no_longer_present_once_his_mark_expires(joker_game, players,
                                                                                redis_cache, settings):
    settings.PRESENCE_SECONDS = 1
    position, user = acting_player(joker_game, players)

    on_the_page(joker_game, user, 1)

    assert presence.is_present(seat(joker_game, position))  # read by another process: Redis holds it
    deadline = time.monotonic() + 10
    while presence.is_present(seat(joker_game, position)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not presence.is_present(seat(joker_game, position))


def test_the_mark_names_the_player_so_whoever_takes_his_seat_is_not_present(joker_game, players, redis_cache,
                                                                             django_user_model):
    position, user = acting_player(joker_game, players)
    presence.mark(joker_game.pk, position, user.pk)
    newcomer = django_user_model.objects.create_user("newcomer", password="pw-not-used-1")

    Seat.objects.filter(game=joker_game, position=position).update(user=newcomer)

    assert not presence.is_present(seat(joker_game, position))


def test_the_player_on_the_page_gets_no_turn_email_and_the_one_who_is_not_gets_it(joker_game, players,
                                                                                 redis_cache):
    position, user = acting_player(joker_game, players)
    not_told_yet(joker_game, position)
    on_the_page(joker_game, user, 1)

    assert emails.send_turn_email(joker_game.pk, joker_game.version, position) is False
    assert mail.outbox == []

    cache.clear()  # his mark gone: he left the page
    assert emails.send_turn_email(joker_game.pk, joker_game.version, position) is True
    assert [m.to for m in mail.outbox] == [[user.email]]


def test_with_redis_away_a_ping_is_answered_writes_last_seen_and_the_email_judges_by_it(
        joker_game, players, redis_to_stop):
    position, user = acting_player(joker_game, players)
    seen = []

    def stop_redis_before_the_second_ping():
        seen.append(seat(joker_game, position).seen_at)
        if len(seen) == 2:
            redis_to_stop.terminate()
            redis_to_stop.wait(timeout=10)

    not_told_yet(joker_game, position)
    pongs = on_the_page(joker_game, user, 3, between=stop_redis_before_the_second_ping)

    assert pongs == [{"type": "pong", "version": 0}] * 3  # answered as ever
    assert seen[0] == seen[1] < seen[2] < seat(joker_game, position).seen_at  # each mark written to the row
    assert emails.send_turn_email(joker_game.pk, joker_game.version, position) is False  # on the page
    assert mail.outbox == []
