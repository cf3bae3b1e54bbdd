"""Who may moderate what.

- Moderators (the "moderators" group, which holds `moderation.moderate_games`)
  and superusers: every game and every chat.
- A league's organizer: the games of their own leagues only (a game belongs
  to a league through `leagues.Fixture.game`).
- Nobody, whatever his role, moderates a game in which he or his partner
  sits (or sat before a substitution): `plays_in`. A league pair's partners
  both sit at their games; a player's league partner who was replaced at a
  table counts too, as the ratings and standings still count the seat for
  the pair (issue 24).
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from gameplay.models import Move, Seat
from gameplay.records import SUBSTITUTE
from gameplay.services import moderation as game_services

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


def plays_in(user, game) -> bool:
    """Whether `user` or his league partner sits at `game`, or sat there before a substitution."""
    if user is None or not user.is_authenticated or game is None:
        return False
    if game_services.plays_in(game.pk, user):
        return True
    from leagues.models import Entry

    seated = Seat.objects.filter(game_id=game.pk, user__isnull=False).values("user_id")
    pair_of_a_player = Q(user_id=user.pk, partner_id__in=seated) | Q(partner_id=user.pk, user_id__in=seated)
    return Entry.objects.filter(pair_of_a_player, season__divisions__fixtures__game_id=game.pk).exists()


def can_moderate(user, game) -> bool:
    """Whether `user` may take moderator actions on `game`: a moderator or its
    league's organizer who does not play in it."""
    return (is_moderator(user) or organizes_league_of(user, game)) and not plays_in(user, game)


def moderated_games(user, games):
    """`games` (a queryset) narrowed to the ones `user` may moderate."""
    if user is None or not user.is_authenticated or not user.is_active:
        return games.none()
    if not is_moderator(user):
        games = games.filter(fixture__division__season__league__organizer_id=user.pk)
    own_seats = Seat.objects.filter(game_id=OuterRef("pk"), user_id=user.pk)
    replaced = Move.objects.filter(game_id=OuterRef("pk"), action__type=SUBSTITUTE, user_id=user.pk)
    return games.exclude(Exists(own_seats)).exclude(Exists(replaced))


def organizes_a_league(user) -> bool:
    """Whether `user` organizes any league (and so may moderate its games)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    from leagues.models import League

    return League.objects.filter(organizer_id=user.pk).exists()
