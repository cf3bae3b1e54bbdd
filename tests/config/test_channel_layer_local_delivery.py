"""A fan-out to the pages a process serves itself: handed to their receive
buffers in memory (`group_send_many` on the loop its consumers receive on),
never queued in Redis and read back; pages of other processes, and sends
from elsewhere, still go through Redis."""

import asyncio
import random
import subprocess
import threading
import time

import redis

from config.channel_layer import RedisChannelLayer
from config.embedded_redis import free_port, server_command
from ..conftest import redis_zadds


# Seconds after which a message that has not come is lost: a failure, not a measurement.
NEVER = 30


def run(coroutine):
    return asyncio.run(coroutine)


async def page_in_group(url: str, prefix: str, group: str = "g"):
    """A layer (a process) and one page of it, a member of `group`."""
    layer = RedisChannelLayer(hosts=[url], prefix=prefix)
    page = await layer.new_channel()
    await layer.group_add(group, page)
    return layer, page


async def receiving(layer, *channels):
    """A task receiving on each channel (as a consumer's receive loop), started
    in this order: the first takes the receive lock and waits on Redis."""
    tasks = []
    for channel in channels:
        tasks.append(asyncio.ensure_future(layer.receive(channel)))
        while layer.receive_count < len(tasks) or not (layer.receive_lock and layer.receive_lock.locked()):
            await asyncio.sleep(0.005)
    return tasks


def test_a_fan_out_to_this_process_pages_reaches_them_without_queueing_in_redis(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="local-here")
        reader, other = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game-1-seat-0", reader)
        await layer.group_add("game-1-seat-1", other)
        tasks = await receiving(layer, reader, other)
        queued = redis_zadds(redis_url)
        await layer.group_send_many([
            ("game-1-seat-0", {"type": "game.update", "payload": {"seat": 0}}),
            ("game-1-seat-1", {"type": "game.update", "payload": {"seat": 1}}),
        ])
        got = await asyncio.wait_for(asyncio.gather(*tasks), NEVER)
        assert redis_zadds(redis_url) == queued
        await layer.flush()
        return got

    assert run(scenario()) == [{"type": "game.update", "payload": {"seat": 0}},
                               {"type": "game.update", "payload": {"seat": 1}}]


def test_the_page_whose_receive_is_reading_redis_gets_its_message_at_once(redis_url):
    """The first receiver holds the process' receive lock and waits on Redis,
    where its message never comes: the fan-out wakes it."""
    async def scenario():
        layer, reader = await page_in_group(redis_url, "local-reader")
        [task] = await receiving(layer, reader)
        await layer.group_send_many([("g", {"type": "m"})])
        got = await asyncio.wait_for(task, NEVER)
        await layer.flush()
        return got

    assert run(scenario()) == {"type": "m"}


def test_another_process_pages_get_theirs_through_redis_and_its_own_sends_still_arrive(redis_url):
    async def scenario():
        here = RedisChannelLayer(hosts=[redis_url], prefix="local-two")
        there = RedisChannelLayer(hosts=[redis_url], prefix="local-two")
        mine, theirs = await here.new_channel(), await there.new_channel()
        await here.group_add("game-1-seat-0", mine)
        await here.group_add("game-1-seat-1", theirs)
        [my_task] = await receiving(here, mine)
        [their_task] = await receiving(there, theirs)
        queued = redis_zadds(redis_url)
        await here.group_send_many([("game-1-seat-0", {"type": "m", "seat": 0}),
                                    ("game-1-seat-1", {"type": "m", "seat": 1})])
        got = [await asyncio.wait_for(my_task, NEVER), await asyncio.wait_for(their_task, NEVER)]
        assert redis_zadds(redis_url) > queued  # the other process' message went through Redis
        # The read of Redis the fan-out interrupted goes on: a send from the other process arrives.
        [my_task] = await receiving(here, mine)
        await there.group_send_many([("game-1-seat-0", {"type": "m", "from": "there"})])
        got.append(await asyncio.wait_for(my_task, NEVER))
        await here.flush()
        await there.flush()
        return got

    assert run(scenario()) == [{"type": "m", "seat": 0}, {"type": "m", "seat": 1}, {"type": "m", "from": "there"}]


def test_fan_outs_reach_a_page_in_the_order_they_were_sent(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="local-order")
        reader, page = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", page)
        await receiving(layer, reader)  # another page of the process holds the reading
        for version in range(1, 6):
            await layer.group_send_many([("g", {"type": "m", "version": version})])
        got = [(await asyncio.wait_for(layer.receive(page), NEVER))["version"] for _ in range(5)]
        await layer.flush()
        return got

    assert run(scenario()) == [1, 2, 3, 4, 5]


