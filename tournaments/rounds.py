"""A tournament's rounds: starting one (pairing it and putting its tables in
play), a round's end, and the tournament's end.

Pairing a round of a big event takes minutes (1,000 entrants at two-player
tables through the FIDE Dutch system), so it never runs in the transaction
that ends a round's last game: that transaction only marks the round
finished (in a cup, also who is out) and queues `advance_task` after its
commit. The task locks the tournament row and starts the next round only if
it is still due (`advance`): a second run, or one after beat's sweep has
done the work, changes nothing. If the broker lost the task (or refused it),
beat's sweep (`tournaments.services.sweep_tournament`) advances a round left
finished for longer than TOURNAMENT_ADVANCE_GRACE_SECONDS; a round on its
date starts when the sweep finds its date come.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.standing import is_suspended
from gameplay import services as game_services
from gameplay.models import Game
from gameplay.services.base import GameError
from tournaments import cup, group_stage, knockout, matches, notices, pairing, swiss
from tournaments.models import Bye, Entry, Round, Table, Tournament

log = logging.getLogger(__name__)
LIVE = [Game.Status.OPEN, Game.Status.ACTIVE]


def locked(tournament_id: int) -> Tournament:
    """The tournament, its row locked until the end of the transaction."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise GameError(_("There is no such tournament."), code="not_found")
    return tournament


def live_tables(round_: Round, just_ended: int | None = None):
    """The round's tables whose game is still in play (`just_ended`: a game ending in this transaction)."""
    return round_.tables.filter(game__status__in=LIVE).exclude(game_id=just_ended)


def latest_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def official_start(tournament: Tournament, number: int, now: datetime) -> datetime:
    """When round `number`, paired `now`, officially starts: now, or on dates its date (a round opened
    early, within the start window, starts on its date all the same)."""
    if number > 1 and tournament.next_round == Tournament.NextRound.SCHEDULED:
        return max(now, scheduled_start(tournament, number))
    return now


def window_end(tournament: Tournament, start: datetime) -> datetime | None:
    """The end of the start window of a round starting at `start` (None: the tournament has none)."""
    return start + timedelta(hours=tournament.start_window_hours) if tournament.start_window_hours else None


def scheduled_start(tournament: Tournament, number: int) -> datetime:
    """A round's date when the rounds start on their dates: round 1's start and a round's days per round."""
    return tournament.started_at + timedelta(days=tournament.round_days * (number - 1))


# -- starting a round ---------------------------------------------------------------


def start_round(tournament: Tournament, number: int, now: datetime) -> Round:
    """Pair round `number` of the locked `tournament` and put its tables in play."""
    start = official_start(tournament, number, now)
    round_ = Round.objects.create(tournament=tournament, number=number, started_at=now,
                                  deadline=start + timedelta(days=tournament.round_days),
                                  window_ends=window_end(tournament, start))
    pair_round(tournament, round_, now)
    return round_


