from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Page, Paginator
from django.db import OperationalError
from django.db.models import Case, Count, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from gameplay import computer_levels, inbound, lookups, services
from gameplay.computer_levels import DEFAULT_LEVEL
from gameplay.broadcast import chat_history, game_payload
from gameplay.engine import get_engine
from gameplay.forms import JoinForm, NewGameForm
from gameplay.models import Game, Seat
from gameplay.movelog import move_log
from gameplay.replaced import replacement_of
from gameplay.results import game_result
from accounts import verification
from accounts.primary_reads import reads_primary
from gameplay.services import tables
from gameplay.services.base import ensure_may_play
from gameplay.rules import first_time_at, rules_template

INVITES_SESSION_KEY = "invited_games"


CURRENT = [Game.Status.OPEN, Game.Status.ACTIVE]
GAMES_PER_PAGE = 20


def lobby(request: HttpRequest) -> HttpResponse:
    # Lists never load a game's state: it is the largest column by far. The
    # seats are counted for the 50 tables shown only (not grouped over all).
    taken = (
        Seat.objects.filter(Q(user__isnull=False) | Q(is_bot=True), game=OuterRef("pk"))
        .order_by().values("game").annotate(n=Count("*")).values("n")
    )
    open_tables = (
        Game.objects.filter(status=Game.Status.OPEN, is_private=False)
        .defer("state", "history")
        .annotate(taken=Coalesce(Subquery(taken), 0))
        .select_related("created_by")[:50]
    )
    context = {"open_tables": with_seated_players(list(open_tables)), "form": NewGameForm(), "my_games": []}
    if request.user.is_authenticated:
        page = seats_page(request, my_games_seats(request.user), anchor="my-games")
        context["my_games"] = my_games_rows(page)
        context["my_games_page"] = page
        if not context["my_games"]:  # one query, only on an empty list: has he played before?
            context["has_past_games"] = has_past_games(request.user)
        public = Game.objects.filter(status=Game.Status.ACTIVE, is_private=False)
        context["public_games"] = with_seated_players(list(public.only("id", "engine", "options", "seats_count")[:20]))
    return render(request, "gameplay/lobby.html", context)


def with_seated_players(games: list[Game]) -> list[Game]:
    """The games, each with `seated`: its seated players' names and ratings in
    that game (two queries for the whole list)."""
    seats = (Seat.objects.filter(game__in=games).filter(Q(user__isnull=False) | Q(is_bot=True))
             .select_related("user").order_by("game_id", "position"))
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    engines = {game.pk: game.engine for game in games}
    ratings = lookups.player_ratings({(s.user_id, engines[s.game_id]) for seated in by_game.values() for s in seated
                                if s.user_id and not s.is_bot})
    for game in games:
        game.seated = [{"name": seat.player_name, "rating": _shown_rating(ratings.get((seat.user_id, game.engine)))}
                       for seat in by_game.get(game.pk, [])]
    return games


def _shown_rating(rating) -> dict | None:
    return None if rating is None else {"value": rating.value, "provisional": rating.is_provisional}


def current_game_ids() -> QuerySet:
    """The ids of the open and active games (from the index on Game.status)."""
    return Game.objects.filter(status__in=CURRENT).values("id")


def my_games_seats(user) -> QuerySet[Seat]:
    """The user's seats at his open and active tables, in the order the lists
    show them: the games waiting for his move (his clock runs) first, then
    the other games in play, then the open tables, the newest first in each.
    Filtering and ordering read indexes only (Seat's user-game-deadline
    index, Game's status index), never a game's row: seats_page loads the
    rows of one page."""
    active = Game.objects.filter(status=Game.Status.ACTIVE).values("id")
    return (
        Seat.objects.filter(user=user, game_id__in=current_game_ids())
        .annotate(
            my_turn=Case(When(Q(deadline__isnull=False, game_id__in=active), then=Value(1)), default=Value(0)),
            in_play=Case(When(game_id__in=active, then=Value(1)), default=Value(0)),
        )
        .order_by("-my_turn", "-in_play", "-game_id")
    )


def has_past_games(user) -> bool:
    """Whether the user has a finished or aborted game (the profile lists them)."""
    return Seat.objects.filter(user=user).exclude(game_id__in=current_game_ids()).exists()


def my_games_rows(seats) -> list[dict]:
    """Rows of the "my games" table (gameplay/_my_games.html) from seats with their games, each
    with the names of the others at the table (`with_opponents`)."""
    seats = with_opponents(list(seats))
    return [{"game": seat.game, "seat": seat, "opponents": seat.opponents,
             "my_turn": seat.game.status == Game.Status.ACTIVE and seat.deadline is not None} for seat in seats]


