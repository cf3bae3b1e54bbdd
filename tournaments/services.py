"""Every change to a tournament or an entry, each in one transaction.

A tournament goes open → running → finished. Starting it numbers the
entries (best rating first) and queues the pairing of round 1 (a task, as
for every round); each round's tables are ordinary games of the platform
(`gameplay.services.create_seated_game`).
When a tournament game ends (`game_over`, in the transaction that ends
it) its forfeits are recorded, and once every table of the round is over
the round is finished and a task queued after the commit pairs and starts
the next one (or, when the organizer chose dates, the clock sweep starts it
on its date; `tournaments.rounds`, `tournaments.sweep`). The last round
over, the tournament is finished and the final ranks written.

Decisions (issue 41):
- Two-player tables are paired by the FIDE Dutch system (`tournaments.swiss`,
  through py4swiss), tables of 3 to 6 by `tournaments.seating`. Durak 2×2
  is played by fixed pairs: a player enters naming the partner, the pair is
  one entry (paired, scored and rated as one), pair A sits in seats 0 and 2;
  either partner may leave, which withdraws the pair. (Rotating partners
  would make an entry a person and a table four entries: not offered.)
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
  is not paired again; in a tournament with computer substitutes
  (`Tournament.substitute_level`, issue 43) a computer of that level
  finishes it instead, a substitution audited as a league's: the seat's
  result stays the entry's (no forfeit), and ratings rate the leaver as
  for any substitute (last). Computer entrants: `tournaments.computer_entrants`.
- Knockout cups: two-player matches of 1 to 9 games, a level match of two
  or more games playing a decider (`tournaments.matches`); optional
  round-robin groups before the cup, whose top places go on seeded by the
  group results (`tournaments.groups`, `tournaments.group_stage`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from accounts import computers
from accounts.standing import is_suspended
from gameplay import services as game_services
from gameplay.bots import LEVELS
from gameplay.computer_levels import level_refusal
from gameplay.models import Game
from gameplay.services.base import GameError
from gameplay.services.tables import checked_competition_game
from moderation.audit import record_action
from moderation.models import AuditEntry
from moderation.permissions import is_moderator
from moderation.services.games import required_reason, substitute_seat
from ratings.services import COMPUTER_POOL, rating_at
from tournaments import group_stage, groups, knockout, rounds, standings, swiss
from tournaments.models import Bye, Entry, Round, Table, Tournament

RESERVED_SLUGS = {"new", "rules"}
MOST_GAMES_PER_MATCH = 9
MOST_IN_A_GROUP = 16


def may_run(tournament: Tournament, user) -> bool:
    """The organizer and the site's moderators run a tournament."""
    return user.is_authenticated and user.is_active and (tournament.organizer_id == user.pk or is_moderator(user))


def must_run(tournament: Tournament, user) -> None:
    if not may_run(tournament, user):
        raise GameError(_("Only the tournament's organizer or a moderator may do this."), code="forbidden")


def _locked_with_games(tournament_id: int, user_id: int) -> Tournament:
    """The tournament locked in the order a game's end locks: the player's tournament games in play
    first, then the tournament (a withdrawal resigns them)."""
    games = (Table.objects.filter(round__tournament_id=tournament_id, game__status=Game.Status.ACTIVE,
                                  game__seats__user_id=user_id).order_by("game_id").values_list("game_id", flat=True))
    for game_id in games:
        game_services.locked_game(game_id)
    return rounds.locked(tournament_id)


# -- creating -----------------------------------------------------------------------


