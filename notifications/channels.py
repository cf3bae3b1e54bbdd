"""The ways a notice reaches a player, and what each of them must provide.

A *notice* is one message to one player about one thing that happened
("your move in Joker with Anna", "Boris challenges you"), already worded in
the player's language and saying nothing his seat may not know. A *channel*
carries notices: email, web push (one destination per device), Telegram.
A *destination* is one place a channel delivers to for one player: his
email address, one browser's push subscription, his linked Telegram chat.

The dispatcher (`notifications.dispatch`) decides who gets which notice on
which destination (preferences, night window, vacation, coalescing) and
sends each one from its own Celery task, idempotent on (notice key,
player, destination). A channel only knows how to list a player's
destinations and how to send one notice to one of them.

Channels register themselves in `NotificationsConfig.ready()`:
``channels.register(PushChannel())``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Protocol

# What a notice is about (the rows of the preferences page).
YOUR_MOVE = "your_move"
TIME_WARNING = "time_warning"
GAME_OVER = "game_over"
CHALLENGE = "challenge"
LEAGUE_ROUND = "league_round"
MODERATION = "moderation"
ORDER_LAPSED = "order_lapsed"
KINDS = (YOUR_MOVE, TIME_WARNING, GAME_OVER, CHALLENGE, LEAGUE_ROUND, MODERATION, ORDER_LAPSED)


@dataclass(frozen=True)
class Notice:
    """One message for one player, ready to send (JSON-able: Celery carries it)."""

    kind: str  # one of KINDS
    user_id: int
    title: str  # short, in the player's language ("Your move")
    body: str  # one or two lines ("Joker with Anna, Boris, Vera: 2 h 10 min left")
    url: str  # absolute: what opening the notice shows (the game, or My games)
    key: str  # the occurrence, the same for every channel: "your_move:game=12:v=40"
    button: str = ""  # the words of an "open" button ("Open the game"), in his language

    def as_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> Notice:
        return cls(**data)


@dataclass(frozen=True)
class Destination:
    """One place a channel delivers to for one player."""

    channel: str  # the channel's name: "email", "push", "telegram"
    ident: str  # which one of the player's, within the channel ("" when he has one at most)
    label: str  # what the preferences page calls it ("Chrome on Android, 27 Nov 2026")

    @property
    def key(self) -> str:
        """Stable name of the destination: "email", "telegram", "push:17"."""
        return f"{self.channel}:{self.ident}" if self.ident else self.channel


class TemporaryFailure(Exception):
    """The service is down or busy: try again later (the task backs off).
    `retry_after`: seconds the service asked to wait (Telegram's flood control), if it said."""

    def __init__(self, *args, retry_after: float | None = None) -> None:
        super().__init__(*args)
        self.retry_after = retry_after


class DestinationGone(Exception):
    """The destination no longer exists (push 404/410, bot blocked): forget it, never retry."""


class Channel(Protocol):
    name: str  # "email", "push", "telegram"

    def is_configured(self) -> bool:
        """Whether this site can use the channel at all (keys, token set)."""

    def destinations(self, user) -> list[Destination]:
        """The player's destinations on this channel, in the order to show them."""

    def send(self, destination: Destination, notice: Notice) -> None:
        """Deliver `notice`; raise TemporaryFailure or DestinationGone, never anything else on purpose."""

    def forget(self, destination: Destination) -> None:
        """Drop a destination that is gone (DestinationGone)."""


_channels: dict[str, Channel] = {}


def register(channel: Channel) -> None:
    _channels[channel.name] = channel


def get(name: str) -> Channel:
    return _channels[name]


def configured() -> list[Channel]:
    """The channels this site can use, in the order they registered."""
    return [channel for channel in _channels.values() if channel.is_configured()]
