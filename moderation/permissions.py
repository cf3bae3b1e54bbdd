"""Who may moderate what.

- Moderators (the "moderators" group, which holds `moderation.moderate_games`)
  and superusers: every game and every chat.
- Whoever an app above says oversees a game: a league's organizer, the games
  of their own leagues (`leagues` registers its `Overseer` in its `ready()`:
  moderation knows nothing of leagues).
- Nobody, whatever his role, moderates a game in which he or his partner
  sits (or sat before a substitution): `plays_in` (issue 24). Partners at a
  table sit at it; an app above may name other partners (a league pair's
  partner replaced at the table still has his pair's result at stake:
  `Overseer.partner_plays_in`).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass
from functools import reduce

from django.conf import settings
from django.db.models import Exists, OuterRef, Q

from gameplay.bots import LEVELS
from gameplay.models import Move, Seat
from gameplay.records import SUBSTITUTE
from moderation.services import games as game_actions

MODERATORS_GROUP = "moderators"
MODERATE_PERMISSION = "moderation.moderate_games"


@dataclass(frozen=True)
class Overseer:
    """Someone other than the site's moderators who may moderate some games,
    as an app above decides it."""

    oversees: Callable  # (user, game) -> bool
    overseen_games: Callable  # (user, games queryset) -> the games of it the user oversees
    oversees_any: Callable  # (user) -> bool: whether the user oversees any game at all
    # (game) -> whether a leaving player's seat goes to a computer (True) or is forfeited (False);
    # None where this overseer has no say about the game.
    computer_takes_over: Callable
    # (user, game) -> whether a partner of the user (as this app pairs players) plays in the game.
    partner_plays_in: Callable = lambda user, game: False
    # (user, moderator, reason) -> None: the account is being suspended, in the suspension's
    # transaction, before its remaining games are handed over (a league withdraws him).
    account_suspended: Callable = lambda user, moderator, reason: None
    # (game) -> the level of the computer that takes a leaving player's seat, as this app's organizer
    # chose it; None where this overseer has no say about the game.
    substitute_level: Callable = lambda game: None


_overseers: list[Overseer] = []


def add_overseer(overseer: Overseer) -> None:
    if overseer not in _overseers:
        _overseers.append(overseer)


def _active(user) -> bool:
    return user is not None and user.is_authenticated and user.is_active


def tell_of_suspension(user, moderator, reason: str) -> None:
    """Every app above that has a say hears of an account's suspension (`Overseer.account_suspended`)."""
    for overseer in _overseers:
        overseer.account_suspended(user, moderator, reason)


def is_moderator(user) -> bool:
    """A site-wide moderator: an active superuser or a member of the moderators group."""
    if not _active(user):
        return False
    return user.is_superuser or user.has_perm(MODERATE_PERMISSION)


def organizes_league_of(user, game) -> bool:
    """Whether `user` oversees `game` (organizes the league it was scheduled in)."""
    if not _active(user) or game is None:
        return False
    return any(overseer.oversees(user, game) for overseer in _overseers)


def plays_in(user, game) -> bool:
    """Whether `user` or his partner sits at `game`, or sat there before a substitution."""
    if not _active(user) or game is None:
        return False
    return game_actions.plays_in(game.pk, user) or any(o.partner_plays_in(user, game) for o in _overseers)


def can_moderate(user, game) -> bool:
    """Whether `user` may take moderator actions on `game`: a moderator, or
    someone who oversees it, who does not play in it."""
    return (is_moderator(user) or organizes_league_of(user, game)) and not plays_in(user, game)


def moderated_games(user, games):
    """`games` (a queryset) narrowed to the ones `user` may moderate (none he plays in)."""
    if not _active(user):
        return games.none()
    if not is_moderator(user):
        if not _overseers:
            return games.none()
        narrowed = [overseer.overseen_games(user, games) for overseer in _overseers]
        if len(narrowed) == 1:
            games = narrowed[0]
        else:  # any overseer's games (not a UNION: SQLite refuses the ordered subqueries of one)
            games = games.filter(reduce(operator.or_, (Q(pk__in=n.order_by().values("pk")) for n in narrowed)))
    own_seats = Seat.objects.filter(game_id=OuterRef("pk"), user_id=user.pk)
    replaced = Move.objects.filter(game_id=OuterRef("pk"), action__type=SUBSTITUTE, user_id=user.pk)
    return games.exclude(Exists(own_seats)).exclude(Exists(replaced))


def organizes_a_league(user) -> bool:
    """Whether `user` oversees any game (organizes a league, and so may moderate its games)."""
    if not _active(user):
        return False
    return any(overseer.oversees_any(user) for overseer in _overseers)


def substitute_level(game) -> int:
    """The level of the computer that takes a leaving player's seat at `game`
    (issue 43): the one an overseer's organizer chose (a tournament's); else
    the level the other players at the table already play against (the
    highest of its computer seats); else the site's COMPUTER_SUBSTITUTE_LEVEL."""
    for overseer in _overseers:
        said = overseer.substitute_level(game)
        if said is not None:
            return said
    at_the_table = [level for level in Seat.objects.filter(game_id=game.pk, is_bot=True)
                    .values_list("computer_level", flat=True) if level in LEVELS]
    return max(at_the_table, default=settings.COMPUTER_SUBSTITUTE_LEVEL)


def computer_takes_over(game, default: bool) -> bool:
    """Whether a computer player continues a leaving player's seat at `game`
    (else the game is forfeited): as an overseer of the game says, else `default`."""
    for overseer in _overseers:
        said = overseer.computer_takes_over(game)
        if said is not None:
            return said
    return default
