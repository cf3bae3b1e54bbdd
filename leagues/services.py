"""Every change to a league, a season or an entry, each in one transaction.

A season goes registration → (closed) → drawing → running → finished.
Starting it splits its entries into divisions; then, off the request,
`leagues.drawing` stores each division's schedule (`leagues.schedule`) and
makes the scheduled tables ordinary games of the platform
(`gameplay.services.create_seated_game`), all at once or round by round as
the league says. When a league game ends, finished, adjudicated or aborted
(`game_over` follows the game events in the transaction that ends it), its
division's standings are pushed to their open pages after the commit
(`leagues.live`) and the next round starts once its division's round is
over; the standings are computed from the finished games once per change,
by that push, and stored per language for the pages to read
(`leagues.standings`, `leagues.stored_standings`).

Decisions (issue 13):
- Divisions are filled from the top: the players ordered first by last
  season's result in this league (their division, moved up by promotion or
  down by relegation, then their final rank), then the newcomers by their
  rating in the league's game at the start (`ratings.services.rating_at`).
  A last division smaller than a table joins the one above it.
- In pairs (Durak 2×2) an entry is a pair: its two players sit opposite.
- A player who withdraws (himself, in pairs either partner, or removed by
  the organizer or a moderator) loses every unfinished game (resigned for
  him) and his tables not yet started are not played: both are scored at
  once as his forfeits, alike (`leagues.standings`), and a round whose
  every table is settled so does not hold the next one up
  (`fixtures.start_next_round_if_over`); or, when the league says so, a
  computer player finishes his games in play and takes his seat in his
  tables still to start.
- A suspension (issue 37) withdraws the player from his seasons in play
  by the same rules, marked "suspended" (`account_suspended`): every
  suspension, since a season has no end date to compare it with and its
  schedule cannot wait; lifting it gives back nothing already settled. That is a
  substitution (`moderation.services.games.substitute_seat`), audited
  with whoever asked for the withdrawal (the player himself, the organizer
  or a moderator) as its actor, and for tables started later, the league's
  organizer (the league's own moderator).
- Substitutes (issue 14): computers only in leagues that allow computer
  substitutes (which a computer finishing withdrawn players' games needs);
  a substituted seat's results stay with its entry, or pass to the
  substitute (`seat_substituted`, read by `leagues.standings`).
- An aborted league game (a moderator's or the organizer's abort,
  `moderation.services.games.abort_game`) is void: it has no result, so
  it counts for nobody as played, nor as scheduled (nothing is left to play
  at that table: it is not replayed). Its round is over without it, so in a
  league played round by round the next round starts as after a finished
  game, and the standings are pushed as after a result.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from slugify import slugify
from django.utils.translation import gettext as _

from accounts.standing import is_suspended
from accounts import verification
from gameplay import services as game_services
from gameplay.computer_levels import DEFAULT_LEVEL, UnknownLevel, checked_level
from gameplay.models import Game, Seat
from gameplay.services.base import GameError
from gameplay.services.tables import checked_competition_game, players_refusal
from leagues import drawing, live, schedule
from leagues.fixtures import computer_for, start_next_round_if_over, start_rounds_now_over, table_size
from leagues.models import Division, Entry, Fixture, Invitation, League, Season, visible_leagues
from leagues.standings import division_standings
from moderation.permissions import is_moderator
from ratings.services import rating_at

RESERVED_SLUGS = {"new", "invitations", "rules"}  # the addresses of /leagues/ that are not a league's
TIEBREAK_KEYS = ("wins", "sonneborn_berger", "direct", "game_score", "last_seat_results", "rating", "lot")


def may_create_leagues(user) -> bool:
    """Anyone logged in, or only staff when LEAGUES_BY_STAFF_ONLY is set."""
    if not user.is_authenticated:
        return False
    return user.is_staff or not settings.LEAGUES_BY_STAFF_ONLY


def may_run(league: League, user) -> bool:
    """The league's organizer and the site's moderators run its seasons
    (other staff do not: being staff gives no say over a league)."""
    return user.is_authenticated and user.is_active and (league.organizer_id == user.pk or is_moderator(user))


# -- creating a league --------------------------------------------------------------


@transaction.atomic
def create_league(organizer, *, name: str, engine: str, players: int, options: dict | None = None,
                  **settings_of_league) -> League:
    """A new league and its first season, open for registration."""
    if not may_create_leagues(organizer):
        raise GameError(_("Only staff may create leagues on this site."), code="forbidden")
    name, game, options = checked_competition_game(name, engine, players, options,
                                                   unnamed=_("Give the league a name."))
    if not game.min_players <= players <= game.max_players:
        raise GameError(players_refusal(game), code="bad_request")
    if settings_of_league.get("on_withdrawal") == League.OnWithdrawal.COMPUTER and \
            not settings_of_league.get("computer_substitutes", True):
        raise GameError(_("A computer player can finish a withdrawn player's games only in a league that allows "
                          "computer substitutes."), code="bad_request")
    _check_tiebreaks(settings_of_league.get("tiebreaks") or [])
    try:
        checked_level(settings_of_league.get("computer_level", DEFAULT_LEVEL))
    except UnknownLevel as exc:
        raise GameError(str(exc), code="bad_request") from None
    _check_points(settings_of_league.get("points_per_place") or [], players)
    closes = settings_of_league.pop("registration_closes_at", None)
    league = League.objects.create(name=name, slug=_free_slug(name), organizer=organizer, engine=engine,
                                   options=options, players=players, **settings_of_league)
    Season.objects.create(league=league, number=1, registration_closes_at=closes)
    return league


def _check_tiebreaks(chain: list) -> None:
    unknown = [key for key in chain if key not in TIEBREAK_KEYS]
    if unknown or len(set(chain)) != len(chain):
        raise GameError(_("Unknown or repeated tie-break: %(keys)s.") % {"keys": ", ".join(map(str, unknown or chain))},
                        code="bad_request")


def _check_points(points: list, players: int) -> None:
    numbers = all(isinstance(p, (int, float)) and not isinstance(p, bool) and p >= 0 for p in points)
    if not numbers or (points and len(points) != players) or points != sorted(points, reverse=True):
        raise GameError(_("League points per place: one number for each place, from the first to the last, "
                          "never more for a lower place."), code="bad_request")


def _free_slug(name: str) -> str:
    base = slugify(name, max_length=70, word_boundary=True) or "league"  # Cyrillic and Georgian transliterated
    slug, n = base, 1
    while slug in RESERVED_SLUGS or League.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


# -- registration ---------------------------------------------------------------------


def _locked_season(season_id: int) -> Season:
    season = Season.objects.select_for_update().select_related("league").filter(pk=season_id).first()
    if season is None:
        raise GameError(_("There is no such season."), code="not_found")
    return season


@transaction.atomic
def register(season_id: int, user, partner=None) -> Entry | Invitation:
    """A player enters a season while its registration is open. In pairs he
    names his partner, who is invited: the pair is entered once the partner
    accepts (`accept_invitation`); the invitation is returned then."""
    season = _locked_season(season_id)
    now = timezone.now()
    if season.status != Season.Status.REGISTRATION or (
            season.registration_closes_at and now >= season.registration_closes_at):
        raise GameError(_("Registration for this season is closed."), code="closed")
    if season.league.in_pairs and (partner is None or partner == user):
        raise GameError(_("This league is played in pairs: name your partner."), code="bad_request")
    players = [user, partner] if season.league.in_pairs else [user]
    _check_may_enter(season, players, now)
    if season.league.in_pairs:
        return Invitation.objects.create(season=season, user=partner, partner=user, invited_by=user)
    return Entry.objects.create(season=season, user=user)


@transaction.atomic
def invite(season_id: int, player, partner=None, *, by) -> list[Invitation]:
    """The organizer (or a moderator) invites a player, in pairs a pair, to a
    season that has not started: each of them accepts or declines; nobody is
    entered without his consent."""
    season = _locked_season(season_id)
    _must_run(season.league, by)
    if season.status not in (Season.Status.REGISTRATION, Season.Status.CLOSED):
        raise GameError(_("This season has already started."), code="started")
    if season.league.in_pairs and (partner is None or partner == player):
        raise GameError(_("This league is played in pairs: name your partner."), code="bad_request")
    players = [player, partner] if season.league.in_pairs else [player]
    _check_may_enter(season, players, timezone.now())
    if Invitation.objects.filter(season=season, user__in=players, status=Invitation.Status.PENDING).exists():
        raise GameError(_("This player is already invited to this season."), code="duplicate")
    others = players[::-1] if len(players) == 2 else [None]
    return [Invitation.objects.create(season=season, user=invited, partner=other, invited_by=by)
            for invited, other in zip(players, others)]


def _check_may_enter(season: Season, players: list, now) -> None:
    for player in players:
        if is_suspended(player, now):
            raise GameError(_("The account of %(who)s is suspended: it cannot enter a season.") % {"who": player},
                            code="suspended")
        if not verification.is_verified(player):
            raise GameError(verification.unverified_message(_("enter a league")) if player == players[0] else
                            _("%(who)s has not confirmed an email address yet, so cannot enter a season.")
                            % {"who": player}, code=verification.UNVERIFIED)
    if not season.league.allow_bots and any(p.is_bot for p in players):
        raise GameError(_("This league does not allow bot accounts."), code="bots_not_allowed")
    taken = [p.pk for p in players]
    if Entry.objects.filter(season=season).filter(Q(user_id__in=taken) | Q(partner_id__in=taken)).exists():
        raise GameError(_("Already registered for this season."), code="duplicate")


def _locked_invitation(invitation_id: int, user) -> Invitation:
    invitation = Invitation.objects.select_related("season__league").filter(pk=invitation_id, user=user).first()
    if invitation is None:
        raise GameError(_("There is no such invitation."), code="not_found")
    _locked_season(invitation.season_id)  # the season's entries change one at a time
    invitation = Invitation.objects.select_related("season__league", "partner", "invited_by").get(pk=invitation.pk)
    if invitation.status != Invitation.Status.PENDING:
        raise GameError(_("This invitation has already been answered."), code="duplicate")
    return invitation


@transaction.atomic
def accept_invitation(invitation_id: int, user) -> Entry | None:
    """The invited player accepts: he is entered in the season (in pairs, once
    his partner has consented too; until then None)."""
    invitation = _locked_invitation(invitation_id, user)
    season = invitation.season
    if season.status not in (Season.Status.REGISTRATION, Season.Status.CLOSED):
        raise GameError(_("This season has already started."), code="started")
    partner = invitation.partner
    _check_may_enter(season, [user] + ([partner] if partner else []), timezone.now())
    invitation.status = Invitation.Status.ACCEPTED
    invitation.answered_at = timezone.now()
    invitation.save(update_fields=["status", "answered_at"])
    if partner is None:
        return Entry.objects.create(season=season, user=user)
    partner_consents = partner == invitation.invited_by or Invitation.objects.filter(
        season=season, user=partner, partner=user, status=Invitation.Status.ACCEPTED).exists()
    if not partner_consents:
        return None
    return Entry.objects.create(season=season, user=partner, partner=user)


@transaction.atomic
def decline_invitation(invitation_id: int, user) -> Invitation:
    """The invited player declines: he is not entered (in pairs, nor is his partner)."""
    invitation = _locked_invitation(invitation_id, user)
    now = timezone.now()
    Invitation.objects.filter(Q(pk=invitation.pk) | Q(season=invitation.season, user=invitation.partner,
                                                       partner=user, status=Invitation.Status.PENDING)) \
        .update(status=Invitation.Status.DECLINED, answered_at=now)
    invitation.refresh_from_db()
    return invitation


def invitations_of(user):
    """The invitations waiting for `user`'s answer, in seasons not started yet."""
    if not user.is_authenticated:
        return Invitation.objects.none()
    return (Invitation.objects.filter(user=user, status=Invitation.Status.PENDING,
                                      season__status__in=[Season.Status.REGISTRATION, Season.Status.CLOSED])
            .select_related("season__league", "partner", "invited_by").order_by("-pk"))