@transaction.atomic
def create_tournament(organizer, *, name: str, engine: str, players: int, options: dict | None = None,
                      rounds: int = 0, **settings_of_tournament) -> Tournament:
    """A new Swiss tournament, open for entry. `rounds` 0: suggested from the entrants at the start."""
    if not organizer.is_authenticated or (settings.LEAGUES_BY_STAFF_ONLY and not organizer.is_staff):
        raise GameError(_("Only staff may create tournaments on this site."), code="forbidden")
    name, game, options = checked_competition_game(name, engine, players, options,
                                                   unnamed=_("Give the tournament a name."))
    if not game.min_players <= players <= game.max_players or not 2 <= players <= 6:
        raise GameError(_("This game is for %(a)s to %(b)s players.") % {"a": game.min_players, "b": game.max_players},
                        code="bad_request")
    cup = settings_of_tournament.get("format") == Tournament.Format.KNOCKOUT
    advance = settings_of_tournament.get("advance", 1)
    if cup and (not isinstance(advance, int) or not 1 <= advance < players):
        raise GameError(_("From a table of %(n)s, 1 to %(m)s places go on.") % {"n": players, "m": players - 1},
                        code="bad_request")
    games = settings_of_tournament.get("games_per_match", 1)
    if not isinstance(games, int) or not 1 <= games <= MOST_GAMES_PER_MATCH:
        raise GameError(_("A match has 1 to %(n)s games.") % {"n": MOST_GAMES_PER_MATCH}, code="bad_request")
    if games > 1 and (not cup or (2 if options.get("teams") else players) != 2):
        raise GameError(_("Matches of several games are played in knockout cups at two-player tables."),
                        code="bad_request")
    _check_groups(settings_of_tournament, cup, 2 if options.get("teams") else players)
    if cup:
        rounds = 0  # counted from the entrants at the start
    if not isinstance(rounds, int) or not 0 <= rounds <= 30:
        raise GameError(_("A tournament has 1 to 30 rounds (0: suggested from the entrants)."), code="bad_request")
    window = settings_of_tournament.get("start_window_hours") or 0
    if not isinstance(window, int) or window < 0 or window >= 24 * settings_of_tournament.get("round_days", 7):
        raise GameError(_("The start window must be shorter than a round."), code="bad_request")
    level = settings_of_tournament.get("substitute_level") or 0
    if level and (isinstance(level, bool) or level not in LEVELS):
        raise GameError(level_refusal(level), code="bad_request")
    try:
        standings.validate_chain(settings_of_tournament.get("tiebreaks") or [])
    except ValueError:
        raise GameError(_("Unknown or repeated tie-break."), code="bad_request") from None
    return Tournament.objects.create(name=name, slug=_free_slug(name), organizer=organizer, engine=engine,
                                     options=options, players=players, rounds=rounds, **settings_of_tournament)


