"""Moderation on the site (moderators work in the admin):

- a player's side of reports: the report form (of a game, a player or a chat
  message, only what the player can see) and the list of their own reports;
- a player's acknowledgement of a moderator's warning (shown on every page until then);
- the moderation pages of a league organizer who is not staff (moderators
  and staff organizers have the same actions in the admin): the games in
  play they may moderate, and for one game the same actions as the admin's,
  through the same services.

Thin: check, parse, call, redirect."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, Q
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from django.contrib.auth import get_user_model
from django.http import Http404

from accounts import blocks, limits
from gameplay.models import ChatMessage, Game, Seat
from gameplay.services.base import GameError
from gameplay.views import paginated, visible_game
from moderation.forms import AdjudicateForm, ReasonForm, ReportForm, SubstituteForm
from moderation.limits import report_limits
from moderation.models import Report
from moderation.permissions import can_moderate, is_moderator, moderated_games, organizes_a_league
from moderation.services import games as game_actions
from moderation.services import people

GAMES_PER_PAGE = 50


@login_required
def games(request: HttpRequest) -> HttpResponse:
    """The games in play, the newest first, GAMES_PER_PAGE at a time
    (`?before=<id>`: the older ones; read along the index game_status_newest,
    without counting them)."""
    if not (is_moderator(request.user) or organizes_a_league(request.user)):
        raise PermissionDenied
    seated = Seat.objects.filter(Q(user__isnull=False) | Q(is_bot=True)).select_related("user").order_by("position")
    in_play = (moderated_games(request.user, Game.objects.filter(status=Game.Status.ACTIVE))
               .defer("state", "history").prefetch_related(Prefetch("seats", queryset=seated, to_attr="seated")))
    before = request.GET.get("before", "")
    if before.isdigit() and len(before) < 19:
        in_play = in_play.filter(pk__lt=int(before))
    rows = list(in_play.order_by("-pk")[:GAMES_PER_PAGE + 1])
    shown = rows[:GAMES_PER_PAGE]
    return render(request, "moderation/games.html", {
        "games": shown, "paged": bool(before),
        "older_url": f"?before={shown[-1].pk}" if len(rows) > GAMES_PER_PAGE else ""})


@login_required
@require_http_methods(["GET", "POST"])
def game(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if not can_moderate(request.user, game):
        raise PermissionDenied
    seats = list(game.seats.select_related("user"))
    posted = request.POST.get("action") if request.method == "POST" else None
    forms = {
        "abort": ReasonForm(request.POST if posted == "abort" else None, prefix="abort"),
        "adjudicate": AdjudicateForm(game, seats, request.POST if posted == "adjudicate" else None, prefix="adjudicate"),
        "substitute": SubstituteForm(seats, request.POST if posted == "substitute" else None, prefix="substitute"),
    }
    if posted in forms and forms[posted].is_valid():
        try:
            done = _act(posted, game, request.user, forms[posted])
        except GameError as exc:
            forms[posted].add_error(None, exc.message)
        else:
            messages.success(request, done)
            return redirect(game.get_absolute_url())
    return render(request, "moderation/game.html", {"game": game, "forms": forms, "in_play": game.status == Game.Status.ACTIVE})


def _act(action: str, game: Game, moderator, form) -> str:
    data = form.cleaned_data
    if action == "abort":
        game_actions.abort_game(game.pk, moderator, data["reason"])
        return _("Game aborted.")
    if action == "adjudicate":
        game_actions.adjudicate_game(game.pk, moderator, data["reason"], form.result())
        return _("Game adjudicated.")
    game_actions.substitute_seat(game.pk, data["position"], moderator, data["reason"], user=data["user"],
                                 computer_level=data["computer_level"])
    return _("The seat has a new player.")


REPORTS_PER_PAGE = 20


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 19 else None


def _subject(request: HttpRequest) -> dict:
    """What the query string names (?message=, ?player=, ?game=), if this
    player may see it; else not found."""
    if "message" in request.GET:
        message_id = _int(request.GET["message"])
        message = ChatMessage.objects.select_related("user", "game").filter(pk=message_id, hidden=False).first()
        # Nor a line of a player who blocks this one (accounts/blocks.py); the blocker may still
        # report a line of the player blocked.
        if message is None or (request.user.is_authenticated and blocks.has_blocked(message.user_id, request.user.pk)):
            raise Http404
        visible_game(request, message.game_id)
        return {"message": message}
    if "player" in request.GET:
        return {"player": get_object_or_404(get_user_model(), username=request.GET["player"], is_active=True)}
    if "game" in request.GET:
        game_id = _int(request.GET["game"])
        if game_id is None:
            raise Http404
        return {"game": visible_game(request, game_id)}
    raise Http404


@login_required
def new_report(request: HttpRequest) -> HttpResponse:
    subject = _subject(request)
    form = ReportForm(request.POST or None)
    if request.method == "POST":
        refusal = limits.count(request, report_limits(request.user))
        if refusal:
            return limits.too_many(request, refusal)
        if form.is_valid():
            try:
                people.send_report(request.user, form.cleaned_data["reason"], form.cleaned_data["text"], **subject)
            except GameError as exc:
                messages.error(request, exc.message)
                return redirect("my_reports")
            messages.success(request, _("Thank you: your report has been sent to the moderators."))
            return redirect("my_reports")
    return render(request, "moderation/report_form.html", {"form": form, **subject})


@login_required
def my_reports(request: HttpRequest) -> HttpResponse:
    reports = (Report.objects.filter(reporter=request.user)
               .select_related("game", "target_user", "chat_message").defer("game__state", "game__history"))
    page = paginated(request, reports, per_page=REPORTS_PER_PAGE)
    return render(request, "moderation/my_reports.html", {"page": page, "reports": page.object_list})


@login_required
@require_http_methods(["POST"])
def acknowledge_warning(request: HttpRequest) -> HttpResponse:
    """The player has read the moderator's warning; back to the page it was shown on."""
    people.acknowledge_warning(request.user)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = "/"
    return redirect(target)
