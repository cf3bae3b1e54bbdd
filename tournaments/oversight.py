"""A tournament's organizer moderates the games of their own tournaments
(the moderation pages: adjudicate, abort), and a tournament game whose
player leaves is forfeited, never handed to a computer: what the
tournaments tell moderation (`moderation.permissions.Overseer`, registered
in `TournamentsConfig.ready()`)."""

from __future__ import annotations

from moderation.permissions import Overseer
from tournaments.models import Table, Tournament


def organizes_tournament_of(user, game) -> bool:
    return Table.objects.filter(game_id=game.pk, round__tournament__organizer_id=user.pk).exists()


def organized_games(user, games):
    return games.filter(tournament_table__round__tournament__organizer_id=user.pk)


def organizes_a_tournament(user) -> bool:
    return Tournament.objects.filter(organizer_id=user.pk).exists()


def computer_takes_over(game) -> bool | None:
    """A tournament game is forfeited by a player who leaves it (None: a game of no tournament)."""
    return False if Table.objects.filter(game_id=game.pk).exists() else None


ORGANIZERS = Overseer(oversees=organizes_tournament_of, overseen_games=organized_games,
                      oversees_any=organizes_a_tournament, computer_takes_over=computer_takes_over)
