"""Recording what a moderator did: one `AuditEntry` per action, written by the
service that takes the action, inside its transaction (the change and its
record are stored together or not at all)."""

from __future__ import annotations

from django.db import transaction

from moderation.models import AuditEntry


def record_action(moderator, action: str, reason: str, *, game=None, target_user=None,
                  before: dict | None = None, after: dict | None = None, **extra) -> AuditEntry:
    """Write the audit row of one moderator action. `extra` sets any other
    field of `AuditEntry` by name (`chat_message=...`, or fields later
    models add). Called inside the transaction that makes the change."""
    if action not in AuditEntry.Action.values:
        raise ValueError(f"unknown moderation action {action!r}")
    reason = (reason or "").strip()
    if not reason:
        raise ValueError("a moderation action needs a reason")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_action must run inside the transaction that makes the change")
    return AuditEntry.objects.create(moderator=moderator, action=action, reason=reason, game=game,
                                     target_user=target_user, before=before, after=after, **extra)
