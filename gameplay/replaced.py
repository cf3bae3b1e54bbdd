"""A player whose seat a moderator gave to someone else: what he is told.

A substitution is a moderator's move of the game (`gameplay.records.SUBSTITUTE`,
with the replaced player as the move's user and the moderator's reason in
its action). From it the replaced player's open page learns at once (the
socket's ``seat_replaced`` message, `GameConsumer.game_update`), his game page
says so whenever he comes back, and he gets an email (`notifications.seat_replaced`).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext

from gameplay.models import Move
from gameplay.records import SUBSTITUTE


@dataclass(frozen=True)
class Replacement:
    position: int
    reason: str
    computer: bool  # the seat went to a computer player

    def message(self) -> str:
        """The sentence the replaced player reads, in the active language."""
        if self.computer:
            return gettext("A moderator gave your seat in this game to a computer player. Reason: %(reason)s") % {
                "reason": self.reason}
        return gettext("A moderator gave your seat in this game to another player. Reason: %(reason)s") % {
            "reason": self.reason}

    def as_json(self) -> dict:
        return {"type": "seat_replaced", "position": self.position, "reason": self.reason,
                "computer": self.computer, "message": self.message()}


def replacement_of(game_id: int, user) -> Replacement | None:
    """The last substitution that took a seat of this game from `user`, if he holds none now."""
    if user is None or not user.is_authenticated:
        return None
    move = (Move.objects.filter(game_id=game_id, by=Move.By.MODERATOR, user=user, action__type=SUBSTITUTE)
            .exclude(game__seats__user=user).order_by("-seq").first())
    if move is None:
        return None
    action = move.action
    return Replacement(position=action.get("seat"), reason=str(action.get("reason", "")),
                       computer=bool(action.get("computer")))
