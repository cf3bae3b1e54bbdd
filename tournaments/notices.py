"""What a tournament tells its players, through the site's notices
(`notifications.dispatch`: each player's channels and preferences), always
after the commit of what happened, never failing the change itself:
- a new round: each table's players, with their game (the kind of a
  league's new round);
- a bye: the players left out of a round, and what the bye is worth;
- the round's deadline near: the players whose clock still runs in the
  round (a time warning: at the deadline the game is lost, a forfeit);
- the end: each player's final place.
A computer entrant (`tournaments.computer_entrants`) is told nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from django.db import transaction

from notifications import dispatch
from tournaments.models import Entry, Round, Tournament


def _after_commit(send) -> None:
    transaction.on_commit(send, robust=True)


def points_label(points: float) -> str:
    """1, ½, 1½: a bye's worth as a score sheet writes it."""
    value = Fraction(points).limit_denominator(100)
    whole, half = divmod(value, 1)
    if half == Fraction(1, 2):
        return f"{int(whole) or ''}½"
    return f"{float(value):g}"


def round_started(tournament: Tournament, number: int, game_id: int) -> None:
    name, tournament_id = tournament.name, tournament.pk
    _after_commit(lambda: dispatch.notify_tournament_game(
        game_id, tournament=name, tournament_id=tournament_id, round_number=number))


def byes_given(tournament: Tournament, round_: Round, users: Iterable, points: float) -> None:
    user_ids = [u.pk for u in users if u.computer_level is None]  # a computer entrant reads nothing
    if not user_ids:
        return
    name, tournament_id, number, path = tournament.name, tournament.pk, round_.number, tournament.get_absolute_url()
    label = points_label(points)
    _after_commit(lambda: dispatch.notify_tournament_bye(
        user_ids, tournament=name, tournament_id=tournament_id, round_number=number, points=label, url_path=path))


def deadline_near(tournament: Tournament, round_: Round, game_id: int, user_ids: list[int]) -> None:
    name, round_id, deadline = tournament.name, round_.pk, round_.deadline
    _after_commit(lambda: dispatch.notify_tournament_forfeit_warning(
        game_id, user_ids, tournament=name, round_id=round_id, deadline=deadline))


def results(tournament: Tournament, entries: list[Entry], ranked: int) -> None:
    ranks = {}
    for entry in entries:
        if entry.final_rank is not None and not entry.is_computer:
            ranks[entry.user_id] = entry.final_rank
            if entry.partner_id:
                ranks[entry.partner_id] = entry.final_rank
    name, tournament_id, path = tournament.name, tournament.pk, tournament.get_absolute_url()
    _after_commit(lambda: dispatch.notify_tournament_result(
        ranks, tournament=name, tournament_id=tournament_id, entrants=ranked, url_path=path))