def with_opponents(seats: list[Seat]) -> list[Seat]:
    """The seats, each with `opponents`: the names of the others seated at its game (computers
    included), in seat order; partners too, marked by the caller if he wants. One query."""
    if not seats:
        return seats
    others = (Seat.objects.filter(game_id__in={seat.game_id for seat in seats})
              .filter(Q(user__isnull=False) | Q(is_bot=True)).select_related("user").order_by("game_id", "position"))
    by_game: dict[int, list[Seat]] = {}
    for other in others:
        by_game.setdefault(other.game_id, []).append(other)
    for seat in seats:
        seat.opponents = [str(o.player_name) for o in by_game.get(seat.game_id, []) if o.position != seat.position]
    return seats


def paginated(request: HttpRequest, items, param: str = "page", per_page: int = GAMES_PER_PAGE,
              anchor: str = "", paginator: type[Paginator] = Paginator) -> Page:
    """One page of `items` (Django's Paginator) for the query parameter
    `param`: a missing or malformed number gives the first page, one out of
    range the last. `page.previous_url` and `page.next_url` link to its
    neighbours ("" at either end), keeping the request's other parameters;
    `anchor` is the id of the list on the page they scroll to."""
    page = paginator(items, per_page).get_page(request.GET.get(param))
    fragment = f"#{anchor}" if anchor else ""

    def url(number: int) -> str:
        query = request.GET.copy()
        query[param] = str(number)
        return f"?{query.urlencode()}{fragment}"

    page.previous_url = url(page.previous_page_number()) if page.has_previous() else ""
    page.next_url = url(page.next_page_number()) if page.has_next() else ""
    return page


class CountedRows:
    """A queryset whose number of rows is known already (a stored tally): the
    paginator slices it and takes that number instead of counting."""

    def __init__(self, queryset: QuerySet, count: int) -> None:
        self.queryset, self._count = queryset, count

    def count(self) -> int:
        return self._count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):
        return self.queryset[index]


def seats_page(request: HttpRequest, seats: QuerySet[Seat], param: str = "page", anchor: str = "",
               count: int | None = None) -> Page:
    """One page of `seats` (see paginated), each with its game (without its
    state): the count (or `count`, when the caller knows it) and the page's
    ids come from `seats` as it is, then one query loads those seats, so that
    ordering a long list reads no game rows."""
    ids = seats.values_list("pk", flat=True)
    page = paginated(request, ids if count is None else CountedRows(ids, count), param, anchor=anchor)
    ids = list(page.object_list)
    loaded = (Seat.objects.select_related("game", "game__fixture__division__season__league")
              .defer("game__state", "game__history").in_bulk(ids))
    page.object_list = [loaded[pk] for pk in ids if pk in loaded]
    return page


@login_required
def new_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST or None)
    if not verification.is_verified(request.user):  # casual games only, until the address is confirmed
        form.fields["rated"].disabled = True
        form.fields["rated"].initial = False
        form.fields["rated"].help_text = _("Rated tables open once your email address is confirmed.")
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            ensure_may_play(request.user)
            game = services.create_game(
                request.user,
                data["engine"],
                form.engine_options(),
                players=data["players"],
                time_preset=data["time_preset"],
                move_seconds=data["move_seconds"],
                reserve_seconds=data["reserve_seconds"],
                on_timeout=data["on_timeout"],
                is_private=data["is_private"],
                rated=data["rated"],
                night_pause=data["night_pause"],
                timer_seconds=form.timer_seconds(),
                series_length=data["series_length"] or 1,
                allow_bots=data["allow_bots"],
            )
            if data["fill_with_bots"]:
                services.fill_with_bots(game.pk, request.user, levels=form.computer_levels())
        except services.GameError as exc:
            form.add_error(None, exc.message)
        except OperationalError as exc:
            if not inbound.database_busy(exc):
                raise
            form.add_error(None, inbound.BUSY)  # the form, filled in, is shown again: send it again
            status = 503
        else:
            return redirect(game)
    response = render(request, "gameplay/new_game.html", {"form": form}, status=status)
    if status == 503:
        response["Retry-After"] = str(inbound.RETRY_AFTER_SECONDS)
    return response


def visible_game(request: HttpRequest, game_id: int) -> Game:
    """Public tables can be watched by anyone. A private table is shown to its
    players and staff, and, until it starts, to whoever opened its invite link
    (so that he can take a seat); the page, the state API and the sheets alike."""
    game = get_object_or_404(Game, pk=game_id)
    if _hidden_from(request, game):
        raise Http404
    return game


