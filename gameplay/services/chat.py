"""Table chat: stored, rate-limited (moderators hide messages: `gameplay.services.interventions`)."""

from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _, ngettext

from gameplay import broadcast
from gameplay.models import ChatMessage
from gameplay.services.base import GameError, ensure_may_chat, ensure_verified, is_storable_text, locked_game, seat_of


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
        if not game.is_private:
            ensure_verified(user, _("chat at a public table"))
        now = timezone.now()
        for limit, window in (CHAT_BURST, CHAT_HOURLY):
            if ChatMessage.objects.filter(game=game, user=user, created_at__gt=now - window).count() >= limit:
                raise GameError(_("You are writing too fast; wait a moment."), code="rate_limited")
        message = ChatMessage.objects.create(game=game, user=user, text=text)
        broadcast.chat_on_commit(message.pk)
    return message