def _check_groups(settings_of_tournament: dict, cup: bool, table_size: int) -> None:
    """Groups before a cup: at two-player tables 3 to MOST_IN_A_GROUP players a group, at larger ones a
    group is a table; fewer go on from a group than it holds."""
    size = settings_of_tournament.get("group_size", 0)
    advance = settings_of_tournament.get("group_advance", 1)
    if not isinstance(size, int) or not isinstance(advance, int) or size < 0:
        raise GameError(_("Give the group size and the players that go on as whole numbers."), code="bad_request")
    if not size:
        return
    if not cup:
        raise GameError(_("Groups are played before a knockout cup."), code="bad_request")
    if table_size == 2 and not 3 <= size <= MOST_IN_A_GROUP:
        raise GameError(_("A group holds 3 to %(n)s players.") % {"n": MOST_IN_A_GROUP}, code="bad_request")
    if table_size > 2 and size != table_size:
        raise GameError(_("At tables of %(n)s a group is one table: %(n)s players.") % {"n": table_size},
                        code="bad_request")
    if not 1 <= advance < size:
        raise GameError(_("From a group of %(n)s, 1 to %(m)s players go on.") % {"n": size, "m": size - 1},
                        code="bad_request")


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
def join(tournament_id: int, user, partner=None) -> Entry:
    """A player enters (in pairs, with the `partner` he names: a fixed pair);
    in a started tournament (until half the rounds have started) with a
    half-point bye for the latest round; a player who left comes back with
    his entry as it was, and no new bye."""
    tournament = rounds.locked(tournament_id)
    now = timezone.now()
    if not late_entry_open(tournament):
        if tournament.status == Tournament.Status.RUNNING:
            if tournament.format == Tournament.Format.KNOCKOUT:
                raise GameError(_("This cup has already started."), code="started")
            raise GameError(_("Entries are closed: half the rounds have started."), code="closed")
        raise GameError(_("This tournament is over."), code="closed")
    entry = _entry_of(tournament, user)
    if entry is not None and not entry.withdrawn_at:
        raise GameError(_("You are already in this tournament."), code="duplicate")
    _check_may_enter(tournament, user, now)
    if entry is not None:  # back after leaving: the same entry, no bye
        entry.withdrawn_at = None
        entry.save(update_fields=["withdrawn_at"])
        return entry
    _check_partner(tournament, user, partner, now)
    entry = Entry.objects.create(tournament=tournament, user=user, partner=partner,
                                 rating=entry_rating(tournament, user, partner, now))
    if tournament.status == Tournament.Status.RUNNING:
        entry.number = (tournament.entries.aggregate(n=Max("number"))["n"] or 0) + 1
        entry.save(update_fields=["number"])
        latest = tournament.round_set.order_by("-number").first()
        if latest is not None:
            Bye.objects.create(round=latest, entry=entry, kind=Bye.Kind.LATE, points=0.5)
    return entry


def _entry_of(tournament: Tournament, user) -> Entry | None:
    """The user's entry in the tournament, as its player or (in pairs) as the partner."""
    return Entry.objects.filter(Q(user=user) | Q(partner=user), tournament=tournament).first()


def _check_partner(tournament: Tournament, user, partner, now) -> None:
    """In pairs a partner is named, another player who may enter and has no entry; otherwise none."""
    if not tournament.in_pairs:
        if partner is not None:
            raise GameError(_("This tournament is not played in pairs."), code="bad_request")
        return
    if partner is None or partner == user:
        raise GameError(_("This tournament is played in pairs: name your partner."), code="bad_request")
    if _entry_of(tournament, partner) is not None:
        raise GameError(_("Your partner is already in this tournament."), code="duplicate")
    try:
        _check_may_enter(tournament, partner, now)
    except GameError as exc:
        raise GameError(_("Your partner cannot enter: %(why)s") % {"why": exc.message}, code=exc.code) from None


def entry_rating(tournament: Tournament, user, partner, now) -> float:
    """A player's rating; a pair's, the mean of its two; a computer level's, in the computers' pool."""
    people = [user] + ([partner] if partner is not None else [])
    return sum(rating_at(p, _rating_key(tournament, p), now).value for p in people) / len(people)


def _rating_key(tournament: Tournament, user) -> str:
    return f"{tournament.engine}:{COMPUTER_POOL}" if computers.is_computer(user) else tournament.engine


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
    entry = Entry.objects.filter(Q(user=user) | Q(partner=user), tournament=tournament, withdrawn_at=None).first()
    if entry is None:
        raise GameError(_("You are not in this tournament."), code="not_entered")
    if tournament.status == Tournament.Status.OPEN:
        entry.delete()
        return
    if tournament.status == Tournament.Status.FINISHED:
        raise GameError(_("This tournament is over."), code="closed")
    _withdraw(tournament, entry)