@transaction.atomic
def unregister(season_id: int, user) -> None:
    season = _locked_season(season_id)
    if season.status != Season.Status.REGISTRATION:
        raise GameError(_("Registration for this season is closed."), code="closed")
    deleted, _rows = Entry.objects.filter(season=season, user=user).delete()
    if not deleted:
        raise GameError(_("You are not registered for this season."), code="not_registered")


@transaction.atomic
def close_registration(season_id: int, by) -> Season:
    season = _locked_season(season_id)
    _must_run(season.league, by)
    if season.status != Season.Status.REGISTRATION:
        raise GameError(_("Registration for this season is already closed."), code="closed")
    season.status = Season.Status.CLOSED
    season.save(update_fields=["status"])
    return season


def _must_run(league: League, user) -> None:
    if not may_run(league, user):
        raise GameError(_("Only the league's organizer or a moderator may do this."), code="forbidden")


# -- the season -----------------------------------------------------------------------


@transaction.atomic
def start_season(season_id: int, by) -> Season:
    """Split the entries into divisions and have their schedules drawn up.

    This is all the request does: the schedules (seconds of search for a
    big division) and the games (thousands of them) are made after the
    commit, off the request (`leagues.drawing.draw_season`, in a Celery
    task); meanwhile the season says "the schedule is being drawn up"."""
    season = _locked_season(season_id)
    league = season.league
    _must_run(league, by)
    if season.status not in (Season.Status.REGISTRATION, Season.Status.CLOSED):
        raise GameError(_("This season has already started."), code="started")
    now = timezone.now()
    entries = list(season.entries.select_related("user", "partner").filter(withdrawn_at=None))
    per_table = table_size(league)
    if len(entries) < per_table:
        raise GameError(_("Too few players to start: a table needs %(n)s.") % {"n": per_table}, code="too_few")
    for entry in entries:
        entry.rating_at_start = rating_at(entry.user, league.engine, now).value
    Entry.objects.bulk_update(entries, ["rating_at_start"])
    groups = _divisions(league, season, entries)
    for members in groups:
        _check_schedule(league, len(members))
    for number, members in enumerate(groups, start=1):
        division = Division.objects.create(season=season, number=number)
        Entry.objects.filter(pk__in=[e.pk for e in members]).update(division=division)
    # A player suspended now is drawn like the others and withdrawn at once (`account_suspended`).
    suspended = [e.pk for e in entries if any(is_suspended(p, now) for p in (e.user, e.partner) if p is not None)]
    Entry.objects.filter(pk__in=suspended).update(withdrawn_at=now, withdrawn_for=Entry.Withdrawal.SUSPENDED)
    season.status = Season.Status.DRAWING
    season.started_at = now
    season.save(update_fields=["status", "started_at"])
    transaction.on_commit(lambda: drawing.queue_draw(season.pk))
    return season


