"""Who may moderate what.

- Moderators (the "moderators" group, which holds `moderation.moderate_games`)
  and superusers: every game and every chat.
- A league's organizer: the games of their own leagues only (a game belongs
  to a league through `leagues.Fixture.game`).
"""

from __future__ import annotations

MODERATORS_GROUP = "moderators"
MODERATE_PERMISSION = "moderation.moderate_games"


def is_moderator(user) -> bool:
    """A site-wide moderator: an active superuser or a member of the moderators group."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or user.has_perm(MODERATE_PERMISSION)


def organizes_league_of(user, game) -> bool:
    """Whether `user` organizes the league `game` was scheduled in."""
    if user is None or not user.is_authenticated or not user.is_active or game is None:
        return False
    from leagues.models import Fixture

    return Fixture.objects.filter(game_id=game.pk, division__season__league__organizer_id=user.pk).exists()


def can_moderate(user, game) -> bool:
    """Whether `user` may take moderator actions on `game`."""
    return is_moderator(user) or organizes_league_of(user, game)


def moderated_games(user, games):
    """`games` (a queryset) narrowed to the ones `user` may moderate."""
    if is_moderator(user):
        return games
    if user is None or not user.is_authenticated or not user.is_active:
        return games.none()
    return games.filter(fixture__division__season__league__organizer_id=user.pk)


def organizes_a_league(user) -> bool:
    """Whether `user` organizes any league (and so may moderate its games)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    from leagues.models import League

    return League.objects.filter(organizer_id=user.pk).exists()
