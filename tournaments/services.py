"""Every change to a tournament or an entry, each in one transaction.

A tournament goes open → running → finished. Starting it numbers the
entries (best rating first) and pairs round 1; each round's tables are
ordinary games of the platform (`gameplay.services.create_seated_game`).
When a tournament game ends (`game_over`, in the transaction that ends
it) its forfeits are recorded, and once every table of the round is over
the next round is paired and started (or, when the organizer chose dates,
the clock sweep starts it on its date: `sweep`). The last round over, the
tournament is finished and the final ranks written.

Decisions (issue 41):
- Two-player tables are paired by the FIDE Dutch system (`tournaments.swiss`,
  through py4swiss), tables of 3 to 6 by `tournaments.seating`. Fixed
  pairs (Durak 2×2) are not offered yet.
- A pairing bye is worth a win at two-player tables and the table average
  (½) at larger ones. Nobody gets a second one while another player has
  none (the Swiss library's rule at two-player tables, the seating's at
  larger ones), since a bye stays with its entry.
- Late entries until half the rounds have started: the late player gets a
  half-point bye for the latest round started (and nothing for the rounds
  before it). Leaving a started tournament keeps the entry (withdrawn);
  rejoining brings it back with its history and no new bye, so byes
  cannot be farmed by leaving and rejoining.
- A game lost on time is a forfeit (tournament games lose on time rather
  than play automatic moves); at the round's deadline the sweep makes
  every clock still running in the round run out. A player with
  `forfeits_to_withdraw` forfeits (0: never) is withdrawn.
- A withdrawn player's game in play is resigned for him (a forfeit) and he
  is not paired again.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts.standing import is_suspended
from gameplay import services as game_services
from gameplay.engine import ENGINES, get_engine
from gameplay.i18n import engine_message_text
from gameplay.models import Game, Move
from gameplay.records import TIMEOUT
from gameplay.services.base import GameError
from gameplay.services.moves import apply_move
from moderation.permissions import is_moderator
from notifications import dispatch
from ratings.services import rating_at
from tournaments import knockout, pairing, standings, swiss
from tournaments.models import Bye, Entry, Round, Table, Tournament

RESERVED_SLUGS = {"new", "rules"}
LIVE = [Game.Status.OPEN, Game.Status.ACTIVE]


def may_run(tournament: Tournament, user) -> bool:
    """The organizer and the site's moderators run a tournament."""
    return user.is_authenticated and user.is_active and (tournament.organizer_id == user.pk or is_moderator(user))


def _must_run(tournament: Tournament, user) -> None:
    if not may_run(tournament, user):
        raise GameError(_("Only the tournament's organizer or a moderator may do this."), code="forbidden")


def _locked(tournament_id: int) -> Tournament:
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise GameError(_("There is no such tournament."), code="not_found")
    return tournament


def _locked_with_games(tournament_id: int, user_id: int) -> Tournament:
    """The tournament locked in the order a game's end locks: the player's tournament games in play
    first, then the tournament (a withdrawal resigns them)."""
    games = (Table.objects.filter(round__tournament_id=tournament_id, game__status=Game.Status.ACTIVE,
                                  game__seats__user_id=user_id).order_by("game_id").values_list("game_id", flat=True))
    for game_id in games:
        game_services.locked_game(game_id)
    return _locked(tournament_id)


# -- creating -----------------------------------------------------------------------


@transaction.atomic
def create_tournament(organizer, *, name: str, engine: str, players: int, options: dict | None = None,
                      rounds: int = 0, **settings_of_tournament) -> Tournament:
    """A new Swiss tournament, open for entry. `rounds` 0: suggested from the entrants at the start."""
    if not organizer.is_authenticated or (settings.LEAGUES_BY_STAFF_ONLY and not organizer.is_staff):
        raise GameError(_("Only staff may create tournaments on this site."), code="forbidden")
    name = (name or "").strip()
    if not name:
        raise GameError(_("Give the tournament a name."), code="bad_request")
    if engine not in ENGINES:
        raise GameError(_("Unknown game."), code="bad_request")
    game = get_engine(engine)
    try:
        options = game.validate_options(options or {})
        game.check_options_for_players(options, players)
    except ValueError as exc:
        raise GameError(engine_message_text(exc), code="bad_request") from None
    if not game.min_players <= players <= game.max_players or not 2 <= players <= 6:
        raise GameError(_("This game is for %(a)s to %(b)s players.") % {"a": game.min_players, "b": game.max_players},
                        code="bad_request")
    if options.get("teams"):
        raise GameError(_("Tournaments in pairs are not offered yet."), code="bad_request")
    cup = settings_of_tournament.get("format") == Tournament.Format.KNOCKOUT
    advance = settings_of_tournament.get("advance", 1)
    if cup and (not isinstance(advance, int) or not 1 <= advance < players):
        raise GameError(_("From a table of %(n)s, 1 to %(m)s places go on.") % {"n": players, "m": players - 1},
                        code="bad_request")
    if cup:
        rounds = 0  # counted from the entrants at the start
    if not isinstance(rounds, int) or not 0 <= rounds <= 30:
        raise GameError(_("A tournament has 1 to 30 rounds (0: suggested from the entrants)."), code="bad_request")
    try:
        standings.validate_chain(settings_of_tournament.get("tiebreaks") or [])
    except ValueError:
        raise GameError(_("Unknown or repeated tie-break."), code="bad_request") from None
    return Tournament.objects.create(name=name, slug=_free_slug(name), organizer=organizer, engine=engine,
                                     options=options, players=players, rounds=rounds, **settings_of_tournament)