@transaction.atomic
def withdraw(entry_id: int, by, reason: str = "") -> Entry:
    """The player himself, or the organizer or a moderator with a reason (written to the moderation
    audit), withdraws a player from a started tournament."""
    entry = Entry.objects.filter(pk=entry_id).select_related("user").first()
    if entry is None:
        raise GameError(_("There is no such entry."), code="not_found")
    tournament = _locked_with_games(entry.tournament_id, entry.user_id)
    by_himself = by == entry.user or (entry.partner_id is not None and by.pk == entry.partner_id)
    if not by_himself:
        must_run(tournament, by)
        reason = required_reason(reason, _("Give a reason for withdrawing the player."))
    entry.refresh_from_db()
    if entry.withdrawn_at:
        raise GameError(_("This player has already withdrawn."), code="duplicate")
    if tournament.status != Tournament.Status.RUNNING:
        raise GameError(_("The tournament is not in progress."), code="not_running")
    if entry.is_computer:
        raise GameError(_("A computer player plays its games to the end: it is not withdrawn."),
                        code="bad_request")
    _withdraw(tournament, entry, actor=None if by_himself else by)
    if not by_himself:
        record_action(by, AuditEntry.Action.WITHDRAW_ENTRY, reason, target_user=entry.user,
                      before={"tournament": tournament.pk, "entry": entry.pk, "withdrawn_at": None},
                      after={"tournament": tournament.pk, "entry": entry.pk,
                             "withdrawn_at": entry.withdrawn_at.isoformat()})
    return entry


def _withdraw(tournament: Tournament, entry: Entry, ending: int | None = None, actor=None) -> None:
    """Withdrawn now: his game in play is resigned for him, a forfeit, or with computer substitutes
    finished by a computer (`ending`: a game ending now; `actor`: who withdrew him, else the organizer,
    in the audit of a substitution). A computer entrant plays its games to the end."""
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["withdrawn_at"])
    if entry.is_computer:
        return
    for table in _live_tables_of(tournament, entry):
        if table.game_id == ending:
            continue
        if tournament.computers_substitute:
            _computer_for(tournament, entry, table, actor or tournament.organizer)
            continue
        table.forfeits = sorted({*table.forfeits, entry.pk})
        table.save(update_fields=["forfeits"])
        game_services.resign(table.game_id, entry.user)


def _computer_for(tournament: Tournament, entry: Entry, table: Table, actor) -> None:
    """A computer of the tournament's substitute level takes the entry's seats at the table's game."""
    players = {entry.user_id, entry.partner_id} - {None}
    reason = _("%(who)s left the tournament %(name)s.") % {"who": entry, "name": tournament.name}
    for seat in table.game.seats.filter(user_id__in=players).order_by("position"):
        substitute_seat(table.game_id, seat.position, actor, reason, user=None,
                        computer_level=tournament.substitute_level)


def _live_tables_of(tournament: Tournament, entry: Entry) -> list[Table]:
    tables = Table.objects.filter(round__tournament=tournament, game__status=Game.Status.ACTIVE)
    return [t for t in tables if entry.pk in t.seats]


# -- rounds ---------------------------------------------------------------------------


@transaction.atomic
def start(tournament_id: int, by) -> Tournament:
    """Number the entries, best rating first; round 1 is paired and started by the task queued after
    the commit (`tournaments.rounds.advance`), as every round is."""
    tournament = rounds.locked(tournament_id)
    must_run(tournament, by)
    if tournament.status != Tournament.Status.OPEN:
        raise GameError(_("This tournament has already started."), code="started")
    now = timezone.now()
    entries = list(tournament.entries.filter(withdrawn_at=None).select_related("user", "partner"))
    if len(entries) < tournament.table_size:
        raise GameError(_("Too few players to start: a table needs %(n)s.") % {"n": tournament.table_size},
                        code="too_few")
    for entry in entries:
        entry.rating = entry_rating(tournament, entry.user, entry.partner, now)
    entries.sort(key=lambda e: (-e.rating, e.joined_at, e.pk))
    for number, entry in enumerate(entries, start=1):
        entry.number = number
    if tournament.has_groups:
        _form_groups(tournament, entries)
    Entry.objects.bulk_update(entries, ["rating", "number", "group"])
    if tournament.format == Tournament.Format.KNOCKOUT and not tournament.has_groups:
        tournament.rounds = knockout.rounds_needed(len(entries), tournament.table_size, tournament.advance)
    else:
        tournament.rounds = tournament.rounds or swiss.suggested_rounds(len(entries))
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = now
    tournament.save(update_fields=["rounds", "status", "started_at", "group_rounds"])
    tournament_id = tournament.pk
    transaction.on_commit(lambda: rounds.queue_advance(tournament_id))  # round 1: paired by the task
    return tournament


