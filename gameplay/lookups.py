"""What `gameplay`'s pages show beside a player but do not own, answered by
the apps above, which register their answer in their `AppConfig.ready()`
(`gameplay` imports none of them). Without an answer the pages show nothing.

- `player_ratings(pairs)`: {(user id, game kind): rating} for the waiting
  room and the lobby's tables (`ratings` answers: `ratings.services.ratings_in_games`);
  each rating has `value` and `is_provisional`.
"""

from __future__ import annotations

from collections.abc import Callable

_ratings: Callable[[set[tuple[int, str]]], dict] | None = None


def answer_player_ratings(lookup: Callable[[set[tuple[int, str]]], dict]) -> None:
    global _ratings
    _ratings = lookup


def player_ratings(pairs: set[tuple[int, str]]) -> dict:
    """{(user id, game kind): rating} of these players, as the ratings app has them ({} without it)."""
    if _ratings is None or not pairs:
        return {}
    return _ratings(pairs)
