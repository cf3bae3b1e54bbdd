"""Table chat: stored, rate-limited, hidden by moderators (each hiding recorded in the moderation audit)."""

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from conduct.restrictions import ensure_may_chat
from gameplay import broadcast
from gameplay.models import ChatMessage
from gameplay.services.base import GameError, is_storable_text, locked_game, seat_of
from gameplay.services.moderation import required_reason
from moderation.audit import record_action
from moderation.models import AuditEntry


CHAT_BURST = (5, timedelta(seconds=10))  # at most 5 messages in 10 seconds


CHAT_HOURLY = (120, timedelta(hours=1))


def post_chat(game_id: int, user, text: Any) -> ChatMessage:
    """A player's message to his table (read by the players, and by the
    spectators of a public table). Stored, rate-limited."""
    ensure_may_chat(user)
    if not isinstance(text, str) or not text.strip():
        raise GameError(_("Write something first."), code="bad_request")
    text = text.strip()
    if not is_storable_text(text):
        raise GameError(_("The message holds characters that cannot be stored."), code="bad_request")
    if len(text) > ChatMessage.MAX_LENGTH:
        raise GameError(ngettext("A message may be at most %(n)s character.", "A message may be at most %(n)s characters.",
                                 ChatMessage.MAX_LENGTH) % {"n": ChatMessage.MAX_LENGTH},
                        code="bad_request")
    with transaction.atomic():
        game = locked_game(game_id)
        if seat_of(game, user) is None:
            raise GameError(_("Only the players at this table can write in its chat."), code="not_seated")
        if game.is_over:
            raise GameError(_("The game is over: its chat is read-only."), code="not_active")
        now = timezone.now()
        for limit, window in (CHAT_BURST, CHAT_HOURLY):
            if ChatMessage.objects.filter(game=game, user=user, created_at__gt=now - window).count() >= limit:
                raise GameError(_("You are writing too fast; wait a moment."), code="rate_limited")
        message = ChatMessage.objects.create(game=game, user=user, text=text)
        broadcast.chat_on_commit(message.pk)
    return message


@transaction.atomic
def set_chat_hidden(message_id: int, moderator, reason: str, hidden: bool) -> ChatMessage:
    """A moderator hides a chat message (or shows it again), with a reason;
    recorded in the moderation audit."""
    message = (ChatMessage.objects.select_for_update(of=("self",)).select_related("game", "user")
               .defer("game__state").filter(pk=message_id).first())
    if message is None:
        raise GameError(_("There is no such message."), code="not_found")
    reason = required_reason(reason, _("Give a reason for hiding the message.") if hidden
                             else _("Give a reason for showing the message again."))
    if message.hidden == hidden:
        raise GameError(_("This message is already hidden.") if hidden else _("This message is not hidden."),
                        code="unchanged")
    message.hidden = hidden
    message.save(update_fields=["hidden"])
    record_action(moderator, AuditEntry.Action.HIDE_CHAT if hidden else AuditEntry.Action.UNHIDE_CHAT, reason,
                  game=message.game, target_user=message.user, chat_message=message,
                  before={"hidden": not hidden}, after={"hidden": hidden})
    broadcast.chat_on_commit(message.pk)
    return message
