"""A tournament's organizer moderates the games of their own tournaments
(the moderation pages: adjudicate, abort), and a tournament says what
becomes of a leaving player's seat: forfeited, or (with computer
substitutes, `Tournament.substitute_level`) finished by a computer of the
level its organizer chose. What the tournaments tell moderation
(`moderation.permissions.Overseer`, registered in `TournamentsConfig.ready()`)."""

from __future__ import annotations

from moderation.permissions import Overseer
from tournaments.models import Table, Tournament


def organizes_tournament_of(user, game) -> bool:
    return Table.objects.filter(game_id=game.pk, round__tournament__organizer_id=user.pk).exists()


def organized_games(user, games):
    return games.filter(tournament_table__round__tournament__organizer_id=user.pk)


def organizes_a_tournament(user) -> bool:
    return Tournament.objects.filter(organizer_id=user.pk).exists()


def _tournament_of(game) -> Tournament | None:
    return Tournament.objects.filter(round_set__tables__game_id=game.pk).first()


def computer_takes_over(game) -> bool | None:
    """A tournament game: finished by a computer if the tournament has computer substitutes, else
    forfeited by a player who leaves it (None: a game of no tournament)."""
    tournament = _tournament_of(game)
    return None if tournament is None else tournament.computers_substitute


def substitute_level(game) -> int | None:
    """The level of a tournament game's computer substitute (None: a game of no tournament, or one
    without substitutes)."""
    tournament = _tournament_of(game)
    return tournament.substitute_level if tournament is not None and tournament.computers_substitute else None


ORGANIZERS = Overseer(oversees=organizes_tournament_of, overseen_games=organized_games,
                      oversees_any=organizes_a_tournament, computer_takes_over=computer_takes_over,
                      substitute_level=substitute_level)