def _divisions(league: League, season: Season, entries: list[Entry]) -> list[list[Entry]]:
    """The entries in division order: last season's result first, then the newcomers by rating."""
    previous = _previous_standing(league, season)
    ordered = sorted(entries, key=lambda e: (previous.get(e.user_id, (10**6, 0)), -(e.rating_at_start or 0), e.pk))
    minimum = table_size(league)
    size = max(league.division_size, minimum)
    groups = [ordered[i:i + size] for i in range(0, len(ordered), size)]
    if len(groups) > 1 and len(groups[-1]) < minimum:
        groups[-2].extend(groups.pop())
    return groups


def _previous_standing(league: League, season: Season) -> dict[int, tuple[int, int]]:
    """{user id: (division next season, final rank)} from the last finished
    season, after promotion and relegation."""
    last = league.seasons.filter(status=Season.Status.FINISHED, number__lt=season.number).order_by("-number").first()
    if last is None:
        return {}
    entries = list(last.entries.select_related("division").exclude(division=None).exclude(final_rank=None))
    sizes: dict[int, int] = {}
    for entry in entries:
        sizes[entry.division.number] = sizes.get(entry.division.number, 0) + 1
    bottom = max(sizes) if sizes else 1
    standing = {}
    for entry in entries:
        division = entry.division.number
        if division > 1 and entry.final_rank <= league.promotion:
            division -= 1
        elif division < bottom and entry.final_rank > sizes[division] - league.relegation:
            division += 1
        standing[entry.user_id] = (division, entry.final_rank)
    return standing


