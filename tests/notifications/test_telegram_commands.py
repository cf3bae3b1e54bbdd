"""The bot's commands for a linked player: /games lists the games waiting for his move with
the time left and an "Open" button each; /mute <hours> silences it (bad input: how to use
it); /stop ends the messages and /start brings them back."""

from datetime import timedelta

import pytest
from django.utils import timezone

from notifications.channels import YOUR_MOVE, Notice
from notifications.telegram import links
from notifications.telegram.channel import TelegramChannel
from notifications.telegram.models import TelegramLink

from .conftest import acting_player, bot_hears, started_game

pytestmark = pytest.mark.django_db
CHAT = 5550101


@pytest.fixture
def linked(telegram, players):
    """players[0] linked to chat CHAT."""
    bot_hears(telegram, CHAT, f"/start {links.new_token(players[0])}")
    return players[0]


def notice_for(user) -> Notice:
    return Notice(kind=YOUR_MOVE, user_id=user.pk, title="Your move", body="Joker with Anna", key="your_move:x",
                  url="http://testserver/games/1/", button="Open the game")


def test_games_lists_the_games_waiting_for_his_move_with_time_left_and_open_buttons(settings, telegram, players):
    game = started_game("joker", players)
    position, mover = acting_player(game, players)
    bot_hears(telegram, CHAT, f"/start {links.new_token(mover)}")

    [reply] = bot_hears(telegram, CHAT, "/games")

    lines = reply["text"].splitlines()
    assert lines[0] == "Games waiting for your move:"
    assert lines[1].startswith("1. Joker with ") and lines[1].endswith(" left")
    assert " min " in lines[1] or " h " in lines[1] or " d " in lines[1]
    [[button]] = reply["reply_markup"]["inline_keyboard"]
    assert button["text"].startswith("Open 1. Joker with ")
    assert button["url"] == f"{settings.SITE_URL.rstrip('/')}/games/{game.pk}/"


def test_games_says_so_when_nothing_waits(telegram, linked):
    [reply] = bot_hears(telegram, CHAT, "/games")

    assert reply["text"] == "No game is waiting for your move."
    assert reply["reply_markup"] is None


def test_a_chat_that_is_not_linked_is_told_how_to_link(telegram):
    [reply] = bot_hears(telegram, CHAT + 7, "/games")

    assert reply["text"].startswith("This chat is not linked to an account yet.")


def test_mute_3_silences_the_bot_for_3_hours(telegram, linked):
    [reply] = bot_hears(telegram, CHAT, "/mute 3")

    link = TelegramLink.objects.get(user=linked)
    assert abs(link.muted_until - (timezone.now() + timedelta(hours=3))) < timedelta(minutes=1)
    assert reply["text"].startswith("No messages until ")
    before = len(telegram.messages)
    TelegramChannel().send(TelegramChannel().destinations(linked)[0], notice_for(linked))
    assert len(telegram.messages) == before  # muted: skipped

    bot_hears(telegram, CHAT, "/mute 0")
    TelegramChannel().send(TelegramChannel().destinations(linked)[0], notice_for(linked))
    assert len(telegram.messages) == before + 2  # the "/mute 0" answer and the notice


@pytest.mark.parametrize("argument", ["", "three", "-1", "1.5", "721", "3 hours"])
def test_mute_with_bad_input_explains_its_use_and_changes_nothing(telegram, linked, argument):
    [reply] = bot_hears(telegram, CHAT, f"/mute {argument}".strip())

    assert reply["text"].startswith("Usage: /mute HOURS")
    assert TelegramLink.objects.get(user=linked).muted_until is None


def test_stop_ends_the_messages_and_start_brings_them_back(telegram, linked):
    [reply] = bot_hears(telegram, CHAT, "/stop")

    assert reply["text"].startswith("Stopped:")
    assert TelegramLink.objects.get(user=linked).stopped
    assert TelegramChannel().destinations(linked) == []

    [reply] = bot_hears(telegram, CHAT, "/start")

    assert reply["text"].startswith("Messages are on again.")
    assert not TelegramLink.objects.get(user=linked).stopped
    assert [d.key for d in TelegramChannel().destinations(linked)] == ["telegram"]


def test_help_and_any_other_text_list_the_commands_in_his_language(telegram, linked):
    type(linked).objects.filter(pk=linked.pk).update(language="ru")

    [help_reply] = bot_hears(telegram, CHAT, "/help")
    [other_reply] = bot_hears(telegram, CHAT, "hello?")

    assert help_reply["text"] == other_reply["text"]
    assert "/games — партии, ждущие вашего хода" in help_reply["text"]


def test_group_chats_are_ignored(telegram, linked):
    update = telegram.update(CHAT + 9, "/games", chat_type="group")
    from asgiref.sync import async_to_sync

    from notifications.telegram import bot

    async def feed():
        async with bot.new_bot() as telegram_bot:
            await bot.new_dispatcher().feed_raw_update(telegram_bot, update)

    async_to_sync(feed)()
    assert telegram.messages_to(CHAT + 9) == []
