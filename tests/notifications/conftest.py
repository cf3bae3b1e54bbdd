"""A fake channel, registered like push and Telegram are, that records what it is sent
and can be told to fail for a while or to report its destination gone."""

from __future__ import annotations

import pytest

from notifications import channels
from notifications.channels import Destination, DestinationGone, Notice, TemporaryFailure

from tests.gameplay.conftest import JOKER, a_legal_action, acting_player, started_game  # noqa: F401


class FakeChannel:
    """Every player has one destination "fake:<his id>"; `sent` lists (destination key, notice)."""

    def __init__(self, name: str = "fake") -> None:
        self.name = name
        self.sent: list[tuple[str, Notice]] = []
        self.attempts = 0
        self.fail_times = 0  # raise TemporaryFailure this many times
        self.gone = False  # raise DestinationGone
        self.forgotten: list[str] = []

    def is_configured(self) -> bool:
        return True

    def destinations(self, user) -> list[Destination]:
        if f"{self.name}:{user.pk}" in self.forgotten:
            return []
        return [Destination(self.name, str(user.pk), f"{self.name} of {user.username}")]

    def send(self, destination: Destination, notice: Notice) -> None:
        self.attempts += 1
        if self.gone:
            raise DestinationGone("unsubscribed")
        if self.fail_times > 0:
            self.fail_times -= 1
            raise TemporaryFailure("the service is down")
        self.sent.append((destination.key, notice))

    def forget(self, destination: Destination) -> None:
        self.forgotten.append(destination.key)

    def notices_to(self, user) -> list[Notice]:
        return [notice for key, notice in self.sent if key == f"{self.name}:{user.pk}"]


@pytest.fixture
def fake():
    channel = FakeChannel()
    channels.register(channel)
    yield channel
    channels._channels.pop(channel.name, None)


@pytest.fixture
def players(django_user_model):
    """Four English players in UTC with email addresses."""
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en",
                                                  time_zone="UTC", email=f"player{i}@example.org")
            for i in range(4)]


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


# --- Telegram: the local Bot API stand-in (tests/notifications/telegram_stand_in.py) --------------


@pytest.fixture(scope="session")
def bot_api():
    from tests.notifications.telegram_stand_in import StandIn

    stand_in = StandIn().start()
    yield stand_in
    stand_in.stop()


@pytest.fixture
def telegram(settings, bot_api):
    """The site's bot configured against the stand-in (fresh records for each test)."""
    from django.core.cache import cache

    from notifications.telegram.bot import USERNAME_CACHE_KEY

    settings.TELEGRAM_BOT_TOKEN = bot_api.token
    settings.TELEGRAM_API_URL = bot_api.url
    settings.TELEGRAM_BOT_USERNAME = ""
    settings.TELEGRAM_WEBHOOK_URL = ""
    cache.delete(USERNAME_CACHE_KEY)
    with bot_api._lock:
        bot_api.messages.clear()
        bot_api.calls.clear()
        bot_api._updates.clear()
        bot_api._failures.clear()
    return bot_api


def bot_hears(stand_in, chat_id: int, text: str, language: str = "en") -> list[dict]:
    """The bot's dispatcher handles `text` from chat `chat_id` in this process (as the webhook
    does; its Bot talks to the stand-in); returns the messages it sent to that chat."""
    from asgiref.sync import async_to_sync

    from notifications.telegram import bot

    update = stand_in.update(chat_id, text, language)
    before = len(stand_in.messages_to(chat_id))

    async def feed() -> None:
        async with bot.new_bot() as telegram:
            await bot.new_dispatcher().feed_raw_update(telegram, update)

    async_to_sync(feed)()
    return stand_in.messages_to(chat_id)[before:]