def _free_slug(name: str) -> str:
    base = slugify(name)[:70] or "tournament"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


# -- entry ----------------------------------------------------------------------------


def late_entry_open(tournament: Tournament) -> bool:
    """Entries are taken until half the rounds have started."""
    if tournament.status == Tournament.Status.OPEN:
        return True
    if tournament.status != Tournament.Status.RUNNING or tournament.format == Tournament.Format.KNOCKOUT:
        return False
    return 2 * tournament.round_set.count() < tournament.rounds


@transaction.atomic
def join(tournament_id: int, user) -> Entry:
    """A player enters; in a started tournament (until half the rounds have
    started) with a half-point bye for the latest round; a player who left
    comes back with his entry as it was, and no new bye."""
    tournament = _locked(tournament_id)
    now = timezone.now()
    if not late_entry_open(tournament):
        if tournament.status == Tournament.Status.RUNNING:
            if tournament.format == Tournament.Format.KNOCKOUT:
                raise GameError(_("This cup has already started."), code="started")
            raise GameError(_("Entries are closed: half the rounds have started."), code="closed")
        raise GameError(_("This tournament is over."), code="closed")
    entry = Entry.objects.filter(tournament=tournament, user=user).first()
    if entry is not None and not entry.withdrawn_at:
        raise GameError(_("You are already in this tournament."), code="duplicate")
    _check_may_enter(tournament, user, now)
    if entry is not None:  # back after leaving: the same entry, no bye
        entry.withdrawn_at = None
        entry.save(update_fields=["withdrawn_at"])
        return entry
    rating = rating_at(user, tournament.engine, now)
    entry = Entry.objects.create(tournament=tournament, user=user, rating=rating.value)
    if tournament.status == Tournament.Status.RUNNING:
        entry.number = (tournament.entries.aggregate(n=Max("number"))["n"] or 0) + 1
        entry.save(update_fields=["number"])
        latest = tournament.round_set.order_by("-number").first()
        if latest is not None:
            Bye.objects.create(round=latest, entry=entry, kind=Bye.Kind.LATE, points=0.5)
    return entry


def _check_may_enter(tournament: Tournament, user, now) -> None:
    if not user.is_authenticated or not user.is_active:
        raise GameError(_("Log in to enter."), code="forbidden")
    if is_suspended(user, now):
        raise GameError(_("Your account is suspended: it cannot enter a tournament."), code="suspended")
    if user.is_bot and not tournament.allow_bots:
        raise GameError(_("This tournament does not allow bot accounts."), code="bots_not_allowed")
    active = tournament.entries.filter(withdrawn_at=None).count()
    if tournament.max_entries and active >= tournament.max_entries:
        raise GameError(_("This tournament is full."), code="full")
    if tournament.min_rating is not None or tournament.max_rating is not None or tournament.min_rated_games:
        rating = rating_at(user, tournament.engine, now)
        if rating.games < tournament.min_rated_games:
            raise GameError(_("This tournament is for players with at least %(n)s rated games.")
                            % {"n": tournament.min_rated_games}, code="conditions")
        low, high = tournament.min_rating, tournament.max_rating
        if (low is not None and rating.value < low) or (high is not None and rating.value > high):
            raise GameError(_("Your rating is outside this tournament's range."), code="conditions")


