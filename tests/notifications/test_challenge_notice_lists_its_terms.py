"""A challenge's push and Telegram notices list every term of the table it
will start (the same words as the challenges page, its email and the API:
correspondence.terms), in each challenged player's own language."""

import pytest

from correspondence import services as correspondence
from notifications.push import devices
from notifications.telegram import links
from tests.notifications.push_service import push_service, vapid  # noqa: F401 (fixtures)

from .conftest import bot_hears

pytestmark = pytest.mark.django_db(transaction=True)

PEREVODNOY = {"mode": "perevodnoy"}
SLOW = {"time_preset": "slow", "on_timeout": "forfeit", "series_length": 3, "timer_seconds": {"defender": 7200}}
TERMS_EN = ("perevodnoy, 2 players, 3 d a move + 7 d reserve, defender's clock: 2 h, "
            "when time runs out: loss of the game, night pauses apply, a series of 3 games, public table, casual")
TERMS_RU = ("переводной, 2 игрока, 3 д на ход + 7 д запаса, часы защищающегося: 2 ч, "
            "когда время выходит: поражение, ночные паузы действуют, серия из 3 партий, открытый стол, без рейтинга")
CHAT = 5553900


def a_slow_perevodnoy_challenge(by, to) -> None:
    correspondence.create_challenge(by, [to.username], "durak", PEREVODNOY, SLOW)


def test_the_push_notice_of_a_challenge_lists_every_term_of_its_table(players, push_service, vapid):
    browser = push_service.subscribe(vapid)
    keys = browser.to_json()["keys"]
    devices.add_device(players[1], devices.Subscription(browser.endpoint, keys["p256dh"], keys["auth"]), "Firefox")

    a_slow_perevodnoy_challenge(players[0], players[1])

    [message] = push_service.messages_for(browser)
    assert message["title"] == "player0 challenges you"
    assert message["body"] == (f"A game of Durak. The table: {TERMS_EN}. "
                               "Accept or decline it on the challenges page.")


def test_the_telegram_notice_of_a_challenge_lists_every_term_in_the_players_language(telegram, players):
    bot_hears(telegram, CHAT, f"/start {links.new_token(players[1])}")
    type(players[1]).objects.filter(pk=players[1].pk).update(language="ru")
    telegram.messages.clear()

    a_slow_perevodnoy_challenge(players[0], players[1])

    [message] = telegram.wait_for_messages(CHAT, 1)
    assert f"Партия в «Дурак». Стол: {TERMS_RU}. Примите или отклоните вызов" in message["text"]
