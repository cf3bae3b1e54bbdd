"""A player's side of reports: the report form (of a game, a player or a chat
message, only what the player can see) and the list of their own reports."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from accounts import limits
from conduct import services
from conduct.forms import ReportForm
from conduct.limits import report_limits
from conduct.models import Report
from gameplay.models import ChatMessage
from gameplay.services.base import GameError
from gameplay.views import paginated, visible_game

REPORTS_PER_PAGE = 20


def _int(text: str | None) -> int | None:
    return int(text) if text and text.isascii() and text.isdigit() and len(text) < 19 else None


def _subject(request: HttpRequest) -> dict:
    """What the query string names (?message=, ?player=, ?game=), if this
    player may see it; else not found."""
    if "message" in request.GET:
        message_id = _int(request.GET["message"])
        message = ChatMessage.objects.select_related("user", "game").filter(pk=message_id, hidden=False).first()
        if message is None:
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
                services.send_report(request.user, form.cleaned_data["reason"], form.cleaned_data["text"], **subject)
            except GameError as exc:
                messages.error(request, exc.message)
                return redirect("my_reports")
            messages.success(request, _("Thank you: your report has been sent to the moderators."))
            return redirect("my_reports")
    return render(request, "conduct/report_form.html", {"form": form, **subject})


@login_required
def my_reports(request: HttpRequest) -> HttpResponse:
    reports = (Report.objects.filter(reporter=request.user)
               .select_related("game", "target_user", "chat_message").defer("game__state"))
    page = paginated(request, reports, per_page=REPORTS_PER_PAGE)
    return render(request, "conduct/my_reports.html", {"page": page, "reports": page.object_list})
