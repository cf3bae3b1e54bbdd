"""Open WebSockets end with the session they were opened in (issue 24).

A socket's user is resolved once, when it connects; so when a session ends
(logout, a session flushed or deleted, a login rotating the key) or an
account's sessions are all made invalid (its password changed or reset, a
suspension, the account deactivated), every socket opened with it is told
to close, through the channel layer, so that a socket held by another daphne
process closes too. Every consumer joins, when it accepts
(`gameplay.inbound.GatedConsumer`), the group of its session and the group
of its account; the message `session.ended` closes it with code 4401.

A socket or stream opened with an API token (issue 38) joins its account's
group and its token's (`token_group`), and carries a `Credential`: when the
message comes, it checks the token afresh (`Credential.still_valid`: not
revoked, not expired, its account active and not suspended) and ends if it
is not; a token outlives a password change, so its sockets do too. A
token's expiry ends them at that moment, by the socket's own timer.

The message is sent after the commit of the change (a rolled-back logout
ends nothing). Redis may be away: then the message is lost and logged, and
the socket lives until it reconnects (its next connection is refused, as
the session no longer exists).
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

CLOSE_SIGNED_OUT = 4401
ENDED = "session.ended"


def session_group(session_key: str) -> str:
    """The channel-layer group of a session's sockets (the key itself never leaves the server's memory)."""
    return "session-" + hashlib.sha256(session_key.encode()).hexdigest()[:48]


def account_group(user_id: int) -> str:
    return f"account-{user_id}"


def token_group(token_id: int) -> str:
    """The group of the sockets and streams opened with one API token."""
    return f"token-{token_id}"


@dataclass(frozen=True)
class Credential:
    """What a socket or stream opened with an API token stands on (not a
    session): its token's group, when the token expires, and a check, run in
    a thread (it reads the database), of whether the token still holds."""

    group: str
    expires_at: datetime | None
    still_valid: Callable[[], bool]


def end_session_sockets(session_key: str | None) -> None:
    """After the commit: close every socket opened with this session."""
    if session_key:
        transaction.on_commit(lambda: _send(session_group(session_key)))


def end_account_sockets(user_id: int | None) -> None:
    """After the commit: close every socket of this account, whatever its session."""
    if user_id is not None:
        transaction.on_commit(lambda: _send(account_group(user_id)))


def end_token_sockets(token_id: int) -> None:
    """After the commit: close every socket and stream opened with this API token."""
    transaction.on_commit(lambda: _send(token_group(token_id)))


def _send(group: str) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, {"type": ENDED})
    except Exception:  # the channel layer (Redis) is away: the socket goes when it reconnects
        log.exception("could not tell the sockets of %s to close", group)
