"""Computer players as entrants (issues 41 and 43): the organizer (or a
moderator) enters a computer level in a tournament, or takes it out again,
before the start; each is written to the moderation audit.

Decisions:
- A computer entrant is its level's account (accounts/computers.py): one
  entry per level and tournament (an entry is an account), named by its
  level ("Computer, level 2"). Its table seat is a computer seat of that
  level (`gameplay.services.create_seated_game` makes a level's account a
  computer seat), played by the Celery worker like any computer seat.
- Entry conditions (rating range, rated games, bot accounts allowed) are
  the organizer's filter on people: they do not apply to the computers the
  organizer chooses. The most-players limit does.
- Not in pairs: a pair is two people who chose each other.
- Paired, scored and ranked like any entry, seeded by the level's rating in
  the computers' pool. Rated as the ratings app rates every game: a table
  of computers only moves the levels' ratings in the computers' pool; a
  table of people and computers is not rated, for anybody.
- A computer never leaves by itself; once the tournament has started it is
  not withdrawn (it plays its games to the end); it is never notified.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts import computers
from gameplay.computer_levels import UnknownLevel, checked_level
from gameplay.services.base import GameError
from moderation.audit import record_action
from moderation.models import AuditEntry
from ratings.services import COMPUTER_POOL, rating_at
from tournaments import rounds, services
from tournaments.models import Entry, Tournament


def computer_rating(tournament: Tournament, user, now) -> float:
    """A computer level's rating in the tournament's game, in the computers' pool."""
    return rating_at(user, f"{tournament.engine}:{COMPUTER_POOL}", now).value


def _open_for_changes(tournament_id: int, by) -> Tournament:
    tournament = rounds.locked(tournament_id)
    services.must_run(tournament, by)
    if tournament.status != Tournament.Status.OPEN:
        raise GameError(_("Computer players are added and removed only before the start."), code="started")
    return tournament


@transaction.atomic
def add_computer(tournament_id: int, by, level, reason: str = "") -> Entry:
    """Enter the computer of `level` in the tournament (the organizer or a moderator, before the start)."""
    tournament = _open_for_changes(tournament_id, by)
    try:
        level = checked_level(level)
    except UnknownLevel as exc:
        raise GameError(str(exc), code="bad_request") from None
    if tournament.in_pairs:
        raise GameError(_("Computer players do not enter tournaments played in pairs."), code="bad_request")
    account = computers.ensure_computer_accounts([level])[0]
    if tournament.entries.filter(user=account).exists():
        raise GameError(_("The computer of level %(level)s is already in this tournament.") % {"level": level},
                        code="duplicate")
    if tournament.max_entries and tournament.entries.filter(withdrawn_at=None).count() >= tournament.max_entries:
        raise GameError(_("This tournament is full."), code="full")
    entry = Entry.objects.create(tournament=tournament, user=account,
                                 rating=computer_rating(tournament, account, timezone.now()))
    record_action(by, AuditEntry.Action.ADD_COMPUTER,
                  reason or _("The computer of level %(level)s entered.") % {"level": level},
                  before={"tournament": tournament.pk, "entry": None},
                  after={"tournament": tournament.pk, "entry": entry.pk, "level": level})
    return entry


@transaction.atomic
def remove_computer(entry_id: int, by, reason: str = "") -> None:
    """Take a computer entrant out of the tournament (the organizer or a moderator, before the start)."""
    entry = Entry.objects.filter(pk=entry_id).select_related("user").first()
    if entry is None or not entry.is_computer:
        raise GameError(_("There is no such computer player in this tournament."), code="not_found")
    tournament = _open_for_changes(entry.tournament_id, by)
    level = entry.user.computer_level
    record_action(by, AuditEntry.Action.REMOVE_COMPUTER,
                  reason or _("The computer of level %(level)s removed.") % {"level": level},
                  before={"tournament": tournament.pk, "entry": entry.pk, "level": level},
                  after={"tournament": tournament.pk, "entry": None})
    entry.delete()