def _check_schedule(league: League, entries: int) -> None:
    """Refuse, before anything is drawn, a number of games a division cannot play."""
    size = table_size(league)
    if size == 2 and not league.games_per_player:
        return  # a round robin
    try:
        schedule.check_feasible(entries, size, league.games_per_player)
    except ValueError:
        below, above = schedule.fitting_games(entries, size, league.games_per_player or 1)
        numbers = {"n": entries, "k": size, "g": league.games_per_player, "below": below, "above": above}
        if below:
            message = _("With %(n)s players at tables of %(k)s nobody can play exactly %(g)s games: "
                        "choose %(below)s or %(above)s.") % numbers
        else:
            message = _("With %(n)s players at tables of %(k)s nobody can play exactly %(g)s games: "
                        "choose %(above)s.") % numbers
        raise GameError(message, code="bad_schedule") from None


def seat_substituted(game: Game, *, position: int, user_id: int | None, **_details) -> None:
    """A moderator gave a seat of `game` to another account (`user_id`) or to a
    computer (None): the `seat_replaced` event, in its transaction. In a league game: a
    computer is refused unless the league allows computer substitutes; when
    the league passes the results to substitutes, the seat's result from now
    on counts for the substitute's own entry in the division, or for nobody
    in the standings (a computer, a player from outside it; the others keep
    the game). In pairs the results stay with the pair."""
    fixture = Fixture.objects.select_for_update().filter(game=game).select_related("division__season__league").first()
    if fixture is None:
        return
    league = fixture.division.season.league
    if user_id is None and not league.computer_substitutes:
        raise GameError(_("This league does not allow computer players, even as substitutes."), code="forbidden")
    if league.substitute_results != League.SubstituteResults.SUBSTITUTE or league.in_pairs:
        return
    entry = None
    if user_id is not None:
        entry = Entry.objects.filter(division=fixture.division, user_id=user_id, withdrawn_at=None) \
            .values_list("pk", flat=True).first()
    fixture.credits = {**fixture.credits, str(position): entry}
    fixture.save(update_fields=["credits"])
    live.standings_changed(fixture.division_id)


