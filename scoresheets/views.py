from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.shortcuts import render

from gameplay.views import my_position, visible_game
from scoresheets.export import game_export
from scoresheets.record import duration, record_sections
from scoresheets.replay import step_payload
from scoresheets.sheets import sheet_context


def sheet_page(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id)
    return render(request, "scoresheets/page.html",
                  {"game": game, "sheet": sheet_context(game, viewer=my_position(request, game))})


def sheet_fragment(request: HttpRequest, game_id: int) -> HttpResponse:
    game = visible_game(request, game_id)
    return render(request, "scoresheets/fragment.html",
                  {"sheet": sheet_context(game, viewer=my_position(request, game))})


def record_export(request: HttpRequest, game_id: int) -> JsonResponse:
    """The game's record as JSON (scoresheets/export.py), once the game is over."""
    game = visible_game(request, game_id)
    if not game.is_over:
        return JsonResponse({"error": _("The record is published when the game is over: until then its seed "
                                        "is secret.")}, status=409)
    response = JsonResponse(game_export(game), json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'inline; filename="game-{game.pk}.json"'
    return response


def game_record(request: HttpRequest, game_id: int) -> HttpResponse:
    """Every move of the game in its words, grouped, with times; during the
    game, only what the visitor's seat has seen."""
    game = visible_game(request, game_id)
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.position)
    sections = record_sections(game, seats, my_position(request, game))
    rows = [(section.title, [(line, duration(ms)) for line, ms in section.lines]) for section in sections]
    return render(request, "scoresheets/record.html", {"game": game, "seats": seats, "sections": rows})


def replay_page(request: HttpRequest, game_id: int) -> HttpResponse:
    """Step through a game that is over, move by move, every hand shown."""
    game = visible_game(request, game_id)
    if not game.is_over or game.state is None:
        return render(request, "scoresheets/replay_unavailable.html", {"game": game}, status=409)
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.position)
    first = step_payload(game, 0, _replay_viewer(request, game))
    return render(request, "scoresheets/replay.html", {"game": game, "seats": seats, "payload": first})


def replay_step(request: HttpRequest, game_id: int, step: int) -> JsonResponse:
    """One step of the replay as a state message, seen from seat ?seat=N (default: the visitor's)."""
    game = visible_game(request, game_id)
    if not game.is_over or game.state is None:
        return JsonResponse({"type": "error", "code": "not_over",
                             "message": _("The replay opens when the game is over.")}, status=409)
    viewer = request.GET.get("seat", "")
    if viewer == "":
        position = _replay_viewer(request, game)
    elif viewer.isdigit() and int(viewer) < game.seats_count:
        position = int(viewer)
    else:
        return JsonResponse({"type": "error", "code": "bad_request", "message": _("There is no such seat.")},
                            status=400)
    return JsonResponse(step_payload(game, step, position))


def _replay_viewer(request: HttpRequest, game) -> int:
    """Whose eyes the replay starts with: the visitor's seat, else the first."""
    position = my_position(request, game)
    return 0 if position is None else position
