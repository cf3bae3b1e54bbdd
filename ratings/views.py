from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone

from gameplay.computer_levels import descriptions as level_descriptions
from gameplay.engine import ENGINES
from gameplay.i18n import engine_name
from gameplay.paging import OpenEndedPaginator
from gameplay.views import paginated
from ratings import services
from ratings.models import PROVISIONAL_GAMES

PLAYERS_PER_PAGE = 50


def index(request: HttpRequest) -> HttpResponse:
    return redirect("leaderboard", engine=next(iter(ENGINES)))


def computer_levels(request: HttpRequest) -> HttpResponse:
    """The computer levels ranked against each other in each game, by their ratings in the computers' pool
    (from the duplicate-deal matches between them: `manage.py play_computer_matches`)."""
    ranked = services.computer_levels_ranked()
    described = dict(level_descriptions())
    tables = [(slug, engine_name(ENGINES[slug]), [(standing, described[standing.level]) for standing in standings])
              for slug, standings in ranked.items()]
    return render(request, "ratings/computer_levels.html", {"tables": tables, "levels": level_descriptions()})


def leaderboard(request: HttpRequest, engine: str) -> HttpResponse:
    if engine not in ENGINES:
        raise Http404
    now = timezone.now()
    # Paged without counting the active players (a count reads every one of them).
    page = paginated(request, services.leaderboard(engine, now), per_page=PLAYERS_PER_PAGE,
                     paginator=OpenEndedPaginator)
    context = {
        "engine": engine,
        "name": engine_name(ENGINES[engine]),
        "games": [(slug, engine_name(e)) for slug, e in ENGINES.items()],
        "page": page,
        "rows": list(enumerate(page.object_list, start=page.start_index())),
        "min_games": PROVISIONAL_GAMES,
        # Not ranked yet: shown below the list, marked, so that a new player sees where he is.
        "provisional": list(services.provisional_players(engine, timezone.now())[:PLAYERS_PER_PAGE]),
        "active_days": services.LEADERBOARD_ACTIVE_DAYS,
    }
    return render(request, "ratings/leaderboard.html", context)
