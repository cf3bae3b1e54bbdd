"""Live notices to a player's open tabs, over the badge socket (`/ws/me/`,
gameplay.badge): the frame {"type": "notice", "kind": ..., ...} reaches
every tab of the user (`for_watchers`: only the tabs showing a live list,
which said {"type": "watch"}). Never raises: Redis may be down, and the database
has the truth (the pages show it on the next load)."""

import logging
from collections.abc import Iterable

from channels.layers import get_channel_layer

from gameplay import group_sends
from gameplay.badge import send_counts, user_group
from gameplay.models import Seat

log = logging.getLogger(__name__)

# The header's count of the challenges waiting for the user's answer (gameplay.badge's counts).
CHALLENGES_COUNT = "challenges"


def send_notice(user_ids: Iterable[int], kind: str, *, for_watchers: bool = False, **data) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    user_ids = sorted(set(user_ids))
    notice = {"type": "user.notice", "for_watchers": for_watchers, "notice": {"type": "notice", "kind": kind, **data}}
    try:
        group_sends.send(layer, [(user_group(user_id), notice) for user_id in user_ids])
    except Exception:
        log.exception("sending a %s notice to users %s failed", kind, user_ids)


def games_changed(game_id: int, version: int, **details) -> None:
    """After a committed change of a game (its turn, its start, its end):
    every seated player's open My games lists fetch themselves again, so
    that whose move it is and the clocks stay current even where his own
    badge count did not change (someone else's turn at a table of four)."""
    user_ids = details.get("players")  # the move's transaction read them: no query on the move path
    if user_ids is None:
        user_ids = list(Seat.objects.filter(game_id=game_id, user__isnull=False).values_list("user_id", flat=True))
    send_notice(user_ids, "games", for_watchers=True, game=game_id, version=version)


def challenges_changed(user_ids: Iterable[int]) -> None:
    """After a committed change of a challenge: the challenged players' header
    counts of challenges waiting for their answer, pushed to their open tabs."""
    send_counts(user_ids, [CHALLENGES_COUNT])
