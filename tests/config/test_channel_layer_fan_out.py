"""`group_send_many`: a move's fan-out (one view per seat group) in one Redis
round trip while the table's pages stay the same (two after one opened or
closed), delivering exactly what channels_redis' `group_send` delivers."""

import asyncio

import pytest

from config import channel_layer
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


async def script_calls(layer) -> int:
    stats = await layer.connection(0).info("commandstats")
    return sum(stats.get(name, {}).get("calls", 0) for name in ("cmdstat_evalsha", "cmdstat_eval"))


def test_a_fan_out_to_the_pages_of_the_last_one_takes_one_script_call(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-known")
        seat0, seat1 = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game-1-seat-0", seat0)
        await layer.group_add("game-1-seat-1", seat1)
        calls = []
        for version in (1, 2, 3):
            before = await script_calls(layer)
            await layer.group_send_many([("game-1-public", {"type": "m", "v": version}),
                                         ("game-1-seat-0", {"type": "m", "v": version}),
                                         ("game-1-seat-1", {"type": "m", "v": version})])
            calls.append(await script_calls(layer) - before)
        assert calls == [2, 1, 1]  # the first learns who is there; the next ones check it as they send
        for channel in (seat0, seat1):
            assert [(await receive(layer, channel))["v"] for _ in range(3)] == [1, 2, 3]
        await layer.flush()

    run(scenario())


def test_a_page_opened_since_the_last_fan_out_gets_the_next_one(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-opened")
        seat0 = await layer.new_channel()
        await layer.group_add("game-1-seat-0", seat0)
        built = []

        def view_of(seat, version):
            def build():
                built.append((seat, version))
                return {"type": "m", "seat": seat, "v": version}
            return build

        await layer.group_send_many([("game-1-seat-0", view_of(0, 1)), ("game-1-seat-1", view_of(1, 1))])
        seat1, seat0_again = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game-1-seat-1", seat1)
        await layer.group_add("game-1-seat-0", seat0_again)  # the same player in a second tab
        await layer.group_send_many([("game-1-seat-0", view_of(0, 2)), ("game-1-seat-1", view_of(1, 2))])
        assert [(await receive(layer, seat0))["v"] for _ in range(2)] == [1, 2]
        assert await receive(layer, seat1) == {"type": "m", "seat": 1, "v": 2}
        assert await receive(layer, seat0_again) == {"type": "m", "seat": 0, "v": 2}
        assert built == [(0, 1), (0, 2), (1, 2)]  # each view built once, only for a group with a member
        for channel in (seat0, seat1, seat0_again):
            assert await nothing_for(layer, channel)
        await layer.flush()

    run(scenario())


def test_a_page_closed_since_the_last_fan_out_gets_nothing_more(redis_url):
    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-closed")
        seat0, seat1 = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("game-1-seat-0", seat0)
        await layer.group_add("game-1-seat-1", seat1)
        await layer.group_send_many([("game-1-seat-0", {"type": "m", "v": 1}), ("game-1-seat-1", {"type": "m", "v": 1})])
        await layer.group_discard("game-1-seat-1", seat1)
        await layer.group_send_many([("game-1-seat-0", {"type": "m", "v": 2}), ("game-1-seat-1", {"type": "m", "v": 2})])
        assert [(await receive(layer, seat0))["v"] for _ in range(2)] == [1, 2]
        assert (await receive(layer, seat1))["v"] == 1
        assert await nothing_for(layer, seat1)
        await layer.flush()

    run(scenario())


def test_a_fan_out_whose_pages_keep_changing_goes_to_those_read_last(redis_url):
    """A page opens at every try (here: whenever a message is packed): the tries
    end, and the last one, not checked, reaches everybody read before it."""
    import time

    import redis

    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-changing")
        seat0 = await layer.new_channel()
        await layer.group_add("g", seat0)
        opened = []
        with redis.Redis.from_url(redis_url) as other_process:
            pack = layer.serialize

            def serialize_while_a_page_opens(message):
                opened.append(f"{layer.client_prefix}!late{len(opened)}")
                other_process.zadd(layer._group_key("g"), {opened[-1]: time.time()})
                return pack(message)

            layer.serialize = serialize_while_a_page_opens
            before = await script_calls(layer)
            await layer.group_send_many([("g", {"type": "m", "v": 1})])
            calls = await script_calls(layer) - before
        assert calls == channel_layer.FAN_OUT_ATTEMPTS
        assert (await receive(layer, seat0))["v"] == 1
        assert (await receive(layer, opened[0]))["v"] == 1  # read by the try before the last
        assert await nothing_for(layer, opened[-1])  # opened after the last read
        await layer.flush()

    run(scenario())


def test_the_members_kept_are_those_of_the_most_recent_tables(redis_url, monkeypatch):
    monkeypatch.setattr(channel_layer, "KNOWN_MEMBERS_LIMIT", 2)

    async def scenario():
        layer = RedisChannelLayer(hosts=[redis_url], prefix="fanout-kept")
        for table in (1, 2, 3, 2):
            await layer.group_send_many([(f"game-{table}-public", {"type": "m"})])
        assert [groups[0].decode().rsplit(":", 1)[-1] for groups in layer._known_members] == ["game-3-public",
                                                                                      "game-2-public"]
        await layer.flush()

    run(scenario())
