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