@transaction.atomic
def leave(tournament_id: int, user) -> None:
    """Leave: before the start the entry is gone; after it the player is withdrawn."""
    tournament = _locked_with_games(tournament_id, user.pk)
    entry = Entry.objects.filter(tournament=tournament, user=user, withdrawn_at=None).first()
    if entry is None:
        raise GameError(_("You are not in this tournament."), code="not_entered")
    if tournament.status == Tournament.Status.OPEN:
        entry.delete()
        return
    if tournament.status == Tournament.Status.FINISHED:
        raise GameError(_("This tournament is over."), code="closed")
    _withdraw(tournament, entry)


@transaction.atomic
def withdraw(entry_id: int, by) -> Entry:
    """The organizer or a moderator (or the player himself) withdraws a player from a started tournament."""
    entry = Entry.objects.filter(pk=entry_id).select_related("user").first()
    if entry is None:
        raise GameError(_("There is no such entry."), code="not_found")
    tournament = _locked_with_games(entry.tournament_id, entry.user_id)
    if by != entry.user:
        _must_run(tournament, by)
    entry.refresh_from_db()
    if entry.withdrawn_at:
        raise GameError(_("This player has already withdrawn."), code="duplicate")
    if tournament.status != Tournament.Status.RUNNING:
        raise GameError(_("The tournament is not in progress."), code="not_running")
    _withdraw(tournament, entry)
    return entry


def _withdraw(tournament: Tournament, entry: Entry, ending: int | None = None) -> None:
    """Withdrawn now: his game in play is resigned for him, a forfeit (`ending`: a game ending now)."""
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    for table in _live_tables_of(tournament, entry):
        if table.game_id == ending:
            continue
        table.forfeits = sorted({*table.forfeits, entry.pk})
        table.save(update_fields=["forfeits"])
        game_services.resign(table.game_id, entry.user)


def _live_tables_of(tournament: Tournament, entry: Entry) -> list[Table]:
    tables = Table.objects.filter(round__tournament=tournament, game__status=Game.Status.ACTIVE)
    return [t for t in tables if entry.pk in t.seats]


# -- rounds ---------------------------------------------------------------------------


@transaction.atomic
def start(tournament_id: int, by) -> Tournament:
    """Number the entries, best rating first, and start round 1."""
    tournament = _locked(tournament_id)
    _must_run(tournament, by)
    if tournament.status != Tournament.Status.OPEN:
        raise GameError(_("This tournament has already started."), code="started")
    now = timezone.now()
    entries = list(tournament.entries.filter(withdrawn_at=None).select_related("user"))
    if len(entries) < tournament.table_size:
        raise GameError(_("Too few players to start: a table needs %(n)s.") % {"n": tournament.table_size},
                        code="too_few")
    for entry in entries:
        entry.rating = rating_at(entry.user, tournament.engine, now).value
    entries.sort(key=lambda e: (-e.rating, e.joined_at, e.pk))
    for number, entry in enumerate(entries, start=1):
        entry.number = number
    Entry.objects.bulk_update(entries, ["rating", "number"])
    if tournament.format == Tournament.Format.KNOCKOUT:
        tournament.rounds = knockout.rounds_needed(len(entries), tournament.table_size, tournament.advance)
    else:
        tournament.rounds = tournament.rounds or swiss.suggested_rounds(len(entries))
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["rounds", "status", "started_at"])
    _start_round(tournament, 1, now)
    return tournament


@transaction.atomic
def start_next_round(tournament_id: int, by, number: int) -> Round:
    """The organizer starts round `number` (the one after the last, once that one is over)."""
    tournament = _locked(tournament_id)
    _must_run(tournament, by)
    if tournament.status != Tournament.Status.RUNNING:
        raise GameError(_("The tournament is not in progress."), code="not_running")
    latest = tournament.round_set.order_by("-number").first()
    if latest is not None and number <= latest.number:
        raise GameError(_("Round %(n)s has already started.") % {"n": number}, code="started")
    if number != (latest.number if latest else 0) + 1 or number > tournament.rounds:
        raise GameError(_("There is no round %(n)s to start now.") % {"n": number}, code="bad_request")
    if latest is not None and _live_tables(latest).exists():
        raise GameError(_("Round %(n)s is still being played.") % {"n": latest.number}, code="not_over")
    return _start_round(tournament, number, timezone.now())


def _live_tables(round_: Round, just_ended: int | None = None):
    return round_.tables.filter(game__status__in=LIVE).exclude(game_id=just_ended)


