"""The in-app badge: how many games are waiting for the user's move, live.

A game is waiting for a user when it is active and one of his seats is among
the engine's actors (`engine.actors(state)`), the same rule as "Your move" in
the lobby.

Protocol of `/ws/me/` (JSON text frames; signed-in users only, else closed
with 4403):
  server -> {"type": "badge", "waiting": 3}   on connect and whenever the number changes
  client -> {"type": "sync"}                  ask for the number again (answered with a "badge")
  client -> {"type": "watch"}                 this page shows live lists: send it the notices meant
                                              for them too (below)
  client -> {"type": "counts"}                this page's header shows the other counts apps above
                                              register (`add_count`): answered at once, again after
                                              each "sync" and whenever one changes (`send_counts`)
  server -> {"type": "counts", "challenges": 1}  the current value of each registered count
  server -> {"type": "notice", "kind": "...", ...}  a notice another app sends to the user's group
                                              (group message "user.notice"; e.g. a challenge);
                                              one marked "for_watchers" (a list to fetch again)
                                              only to a connection that sent "watch"
  server -> {"type": "error", "code": "bad_request" | "rate_limited" | "busy", "message": "..."}
                                              a refused frame (the gate of gameplay.inbound, the
                                              connection's rate limit, a busy database); other
                                              message types are ignored

Other counts (correspondence's challenges waiting for an answer) are
registered by the apps above in their AppConfig.ready() (`add_count`): this
app knows none of them. Their apps push a changed value after the commit
that changed it (`send_counts`).

After a commit that may change whose turn it is, the change's follow-up task
(`gameplay.tasks.after_changes`) counts again for the users concerned and
pushes the number to their group `user-<id>` (every open tab of the user is
in it). The database stays the
truth: a lost push is repaired by the next one, by a "sync" or by a reconnect.
"""

import logging
from collections.abc import Callable, Iterable
from typing import Any

from channels.layers import get_channel_layer
from django.utils import translation

from gameplay import database_threads, group_sends, inbound
from gameplay.models import Game, Seat

log = logging.getLogger(__name__)

CLOSE_FORBIDDEN = 4403


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def _user_id(user) -> int:
    return getattr(user, "pk", user)


def waiting_seats(user) -> list[Seat]:
    """The user's seats in active games where it is his move (seat.game is
    loaded), oldest game first. `user` is a User or a user id. A seat waits
    for its player exactly when its clock runs (the engines put on the clock
    the seats they wait for), so this is one indexed query."""
    return list(
        Seat.objects.filter(user_id=_user_id(user), game__status=Game.Status.ACTIVE, deadline__isnull=False)
        .select_related("game")
        .order_by("game_id")
    )


def waiting_count(user) -> int:
    """How many active games wait for the user's move. `user` is a User or a user id."""
    return (
        Seat.objects.filter(user_id=_user_id(user), game__status=Game.Status.ACTIVE, deadline__isnull=False)
        .values("game_id").distinct().count()
    )


def send_badges(user_ids: Iterable[int]) -> None:
    """Push each user's current count to his group. Never raises: Redis may
    be down, and the count is only a convenience (the database has the truth)."""
    layer = get_channel_layer()
    if layer is None:
        return
    user_ids = sorted(set(user_ids))
    try:
        group_sends.send(layer, [(user_group(user_id), {"type": "badge.update", "waiting": waiting_count(user_id)})
                                 for user_id in user_ids])
    except Exception:
        log.exception("pushing the badges of users %s failed", user_ids)


# The header's other counts, by name: a function of a user id each, registered by the apps above.
_counts: dict[str, Callable[[int], int]] = {}


def add_count(name: str, count: Callable[[int], int]) -> None:
    """Register a count the header shows next to the badge (called in an app's ready())."""
    _counts[name] = count


def counts_of(user_id: int, names: Iterable[str] | None = None) -> dict[str, int]:
    """The user's current value of the registered counts `names` (all by default)."""
    return {name: _counts[name](user_id) for name in (_counts if names is None else names) if name in _counts}


def send_counts(user_ids: Iterable[int], names: Iterable[str]) -> None:
    """Push each user's current value of the counts `names` to his group
    (the tabs whose header shows them pass it on). Never raises: Redis may be
    down, and the database has the truth (the next "sync" repairs it)."""
    layer = get_channel_layer()
    if layer is None:
        return
    names, user_ids = list(names), sorted(set(user_ids))
    try:
        group_sends.send(layer, [(user_group(user_id), {"type": "badge.counts", "counts": counts_of(user_id, names)})
                                 for user_id in user_ids])
    except Exception:
        log.exception("pushing the counts %s of users %s failed", names, user_ids)


class BadgeConsumer(inbound.GatedConsumer):
    async def open(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.user = user
        self.user_id = user.pk
        self.group = user_group(user.pk)
        self.waiting = None
        self.watching = False
        self.counting = False  # this page's header shows the other counts
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send_count(await self.read(waiting_count), force=True)

    async def read(self, count: Callable[[int], Any]) -> Any:
        """`count(user id)` on one of the process' database threads (gameplay.database_threads), so
        one slow count holds up no other socket. No order to keep (key None): a socket
        handles one message at a time, so its own reads already run one after another,
        and each reads the current value (the database is the truth)."""
        return await database_threads.run(None, count, self.user_id)

    async def receive_json(self, content, **kwargs):
        if content.get("type") == "sync":
            await self.send_count(await self.read(waiting_count), force=True)
            if self.counting:
                await self.send_counts()
        elif content.get("type") == "watch":
            self.watching = True
        elif content.get("type") == "counts":
            self.counting = True
            await self.send_counts()

    async def send_counts(self, counts: dict | None = None) -> None:
        if counts is None:
            counts = await self.read(counts_of)
        await self.send_json({"type": "counts", **counts})

    async def badge_counts(self, event):
        """A registered count changed (its app's `send_counts`): passed on if this page shows it."""
        if self.counting:
            await self.send_counts(event["counts"])

    async def send_error(self, code: str, message) -> None:
        with translation.override(getattr(self.user, "language", None) or translation.get_language()):
            message = str(message)
        await self.send_json({"type": "error", "code": code, "message": message})

    async def user_notice(self, event):
        """A notice for the user from an app above this one (a challenge):
        passed on as it is, {"type": "notice", "kind": ..., ...}; one meant
        for live lists only if this connection watches them."""
        if event.get("for_watchers") and not self.watching:
            return
        await self.send_json(event["notice"])
        if event.get("for_watchers"):
            # One of his games changed: the count is read again too (the database has the truth),
            # so a badge push that did not arrive is repaired with the list it goes with.
            await self.send_count(await self.read(waiting_count))

    async def badge_update(self, event):
        await self.send_count(event["waiting"])

    async def send_count(self, waiting: int, force: bool = False) -> None:
        if waiting == self.waiting and not force:
            return
        self.waiting = waiting
        await self.send_json({"type": "badge", "waiting": waiting})