def test_a_page_of_this_process_gets_the_message_itself_not_a_copy(redis_url):
    """No trip through the serializer for a page here: the fan-out's message is
    handed over as it was built (nobody changes it after it is sent)."""
    async def scenario():
        layer, page = await page_in_group(redis_url, "local-copy")
        [task] = await receiving(layer, page)
        sent = {"type": "m", "hand": ["6H"]}
        serialized = []
        pack = layer.serialize
        layer.serialize = lambda message: serialized.append(message) or pack(message)
        await layer.group_send_many([("g", sent)])
        got = await asyncio.wait_for(task, NEVER)
        await layer.flush()
        return sent, got, serialized

    sent, got, serialized = run(scenario())
    assert got is sent
    assert serialized == []


def test_a_fan_out_from_another_thread_goes_through_redis_and_arrives(redis_url):
    """A Celery worker or a request outside the server's loop sends from an
    event loop of its own: it may not touch the receive buffers."""
    async def scenario():
        layer, page = await page_in_group(redis_url, "local-thread")
        [task] = await receiving(layer, page)
        queued = redis_zadds(redis_url)
        sender = threading.Thread(target=lambda: asyncio.run(layer.group_send_many([("g", {"type": "m"})])))
        sender.start()
        await asyncio.get_running_loop().run_in_executor(None, sender.join)
        got = await asyncio.wait_for(task, NEVER)
        assert redis_zadds(redis_url) > queued
        await layer.flush()
        return got

    assert run(scenario()) == {"type": "m"}


def test_closing_the_layer_ends_the_read_it_kept(redis_url):
    async def scenario():
        layer, page = await page_in_group(redis_url, "local-close")
        [task] = await receiving(layer, page)
        await layer.group_send_many([("g", {"type": "m"})])
        await asyncio.wait_for(task, NEVER)
        kept = list(layer._reads.values())
        assert kept and not any(read.done() for read in kept)
        await layer.flush()
        return kept

    assert all(read.cancelled() for read in run(scenario()))


def test_a_read_of_redis_that_failed_while_no_page_waited_does_not_fail_the_next_page(tmp_path):
    """Redis went away while the read the fan-out interrupted had nobody
    waiting for it; once Redis is back, the next page to receive reads
    afresh instead of inheriting that error (and closing its socket)."""
    port = free_port()

    def start_redis():
        proc = subprocess.Popen(server_command(port, tmp_path), stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        client = redis.Redis(port=port)
        for _ in range(500):
            try:
                client.ping()
                return proc
            except redis.ConnectionError:
                time.sleep(0.01)
        raise RuntimeError("Redis did not start")

    async def scenario(proc):
        layer, page = await page_in_group(f"redis://127.0.0.1:{port}/0", "local-outage")
        [task] = await receiving(layer, page)
        await layer.group_send_many([("g", {"type": "m", "n": 1})])
        first = await asyncio.wait_for(task, NEVER)
        [kept] = layer._reads.values()
        proc.kill()
        proc.wait()
        await asyncio.wait([kept], timeout=NEVER)
        assert kept.done() and isinstance(kept.exception(), redis.ConnectionError)
        proc = start_redis()
        await layer.group_add("g", page)  # the restarted Redis lost the groups; the page's socket rejoins
        [task] = await receiving(layer, page)
        await layer.group_send_many([("g", {"type": "m", "n": 2})])
        second = await asyncio.wait_for(task, NEVER)
        await layer.flush()
        return proc, [first, second]

    proc = start_redis()
    try:
        proc, got = run(scenario(proc))
    finally:
        proc.kill()
        proc.wait()
    assert got == [{"type": "m", "n": 1}, {"type": "m", "n": 2}]


def test_many_pages_receiving_all_the_time_get_every_fan_out_of_their_process(redis_url):
    """Pages that receive in a loop, as consumers do, while fan-outs to
    changing sets of them come one after another: the receive lock passes
    from page to page as their messages arrive, and none is left waiting."""
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="local-busy")
        pages = [await layer.new_channel() for _ in range(6)]
        for seat, page in enumerate(pages):
            await layer.group_add(f"seat-{seat}", page)
        got = {page: [] for page in pages}

        async def consume(page):
            while True:
                got[page].append((await layer.receive(page))["n"])
                await asyncio.sleep(0)

        consumers = [asyncio.ensure_future(consume(page)) for page in pages]
        await asyncio.sleep(0.05)
        rng = random.Random(7)
        sent = {page: [] for page in pages}
        for n in range(300):
            seats = rng.sample(range(6), rng.randint(1, 6))
            await layer.group_send_many([(f"seat-{seat}", {"type": "m", "n": n}) for seat in seats])
            for seat in seats:
                sent[pages[seat]].append(n)
            if n % 7 == 0:
                await asyncio.sleep(0)
        give_up = time.monotonic() + NEVER
        while got != sent and time.monotonic() < give_up:
            await asyncio.sleep(0.02)
        for consumer in consumers:
            consumer.cancel()
        await asyncio.gather(*consumers, return_exceptions=True)
        await layer.flush()
        return got, sent

    got, sent = run(scenario())
    assert got == sent