def _start_round(tournament: Tournament, number: int, now) -> Round:
    round_ = Round.objects.create(tournament=tournament, number=number, started_at=now,
                                  deadline=now + timedelta(days=tournament.round_days))
    playing = [e for e in tournament.entries.filter(withdrawn_at=None, out_in_round=None).select_related("user")
               .order_by("number") if not is_suspended(e.user, now)]
    cup = tournament.format == Tournament.Format.KNOCKOUT
    if cup:
        tables, byes = knockout.draw([e.pk for e in playing], tournament.table_size)
    elif len(playing) < tournament.table_size:
        tables, byes = [], [e.pk for e in playing]
    else:
        try:
            tables, byes = pairing.pair_next(tournament, number, playing)
        except swiss.SwissError:
            raise GameError(_("Round %(n)s cannot be paired.") % {"n": number}, code="unpairable") from None
    users = {e.pk: e.user for e in playing}
    bye_points = 0.0 if cup else 1.0 if tournament.table_size == 2 else 0.5
    Bye.objects.bulk_create([Bye(round=round_, entry_id=pk, kind=Bye.Kind.PAIRING, points=bye_points)
                             for pk in byes])
    table_settings = {"time_preset": tournament.time_preset or "correspondence",
                      "move_seconds": tournament.move_seconds, "reserve_seconds": tournament.reserve_seconds,
                      "on_timeout": Game.OnTimeout.FORFEIT, "rated": tournament.rated}
    for board, seats in enumerate(tables, start=1):
        game = game_services.create_seated_game([users[pk] for pk in seats], tournament.engine, tournament.options,
                                                **table_settings)
        Table.objects.create(round=round_, board=board, seats=seats, game=game)
        _announce(tournament, number, game.pk)
    if not tables:
        _round_over(tournament, round_, now)
    return round_


def _announce(tournament: Tournament, number: int, game_id: int) -> None:
    """After the commit, the table's players hear of the new round (notifications: as a league's round)."""
    name, tournament_id = tournament.name, tournament.pk
    transaction.on_commit(lambda: dispatch.notify_tournament_game(
        game_id, tournament=name, tournament_id=tournament_id, round_number=number), robust=True)


def _round_over(tournament: Tournament, round_: Round, now) -> None:
    """Every table of the round is settled: it is finished, and the next one
    starts now (or on its date, by the sweep), or the tournament ends."""
    round_.finished_at = now
    round_.save(update_fields=["finished_at"])
    if tournament.format == Tournament.Format.KNOCKOUT:
        _knock_out(tournament, round_)
        if tournament.entries.filter(withdrawn_at=None, out_in_round=None).count() <= 1 \
                or round_.number >= tournament.rounds:
            _finish(tournament, now)
            return
    if round_.number >= tournament.rounds:
        _finish(tournament, now)
    elif tournament.next_round == Tournament.NextRound.FINISHED or \
            scheduled_start(tournament, round_.number + 1) <= now:
        _start_or_finish(tournament, round_.number + 1, now)


def _start_or_finish(tournament: Tournament, number: int, now) -> None:
    """Start round `number`; when it cannot be paired (everyone left has met
    everyone), the tournament ends here instead: the game that ended the
    round keeps its result either way."""
    try:
        with transaction.atomic():
            _start_round(tournament, number, now)
    except GameError as exc:
        if exc.code != "unpairable":
            raise
        _finish(tournament, now)


def _knock_out(tournament: Tournament, round_: Round) -> None:
    """The players of the round's tables who do not go on are out (`tournaments.knockout`); an aborted
    table sends on its best seeds."""
    seeds = dict(tournament.entries.values_list("pk", "number"))
    out = []
    for table in round_.tables.select_related("game").prefetch_related("game__seats"):
        places = pairing.table_places(table) or {pk: 1 for pk in table.seats}
        on = knockout.going_on(places, tournament.advance, seeds, frozenset(table.forfeits))
        out += [pk for pk in table.seats if pk not in on]
    Entry.objects.filter(pk__in=out, out_in_round=None).update(out_in_round=round_.number)


def scheduled_start(tournament: Tournament, number: int):
    """A round's date when the rounds start on their dates: round 1's start and a round's days per round."""
    return tournament.started_at + timedelta(days=tournament.round_days * (number - 1))


def _finish(tournament: Tournament, now) -> None:
    for row in pairing.current_standings(tournament):
        Entry.objects.filter(pk=row.entry_id).update(final_rank=row.rank)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])


# -- results --------------------------------------------------------------------------


