from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.shortcuts import render

from gameplay.views import visible_game
from scoresheets.export import game_export
from scoresheets.sheets import sheet_context


def sheet_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id)
    return render(request, "scoresheets/page.html", {"game": game, "sheet": sheet_context(game)})


def sheet_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id)
    return render(request, "scoresheets/fragment.html", {"sheet": sheet_context(game)})


def record_export(request: HttpRequest, game_id: int) -> JsonResponse:
    """The game's record as JSON (scoresheets/export.py), once the game is over."""
    game = visible_game(request, game_id)
    if not game.is_over:
        return JsonResponse({"error": _("The record is published when the game is over: until then its seed "
                                        "is secret.")}, status=409)
    response = JsonResponse(game_export(game), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'inline; filename="game-{game.pk}.json"'
    return response
