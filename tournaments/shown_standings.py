"""The standings (and the cross-table) as the pages show them, kept in the site's cache between
changes: computing them reads the whole history and ranks every entrant
(seconds at 1,000 entrants after 9 rounds), while reading whether anything
changed costs three small aggregate queries. The key is the tournament and
a fingerprint of everything the standings depend on: its settings, the
entries (withdrawals, cup exits), the tables' games that ended, the byes.
A result, a withdrawal, a late entry or a bye changes the fingerprint, so
the next reader computes them again; nothing has to remember to clear it.
The one input outside the tournament's rows is its players' names: a
player renamed (`player_saved`, connected to the user model's post_save in
TournamentsConfig.ready()) moves, after the commit, the names' version of
every tournament the player is in, which is part of the key, as is the
reader's language (a computer entrant's name is its level's, translated)."""

from __future__ import annotations

import hashlib
import secrets

from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max, Q, Sum
from django.utils.translation import get_language

from gameplay.models import Game
from tournaments import crosstable, group_stage, pairing, standings
from tournaments.models import Bye, Entry, Table, Tournament

KEEP_SECONDS = 24 * 3600
OVER = [Game.Status.FINISHED, Game.Status.ABORTED]


def fingerprint(tournament: Tournament) -> str:
    tables = Table.objects.filter(round__tournament=tournament).aggregate(
        n=Count("pk"), over=Count("pk", filter=Q(game__status__in=OVER)), last=Max("game__finished_at"))
    entries = Entry.objects.filter(tournament=tournament).aggregate(
        n=Count("pk"), gone=Count("pk", filter=Q(withdrawn_at__isnull=False)), last=Max("withdrawn_at"),
        out=Sum("out_in_round"), numbers=Sum("number"), ratings=Sum("rating"), forfeits=Sum("forfeits"),
        cup_seeds=Sum("cup_seed"))
    byes = Bye.objects.filter(round__tournament=tournament).aggregate(n=Count("pk"), points=Sum("points"))
    settings = (tournament.rounds, tuple(tournament.tiebreak_chain), tournament.format, tournament.status,
                tournament.group_size, tournament.group_rounds)
    return repr((tournament.pk, tournament.created_at, settings, sorted(tables.items()), sorted(entries.items()),
                 sorted(byes.items())))


_NAMES_KEY = "tournament-names:{}"
NAME_FIELDS = {"username", "display_name"}


def names_version(tournament_id: int) -> str:
    return cache.get(_NAMES_KEY.format(tournament_id)) or "0"


def names_changed(tournament_ids: list[int]) -> None:
    """The players' names shown by these tournaments changed: the next reader computes them again."""
    cache.set_many({_NAMES_KEY.format(pk): secrets.token_hex(8) for pk in tournament_ids}, KEEP_SECONDS)


def player_saved(sender, instance, created: bool, update_fields=None, **_kwargs) -> None:
    """A player's name is in every tournament the player (or, in pairs, the partner) entered."""
    if created or (update_fields is not None and not NAME_FIELDS & set(update_fields)):
        return  # a login's last_login, a new account: no name shown anywhere changed
    tournament_ids = list(Entry.objects.filter(Q(user_id=instance.pk) | Q(partner_id=instance.pk))
                          .values_list("tournament_id", flat=True).distinct())
    if tournament_ids:
        transaction.on_commit(lambda: names_changed(tournament_ids))


def _kept(name: str, tournament: Tournament, compute):
    digest = hashlib.sha256(fingerprint(tournament).encode()).hexdigest()
    # The language too: a computer entrant is named by its level in the reader's language.
    key = f"tournament-{name}:{tournament.pk}:{digest}:{names_version(tournament.pk)}:{get_language()}"
    value = cache.get(key)
    if value is None:
        value = compute(tournament)
        cache.set(key, value, KEEP_SECONDS)
    return value


def shown_standings(tournament: Tournament) -> list[standings.Row]:
    """The current standings, from the cache when nothing they depend on has changed."""
    return _kept("standings", tournament, pairing.current_standings)


def shown_cross_table(tournament: Tournament):
    """The cross-table (`tournaments.crosstable.cross_table`), kept the same way (a game starting
    changes it too: its table's count is in the fingerprint)."""
    return _kept("crosstable", tournament, crosstable.cross_table)


def shown_groups(tournament: Tournament) -> list[group_stage.Group]:
    """A cup's group standings (none without groups), kept the same way."""
    if not tournament.has_groups:
        return []
    return _kept("groups", tournament, lambda t: group_stage.group_standings(t, pairing.history(t)))