def my_position(request: HttpRequest, game: Game) -> int | None:
    """The visitor's seat at this game, or None (a spectator)."""
    if not request.user.is_authenticated:
        return None
    seat = game.seats.filter(user=request.user).first()
    return seat.position if seat else None


def _hidden_from(request: HttpRequest, game: Game) -> bool:
    """True if a private table is not this visitor's to see (see visible_game)."""
    if not game.is_private or request.user.is_staff or my_position(request, game) is not None:
        return False
    invited = game.pk in request.session.get(INVITES_SESSION_KEY, [])
    return not (invited and game.status == Game.Status.OPEN)


def waiting_seats(seats: list[Seat], ratings: dict | None = None) -> list[dict]:
    """The seats of an open table as its waiting room lists them, each with
    its partner's seat in a game in pairs (the same team; None otherwise)
    and its player's rating (`broadcast.seat_ratings`)."""
    rows = []
    for seat in seats:
        partner = next((s for s in seats if s.team is not None and s.team == seat.team and s is not seat), None)
        rows.append({"position": seat.position, "number": seat.position + 1, "taken": seat.is_taken,
                     "name": seat.player_name if seat.is_taken else None, "is_bot": seat.is_bot,
                     "rating": (ratings or {}).get(seat.position),
                     "partner": partner and {"number": partner.position + 1, "taken": partner.is_taken,
                                             "name": partner.player_name if partner.is_taken else None}})
    return rows


@reads_primary
def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = get_object_or_404(Game, pk=game_id)
    if _hidden_from(request, game):
        replaced = replacement_of(game.pk, request.user)
        if replaced is not None:  # his seat of this private table went to someone else: told why
            return render(request, "gameplay/seat_replaced.html", {"game": game, "replaced": replaced}, status=403)
        if game.pk not in request.session.get(INVITES_SESSION_KEY, []):
            raise Http404
        # An invitee whose waiting room just became a game he has no seat in (its page reloads):
        # still not found, but told why.
        return render(request, "gameplay/started_without_you.html", {"game": game}, status=404)
    position = my_position(request, game)
    seats = list(game.seats.select_related("user"))
    result = game_result(game, seats)
    payload = game_payload(game, position, seats, result=result.as_json())
    ratings = {player["position"]: player["rating"] for player in payload["players"] if "rating" in player}
    context = {
        "game": game,
        "engine": get_engine(game.engine),
        "position": position,
        "seats": seats,
        "waiting_seats": waiting_seats(seats, ratings) if game.status == Game.Status.OPEN else [],
        "in_pairs": any(seat.team is not None for seat in seats),
        "payload": payload,
        "invite_url": request.build_absolute_uri(f"/invite/{game.invite_code}/"),
        "computer_levels": computer_levels.descriptions() if game.status == Game.Status.OPEN else [],
        "move_log": move_log(game, seats, position) if game.status != Game.Status.OPEN else [],
        "result": result,
        # The page of a game that is over opens no socket: its chat is shown here, read-only.
        "chat_history": chat_history(game, request.user.pk) if game.is_over else None,
        "rules_url": reverse("rules_game", args=[game.engine]) if rules_template(game.engine) else "",
        "replaced": replacement_of(game.pk, request.user) if position is None and game.status != Game.Status.OPEN else None,
    }
    # A seated player new to this game is offered its rules (one query; not after the game).
    context["first_time"] = (bool(context["rules_url"]) and position is not None and not game.is_over
                             and first_time_at(request.user, game))
    return render(request, "gameplay/game.html", context)


def invite(request: HttpRequest, code: str) -> HttpResponse:
    game = get_object_or_404(Game, invite_code=code)
    if game.status != Game.Status.OPEN:
        # Too late to take a seat: the link no longer opens a private game to anyone but its players.
        if _hidden_from(request, game):
            messages.error(request, _("This private table has already started: only its players can see it."))
            return redirect("lobby")
        return redirect(game)
    invited = request.session.get(INVITES_SESSION_KEY, [])
    if game.pk not in invited:
        request.session[INVITES_SESSION_KEY] = invited + [game.pk]
    return redirect(game)


def _run(request: HttpRequest, func, *args) -> None:
    try:
        ensure_may_play(request.user)  # a suspended account does nothing at a table
        func(*args)
    except services.GameError as exc:
        messages.error(request, exc.message)


