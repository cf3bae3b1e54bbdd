from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from gameplay.views import visible_game
from scoresheets.sheets import sheet_context


def sheet_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id)
    return render(request, "scoresheets/page.html", {"game": game, "sheet": sheet_context(game)})


def sheet_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id)
    return render(request, "scoresheets/fragment.html", {"sheet": sheet_context(game)})
