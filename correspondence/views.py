"""My games, the next game, challenges, friends and private notes: each view
parses its input, calls one service or selector and renders the result."""

import json

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import limits
from gameplay.computer_levels import DEFAULT_LEVEL
from correspondence import display, selectors, services
from correspondence.forms import AnswerForm, ChallengeForm, UsernameForm
from correspondence.limits import challenge_limits

SEARCH_RESULTS = 10
LOBBY_ROWS = 10


def _my_games_context(request: HttpRequest, per_page: int = selectors.PER_PAGE, finished: bool = True) -> dict:
    rows, page = selectors.my_games_page(request.user, request.GET.get("page"), per_page, finished=finished)
    query = request.GET.copy()
    query.pop("compact", None)
    for name, number in (("previous_url", page.has_previous() and page.previous_page_number()),
                         ("next_url", page.has_next() and page.next_page_number())):
        query["page"] = str(number)
        setattr(page, name, f"{reverse('my_games')}?{query.urlencode()}" if number else "")
    return {"rows": rows, "page": page, "challenges_waiting": selectors.pending_challenge_count(request.user),
            **display.list_rows(rows, timezone.now())}


@login_required
@require_GET
def my_games(request: HttpRequest) -> HttpResponse:
    return render(request, "correspondence/my_games.html", _my_games_context(request))


@login_required
@require_GET
def my_games_fragment(request: HttpRequest) -> HttpResponse:
    """The list alone: the My games page's live refresh (its page, `?page=`),
    and the lobby's top section (`?compact=1`: the first LOBBY_ROWS games in
    play, no finished ones)."""
    compact = request.GET.get("compact") == "1"
    context = _my_games_context(request, LOBBY_ROWS if compact else selectors.PER_PAGE, finished=not compact)
    if compact:
        context["more"] = max(0, context["page"].paginator.count - len(context["in_play"]))
    context["compact"] = compact
    return render(request, "correspondence/_my_games_list.html", context)


def _game_id(value: str | None) -> int | None:
    return int(value) if value and value.isascii() and value.isdigit() and len(value) < 12 else None


@login_required
@require_GET
def next_game(request: HttpRequest) -> HttpResponse:
    """The most urgent game waiting for my move, other than the one I come
    from (`?from=<game id>`); My games when there is none. Asked for JSON:
    {"url": that game's address or null}."""
    found = selectors.next_game_id(request.user, excluding=_game_id(request.GET.get("from")))
    if "application/json" in request.headers.get("Accept", ""):  # the game page's "by itself" asks first
        return JsonResponse({"url": reverse("game", args=[found]) if found else None})
    if found is None:
        messages.info(request, _("No other game is waiting for your move."))
        return redirect("my_games")
    return redirect("game", found)


@login_required
@require_GET
def waiting_game(request: HttpRequest) -> HttpResponse:
    """The badge's link: the game when only one waits for my move, My games otherwise."""
    waiting = selectors.waiting_game_ids(request.user)
    return redirect("game", waiting[0]) if len(waiting) == 1 else redirect("my_games")


# --- challenges -----------------------------------------------------------------


@login_required
@require_GET
def challenges(request: HttpRequest) -> HttpResponse:
    return render(request, "correspondence/challenges.html", {**selectors.challenges_for(request.user),
                                                              "answer_form": AnswerForm()})


@login_required
def new_challenge(request: HttpRequest) -> HttpResponse:
    initial = {"usernames": request.GET.get("to", "")[:150]}
    form = ChallengeForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        refusal = limits.check(request, challenge_limits(request.user))
        if refusal:
            return limits.too_many(request, refusal)
        data = form.cleaned_data
        try:
            services.create_challenge(
                request.user, form.usernames_list(), data["engine"], form.engine_options(), form.time_control(),
                rated=data["rated"], fill_with_bots=data["fill_with_bots"], expires_in=data["expires_in"],
                players=data["players"], computer_level=data["computer_level"] or DEFAULT_LEVEL)
        except services.CorrespondenceError as exc:
            form.add_error(None, exc.message)
            status = 400
        else:
            limits.count(request, challenge_limits(request.user))
            messages.success(request, _("Your challenge is sent."))
            return redirect("challenges")
    elif request.method == "POST":
        status = 400
    return render(request, "correspondence/new_challenge.html", {"form": form}, status=status)