def pair_round(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Pair the round (new, or restarted: no tables, no pairing byes) and put its tables in play."""
    number = round_.number
    playing = [e for e in tournament.entries.filter(withdrawn_at=None, out_in_round=None)
               .select_related("user", "partner").order_by("number")
               if not any(is_suspended(p, now) for p in _people(e))]
    in_cup = tournament.format == Tournament.Format.KNOCKOUT
    if group_stage.in_group_stage(tournament, number):
        tables, byes = group_stage.tables_of_round(tournament, number, playing), []
    elif in_cup:
        seed_of = cup.seeds(tournament)
        tables, byes = knockout.draw(sorted((e.pk for e in playing), key=seed_of.__getitem__), tournament.table_size)
    elif len(playing) < tournament.table_size:
        tables, byes = [], [e.pk for e in playing]
    else:
        try:
            tables, byes = pairing.pair_next(tournament, number, playing)
        except swiss.SwissError:
            raise GameError(_("Round %(n)s cannot be paired.") % {"n": number}, code="unpairable") from None
    by_entry = {e.pk: e for e in playing}
    bye_points = 0.0 if in_cup else 1.0 if tournament.table_size == 2 else 0.5
    Bye.objects.bulk_create([Bye(round=round_, entry_id=pk, kind=Bye.Kind.PAIRING, points=bye_points)
                             for pk in byes])
    for board, (seats, match_game) in enumerate(games_of_matches(tournament, number, tables), start=1):
        open_table(tournament, round_, board, seats, by_entry, match_game)
    notices.byes_given(tournament, round_, [p for pk in byes if not in_cup for p in _people(by_entry[pk])], bye_points)
    if not tables:
        round_over(tournament, round_, now)


def _in_cup_stage(tournament: Tournament, number: int) -> bool:
    return tournament.format == Tournament.Format.KNOCKOUT and not group_stage.in_group_stage(tournament, number)


def games_of_matches(tournament: Tournament, number: int, tables: list[list[int]]) -> list[tuple[list[int], int]]:
    """Each table's seats and its game of the match: in a cup round of matches of several games, every
    match (the better seed first) gives its games, who sits first alternating (`tournaments.matches`)."""
    games = tournament.games_per_match
    if not _in_cup_stage(tournament, number) or tournament.table_size != 2 or games < 2:
        return [(seats, 1) for seats in tables]
    return [(matches.seats_of_game(*pair, game, games), game) for pair in tables for game in range(1, games + 1)]


def open_table(tournament: Tournament, round_: Round, board: int, seats: list[int], by_entry: dict[int, Entry],
               match_game: int = 1) -> Table:
    """A table of the round, its game in play, its players told."""
    table_settings = {"time_preset": tournament.time_preset or "correspondence",
                      "move_seconds": tournament.move_seconds, "reserve_seconds": tournament.reserve_seconds,
                      "on_timeout": Game.OnTimeout.FORFEIT, "rated": tournament.rated}
    game = game_services.create_seated_game(seated_users([by_entry[pk] for pk in seats]), tournament.engine,
                                            tournament.options, **table_settings)
    table = Table.objects.create(round=round_, board=board, seats=seats, game=game, match_game=match_game)
    notices.round_started(tournament, round_.number, game.pk)
    return table


def _people(entry: Entry) -> list:
    return [entry.user] + ([entry.partner] if entry.partner_id else [])


def seated_users(entries: list[Entry]) -> list:
    """A table's players by seat: the entries in order; in pairs, pair A's players in seats 0 and 2 and
    pair B's in 1 and 3 (the engine's teams)."""
    if all(e.partner_id for e in entries) and len(entries) == 2:
        first, second = entries
        return [first.user, second.user, first.partner, second.partner]
    return [e.user for e in entries]


def start_or_finish(tournament: Tournament, number: int, now: datetime) -> None:
    """Start round `number`; when it cannot be paired (everyone left has met
    everyone), the tournament ends here instead."""
    try:
        with transaction.atomic():
            start_round(tournament, number, now)
    except GameError as exc:
        if exc.code != "unpairable":
            raise
        finish(tournament, now)


# -- a round's end, the next one ------------------------------------------------------


def round_over(tournament: Tournament, round_: Round, now: datetime) -> None:
    """Every table of the round is settled: it is finished (in a cup, the
    players who do not go on are out), and after the commit a task starts
    the next round or ends the tournament (`advance`)."""
    cup_round = _in_cup_stage(tournament, round_.number)
    if cup_round and start_deciders(tournament, round_, now):
        return
    round_.finished_at = now
    round_.save(update_fields=["finished_at"])
    if tournament.has_groups and round_.number == tournament.group_rounds:
        group_stage.close(tournament, pairing.history(tournament))
    elif cup_round:
        tournament.entries.filter(pk__in=cup.out_of(tournament, round_), out_in_round=None) \
            .update(out_in_round=round_.number)
    tournament_id = tournament.pk
    transaction.on_commit(lambda: queue_advance(tournament_id))


def start_deciders(tournament: Tournament, round_: Round, now: datetime) -> bool:
    """The matches level after their games each play a decider (`tournaments.matches`); the round waits
    for them, its deadline a round's days from now. True if any was started."""
    level = cup.level_matches(tournament, round_)
    if not level:
        return False
    by_entry = {e.pk: e for e in tournament.entries.filter(pk__in=[pk for pair in level for pk in pair])
                .select_related("user", "partner")}
    boards = round_.tables.count()
    decider = tournament.games_per_match + 1
    for board, pair in enumerate(level, start=boards + 1):
        seats = matches.seats_of_game(*pair, decider, tournament.games_per_match)
        open_table(tournament, round_, board, seats, by_entry, decider)
    round_.deadline = max(round_.deadline, now + timedelta(days=tournament.round_days))
    round_.warned_at = None
    if round_.window_ends is not None and round_.window_closed_at is None:
        round_.window_closed_at = now  # a decider has no start window
    round_.save(update_fields=["deadline", "warned_at", "window_closed_at"])
    return True


def _is_last(tournament: Tournament, round_: Round) -> bool:
    if round_.number >= tournament.rounds:
        return True
    return tournament.format == Tournament.Format.KNOCKOUT and \
        tournament.entries.filter(withdrawn_at=None, out_in_round=None).count() <= 1


def next_round_due(tournament: Tournament, latest: Round, now: datetime) -> bool:
    """Whether the round after `latest` (finished) starts now: at once, or on its date (with a start
    window, it opens at once and players may begin early; it still starts officially on its date)."""
    return tournament.next_round == Tournament.NextRound.FINISHED or bool(tournament.start_window_hours) or \
        scheduled_start(tournament, latest.number + 1) <= now


@transaction.atomic
def advance(tournament_id: int, now: datetime | None = None) -> bool:
    """The tournament just started: start round 1; the latest round finished:
    start the next one if it is due, or end the tournament after its last round. Locks the tournament row; running
    it twice, or late, changes nothing more. True if it changed anything."""
    now = now or timezone.now()
    tournament = locked(tournament_id)
    latest = latest_round(tournament)
    if tournament.status != Tournament.Status.RUNNING:
        return False
    if latest is None:  # just started
        start_or_finish(tournament, 1, now)
        return True
    if latest.finished_at is None:
        return False
    if _is_last(tournament, latest):
        finish(tournament, now)
        return True
    if not next_round_due(tournament, latest, now):
        return False
    start_or_finish(tournament, latest.number + 1, now)
    return True


@shared_task(ignore_result=True, name="tournaments.tasks.advance")
def advance_task(tournament_id: int) -> bool:
    return advance(tournament_id)


def queue_advance(tournament_id: int) -> None:
    """After the commit of a round's end. If the broker refuses the task, beat's sweep advances the
    tournament."""
    try:
        advance_task.delay(tournament_id)
    except Exception:
        log.exception("could not queue the next round of tournament %s; the sweep will start it", tournament_id)


# -- the end ---------------------------------------------------------------------------


def finish(tournament: Tournament, now: datetime) -> None:
    """The final ranks are written and every player hears the result."""
    rows = pairing.current_standings(tournament)
    ranks = {row.entry_id: row.rank for row in rows}
    entries = list(tournament.entries.select_related("user"))
    for entry in entries:
        entry.final_rank = ranks.get(entry.pk)
    Entry.objects.bulk_update(entries, ["final_rank"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    notices.results(tournament, entries, len(rows))