def game_over(game: Game, **_details) -> None:
    """A game has just ended, in its transaction (the `game_finished` and
    `game_aborted` events): finished with a result
    (the engine's or an adjudication) or aborted (void, see the module's
    decisions). If it is a league game, its division's standings are pushed
    to their pages after the commit; in a league played round by round, the
    next round of its division starts once every table of this round is over."""
    fixture = Fixture.objects.filter(game=game).select_related("division__season__league").first()
    if fixture is None:
        return
    live.standings_changed(fixture.division_id)
    season = fixture.division.season
    if season.league.start == League.Start.ROUNDS and season.status == Season.Status.RUNNING:
        # This game's row may be saved after this hook: it does not count as still in play.
        start_next_round_if_over(fixture.division, fixture.round, just_ended=game.pk)


@transaction.atomic
def withdraw(entry_id: int, by) -> Entry:
    """A player leaves a season (himself, in pairs either partner, or removed
    by the organizer or a moderator): as the league says, his unfinished
    games are lost (resigned for him) or a computer player finishes them (a
    substitution with `by` as its actor in the audit: whoever asked for the
    withdrawal); his tables not yet started are scored as forfeits at once,
    or start with a computer in his seat."""
    entry = Entry.objects.select_for_update(of=("self",)).select_related("season__league", "user", "partner") \
        .filter(pk=entry_id).first()
    if entry is None:
        raise GameError(_("There is no such entry."), code="not_found")
    if by not in (entry.user, entry.partner):
        _must_run(entry.season.league, by)
    if entry.withdrawn_at:
        raise GameError(_("This player has already withdrawn."), code="duplicate")
    _leave_season(entry, by, Entry.Withdrawal.WITHDREW)
    return entry


