"""The standings (and the cross-table) as the pages show them, kept in the site's cache between
changes: computing them reads the whole history and ranks every entrant
(seconds at 1,000 entrants after 9 rounds), while reading whether anything
changed costs three small aggregate queries. The key is the tournament and
a fingerprint of everything the standings depend on: its settings, the
entries (withdrawals, cup exits), the tables' games that ended, the byes.
A result, a withdrawal, a late entry or a bye changes the fingerprint, so
the next reader computes them again; nothing has to remember to clear it.
(A player's new display name shows from the next change on.)"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum

from gameplay.models import Game
from tournaments import crosstable, pairing, standings
from tournaments.models import Bye, Entry, Table, Tournament

KEEP_SECONDS = 24 * 3600
OVER = [Game.Status.FINISHED, Game.Status.ABORTED]


def fingerprint(tournament: Tournament) -> str:
    tables = Table.objects.filter(round__tournament=tournament).aggregate(
        n=Count("pk"), over=Count("pk", filter=Q(game__status__in=OVER)), last=Max("game__finished_at"))
    entries = Entry.objects.filter(tournament=tournament).aggregate(
        n=Count("pk"), gone=Count("pk", filter=Q(withdrawn_at__isnull=False)), last=Max("withdrawn_at"),
        out=Sum("out_in_round"), numbers=Sum("number"), ratings=Sum("rating"), forfeits=Sum("forfeits"))
    byes = Bye.objects.filter(round__tournament=tournament).aggregate(n=Count("pk"), points=Sum("points"))
    settings = (tournament.rounds, tuple(tournament.tiebreak_chain), tournament.format, tournament.status)
    return repr((tournament.pk, tournament.created_at, settings, sorted(tables.items()), sorted(entries.items()),
                 sorted(byes.items())))


def _kept(name: str, tournament: Tournament, compute):
    digest = hashlib.sha256(fingerprint(tournament).encode()).hexdigest()
    key = f"tournament-{name}:{tournament.pk}:{digest}"
    value = cache.get(key)
    if value is None:
        value = compute(tournament)
        cache.set(key, value, KEEP_SECONDS)
    return value


def shown_standings(tournament: Tournament) -> list[standings.Row]:
    """The current standings, from the cache when nothing they depend on has changed."""
    rows = _kept("standings", tournament, pairing.current_standings)
    _computers_named_for_the_reader(tournament, rows)
    return rows


def shown_cross_table(tournament: Tournament):
    """The cross-table (`tournaments.crosstable.cross_table`), kept the same way (a game starting
    changes it too: its table's count is in the fingerprint)."""
    rows, lines, numbers = _kept("crosstable", tournament, crosstable.cross_table)
    _computers_named_for_the_reader(tournament, [*rows, *(line.row for line in lines)])
    return rows, lines, numbers


def _computers_named_for_the_reader(tournament: Tournament, rows: list[standings.Row]) -> None:
    """A computer entrant is named by its level in the reader's language, whoever's language the kept
    rows were computed in."""
    names = {entry.pk: str(entry) for entry in Entry.objects.filter(tournament=tournament,
                                                                    user__computer_level__isnull=False)
             .select_related("user")}
    for row in rows:
        if row.entry_id in names:
            row.name = names[row.entry_id]
