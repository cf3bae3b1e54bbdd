"""A moderator mutes an account in chat until a date (with a reason, one
audit row), in the admin and through the service: its chat messages are
refused with a clear message, over WebSocket too, until the mute ends or is
lifted; it can still play."""

from datetime import timedelta

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from moderation.services import people as services
from gameplay import services as game_services
from gameplay.models import ChatMessage
from gameplay.services.base import GameError
from moderation.models import AuditEntry
from tests.gameplay.test_consumer import communicator, headers_for

from .conftest import client_for, started_game

pytestmark = pytest.mark.django_db


def test_a_muted_player_cannot_chat_and_can_again_once_the_time_is_over(joker_game, players, moderator):
    until = timezone.now() + timedelta(hours=2)
    services.mute(players[1].pk, moderator, "insults", until)
    with pytest.raises(GameError, match="muted you in chat until") as refused:
        game_services.post_chat(joker_game.pk, players[1], "again")
    assert refused.value.code == "muted"
    assert not ChatMessage.objects.exists()
    game_services.post_chat(joker_game.pk, players[0], "others still can")
    with time_machine.travel(until + timedelta(seconds=1)):
        game_services.post_chat(joker_game.pk, players[1], "sorry")
    assert ChatMessage.objects.filter(user=players[1]).count() == 1


def test_a_muted_player_can_still_play(joker_game, players, moderator):
    game = started_game("durak", players[:2])
    services.mute(players[0].pk, moderator, "spam", timezone.now() + timedelta(days=1))
    game_services.resign(game.pk, players[0])  # acting at the table is not chatting


def test_the_mute_is_told_in_the_players_own_language_and_time_zone(joker_game, players, moderator):
    players[1].time_zone = "Asia/Tbilisi"
    players[1].save(update_fields=["time_zone"])
    services.mute(players[1].pk, moderator, "flood", timezone.now() + timedelta(days=1))
    with pytest.raises(GameError, match=r"\(Asia/Tbilisi\)"):
        game_services.post_chat(joker_game.pk, players[1], "hi")


@pytest.mark.django_db(transaction=True)
def test_a_socket_opened_before_the_mute_gets_a_clear_refusal_for_its_chat(joker_game, players, boss):
    headers = headers_for(players[1])

    async def open_socket():
        ws = communicator(joker_game.pk, headers)
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=5)  # state
        await ws.receive_json_from(timeout=5)  # chat history
        return ws

    async def chat(ws, text):
        await ws.send_json_to({"type": "chat", "text": text})
        return await ws.receive_json_from(timeout=5)

    async def scenario():
        ws = await open_socket()
        first = await chat(ws, "before")
        await database_sync_to_async(services.mute)(players[1].pk, boss, "insults",
                                                    timezone.now() + timedelta(hours=1))
        second = await chat(ws, "after")
        await ws.disconnect()
        return first, second

    first, second = async_to_sync(scenario)()
    assert first["type"] == "chat" and first["message"]["text"] == "before"
    assert second["type"] == "error" and second["code"] == "muted" and "muted you in chat" in second["message"]
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["before"]


def test_a_moderator_mutes_and_unmutes_in_the_admin_with_a_reason_and_one_audit_row_each(joker_game, players,
                                                                                        moderator):
    client = client_for(moderator)
    mute_url = reverse("admin:moderation_player_mute", args=[players[1].pk])
    until = (timezone.localtime() + timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    assert client.post(mute_url, {"reason": "", "until": until}).status_code == 200  # the reason is required
    assert client.post(mute_url, {"reason": "insults"}).status_code == 200  # and the end
    assert not AuditEntry.objects.exists()

    response = client.post(mute_url, {"reason": "insults", "until": until}, follow=True)

    assert "muted in chat" in response.text
    players[1].refresh_from_db()
    assert players[1].chat_muted_until > timezone.now() + timedelta(days=2)
    entry = AuditEntry.objects.get()
    assert (entry.action, entry.target_user, entry.reason) == (AuditEntry.Action.MUTE, players[1], "insults")

    client.post(reverse("admin:moderation_player_unmute", args=[players[1].pk]), {"reason": "apologised"})
    players[1].refresh_from_db()
    assert players[1].chat_muted_until is None
    assert AuditEntry.objects.order_by("pk").last().action == AuditEntry.Action.UNMUTE
    assert AuditEntry.objects.count() == 2
    game_services.post_chat(joker_game.pk, players[1], "sorry")


def test_muting_needs_a_future_end_and_unmuting_needs_a_mute(players, moderator):
    with pytest.raises(GameError, match="future"):
        services.mute(players[1].pk, moderator, "spam", timezone.now() - timedelta(minutes=1))
    with pytest.raises(GameError, match="not muted"):
        services.unmute(players[1].pk, moderator, "nothing")
    with pytest.raises(GameError, match="your own account"):
        services.mute(moderator.pk, moderator, "test", timezone.now() + timedelta(days=1))
    assert not AuditEntry.objects.exists()


def test_each_mute_and_unmute_through_the_service_leaves_exactly_one_audit_row(players, moderator):
    services.mute(players[1].pk, moderator, "spam", timezone.now() + timedelta(days=1))
    services.mute(players[1].pk, moderator, "longer", timezone.now() + timedelta(days=7))
    services.unmute(players[1].pk, moderator, "ok")
    assert list(AuditEntry.objects.order_by("pk").values_list("action", "reason")) == [
        ("mute", "spam"), ("mute", "longer"), ("unmute", "ok")]
    assert AuditEntry.objects.order_by("pk")[1].before["chat_muted_until"] is not None
