"""A league's organizer moderates the games of their own leagues, and a
league says what becomes of a leaving player's seat: what the league tells
moderation (`moderation.permissions.Overseer`, registered in `LeaguesConfig.ready()`)."""

from __future__ import annotations

from django.db.models import Q

from gameplay.models import Seat
from leagues import services
from leagues.models import Entry, Fixture, League
from moderation.permissions import Overseer


def organizes_league_of(user, game) -> bool:
    return Fixture.objects.filter(game_id=game.pk, division__season__league__organizer_id=user.pk).exists()


def organized_games(user, games):
    return games.filter(fixture__division__season__league__organizer_id=user.pk)


def organizes_a_league(user) -> bool:
    return League.objects.filter(organizer_id=user.pk).exists()


def computer_takes_over(game) -> bool | None:
    """A league game: as its league says of a withdrawal (and only if it allows
    computer substitutes at all); None for a game of no league."""
    league = League.objects.filter(seasons__divisions__fixtures__game=game).first()
    if league is None:
        return None
    return league.on_withdrawal == League.OnWithdrawal.COMPUTER and league.computer_substitutes


def partner_plays_in(user, game) -> bool:
    """Whether the user's partner in a league pair sits at this league game (issue 24)."""
    seated = Seat.objects.filter(game_id=game.pk, user__isnull=False).values("user_id")
    pair_of_a_player = Q(user_id=user.pk, partner_id__in=seated) | Q(partner_id=user.pk, user_id__in=seated)
    return Entry.objects.filter(pair_of_a_player, season__divisions__fixtures__game_id=game.pk).exists()


ORGANIZERS = Overseer(oversees=organizes_league_of, overseen_games=organized_games,
                      oversees_any=organizes_a_league, computer_takes_over=computer_takes_over,
                      partner_plays_in=partner_plays_in, account_suspended=services.account_suspended)
