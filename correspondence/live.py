"""Live notices to a player's open tabs, over the badge socket (`/ws/me/`,
gameplay.badge): the frame {"type": "notice", "kind": ..., ...} reaches
every tab of the user. Never raises: Redis may be down, and the database
has the truth (the pages show it on the next load)."""

import logging
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from gameplay.badge import user_group

log = logging.getLogger(__name__)


def send_notice(user_ids: Iterable[int], kind: str, **data) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    send = async_to_sync(layer.group_send)
    for user_id in sorted(set(user_ids)):
        try:
            send(user_group(user_id), {"type": "user.notice", "notice": {"type": "notice", "kind": kind, **data}})
        except Exception:
            log.exception("sending a %s notice to user %s failed", kind, user_id)
