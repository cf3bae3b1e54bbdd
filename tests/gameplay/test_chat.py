"""Table chat: stored, rate-limited, seen by the players (and the spectators
of a public table), hidden by moderators."""

import pytest
from asgiref.sync import async_to_sync
from django.urls import reverse

from gameplay import services
from gameplay.models import ChatMessage

from .conftest import client_for
from .test_consumer import ORIGIN, communicator, headers_for


@pytest.mark.django_db
def test_a_player_writes_and_the_message_is_stored(joker_game, players):
    message = services.post_chat(joker_game.pk, players[1], "  I pass everything  ")
    assert (message.text, message.user, message.hidden) == ("I pass everything", players[1], False)


@pytest.mark.django_db
@pytest.mark.parametrize("text", ["", "   ", None, 42, "x" * 501])
def test_an_empty_or_overlong_message_is_refused(joker_game, players, text):
    with pytest.raises(services.GameError):
        services.post_chat(joker_game.pk, players[0], text)
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_a_spectator_cannot_write(joker_game, django_user_model):
    with pytest.raises(services.GameError) as refused:
        services.post_chat(joker_game.pk, django_user_model.objects.create_user("watcher"), "hi")
    assert refused.value.code == "not_seated"


@pytest.mark.django_db
def test_writing_too_fast_is_refused(joker_game, players):
    for i in range(5):
        services.post_chat(joker_game.pk, players[0], f"message {i}")
    with pytest.raises(services.GameError) as refused:
        services.post_chat(joker_game.pk, players[0], "one more")
    assert refused.value.code == "rate_limited"
    services.post_chat(joker_game.pk, players[1], "others still can")


@pytest.mark.django_db
def test_a_moderator_hides_a_message_in_the_admin(joker_game, players, django_user_model):
    message = services.post_chat(joker_game.pk, players[0], "rude words")
    moderator = django_user_model.objects.create_superuser("mod", password="pw")
    client = client_for(moderator)
    url = reverse("admin:gameplay_chatmessage_changelist")
    asked = client.post(url, {"action": "hide", "_selected_action": [message.pk]})
    assert 'name="reason"' in asked.content.decode()  # a moderator gives a reason first
    message.refresh_from_db()
    assert not message.hidden
    client.post(url, {"action": "hide", "_selected_action": [message.pk], "apply": "1", "reason": "Insults"})
    message.refresh_from_db()
    assert message.hidden


@pytest.mark.django_db(transaction=True)
def test_players_and_spectators_of_a_public_table_receive_the_message_live(joker_game, players):
    player_headers = headers_for(players[2])

    async def scenario():
        player, spectator = communicator(joker_game.pk, player_headers), communicator(joker_game.pk, [ORIGIN])
        for ws in (player, spectator):
            await ws.connect()
            assert (await ws.receive_json_from(timeout=5))["type"] == "state"
            assert (await ws.receive_json_from(timeout=5))["type"] == "chat_history"
        await player.send_json_to({"type": "chat", "text": "I have no hearts, honestly"})
        got = [await ws.receive_json_from(timeout=5) for ws in (player, spectator)]
        await spectator.send_json_to({"type": "chat", "text": "can I?"})
        refusal = await spectator.receive_json_from(timeout=5)
        for ws in (player, spectator):
            await ws.disconnect()
        return got, refusal

    got, refusal = async_to_sync(scenario)()
    assert [m["message"]["text"] for m in got] == ["I have no hearts, honestly"] * 2
    assert got[0]["message"]["author"] == players[2].name
    assert refusal["code"] == "not_seated"
