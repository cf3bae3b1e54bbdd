"""Bot accounts (issue 29): an account played by a program through the API.

The player marks his own account a bot, irreversibly (so that his results
against people and his rating stay what they were, and people always know
whom they play); a moderator may mark any account. From then on its name
carries the label "BOT" everywhere (`User.name`), it joins only tables whose
creator allows bots (gameplay), it is rated in the bots' pool unless the
table says otherwise (ratings), and it enters a league season only if the
league allows bots (leagues)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User


class BotRefused(Exception):
    def __init__(self, message: str, code: str = "unchanged"):
        super().__init__(message)
        self.message, self.code = message, code


@transaction.atomic
def make_bot(user: User, *, by: User) -> User:
    """Mark `user`'s account a bot: by himself, or by staff. Irreversible."""
    if by.pk != user.pk and not by.is_staff:
        raise BotRefused(_("Only the account's owner or a moderator can make it a bot."), code="forbidden")
    locked = User.objects.select_for_update().get(pk=user.pk)
    if locked.is_bot:
        raise BotRefused(_("This account is already a bot."))
    locked.is_bot = True
    locked.bot_since = timezone.now()
    locked.save(update_fields=["is_bot", "bot_since"])
    user.is_bot, user.bot_since = locked.is_bot, locked.bot_since
    return locked