def game_over(game: Game, **_details) -> None:
    """A tournament game has ended (finished or aborted), in its transaction:
    a player who ran out of time forfeited it (and is withdrawn at the
    tournament's number of forfeits); the round over, the next one starts."""
    table = Table.objects.filter(game=game).select_related("round").first()
    if table is None:
        return
    tournament = _locked(table.round.tournament_id)
    table.refresh_from_db()
    _record_forfeits(tournament, table, [table.seats[p] for p in _lost_on_time(game) if p < len(table.seats)],
                     ending=game.pk)
    round_ = table.round
    if tournament.status == Tournament.Status.RUNNING and round_.finished_at is None \
            and not _live_tables(round_, just_ended=game.pk).exists() \
            and not tournament.round_set.filter(number__gt=round_.number).exists():
        _round_over(tournament, round_, timezone.now())


def _lost_on_time(game: Game) -> list[int]:
    """The seat that lost this game on time: the one the engine's state says
    forfeited, if his clock had run out (the Move row of the time-out is
    written after this event; a resignation comes before the deadline)."""
    seat = game.state.get("forfeited") if isinstance(game.state, dict) else None
    if not isinstance(seat, int):
        return []
    now = timezone.now()
    return [s.position for s in game.seats.all() if s.position == seat and s.deadline and s.deadline <= now]


def _record_forfeits(tournament: Tournament, table: Table, entry_ids: list[int], ending: int | None = None) -> None:
    """These entries forfeited the table: counted, and withdrawn at the tournament's number of forfeits
    (`ending`: the game that is ending now, not to be resigned again)."""
    new = [pk for pk in entry_ids if pk not in table.forfeits]
    if not new:
        return
    table.forfeits = sorted({*table.forfeits, *new})
    table.save(update_fields=["forfeits"])
    for entry in Entry.objects.filter(pk__in=new).select_related("user"):
        entry.forfeits += 1
        entry.save(update_fields=["forfeits"])
        limit = tournament.forfeits_to_withdraw
        if limit and entry.forfeits >= limit and not entry.withdrawn_at:
            _withdraw(tournament, entry, ending=ending)


def sweep_tournament(tournament_id: int, now=None) -> bool:
    """One tournament's clock: a round past its deadline has every clock still
    running in it run out (forfeits), each game in its own transaction, and a
    round due on its date starts. Harmless to run twice or late. True if it
    changed anything. Locks as a game's end does: the game, then the tournament."""
    now = now or timezone.now()
    latest = Round.objects.filter(tournament_id=tournament_id, tournament__status=Tournament.Status.RUNNING) \
        .order_by("-number").first()
    if latest is None:
        return False
    changed = False
    if latest.finished_at is None and latest.deadline <= now:
        for table_id in _live_tables(latest).values_list("pk", flat=True):
            changed = _time_out(table_id) or changed
    return _start_due_round(tournament_id, now) or changed


@transaction.atomic
def _start_due_round(tournament_id: int, now) -> bool:
    """The round after a finished one starts when its date has come (rounds on dates)."""
    tournament = _locked(tournament_id)
    latest = tournament.round_set.order_by("-number").first()
    if tournament.status != Tournament.Status.RUNNING or latest is None or latest.finished_at is None \
            or latest.number >= tournament.rounds or scheduled_start(tournament, latest.number + 1) > now:
        return False
    _start_or_finish(tournament, latest.number + 1, now)
    return True


@transaction.atomic
def _time_out(table_id: int) -> bool:
    """The round's deadline has come: the seats of this table whose clocks run lose on time, forfeits."""
    table = Table.objects.select_related("round").get(pk=table_id)
    changed = False
    for _attempt in range(8):
        game = game_services.locked_game(table.game_id, seats=True)
        if game.status != Game.Status.ACTIVE:
            return changed
        tournament = _locked(table.round.tournament_id)
        table.refresh_from_db()
        running = [s for s in game.seats.all() if s.deadline is not None]
        if not running:
            return changed
        changed = True
        _record_forfeits(tournament, table, [table.seats[running[0].position]])
        game = game_services.locked_game(table.game_id, seats=True)  # his withdrawal may have resigned it
        if game.status != Game.Status.ACTIVE:
            return changed
        # As a clock running out does when time-outs lose (`gameplay.services.clocks.expire_seat`).
        apply_move(game, running[0].position, {"type": TIMEOUT}, by=Move.By.TIMEOUT)
    return changed


def running_tournament_ids(now=None) -> list[int]:
    """Tournaments whose latest round is past its deadline, or whose next round is due (for beat's sweep)."""
    now = now or timezone.now()
    return list(Tournament.objects.filter(status=Tournament.Status.RUNNING)
                .filter(Q(round_set__finished_at=None, round_set__deadline__lte=now)
                        | Q(next_round=Tournament.NextRound.SCHEDULED))
                .distinct().values_list("pk", flat=True))
