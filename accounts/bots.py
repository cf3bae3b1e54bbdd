"""Bot accounts (issue 29): an account played by a program through the API.

The player marks his own account a bot, irreversibly (so that his results
against people and his rating stay what they were, and people always know
whom they play); a moderator may mark any account. From then on its name
carries the label "BOT" everywhere (`User.name`), it joins only tables whose
creator allows bots (gameplay), it is rated in the bots' pool unless the
table says otherwise (ratings), and it enters a league season only if the
league allows bots (leagues).

A player cannot turn his own account into a bot in the middle of what was
agreed among people (issue 38): while it has an unfinished game at a table
that allows no bots, or that is rated among people, a pending challenge, or
an entry in an unfinished season of a league that allows no bots, the
switch is refused, naming them. The apps that know those things register
their answer (`add_switch_hold`, in their AppConfig.ready()): accounts
imports none of them. A moderator's marking is not held (it is his call)."""

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User


class BotRefused(Exception):
    def __init__(self, message: str, code: str = "unchanged"):
        super().__init__(message)
        self.message, self.code = message, code


# Each: the things (named for the player) that hold this account from becoming a bot now.
_holds: list[Callable[[User], list[str]]] = []


def add_switch_hold(check: Callable[[User], list[str]]) -> None:
    """Register what holds a player from turning his account into a bot."""
    if check not in _holds:
        _holds.append(check)


def switch_holds(user: User) -> list[str]:
    return [held for check in _holds for held in check(user)]


@transaction.atomic
def make_bot(user: User, *, by: User) -> User:
    """Mark `user`'s account a bot: by himself (unless something holds him:
    `add_switch_hold`), or by staff. Irreversible."""
    if by.pk != user.pk and not by.is_staff:
        raise BotRefused(_("Only the account's owner or a moderator can make it a bot."), code="forbidden")
    locked = User.objects.select_for_update().get(pk=user.pk)
    if locked.is_bot:
        raise BotRefused(_("This account is already a bot."))
    held = switch_holds(locked) if by.pk == user.pk else []
    if held:
        raise BotRefused(_("Your account cannot become a bot while it plays where people agreed to play people: "
                           "%(what)s. Finish, leave or withdraw from them first.") % {"what": "; ".join(held)},
                         code="bots_not_allowed")
    locked.is_bot = True
    locked.bot_since = timezone.now()
    locked.save(update_fields=["is_bot", "bot_since"])
    user.is_bot, user.bot_since = locked.is_bot, locked.bot_since
    return locked