@login_required
@require_POST
def answer(request: HttpRequest, challenge_id: int) -> HttpResponse:
    form = AnswerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose to accept or decline."))
        return redirect("challenges")
    try:
        challenge = services.answer_challenge(challenge_id, request.user, form.cleaned_data["accept"],
                                              form.cleaned_data["reason"])
    except services.CorrespondenceError as exc:
        messages.error(request, exc.message)
        return redirect("challenges")
    if challenge.game_id:
        return redirect("game", challenge.game_id)
    if challenge.status == challenge.Status.EXPIRED:
        messages.error(request, _("This challenge has expired."))
    return redirect("challenges")


@login_required
@require_POST
def withdraw(request: HttpRequest, challenge_id: int) -> HttpResponse:
    try:
        services.withdraw_challenge(challenge_id, request.user)
    except services.CorrespondenceError as exc:
        messages.error(request, exc.message)
    return redirect("challenges")


# --- friends --------------------------------------------------------------------


@login_required
@require_GET
def friends(request: HttpRequest) -> HttpResponse:
    return render(request, "correspondence/friends.html", {"friends": selectors.friends(request.user)})


def _follow_change(request: HttpRequest, change, default: str = "friends", done: str = "") -> HttpResponse:
    form = UsernameForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Name a player."))
        return redirect(default)
    try:
        change(request.user, form.cleaned_data["username"])
    except services.CorrespondenceError as exc:
        messages.error(request, exc.message)
    else:
        if done:
            messages.success(request, done)
    next_url = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(next_url, {request.get_host()}, require_https=request.is_secure())
    return redirect(next_url if next_url and safe else default)


@login_required
@require_POST
def follow(request: HttpRequest) -> HttpResponse:
    return _follow_change(request, services.follow)


@login_required
@require_POST
def unfollow(request: HttpRequest) -> HttpResponse:
    return _follow_change(request, services.unfollow)


@login_required
@require_GET
def blocked_players(request: HttpRequest) -> HttpResponse:
    """The players I block, each with its "lift" button (accounts/blocks.py)."""
    blocked = request.user.blocks.select_related("blocked").order_by("blocked__username")
    return render(request, "correspondence/blocks.html", {"blocks": blocked})


@login_required
@require_POST
def block(request: HttpRequest) -> HttpResponse:
    return _follow_change(request, services.block, default="blocks", done=_(
        "Blocked: you no longer see each other's chat lines, and you no longer meet at open tables or in challenges."))


@login_required
@require_POST
def unblock(request: HttpRequest) -> HttpResponse:
    return _follow_change(request, services.unblock, default="blocks")


@login_required
@require_GET
def search_players(request: HttpRequest) -> JsonResponse:
    """Usernames starting with `q` (at least 2 characters), for the challenge form."""
    query = request.GET.get("q", "").strip()[:150]
    if len(query) < 2:
        return JsonResponse({"players": []})
    found = (get_user_model().objects.filter(username__istartswith=query, is_active=True)
             .exclude(pk=request.user.pk).order_by("username")[:SEARCH_RESULTS])
    return JsonResponse({"players": [{"username": u.username, "name": u.name} for u in found]})


# --- private notes --------------------------------------------------------------


@login_required
def notes(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET: my notes on the game; POST {"text": ...}: save them. Only ever the writer's own."""
    if request.method == "GET":
        return JsonResponse({"text": services.note_text(game_id, request.user)})
    if request.method != "POST":
        return JsonResponse({"error": _("Read or save the notes.")}, status=405)
    try:
        text = json.loads(request.body or b"{}").get("text")
    except (ValueError, AttributeError):
        return JsonResponse({"error": _("These notes cannot be saved.")}, status=400)
    try:
        note = services.save_note(game_id, request.user, text)
    except services.CorrespondenceError as exc:
        return JsonResponse({"error": exc.message, "code": exc.code}, status=404 if exc.code == "not_found" else 400)
    return JsonResponse({"saved": True, "at": note.updated_at.isoformat(), "length": len(note.text)})

