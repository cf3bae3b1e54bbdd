"""`group_send_many`: a move's fan-out (one view per seat group) in two Redis
round trips, delivering exactly what channels_redis' `group_send` delivers."""

import asyncio

import pytest

from config.channel_layer import RedisChannelLayer


def run(coroutine):
    return asyncio.run(coroutine)


async def receive(layer, channel, timeout=2.0):
    return await asyncio.wait_for(layer.receive(channel), timeout)


async def nothing_for(layer, channel, seconds=0.3) -> bool:
    try:
        await asyncio.wait_for(layer.receive(channel), seconds)
    except asyncio.TimeoutError:
        return True
    return False


def test_each_group_gets_its_own_message_and_no_other(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-own")
        seat0a, seat0b, seat1, spectator = [await layer.new_channel() for _ in range(4)]
        await layer.group_add("game-1-seat-0", seat0a)
        await layer.group_add("game-1-seat-0", seat0b)  # the same player in two tabs
        await layer.group_add("game-1-seat-1", seat1)
        await layer.group_add("game-1-public", spectator)
        await layer.group_send_many([
            ("game-1-public", {"type": "game.update", "payload": {"seat": None}}),
            ("game-1-seat-0", {"type": "game.update", "payload": {"seat": 0, "hand": ["AS"]}}),
            ("game-1-seat-1", {"type": "game.update", "payload": {"seat": 1, "hand": ["KD"]}}),
            ("game-1-seat-2", {"type": "game.update", "payload": {"seat": 2}}),  # nobody connected
        ])
        got = {name: await receive(layer, channel) for name, channel in
               [("0a", seat0a), ("0b", seat0b), ("1", seat1), ("public", spectator)]}
        assert got["0a"] == got["0b"] == {"type": "game.update", "payload": {"seat": 0, "hand": ["AS"]}}
        assert got["1"]["payload"] == {"seat": 1, "hand": ["KD"]}
        assert got["public"]["payload"] == {"seat": None}
        for channel in (seat0a, seat0b, seat1, spectator):
            assert await nothing_for(layer, channel)  # one message each, nothing of another seat's
        await layer.flush()

    run(scenario())


def test_it_delivers_what_group_send_delivers(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-same")
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        message = {"type": "game.update", "payload": {"version": 3, "view": {"hand": ["6H", "JOKER"]}}}
        await layer.group_send("g", message)
        await layer.group_send_many([("g", message)])
        assert await receive(layer, channel) == await receive(layer, channel) == message
        await layer.flush()

    run(scenario())


def test_a_full_channel_drops_the_message_as_group_send_does(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-full", channel_capacity={"specific.*": 2})
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        for n in range(3):
            await layer.group_send_many([("g", {"type": "m", "n": n})])
        assert [(await receive(layer, channel))["n"] for _ in range(2)] == [0, 1]
        assert await nothing_for(layer, channel)
        await layer.flush()

    run(scenario())


@pytest.mark.parametrize("hosts", [2])
def test_with_several_redis_hosts_it_falls_back_to_group_send(redis_url, hosts):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url] * hosts, prefix="fanout-shard")
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await layer.group_send_many([("g", {"type": "m"})])
        assert (await receive(layer, channel)) == {"type": "m"}
        await layer.flush()

    run(scenario())


def test_one_process_gets_one_message_and_each_channel_only_its_groups(redis_url):
    """A process' channels share one Redis key: the fan-out queues one message
    there (a bundle), and opening it hands each channel the message of its
    own group only; a channel of that process in no group gets nothing."""
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-bundle")
        seat0, seat1, spectator, stranger = [await layer.new_channel() for _ in range(4)]
        other_process = RedisChannelLayer(hosts=[redis_url], prefix="fanout-bundle")
        seat2 = await other_process.new_channel()
        for group, channel in [("game-1-seat-0", seat0), ("game-1-seat-1", seat1),
                               ("game-1-public", spectator), ("game-1-seat-2", seat2)]:
            await layer.group_add(group, channel)
        await layer.group_send_many([
            ("game-1-public", {"type": "game.update", "payload": {"seat": None}}),
            ("game-1-seat-0", {"type": "game.update", "payload": {"seat": 0, "hand": ["AS"]}}),
            ("game-1-seat-1", {"type": "game.update", "payload": {"seat": 1, "hand": ["KD"]}}),
            ("game-1-seat-2", {"type": "game.update", "payload": {"seat": 2, "hand": ["QC"]}}),
        ])
        connection = layer.connection(0)
        assert await connection.zcard(layer.prefix + layer.non_local_name(seat0)) == 1
        assert await connection.zcard(layer.prefix + other_process.non_local_name(seat2)) == 1
        assert (await receive(layer, seat1))["payload"] == {"seat": 1, "hand": ["KD"]}
        assert (await receive(layer, seat0))["payload"] == {"seat": 0, "hand": ["AS"]}
        assert (await receive(layer, spectator))["payload"] == {"seat": None}
        assert (await receive(other_process, seat2))["payload"] == {"seat": 2, "hand": ["QC"]}
        for channel in (seat0, seat1, spectator, stranger):
            assert await nothing_for(layer, channel)
        assert await nothing_for(other_process, seat2)
        await layer.flush()

    run(scenario())


def test_a_channel_in_two_groups_gets_both_messages(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-two")
        both, one = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("a", both)
        await layer.group_add("b", both)
        await layer.group_add("b", one)
        await layer.group_send_many([("a", {"type": "m", "n": 1}), ("b", {"type": "m", "n": 2})])
        assert sorted([(await receive(layer, both))["n"], (await receive(layer, both))["n"]]) == [1, 2]
        assert (await receive(layer, one))["n"] == 2
        assert await nothing_for(layer, both) and await nothing_for(layer, one)
        await layer.flush()

    run(scenario())


def test_a_channel_outside_any_process_gets_each_message_plainly(redis_url):
    """A general channel (no "!") has a key of its own and is read without a
    receive buffer: it gets each group's message as it is, never a bundle."""
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-general")
        await layer.group_add("a", "worker-queue")
        await layer.group_add("b", "worker-queue")
        await layer.group_send_many([("a", {"type": "m", "n": 1}), ("b", {"type": "m", "n": 2})])
        assert sorted([(await receive(layer, "worker-queue"))["n"] for _ in range(2)]) == [1, 2]
        await layer.flush()

    run(scenario())


def test_a_message_given_as_a_function_is_built_only_for_a_group_with_a_member(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-lazy")
        seat0 = await layer.new_channel()
        await layer.group_add("game-1-seat-0", seat0)
        built = []

        def view_of(seat):
            def build():
                built.append(seat)
                return {"type": "game.update", "payload": {"seat": seat}}
            return build

        await layer.group_send_many([("game-1-public", view_of(None)), ("game-1-seat-0", view_of(0)),
                                     ("game-1-seat-1", view_of(1))])  # only seat 0 has a page open
        assert (await receive(layer, seat0))["payload"] == {"seat": 0}
        assert built == [0]
        await layer.flush()

    run(scenario())


def test_the_fan_out_still_goes_after_redis_forgot_its_scripts(redis_url):
    """A restarted Redis has an empty script cache: the scripts are loaded again, nothing is lost."""
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-scripts")
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await layer.group_send_many([("g", {"type": "m", "n": 1})])
        await layer.connection(0).script_flush()
        await layer.group_send_many([("g", {"type": "m", "n": 2})])
        assert [(await receive(layer, channel))["n"] for _ in range(2)] == [1, 2]
        await layer.flush()

    run(scenario())