def _form_groups(tournament: Tournament, entries: list[Entry]) -> None:
    """The numbered entries dealt into groups; the rounds: the group stage's and the cup's after it."""
    size, table_size = tournament.group_size, tournament.table_size
    if not groups.fits(len(entries), size, tournament.group_advance, table_size):
        raise GameError(_("%(n)s players do not make groups of %(size)s from which %(advance)s go on.")
                        % {"n": len(entries), "size": size, "advance": tournament.group_advance}, code="groups")
    group_stage.form(tournament, entries)
    in_cup = groups.group_count(len(entries), size, table_size) * tournament.group_advance
    tournament.rounds = tournament.group_rounds + (knockout.rounds_needed(in_cup, table_size, tournament.advance)
                                                   if in_cup > 1 else 0)


@transaction.atomic
def start_next_round(tournament_id: int, by, number: int) -> Round:
    """The organizer starts round `number` (the one after the last, once that one is over)."""
    tournament = rounds.locked(tournament_id)
    must_run(tournament, by)
    if tournament.status != Tournament.Status.RUNNING:
        raise GameError(_("The tournament is not in progress."), code="not_running")
    latest = tournament.round_set.order_by("-number").first()
    if latest is not None and number <= latest.number:
        raise GameError(_("Round %(n)s has already started.") % {"n": number}, code="started")
    if number != (latest.number if latest else 0) + 1 or number > tournament.rounds:
        raise GameError(_("There is no round %(n)s to start now.") % {"n": number}, code="bad_request")
    if latest is not None and rounds.live_tables(latest).exists():
        raise GameError(_("Round %(n)s is still being played.") % {"n": latest.number}, code="not_over")
    return rounds.start_round(tournament, number, timezone.now())


# -- results --------------------------------------------------------------------------


def game_over(game: Game, **_details) -> None:
    """A tournament game has ended (finished or aborted), in its transaction:
    a player who ran out of time forfeited it (and is withdrawn at the
    tournament's number of forfeits); the round over, the next one starts."""
    table = Table.objects.filter(game=game).select_related("round").first()
    if table is None:
        return
    tournament = rounds.locked(table.round.tournament_id)
    table.refresh_from_db()
    record_forfeits(tournament, table, [entry_at(table, p) for p in _lost_on_time(game)],
                     ending=game.pk)
    round_ = table.round
    if tournament.status == Tournament.Status.RUNNING and round_.finished_at is None \
            and not rounds.live_tables(round_, just_ended=game.pk).exists() \
            and not tournament.round_set.filter(number__gt=round_.number).exists():
        rounds.round_over(tournament, round_, timezone.now())


def entry_at(table: Table, position: int) -> int:
    """The entry at a seat of the table's game (in pairs, pair A holds seats 0 and 2, pair B 1 and 3)."""
    return table.seats[position % len(table.seats)]


def _lost_on_time(game: Game) -> list[int]:
    """The seat that lost this game on time: the one the engine's state says
    forfeited, if his clock had run out (the Move row of the time-out is
    written after this event; a resignation comes before the deadline)."""
    seat = game.state.get("forfeited") if isinstance(game.state, dict) else None
    if not isinstance(seat, int):
        return []
    now = timezone.now()
    return [s.position for s in game.seats.all() if s.position == seat and s.deadline and s.deadline <= now]


def record_forfeits(tournament: Tournament, table: Table, entry_ids: list[int], ending: int | None = None) -> None:
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
