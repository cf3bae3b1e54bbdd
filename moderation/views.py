"""The moderation pages on the site, for a league organizer who is not staff
(moderators and staff organizers have the same actions in the admin): the
games in play they may moderate, and for one game the same actions as the
admin's, through the same services. Thin: check, parse, call, redirect."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from gameplay import services
from gameplay.models import Game
from moderation.forms import AdjudicateForm, ReasonForm, SubstituteForm
from moderation.permissions import can_moderate, is_moderator, moderated_games, organizes_a_league

GAMES_PER_PAGE = 50


@login_required
def games(request: HttpRequest) -> HttpResponse:
    """The games in play, the newest first, GAMES_PER_PAGE at a time
    (`?before=<id>`: the older ones; read along the index game_status_newest,
    without counting them)."""
    if not (is_moderator(request.user) or organizes_a_league(request.user)):
        raise PermissionDenied
    in_play = moderated_games(request.user, Game.objects.filter(status=Game.Status.ACTIVE)).defer("state")
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
        except services.GameError as exc:
            forms[posted].add_error(None, exc.message)
        else:
            messages.success(request, done)
            return redirect(game.get_absolute_url())
    return render(request, "moderation/game.html", {"game": game, "forms": forms, "in_play": game.status == Game.Status.ACTIVE})


def _act(action: str, game: Game, moderator, form) -> str:
    data = form.cleaned_data
    if action == "abort":
        services.abort_game(game.pk, moderator, data["reason"])
        return _("Game aborted.")
    if action == "adjudicate":
        services.adjudicate_game(game.pk, moderator, data["reason"], form.result())
        return _("Game adjudicated.")
    services.substitute_seat(game.pk, data["position"], moderator, data["reason"], user=data["user"])
    return _("The seat has a new player.")
