import csv

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext as _
from django.views.decorators.http import require_POST

from gameplay.competition_actions import act_and_report
from gameplay.services.base import GameError
from leagues import live, services, stored_standings
from leagues.forms import AddEntryForm, LeagueForm, RegisterForm
from leagues.models import Division, Entry, Invitation, League, Season
from leagues.standings import division_standings
from moderation.permissions import is_moderator
from scoresheets.standings_view import cross_table_csv as cross_table_csv_rows, csv_number, standings_table, tiebreak_columns

# The results CSV's columns: stable keys, the same in every language (the division page says what
# each means).
RESULTS_CSV_KEYS = ["round", "game", "entry", "player", "place", "game_score"]


def _league(request: HttpRequest, slug: str) -> League:
    league = services.visible_leagues(request.user).filter(slug=slug).select_related("organizer").first()
    if league is None:
        raise Http404
    return league


def _may_moderate(league: League, user) -> bool:
    """Whether the moderation pages (`/moderation/`) open for `user` on this
    league's games: its organizer's and the moderators' (other staff run the
    league but moderate in the admin only if they are moderators)."""
    return user.is_authenticated and user.is_active and (league.organizer_id == user.pk or is_moderator(user))


def league_rules(request: HttpRequest) -> HttpResponse:
    """How the standings are scored, in the request's language (English when it has no text)."""
    language = (get_language() or "en").split("-")[0]
    return render(request, f"leagues/rules/{language if language in ('ru', 'en') else 'en'}.html")


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = services.visible_leagues(request.user).annotate(season_count=Count("seasons", distinct=True))
    return render(request, "leagues/list.html", {
        "leagues": leagues, "may_create": services.may_create_leagues(request.user),
        "my_invitations": services.invitations_of(request.user)})


@login_required
def new_league(request: HttpRequest) -> HttpResponse:
    if not services.may_create_leagues(request.user):
        messages.error(request, _("Only staff may create leagues on this site."))
        return redirect("leagues")
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.create_league(request.user, **form.league_settings())
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(league)
    return render(request, "leagues/new.html", {"form": form}, status=400 if form.errors else 200)


