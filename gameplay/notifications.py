"""Notifications: "your turn" emails, time warnings, game-over emails, the
daily digest and the in-app badge. (Being written: the bodies below are
placeholders until the notifications work lands.)"""


def turn_started(game_id: int, version: int, positions: list[int]) -> None:
    """After commit: these seats' clocks just started."""


def send_time_warnings(game_id: int | None = None) -> int:
    """Send the once-a-turn "less than 20% of your time left" warnings that are due."""
    return 0


def game_over(game_id: int) -> None:
    """After commit: the game just ended."""


def send_daily_digests() -> int:
    return 0
