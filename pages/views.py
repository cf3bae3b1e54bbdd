"""The pages that gather many apps: a player's profile (his settings, his
current and finished games, his vacation) and the player page (his ratings,
games and head-to-head record). They stand above the apps they read."""

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.forms import VacationForm
from accounts.models import User
from correspondence.services import follows
from gameplay import services
from gameplay.broadcast import current_vacation
from gameplay.engine import get_engine
from gameplay.i18n import engine_name
from gameplay.models import Game, PlayerTally, Seat
from gameplay.results import game_results
from gameplay.views import current_game_ids, my_games_rows, my_games_seats, seats_page, with_opponents
from pages import player_games
from pages.forms import FinishedGamesFilter
from ratings.charts import rating_chart
from ratings.services import BOT_POOL, player_ratings, split_pool

CURRENT = [Game.Status.OPEN, Game.Status.ACTIVE]
LIST_LIMIT = 50


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """The user's settings and his games, a page of each list: the current
    ones (those waiting for his move first; query parameter `current`) and
    the finished ones (the newest first; `page`). No game's state is loaded,
    and the lists are counted and ordered from indexes (gameplay.views.seats_page)."""
    current = seats_page(request, my_games_seats(request.user), param="current", anchor="current-games")
    # Finished or aborted: every game that is not current (fewer to exclude than to include).
    past = Seat.objects.filter(user=request.user).exclude(game_id__in=current_game_ids()).order_by("-game_id")
    context = {
        "current": my_games_rows(current),
        "current_page": current,
        "past": with_results(seats_page(request, past, param="page", anchor="finished-games")),
        **vacation_context(request.user),
    }
    return render(request, "pages/profile.html", context)


def with_results(seats):
    """The seats (a page, or a list) with their game's result (`gameplay.results`,
    the one the game page, the sheet and the emails show): `seat.result` and
    `seat.standing`. With `seat.opponents`, the others at its table. Three queries for the whole list."""
    with_opponents(list(seats))
    results = game_results([seat.game for seat in seats])
    for seat in seats:
        seat.result = results[seat.game_id]
        seat.standing = seat.result.standing_of(seat.position)
    return seats


def vacation_context(user, form: VacationForm | None = None) -> dict:
    now = timezone.now()
    taken = services.vacation_days_taken(user, now.year)
    return {
        "vacation": current_vacation(user),
        "vacation_form": form or VacationForm(),
        "vacation_days_left": max(0, round(settings.VACATION_DAYS_PER_YEAR - taken, 1)),
        "vacation_days_per_year": settings.VACATION_DAYS_PER_YEAR,
    }


@require_POST
@login_required
def take_vacation(request: HttpRequest) -> HttpResponse:
    form = VacationForm(request.POST)
    if form.is_valid():
        now = timezone.now()
        try:
            services.take_vacation(request.user, now, now + timedelta(days=form.cleaned_data["days"]))
        except services.GameError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Your vacation has begun: your clocks are stopped in all your games."))
    else:
        messages.error(request, _("Give a number of days from 1 to 366."))
    return redirect("profile")


@require_POST
@login_required
def end_vacation(request: HttpRequest) -> HttpResponse:
    services.end_vacation(request.user)
    messages.success(request, _("Welcome back: your clocks run again."))
    return redirect("profile")


@login_required
def player(request: HttpRequest, username: str) -> HttpResponse:
    shown = get_object_or_404(get_user_model(), username=username, is_active=True)
    seats = Seat.objects.filter(user=shown).select_related("game")
    tally = PlayerTally.objects.filter(user=shown).first() or PlayerTally(user=shown)
    stats = {"played": tally.finished, "won": tally.won}
    filters = FinishedGamesFilter(request.GET or None, leagues=player_games.leagues_of(shown))
    chosen = filters.cleaned_data if filters.is_valid() else {}
    opponent = player_games.find_opponent(chosen.get("opponent", ""))
    if chosen.get("opponent") and opponent is None:
        filters.add_error("opponent", _("There is no player with that username."))
    finished = player_games.filtered_finished_seats(shown, chosen, opponent)
    # Invite-only tables stay private: only public ones are listed.
    public = seats.filter(game__is_private=False)
    context = {
        "player": shown,
        "stats": stats,
        "ratings": ratings_rows(shown),
        # Without the games' state: 50 late Joker states were read and decoded for a name and a link.
        "current": with_opponents(list(public.filter(game__status__in=CURRENT).defer("game__state", "game__history")
                                       .order_by("-game_id")[:LIST_LIMIT])),
        "filters": filters,
        "filtered": chosen_any(chosen),
        "finished_page": with_results(seats_page(request, finished, anchor="finished",
                                                 count=None if chosen_any(chosen) else tally.public_finished)),
        "head_to_head": (player_games.head_to_head(shown, opponent, chosen.get("game", ""))
                         if opponent is not None and opponent != shown else None),
        "following": request.user.is_authenticated and follows(request.user, shown),
    }
    return render(request, "pages/player.html", context)


def chosen_any(filters: dict) -> bool:
    """Whether the player page's filter form narrows the list of finished games."""
    return bool(filters and any(filters.values()))


def ratings_rows(user) -> list[dict]:
    """The player page's ratings: each game kind's rating and its chart."""
    rows = []
    for r in player_ratings(user):
        engine, pool = split_pool(r.engine)  # a bot account's games may be rated in the bots' pool
        name = engine_name(get_engine(engine))
        labelled = pool == BOT_POOL  # a computer level's own pool needs no mark: the account is the computer
        rows.append({"engine": engine, "name": f"{name} ({User.BOT_LABEL})" if labelled else name, "rating": r.rating,
                     "chart": rating_chart(r.history, [localtime(at).date() for at in r.dates], short_date)})
    return rows


def short_date(day) -> str:
    """A chart's date in the reader's language: "26.11.2026" / "11/26/2026"."""
    return date_format(day, "SHORT_DATE_FORMAT")
