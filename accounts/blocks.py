"""Blocks between players (issue 40; the rows: `accounts.models.Block`).
A block works both ways for what the two see of each other: the chat lines
of either are hidden from the other wherever chat is shown, at a seat or watching
a public table: the history, the live socket and the API's stream
(gameplay.broadcast.chat_hidden_from), neither joins a
table the other sits at (gameplay.services.tables), and the blocked
player's challenges and follows are refused with a bare "not accepted"
(correspondence.services), which tells him nothing of the block. League
pairings are unchanged: a season's draw is the league's, not the players'.
`correspondence.services.block` is the action (it also ends the follows
and challenges between the two)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from accounts.models import Block

def blocked_either_way(user_id: int | None) -> set[int]:
    """The players this one has blocked or is blocked by (one query)."""
    if not user_id:
        return set()
    pairs = Block.objects.filter(Q(blocker_id=user_id) | Q(blocked_id=user_id)).values_list("blocker_id", "blocked_id")
    return {a if b == user_id else b for a, b in pairs}

def any_block(user_id: int, others: Iterable[int]) -> bool:
    """Whether this player and any of `others` block each other, either way (one query)."""
    others = [o for o in others if o and o != user_id]
    if not others or not user_id:
        return False
    return Block.objects.filter(Q(blocker_id=user_id, blocked_id__in=others) |
                                Q(blocked_id=user_id, blocker_id__in=others)).exists()

def has_blocked(blocker_id: int, blocked_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()
