"""Issue 40, part 4: a player blocks another from his page or a chat line:
their chat lines are hidden from each other, the blocked player's challenges
and follows are refused with a bare "not accepted", neither joins a table
the other sits at, a page lists the blocks and lifts them."""

import pytest
from channels.layers import get_channel_layer
from asgiref.sync import async_to_sync
from django.urls import reverse

from accounts.models import Block
from correspondence import services as correspondence
from correspondence.models import Challenge, Follow
from gameplay import broadcast
from gameplay import services as games
from tests.gameplay.test_consumer import communicator, headers_for


@pytest.fixture
def three(django_user_model):
    return [django_user_model.objects.create_user(name, f"{name}@example.com", "pw-" + name, display_name=name.title(),
                                                     language="en")
            for name in ("anna", "boris", "vera")]


def test_a_player_blocks_another_from_his_page_and_lifts_it_on_the_blocks_page(client, three):
    anna, boris, _vera = three
    client.force_login(anna)
    page = client.get(reverse("player", args=["boris"]))
    assert 'id="block"' in page.text and reverse("block") in page.text

    response = client.post(reverse("block"), {"username": "boris", "next": reverse("player", args=["boris"])},
                           follow=True)
    assert "Blocked:" in response.text
    assert Block.objects.filter(blocker=anna, blocked=boris).exists()
    listed = client.get(reverse("blocks"))
    assert 'data-username="boris"' in listed.text

    client.post(reverse("unblock"), {"username": "boris"})
    assert not Block.objects.exists()
    assert "You block nobody." in client.get(reverse("blocks")).text


def test_the_blocked_players_follows_and_challenges_are_not_accepted(three):
    anna, boris, _vera = three
    correspondence.follow(boris, "anna")
    correspondence.follow(anna, "boris")
    pending = correspondence.create_challenge(boris, ["anna"], "durak")

    correspondence.block(anna, "boris")

    assert not Follow.objects.exists()  # the follows between them end
    pending.refresh_from_db()
    assert pending.status == Challenge.Status.DECLINED
    for attempt in (lambda: correspondence.follow(boris, "anna"),
                    lambda: correspondence.create_challenge(boris, ["anna"], "durak")):
        with pytest.raises(correspondence.CorrespondenceError) as refused:
            attempt()
        assert refused.value.message == "Not accepted."  # nothing says he is blocked
    with pytest.raises(correspondence.CorrespondenceError) as refused:
        correspondence.create_challenge(anna, ["boris"], "durak")
    assert "You have blocked Boris" in refused.value.message


def test_neither_joins_a_table_the_other_sits_at(three):
    anna, boris, vera = three
    correspondence.block(anna, "boris")
    hers = games.create_game(anna, "joker", players=4)
    his = games.create_game(boris, "joker", players=4)

    for table, who in ((hers, boris), (his, anna)):
        with pytest.raises(games.GameError) as refused:
            games.join_game(table.pk, who)
        assert refused.value.code == "blocked"
    games.join_game(hers.pk, vera)


def test_their_chat_lines_are_hidden_from_each_other_live_and_in_the_history(three):
    anna, boris, vera = three
    game = games.create_seated_game([anna, boris, vera], "durak")
    correspondence.block(anna, "boris")
    layer = get_channel_layer()
    channels = {}
    for position in range(3):
        channels[position] = async_to_sync(layer.new_channel)()
        async_to_sync(layer.group_add)(broadcast.seat_group(game.pk, position), channels[position])

    games.post_chat(game.pk, boris, "you again")
    broadcast.send_chat(game.chat.get(text="you again").pk)

    def received(position):
        try:
            return async_to_sync(layer.receive)(channels[position])
        except Exception:
            return None

    seat_of = {s.user_id: s.position for s in game.seats.all()}
    assert received(seat_of[vera.pk])["payload"]["message"]["text"] == "you again"
    assert received(seat_of[boris.pk])["payload"]["message"]["text"] == "you again"
    import asyncio

    async def nothing_for_anna():
        try:
            await asyncio.wait_for(layer.receive(channels[seat_of[anna.pk]]), timeout=0.2)
        except asyncio.TimeoutError:
            return True
        return False
    assert async_to_sync(nothing_for_anna)()

    assert [m["text"] for m in broadcast.chat_history(game, anna.pk)] == []
    assert [m["text"] for m in broadcast.chat_history(game, vera.pk)] == ["you again"]
    games.post_chat(game.pk, anna, "go away")
    assert [m["text"] for m in broadcast.chat_history(game, boris.pk)] == ["you again"]


def test_a_chat_line_carries_the_link_to_block_its_author(three):
    anna, boris, vera = three
    game = games.create_seated_game([anna, boris, vera], "durak")
    assert games.post_chat(game.pk, boris, "hi").as_json()["username"] == "boris"


@pytest.mark.django_db(transaction=True)
def test_a_spectator_sees_no_live_chat_line_of_a_player_who_blocks_them_nor_of_one_they_block(three):
    anna, boris, vera = three  # vera watches the public table of anna and boris
    game = games.create_seated_game([anna, boris], "durak")
    correspondence.block(anna, "vera")
    anna_headers, boris_headers, vera_headers = (headers_for(u) for u in three)

    async def scenario():
        anna_ws, boris_ws, vera_ws = (communicator(game.pk, h) for h in (anna_headers, boris_headers, vera_headers))
        for ws in (anna_ws, boris_ws, vera_ws):
            await ws.connect()
            assert (await ws.receive_json_from(timeout=5))["type"] == "state"
            assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        await anna_ws.send_json_to({"type": "chat", "text": "anna writes"})
        await boris_ws.send_json_to({"type": "chat", "text": "boris writes"})
        seen = {}
        for name, ws in (("anna", anna_ws), ("boris", boris_ws), ("vera", vera_ws)):
            seen[name] = []
            while not await ws.receive_nothing(timeout=0.5):
                seen[name].append((await ws.receive_json_from())["message"]["text"])
        for ws in (anna_ws, boris_ws, vera_ws):
            await ws.disconnect()
        return seen

    seen = async_to_sync(scenario)()
    assert sorted(seen["anna"]) == sorted(seen["boris"]) == ["anna writes", "boris writes"]
    assert seen["vera"] == ["boris writes"]


def test_a_chat_event_is_hidden_both_ways_between_a_blocker_and_the_blocked(three):
    anna, boris, vera = three
    correspondence.block(anna, "boris")
    from_anna, from_boris = {"author": anna.pk}, {"author": boris.pk}
    assert broadcast.chat_hidden_from(from_anna, boris.pk) and broadcast.chat_hidden_from(from_boris, anna.pk)
    assert not broadcast.chat_hidden_from(from_anna, vera.pk)
    assert not broadcast.chat_hidden_from(from_anna, None)  # an anonymous spectator is nobody's block
    assert not broadcast.chat_hidden_from(from_anna, anna.pk)  # one's own line


def test_the_report_form_shows_no_line_of_a_player_who_blocks_the_reader(client, three):
    anna, boris, _vera = three
    game = games.create_seated_game([anna, boris], "durak")
    line = games.post_chat(game.pk, anna, "a line boris may not read")
    his = games.post_chat(game.pk, boris, "a line anna may report")
    correspondence.block(anna, "boris")
    client.force_login(boris)
    assert client.get(reverse("new_report") + f"?message={line.pk}").status_code == 404
    client.force_login(anna)  # the blocker still reports what the blocked player wrote
    assert "a line anna may report" in client.get(reverse("new_report") + f"?message={his.pk}").text
