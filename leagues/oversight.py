"""A league's organizer moderates the games of their own leagues, and a
league says what becomes of a leaving player's seat: what the league tells
moderation (`moderation.permissions.Overseer`, registered in `LeaguesConfig.ready()`)."""

from __future__ import annotations

from moderation.permissions import Overseer
from leagues.models import Fixture, League


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


ORGANIZERS = Overseer(oversees=organizes_league_of, overseen_games=organized_games,
                      oversees_any=organizes_a_league, computer_takes_over=computer_takes_over)
