import csv

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language, gettext as _, gettext_lazy
from django.views.decorators.http import require_POST

from gameplay.competition_actions import act_and_report
from gameplay.computer_levels import descriptions as level_descriptions
from gameplay.engine import ENGINES, get_engine
from gameplay.i18n import engine_name
from gameplay.services.base import GameError
from tournaments import actions, computer_entrants, pairing, services
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Round, Table, Tournament
from tournaments.shown_standings import shown_cross_table, shown_groups, shown_standings

TIEBREAK_LABELS = {
    "buchholz": gettext_lazy("Buchholz"), "median_buchholz": gettext_lazy("Median Buchholz"),
    "sonneborn_berger": gettext_lazy("Sonneborn–Berger"), "direct": gettext_lazy("Direct encounter"),
    "wins": gettext_lazy("Wins"), "rating": gettext_lazy("Rating"),
}


def tournament_rules(request: HttpRequest) -> HttpResponse:
    language = (get_language() or "en").split("-")[0]
    return render(request, f"tournaments/rules/{language if language in ('ru', 'en') else 'en'}.html")


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = Tournament.objects.select_related("organizer").annotate(
        entry_count=Count("entries", filter=Q(entries__withdrawn_at=None)))
    game = request.GET.get("game", "")
    if game in ENGINES:
        tournaments = tournaments.filter(engine=game)
    groups = [(label, [t for t in tournaments if t.status == status]) for status, label in Tournament.Status.choices]
    return render(request, "tournaments/list.html", {
        "groups": groups, "game": game, "games": [(slug, engine_name(get_engine(slug))) for slug in ENGINES]})


@login_required
def new_tournament(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(request.user, **form.tournament_settings())
        except GameError as exc:
            form.add_error(None, exc.message)
        else:
            return redirect(tournament)
    return render(request, "tournaments/new.html", {"form": form}, status=400 if form.errors else 200)


STANDINGS_PER_PAGE = 50
TABLES_SHOWN = 50  # the latest round's tables on the tournament's page; its round page shows them all


def _columns(tournament: Tournament) -> list[tuple[str, str]]:
    return [(key, TIEBREAK_LABELS[key]) for key in tournament.tiebreak_chain]


def _standings_context(request: HttpRequest, tournament: Tournament, rows) -> dict:
    return {"tournament": tournament, "page": Paginator(rows, STANDINGS_PER_PAGE).get_page(request.GET.get("page")),
            "columns": _columns(tournament),
            "may_run": services.may_run(tournament, request.user)}


def _named_tables(round_: Round, limit: int | None = None) -> tuple[list, int]:
    """The round's tables with their players' names (a page of them: `limit`), and how many are left out."""
    tables = round_.tables.select_related("game").defer(*pairing.GAME_BULK).order_by("board")
    count = tables.count() if limit else 0
    tables = list(tables[:limit] if limit else tables)
    names = {e.pk: str(e) for e in Entry.objects.filter(pk__in={pk for t in tables for pk in t.seats})
             .select_related("user", "partner")}
    return [(t, [names[pk] for pk in t.seats]) for t in tables], max(0, count - len(tables))


def _byes_shown(round_: Round) -> Round:
    return Round.objects.prefetch_related("byes__entry__user", "byes__entry__partner").get(pk=round_.pk)


def tournament_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings (a page of them, refreshed live while the tournament runs), the latest round's
    tables and byes, the list of rounds."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)
    rounds = list(tournament.round_set.order_by("-number"))
    latest = _byes_shown(rounds[0]) if rounds else None
    latest_tables, more = _named_tables(latest, TABLES_SHOWN) if latest else ([], 0)
    next_round = None
    if tournament.status == Tournament.Status.RUNNING and rounds and rounds[0].number < tournament.rounds:
        next_round = rounds[0].number + 1
    mine = None
    if request.user.is_authenticated:
        mine = tournament.entries.filter(Q(user_id=request.user.pk) | Q(partner_id=request.user.pk)).first()
    return render(request, "tournaments/tournament.html", {
        **_standings_context(request, tournament, shown_standings(tournament)),
        "rounds": rounds, "latest": latest, "latest_tables": latest_tables, "more_tables": more,
        "last_number": rounds[0].number if rounds else None, "next_round": next_round, "mine": mine,
        "late_entry": services.late_entry_open(tournament), "groups": shown_groups(tournament),
        "computer_entrants": tournament.entries.filter(user__computer_level__isnull=False).select_related("user"),
        "computer_levels": level_descriptions()})


def standings_part(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings alone (a page of them): what the tournament's page fetches to stay live."""
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "tournaments/_standings.html",
                  _standings_context(request, tournament, shown_standings(tournament)))


def groups_part(request: HttpRequest, slug: str) -> HttpResponse:
    """A cup's group standings alone: what the tournament's page fetches to keep its groups live."""
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "tournaments/_groups.html", {
        "groups": shown_groups(tournament),
        "columns": _columns(tournament)})