@require_POST
@login_required
def join(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id)
    form = JoinForm(request.POST, seats=game.seats_count)
    if not form.is_valid():
        messages.error(request, " ".join(form.errors["position"]))
        return redirect(game)
    try:
        _run(request, services.join_game, game.pk, request.user, form.cleaned_data["position"])
    except OperationalError as exc:
        if not inbound.database_busy(exc):
            raise
        messages.error(request, inbound.BUSY)
    return redirect(game)


@require_POST
@login_required
def leave(request: HttpRequest, game_id: int) -> HttpResponse:
    _run(request, services.leave_game, game_id, request.user)
    return redirect("lobby")


@require_POST
@login_required
def fill_bots(request: HttpRequest, game_id: int) -> HttpResponse:
    """The empty seats to computers, all of the level posted (none posted: level 1)."""
    level = request.POST.get("level") or str(DEFAULT_LEVEL)
    if not level.isdigit() or len(level) > 3:
        messages.error(request, _("There is no computer level %(value)s.") % {"value": level[:20]})
        return redirect("game", game_id=game_id)
    _run(request, services.fill_with_bots, game_id, request.user, [int(level)] * tables.MAX_LEVELS_GIVEN)
    return redirect("game", game_id=game_id)


@require_POST
@login_required
def resign(request: HttpRequest, game_id: int) -> HttpResponse:
    _run(request, services.resign, game_id, request.user)
    return redirect("game", game_id=game_id)


@reads_primary
@require_GET
def state(request: HttpRequest, game_id: int) -> JsonResponse:
    game = visible_game(request, game_id)
    return JsonResponse(game_payload(game, my_position(request, game)))


def _json_error(code: str, message: str, status: int, version: int | None = None, move_id=None) -> JsonResponse:
    response = JsonResponse({"type": "error", "code": code, "message": str(message), "version": version,
                             "move_id": move_id}, status=status)
    if code == "busy":
        response["Retry-After"] = str(inbound.RETRY_AFTER_SECONDS)
    return response


ERROR_STATUS = {"not_found": 404, "not_seated": 403, "suspended": 403, "stale": 409, "bad_request": 400, "busy": 503}


def _json_body(request: HttpRequest) -> dict | JsonResponse:
    """The signed-in player's JSON object (through the gate of gameplay.inbound), or the error to answer."""
    if not request.user.is_authenticated:
        return _json_error("login_required", _("Log in to play."), 401)
    try:
        return inbound.parse(request.body)
    except inbound.Refused as refusal:
        return _json_error(refusal.code, refusal.text(), 400)


@require_POST
def move(request: HttpRequest, game_id: int) -> JsonResponse:
    """The same move as over WebSocket, for clients without it. Body:
    {"action": {...}, "version": 12, "move_id": "..."}."""
    body = _json_body(request)
    if isinstance(body, JsonResponse):
        return body
    move_id = body.get("move_id")
    try:
        result = services.submit_move(game_id, request.user, body.get("action"), body.get("version"), move_id)
    except services.GameError as exc:
        return _json_error(exc.code, exc.message, ERROR_STATUS.get(exc.code, 422), exc.version, move_id)
    except OperationalError as exc:
        if not inbound.database_busy(exc):
            raise
        return _json_error("busy", inbound.BUSY, 503, move_id=move_id)  # the page sends it again, same move_id
    return JsonResponse({"type": "ack", "move_id": move_id, "version": result.version,
                         "duplicate": result.duplicate})


@require_POST
def ahead(request: HttpRequest, game_id: int) -> JsonResponse:
    """Durak's "done for me in this bout", said in advance (or taken back), as
    over WebSocket. Body: {"on": true}."""
    body = _json_body(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        services.order_ahead(game_id, request.user, body.get("on"))
    except services.GameError as exc:
        return _json_error(exc.code, exc.message, ERROR_STATUS.get(exc.code, 422), exc.version)
    return JsonResponse({"type": "ahead_ack", "on": body["on"]})


@require_POST
def orders(request: HttpRequest, game_id: int) -> JsonResponse:
    """The player's standing orders (gameplay/engine/orders.py), as JSON. Body: {"set": {"kind",
    "params"}}, {"cancel": order id} or {"dismiss": true}. The answer is {"type": "orders_ack"};
    the new list reaches his seat alone, in its state message."""
    body = _json_body(request)
    if isinstance(body, JsonResponse):
        return body
    try:
        return JsonResponse(services.order_message(game_id, request.user, body))
    except services.GameError as exc:
        return _json_error(exc.code, exc.message, ERROR_STATUS.get(exc.code, 422), exc.version)
