"""The channel layer under a busy process: a burst of commands waits for a
connection instead of failing, and a process' sockets share an inbox larger
than one channel's."""

import asyncio

from redis.asyncio import BlockingConnectionPool

from config.channel_layer import PROCESS_CAPACITY, RedisChannelLayer


def run(coroutine):
    return asyncio.run(coroutine)


def test_more_sockets_joining_and_leaving_at_once_than_the_pool_has_connections_all_succeed(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[{"address": redis_url, "max_connections": 3}], prefix="burst")
        channels = [await layer.new_channel() for _ in range(40)]
        await asyncio.gather(*(layer.group_add(f"game-{n % 4}-seat-0", c) for n, c in enumerate(channels)))
        await asyncio.gather(*(layer.group_discard(f"game-{n % 4}-seat-0", c) for n, c in enumerate(channels)))
        pool = layer.connection(0).connection_pool
        assert isinstance(pool, BlockingConnectionPool) and pool.max_connections == 3
        connection = layer.connection(0)
        assert [await connection.zcard(layer._group_key(f"game-{n}-seat-0")) for n in range(4)] == [0, 0, 0, 0]
        await layer.flush()

    run(scenario())


def test_a_process_inbox_keeps_more_fan_outs_than_one_channel_would(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="inbox")
        socket = await layer.new_channel()  # "specific.<process>!<socket>": the process' one key
        await layer.group_add("game-1-seat-0", socket)
        moves = layer.capacity * 3  # three times what a channel of its own holds
        assert moves < PROCESS_CAPACITY
        for version in range(moves):
            await layer.group_send_many([("game-1-seat-0", {"type": "game.update", "version": version})])
        got = [(await asyncio.wait_for(layer.receive(socket), 2))["version"] for _ in range(moves)]
        assert got == list(range(moves))
        await layer.flush()

    run(scenario())


def test_the_settings_own_capacities_come_first():
    layer = RedisChannelLayer(hosts=["redis://127.0.0.1:1"], channel_capacity={"specific.*": 5, "other": 7})
    assert layer.get_capacity("specific.abc!def") == 5
    assert layer.get_capacity("other") == 7
    assert layer.get_capacity("specific.abc!def") != PROCESS_CAPACITY
    assert RedisChannelLayer(hosts=["redis://127.0.0.1:1"]).get_capacity("specific.abc!def") == PROCESS_CAPACITY
    assert RedisChannelLayer(hosts=["redis://127.0.0.1:1"]).get_capacity("game-1") == 100