def round_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One round's pairings: every table (its game and, once over, its record) and the byes."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    tables, _more = _named_tables(round_)
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    return render(request, "tournaments/round.html", {
        "tournament": tournament, "round": _byes_shown(round_), "tables": tables, "last_number": last,
        "may_run": services.may_run(tournament, request.user)})


def cross_table(request: HttpRequest, slug: str) -> HttpResponse:
    """Every player (a page of them, in the standings' order) against every round."""
    tournament = get_object_or_404(Tournament, slug=slug)
    _rows, lines, numbers = shown_cross_table(tournament)
    return render(request, "tournaments/crosstable.html", {
        "tournament": tournament, "numbers": numbers,
        "page": Paginator(lines, STANDINGS_PER_PAGE).get_page(request.GET.get("page"))})


def standings_csv(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-standings.csv"'
    writer = csv.writer(response)
    chain = tournament.tiebreak_chain
    writer.writerow(["rank", "entry", "player", "points", *chain, "played", "byes", "withdrawn"])
    for row in shown_standings(tournament):
        writer.writerow([row.rank, row.entry_id, row.name, row.points,
                         *("" if row.tiebreaks[k] is None else row.tiebreaks[k] for k in chain),
                         row.played, row.byes, int(row.withdrawn)])
    return response


@login_required
@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)

    def join_with_partner():
        partner = None
        if tournament.in_pairs:
            name = request.POST.get("partner", "").strip()
            partner = get_user_model().objects.filter(username__iexact=name, is_active=True).first() if name else None
            if name and partner is None:
                raise GameError(_("There is no player called %(name)s.") % {"name": name}, code="not_found")
        services.join(tournament.pk, request.user, partner)

    return act_and_report(request, tournament, join_with_partner, _("You have joined."))


@login_required
@require_POST
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return act_and_report(request, tournament, lambda: services.leave(tournament.pk, request.user), _("You have left."))


@login_required
@require_POST
def start(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return act_and_report(request, tournament, lambda: services.start(tournament.pk, request.user),
                          _("The tournament has started."))


@login_required
@require_POST
def start_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return act_and_report(request, tournament, lambda: services.start_next_round(tournament.pk, request.user, number),
                          _("Round %(n)s has started.") % {"n": number})


@login_required
@require_POST
def withdraw(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    entry = get_object_or_404(Entry, tournament=tournament, pk=entry_id)
    reason = request.POST.get("reason", "")
    return act_and_report(request, tournament, lambda: services.withdraw(entry.pk, request.user, reason),
                          _("%(who)s is withdrawn.") % {"who": entry})


@login_required
@require_POST
def add_computer(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    raw = request.POST.get("level", "").strip()
    level = int(raw) if raw.isdigit() else raw
    return act_and_report(request, tournament,
                          lambda: computer_entrants.add_computer(tournament.pk, request.user, level),
                          _("The computer player has entered."))


@login_required
@require_POST
def remove_computer(request: HttpRequest, slug: str, entry_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    entry = get_object_or_404(Entry, tournament=tournament, pk=entry_id)
    return act_and_report(request, tournament, lambda: computer_entrants.remove_computer(entry.pk, request.user),
                          _("The computer player has been removed."))


@login_required
@require_POST
def restart_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    reason = request.POST.get("reason", "")
    return act_and_report(request, tournament,
                          lambda: actions.restart_round(tournament.pk, request.user, number, reason),
                          _("Round %(n)s has been paired again.") % {"n": number})


@login_required
@require_POST
def adjudicate(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    table = get_object_or_404(Table, round__tournament=tournament, pk=table_id)
    places = [int(p) if p.strip().isdigit() else 0 for p in request.POST.getlist("place")]
    reason = request.POST.get("reason", "")
    return act_and_report(request, tournament,
                          lambda: actions.adjudicate_table(table.pk, request.user, reason, places),
                          _("The game has been adjudicated."))
