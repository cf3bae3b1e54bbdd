"""The Telegram channel: a notice goes as one message with its "Open the game" URL
button; a bot the player blocked drops his link for good; an API that is down (5xx,
flood control) is retried by the dispatcher until the message gets through."""

import pytest

from notifications import dispatch, notices
from notifications.channels import LEAGUE_ROUND, YOUR_MOVE, DestinationGone, Notice, TemporaryFailure
from notifications.models import Delivery
from notifications.telegram import links
from notifications.telegram.channel import TelegramChannel
from notifications.telegram.models import TelegramLink

from .conftest import bot_hears

pytestmark = pytest.mark.django_db
CHAT = 5550201
BLOCKED = "Forbidden: bot was blocked by the user"


@pytest.fixture
def linked(telegram, players):
    bot_hears(telegram, CHAT, f"/start {links.new_token(players[0])}")
    telegram.messages.clear()
    return players[0]


def your_move(user, url="http://testserver/games/12/") -> Notice:
    return Notice(kind=YOUR_MOVE, user_id=user.pk, title="Your move", body="Joker with <Anna>, Boris: 2 h left",
                  url=url, key="your_move:game=12:v=3", button="Open the game")


def words(user):
    return notices.Words("Round 2", "Joker with Boris", notices.game_url(12), "Open the game")


def test_a_your_move_notice_is_a_message_with_an_open_the_game_button(telegram, linked):
    channel = TelegramChannel()
    [destination] = channel.destinations(linked)

    channel.send(destination, your_move(linked))

    [message] = telegram.messages_to(CHAT)
    assert message["text"] == "<b>Your move</b>\nJoker with &lt;Anna&gt;, Boris: 2 h left"
    assert message["parse_mode"] == "HTML"
    assert message["reply_markup"] == {"inline_keyboard": [[{"text": "Open the game",
                                                              "url": "http://testserver/games/12/"}]]}


def test_the_channel_offers_nothing_without_a_link_or_a_token(settings, telegram, players, linked):
    assert TelegramChannel().destinations(players[1]) == []
    settings.TELEGRAM_BOT_TOKEN = ""
    assert not TelegramChannel().is_configured()


def test_a_blocked_bot_drops_the_link(telegram, linked):
    telegram.fail_next("sendMessage", 403, BLOCKED)
    channel = TelegramChannel()

    with pytest.raises(DestinationGone):
        channel.send(channel.destinations(linked)[0], your_move(linked))

    assert not TelegramLink.objects.filter(user=linked).exists()
    assert channel.destinations(linked) == []


def test_a_chat_not_found_drops_the_link_but_another_bad_request_does_not(telegram, linked):
    channel = TelegramChannel()
    [destination] = channel.destinations(linked)
    telegram.fail_next("sendMessage", 400, "Bad Request: BUTTON_URL_INVALID")
    with pytest.raises(TemporaryFailure):
        channel.send(destination, your_move(linked))
    assert TelegramLink.objects.filter(user=linked).exists()

    telegram.fail_next("sendMessage", 400, "Bad Request: chat not found")
    with pytest.raises(DestinationGone):
        channel.send(destination, your_move(linked))
    assert not TelegramLink.objects.filter(user=linked).exists()


def test_flood_control_is_a_temporary_failure_that_says_how_long_to_wait(telegram, linked):
    telegram.fail_next("sendMessage", 429, "Too Many Requests: retry after 7", retry_after=7)
    channel = TelegramChannel()

    with pytest.raises(TemporaryFailure) as failure:
        channel.send(channel.destinations(linked)[0], your_move(linked))

    assert failure.value.retry_after == 7


def test_an_api_that_is_down_is_retried_by_the_dispatcher_until_sent(telegram, linked, run_on_commit):
    telegram.fail_next("sendMessage", 502, "Bad Gateway", times=2)

    with run_on_commit():
        dispatch.notify(LEAGUE_ROUND, [linked], key="league_round:season=1:round=2", compose=words)

    delivery = Delivery.objects.get(user=linked, destination="telegram")
    assert (delivery.state, delivery.attempts) == (Delivery.State.SENT, 3)
    [message] = telegram.messages_to(CHAT)
    assert message["text"] == "<b>Round 2</b>\nJoker with Boris"


def test_an_unreachable_api_is_a_temporary_failure(settings, telegram, linked):
    settings.TELEGRAM_API_URL = "http://127.0.0.1:9"  # nothing listens (discard port)
    channel = TelegramChannel()

    with pytest.raises(TemporaryFailure):
        channel.send(channel.destinations(linked)[0], your_move(linked))


def test_a_blocked_bot_through_the_dispatcher_is_forgotten_and_never_retried(telegram, linked, run_on_commit):
    telegram.fail_next("sendMessage", 403, BLOCKED, times=5)

    with run_on_commit():
        dispatch.notify(LEAGUE_ROUND, [linked], key="league_round:season=1:round=3", compose=words)

    delivery = Delivery.objects.get(user=linked, destination="telegram")
    assert (delivery.state, delivery.attempts) == (Delivery.State.DROPPED, 1)
    assert not TelegramLink.objects.filter(user=linked).exists()


def test_a_notice_while_muted_is_dropped_as_muted_not_sent(telegram, linked, run_on_commit):
    bot_hears(telegram, CHAT, "/mute 2")
    telegram.messages.clear()

    with run_on_commit():
        dispatch.notify(LEAGUE_ROUND, [linked], key="league_round:season=1:round=4", compose=words)

    delivery = Delivery.objects.get(user=linked, destination="telegram")
    assert (delivery.state, delivery.note) == (Delivery.State.DROPPED, "muted")
    assert telegram.messages == []