def league_page(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    seasons = list(league.seasons.annotate(entry_count=Count("entries")))
    current = seasons[0] if seasons else None
    mine = None
    if current and request.user.is_authenticated:
        mine = Entry.objects.filter(season=current, user=request.user).first()
    return render(request, "leagues/league.html", {
        "league": league, "seasons": seasons, "current": current, "mine": mine,
        "register_form": RegisterForm(), "may_run": services.may_run(league, request.user),
        "may_moderate": _may_moderate(league, request.user),
        "my_invitations": services.invitations_of(request.user).filter(season__league=league)})


def season_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = _league(request, slug)
    season = get_object_or_404(Season, league=league, number=number)
    divisions = list(season.divisions.annotate(entry_count=Count("entries")))
    entries = season.entries.select_related("user", "partner", "division").order_by("division__number", "pk")
    may_run = services.may_run(league, request.user)
    return render(request, "leagues/season.html", {
        "league": league, "season": season, "divisions": divisions, "entries": entries,
        "may_run": may_run, "add_form": AddEntryForm(), "may_moderate": _may_moderate(league, request.user),
        "invited": season.invitations.exclude(status=Invitation.Status.ACCEPTED)
        .select_related("user", "partner", "invited_by") if may_run else [],
        "my_invitations": services.invitations_of(request.user).filter(season=season)})


def _division(request: HttpRequest, slug: str, number: int, division: int) -> Division:
    league = _league(request, slug)
    return get_object_or_404(Division.objects.select_related("season__league"), season__league=league,
                             season__number=number, number=division)


def division_page(request: HttpRequest, slug: str, number: int, division: int) -> HttpResponse:
    """The standings (stored once per change, live: leagues.live), the
    cross-table when it fits and one round of the schedule (`?round=`, by
    default the first not over): neither the page's size nor its work grows
    with the games."""
    found = _division(request, slug, number, division)
    # The stored HTML is leagues/_standings.html rendered with autoescaping (leagues.stored_standings.render).
    stored = stored_standings.read(found, live.language_of(translation.get_language()))
    rounds = stored.rounds
    shown = _round_shown(request, stored.current_round, rounds)
    return render(request, "leagues/division.html", {
        "league": found.season.league, "season": found.season, "division": found,
        "standings_html": mark_safe(stored.html), "tiebreak_columns": tiebreak_columns(found.season.league),
        "rounds": rounds, "round": shown,
        "round_fixtures": stored_standings.round_fixtures(found, shown),
        "previous_round": shown - 1 if shown and shown - 1 in rounds else None,
        "next_round": shown + 1 if shown and shown + 1 in rounds else None,
        "may_run": services.may_run(found.season.league, request.user),
        "may_moderate": _may_moderate(found.season.league, request.user)})


def _round_shown(request: HttpRequest, current_round: int | None, rounds: list[int]) -> int | None:
    asked = request.GET.get("round", "")
    if asked.isdigit() and int(asked) in rounds:
        return int(asked)
    return current_round


def standings_csv(request: HttpRequest, slug: str, number: int, division: int) -> HttpResponse:
    found = _division(request, slug, number, division)
    table = standings_table(division_standings(found))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-{number}-{division}-standings.csv"'
    writer = csv.writer(response)
    writer.writerow(table.csv_header)
    writer.writerows(table.csv_rows)
    return response


def cross_table_csv(request: HttpRequest, slug: str, number: int, division: int) -> HttpResponse:
    found = _division(request, slug, number, division)
    header, rows = cross_table_csv_rows(standings_table(division_standings(found), cross=True))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-{number}-{division}-cross-table.csv"'
    writer = csv.writer(response)
    writer.writerow(header)
    writer.writerows(rows)
    return response


def results_csv(request: HttpRequest, slug: str, number: int, division: int) -> HttpResponse:
    found = _division(request, slug, number, division)
    standings = division_standings(found)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-{number}-{division}-results.csv"'
    writer = csv.writer(response)
    writer.writerow(RESULTS_CSV_KEYS)
    substitute = _("a substitute")
    for fixture, result in standings.games:
        for entry_id, place in result.places.items():
            entry = standings.entries.get(entry_id)
            writer.writerow([fixture.round, fixture.game_id, entry_id if entry else "",
                             str(entry) if entry else substitute, csv_number(place),
                             csv_number(result.scores.get(entry_id))])
    return response


# -- what players and organizers do (POST) ---------------------------------------------


@login_required
@require_POST
def register(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = _league(request, slug)
    season = get_object_or_404(Season, league=league, number=number)
    form = RegisterForm(request.POST)
    partner = None
    if form.is_valid() and form.cleaned_data["partner"]:
        partner = get_user_model().objects.filter(username=form.cleaned_data["partner"], is_active=True).first()
        if partner is None:
            messages.error(request, _("There is no player with that username."))
            return redirect(league)
    done = (_("Your partner is invited: the pair is entered once the invitation is accepted.") if league.in_pairs
            else _("You are registered for season %(n)s.") % {"n": season.number})
    return act_and_report(request, league, lambda: services.register(season.pk, request.user, partner), done)


@login_required
@require_POST
def unregister(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    league = _league(request, slug)
    season = get_object_or_404(Season, league=league, number=number)
    return act_and_report(request, league, lambda: services.unregister(season.pk, request.user),
                          _("You are no longer registered for season %(n)s.") % {"n": season.number})


@login_required
@require_POST
def run_season(request: HttpRequest, slug: str, number: int, step: str) -> HttpResponse:
    """The organizer's steps: close the registration, start the season, end it."""
    league = _league(request, slug)
    season = get_object_or_404(Season, league=league, number=number)
    steps = {
        "close": (services.close_registration, _("Registration is closed.")),
        "start": (services.start_season,
                  _("The season has started: its schedule is being drawn up, its games start in a moment.")),
        "end": (services.end_season, _("The season is over; the next one is open for registration.")),
    }
    if step not in steps:
        raise Http404
    action, done = steps[step]
    return act_and_report(request, league, lambda: action(season.pk, request.user), done)


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str, number: int, entry_id: int) -> HttpResponse:
    league = _league(request, slug)
    entry = get_object_or_404(Entry, pk=entry_id, season__league=league, season__number=number)
    return act_and_report(request, league, lambda: services.withdraw(entry.pk, request.user),
                          _("%(who)s has withdrawn from the season.") % {"who": entry})


@login_required
@require_POST
def add_entry(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The organizer invites a player (in pairs, a pair) to a season that has
    not started; he is entered once he accepts."""
    league = _league(request, slug)
    season = get_object_or_404(Season, league=league, number=number)
    form = AddEntryForm(request.POST)
    users = get_user_model().objects.filter(is_active=True)
    player = users.filter(username=form.data.get("player", "")).first() if form.is_valid() else None
    partner = users.filter(username=form.cleaned_data["partner"]).first() if player and form.cleaned_data["partner"] \
        else None
    if player is None or (form.cleaned_data.get("partner") and partner is None):
        messages.error(request, _("There is no player with that username."))
        return redirect(season)
    try:
        services.invite(season.pk, player, partner, by=request.user)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(who)s is invited to season %(n)s: entered on accepting.")
                         % {"who": player.name, "n": number})
    return redirect(season)


@login_required
def invitations(request: HttpRequest) -> HttpResponse:
    """The invitations waiting for the player's answer."""
    return render(request, "leagues/invitations.html", {"my_invitations": services.invitations_of(request.user)})


@login_required
@require_POST
def answer_invitation(request: HttpRequest, invitation_id: int, answer: str) -> HttpResponse:
    invitation = get_object_or_404(Invitation.objects.select_related("season__league"), pk=invitation_id,
                                   user=request.user)
    if answer not in ("accept", "decline"):
        raise Http404
    try:
        if answer == "decline":
            services.decline_invitation(invitation.pk, request.user)
            messages.success(request, _("You declined the invitation."))
            return redirect("league_invitations")
        elif services.accept_invitation(invitation.pk, request.user) is None:
            messages.success(request, _("You accepted: the pair is entered once your partner accepts too."))
        else:
            messages.success(request, _("You are registered for season %(n)s.") % {"n": invitation.season.number})
    except GameError as exc:
        messages.error(request, exc.message)
    return redirect(invitation.season)
