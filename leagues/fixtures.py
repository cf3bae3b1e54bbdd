"""Starting a division's scheduled tables as games of the platform, and what
becomes of a withdrawn or suspended player's seats: shared by the drawing of
a season (`leagues.drawing`) and the league's services (`leagues.services`).
Each function runs in its caller's transaction."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.standing import is_suspended
from gameplay import services as game_services
from gameplay.models import Game, Seat
from leagues import schedule
from leagues.models import Division, Entry, Fixture, League
from moderation.services import games as moderation
from notifications import dispatch


def table_size(league: League) -> int:
    """Entries at a table: players, or in pairs two pairs."""
    return 2 if league.in_pairs else league.players


def schedule_of(league: League, entry_ids: list[int], seed: int) -> list[tuple[int, list[int]]]:
    """(round, entry ids by seat) for every table of a division: a round robin
    for two-player games (and pairs against pairs) where everyone meets
    everyone, else `leagues.schedule.table_schedule`'s balanced tables.
    Pure computation (seconds for a hundred entries): no query."""
    size = table_size(league)
    if size == 2 and not league.games_per_player:
        rounds = schedule.round_robin(entry_ids, meetings=league.meetings)
    else:
        rounds = schedule.table_schedule(entry_ids, size, league.games_per_player, seed)
    return [(r.number, list(table.seats)) for r in rounds for table in r.tables]


def start_fixture(fixture: Fixture) -> None:
    """Make a scheduled table an ordinary game of the platform (in the caller's
    transaction). A withdrawn player's table is not played, unless the league
    has a computer finish his games: then it starts with a computer in his seat."""
    league = fixture.division.season.league
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=fixture.seats).select_related("user", "partner")}
    # A suspended player's table goes as a withdrawn player's would (moderation.services.people
    # hands over the games already in play when the suspension starts).
    withdrawn = [pk for pk in fixture.seats if entries[pk].withdrawn_at or _suspended(entries[pk])]
    if withdrawn and (league.on_withdrawal != League.OnWithdrawal.COMPUTER or len(withdrawn) == len(fixture.seats)):
        return  # not played: nobody left at it, or no computer to take the seats
    if league.in_pairs:  # pair A in seats 0 and 2, pair B in 1 and 3
        first, second = entries[fixture.seats[0]], entries[fixture.seats[1]]
        users = [first.user, second.user, first.partner, second.partner]
    else:
        users = [entries[pk].user for pk in fixture.seats]
    table = {"time_preset": league.time_preset or "correspondence", "move_seconds": league.move_seconds,
             "reserve_seconds": league.reserve_seconds, "on_timeout": league.on_timeout,
             "is_private": league.is_private, "rated": True}
    fixture.game = game_services.create_seated_game(users, league.engine, league.options, **table)
    fixture.save(update_fields=["game"])
    _announce(fixture, league)
    for pk in withdrawn:
        suspended = entries[pk].withdrawn_for == Entry.Withdrawal.SUSPENDED or not entries[pk].withdrawn_at
        reason = _("%(who)s: the account is suspended.") % {"who": entries[pk]} if suspended else None
        computer_for(entries[pk], [fixture.game_id], league.organizer, reason)


def _announce(fixture: Fixture, league: League) -> None:
    """After the commit, its players hear of the new round (once a round; once for a season that
    starts every table at once)."""
    game_id, season_id = fixture.game_id, fixture.division.season_id
    round_number = fixture.round if league.start == League.Start.ROUNDS else None
    transaction.on_commit(lambda: dispatch.notify_league_game(
        game_id, league=league.name, season_id=season_id, round_number=round_number), robust=True)


def _suspended(entry: Entry) -> bool:
    return any(player is not None and is_suspended(player) for player in (entry.user, entry.partner))


def computer_for(entry: Entry, game_ids: list[int], actor, reason: str | None = None) -> None:
    """A computer player, of the level the league's organizer chose, takes every seat of the
    withdrawn entry (both partners of a pair) in these games in play: a substitution by `actor`,
    audited as such (`moderation.services.games.substitute_seat`)."""
    players = {entry.user_id, entry.partner_id} - {None}
    reason = reason or _("%(who)s withdrew from the league season.") % {"who": entry}
    seats = Seat.objects.filter(game_id__in=game_ids, game__status=Game.Status.ACTIVE, user_id__in=players)
    for game_id, position in seats.order_by("game_id", "position").values_list("game_id", "position"):
        moderation.substitute_seat(game_id, position, actor, reason, user=None,
                                   computer_level=entry.season.league.computer_level)


def computer_may_substitute(game_id: int) -> bool:
    """Whether a computer player may take a seat of this game: any game that
    is not a league game, and the games of leagues allowing computer
    substitutes (for callers choosing between a computer and a forfeit, such
    as a suspension)."""
    league = League.objects.filter(seasons__divisions__fixtures__game_id=game_id).first()
    return league is None or league.computer_substitutes


def start_next_round_if_over(division: Division, round_number: int, just_ended: int | None = None) -> None:
    """Start the division's round after `round_number` once no game of that
    round is left to play, and so on round after round: a round whose every
    table is settled as it starts (each holds a player who has left: scored
    as a forfeit, nobody to wait for) does not hold the season up."""
    while True:
        same_round = Fixture.objects.filter(division=division, round=round_number).exclude(game_id=just_ended)
        if same_round.filter(game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).exists():
            return
        following = (Fixture.objects.filter(division=division, round__gt=round_number).order_by("round")
                     .values_list("round", flat=True).first())
        if following is None:
            return
        for fixture in Fixture.objects.filter(division=division, round=following, game=None) \
                .select_related("division__season__league"):
            start_fixture(fixture)
        round_number, just_ended = following, None


def start_rounds_now_over(division: Division) -> None:
    """After a player left a division played round by round: the latest round
    started may now be over without a game (his tables in it settled), and
    then the next one starts."""
    latest = (Fixture.objects.filter(division=division, game__isnull=False).order_by("-round")
              .values_list("round", flat=True).first())
    if latest is not None:
        start_next_round_if_over(division, latest)