def account_suspended(user, moderator, reason: str) -> None:
    """A moderator suspends `user` (`moderation.services.people.suspend`, in
    its transaction, before it hands over his other games): every suspension
    withdraws him (his pair, in pairs) from the seasons in play or being
    drawn up, with the league's withdrawal rules, marked "suspended". A season
    has no end date to compare the suspension with, and its schedule cannot
    wait for him; lifting the suspension gives back nothing already settled.
    His entries in seasons not started yet stay: a season starting while he
    is suspended withdraws him at its start (`start_season`)."""
    entries = (Entry.objects.select_for_update(of=("self",)).select_related("season__league", "user", "partner")
               .filter(Q(user=user) | Q(partner=user), withdrawn_at=None,
                       season__status__in=[Season.Status.RUNNING, Season.Status.DRAWING])
               .order_by("pk"))
    for entry in entries:
        _leave_season(entry, moderator, Entry.Withdrawal.SUSPENDED, reason)


def _leave_season(entry: Entry, by, why: str, reason: str = "") -> None:
    """The entry leaves its season now, for `why` (Entry.Withdrawal), its
    games in play handled as its league says of a withdrawal."""
    league = entry.season.league
    entry.withdrawn_at = timezone.now()
    entry.withdrawn_for = why
    entry.save(update_fields=["withdrawn_at", "withdrawn_for"])
    players = [player for player in (entry.user, entry.partner) if player is not None]
    running = (Seat.objects.filter(game__fixture__division__season=entry.season, game__status=Game.Status.ACTIVE,
                                   user__in=players).order_by("game_id", "position"))
    if league.on_withdrawal == League.OnWithdrawal.COMPUTER:
        if why == Entry.Withdrawal.SUSPENDED:
            reason = _("%(who)s: the account is suspended.") % {"who": entry} + (f" {reason}" if reason else "")
        computer_for(entry, sorted({seat.game_id for seat in running}), by, reason or None)
    else:
        resigned = set()
        for seat in running.select_related("user"):
            if seat.game_id not in resigned:  # in pairs one partner's resignation ends the game for both
                resigned.add(seat.game_id)
                game_services.resign(seat.game_id, seat.user)
    if entry.division_id:
        # After the games: each game's end locks its game row, then the division's (its standings' version).
        live.standings_changed(entry.division_id)
        if league.start == League.Start.ROUNDS and entry.season.status == Season.Status.RUNNING:
            start_rounds_now_over(entry.division)


@transaction.atomic
def end_season(season_id: int, by) -> Season:
    """Close a season: the final ranks are written (promotion and relegation
    then place the players of the next season) and the next season opens
    for registration. Games still running go on but no longer count."""
    season = _locked_season(season_id)
    _must_run(season.league, by)
    if season.status != Season.Status.RUNNING:
        raise GameError(_("This season is not in play."), code="not_running")
    for division in season.divisions.all():
        for row in division_standings(division).rows:
            Entry.objects.filter(pk=row.entry_id).update(final_rank=row.rank)
    season.status = Season.Status.FINISHED
    season.finished_at = timezone.now()
    season.save(update_fields=["status", "finished_at"])
    Season.objects.create(league=season.league, number=season.number + 1)
    return season
