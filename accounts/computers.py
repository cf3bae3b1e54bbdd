"""The accounts of the computer levels (issue 43).

Each level of the computer players (`gameplay.bots.LEVELS`) has one account:
it holds that level's rating per game in the computers' pool (ratings), is
named by its level in the reader's language (`User.name`), and is challenged
by name like a player. It never logs in (no usable password) and is never
seated itself: a seat played by a computer is `Seat.is_bot` with its level
(`Seat.computer_level`), so several computers of one level may share a table.
The migration `accounts 0011` creates the accounts; `ensure_computer_accounts`
makes any that a database lacks (a level added later)."""

from django.db import transaction
from django.utils import timezone

from accounts.models import User

USERNAME_PREFIX = "computer-level-"


def computer_accounts() -> dict[int, User]:
    """{level: its account}, for every level that has one."""
    return {user.computer_level: user for user in User.objects.filter(computer_level__isnull=False)}


def computer_account(level: int) -> User | None:
    """The account of a computer level, or None if there is no such level."""
    return User.objects.filter(computer_level=level).first()


def is_computer(user) -> bool:
    return getattr(user, "computer_level", None) is not None


@transaction.atomic
def ensure_computer_accounts(levels) -> list[User]:
    """The accounts of these levels, each made if missing (inactive for logins: no password)."""
    return [computer_account(level) or _create(level) for level in levels]


def _create(level: int) -> User:
    """A level's account, under the first free username of its level (a person may hold the plain one)."""
    username, n = f"{USERNAME_PREFIX}{level}", 1
    while User.objects.filter(username=username).exists():
        n += 1
        username = f"{USERNAME_PREFIX}{level}-{n}"
    user = User(username=username, computer_level=level, is_bot=True, bot_since=timezone.now(),
                address_confirmed=True, email="")
    user.set_unusable_password()
    user.save()
    return user
