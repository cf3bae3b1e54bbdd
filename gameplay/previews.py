"""The new-table form's live previews of the deal schedules its options give
(Domino Poker's and Odessa poker's): small JSON endpoints its script asks.
The words are `gameplay.schedules.<game>`'s, the schedules the engines' own."""

from __future__ import annotations

import copy

from django import forms
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from gameplay.engine.core import InvalidSetup
from gameplay.engine.odessa_setup import deal_schedule as odessa_deal_schedule
from gameplay.forms import DOMINO_FIELDS, NewGameForm, domino_options
from gameplay.i18n import engine_message_text
from gameplay.schedules import domino_poker, odessa

ODESSA_FIELDS = ["players", *NewGameForm.PER_GAME["odessa"]]


class DominoScheduleForm(forms.Form):
    """The new-table form's Domino Poker fields alone (the same fields, so the same bounds and messages)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in DOMINO_FIELDS.values():
            self.fields[name] = copy.deepcopy(NewGameForm.base_fields[name])


def _domino_players(value: str | None) -> int:
    """The form's number of players if domino Poker is played by that many, else 4 (the table refuses
    other numbers with its own message)."""
    try:
        players = int(value or 0)
    except ValueError:
        return 4
    return players if 2 <= players <= 4 else 4


@require_GET
def domino_schedule(request: HttpRequest) -> JsonResponse:
    """``?domino_sevens=4&domino_blind_deals=1...``: the deal schedule in words, or why the options are refused."""
    form = DominoScheduleForm(request.GET)
    if not form.is_valid():
        errors = {name: [str(message) for message in messages] for name, messages in form.errors.items()}
        return JsonResponse({"ok": False, "errors": errors})  # an answer, not a failure: the page shows it
    options = domino_options(form.cleaned_data)
    players = _domino_players(request.GET.get("players"))
    try:
        deals = domino_poker.schedule(options, players)
    except ValueError as exc:
        return JsonResponse({"ok": False, "errors": {"__all__": [engine_message_text(exc)]}})
    return JsonResponse({"ok": True, "lines": domino_poker.schedule_lines(options, players), "deals": len(deals),
                         "schedule": deals})


def odessa_schedule(request: HttpRequest) -> JsonResponse:
    """The deals the form's Odessa options give: ``{"deals", "summary", "error"}`` (always 200)."""
    form = NewGameForm({**request.GET.dict(), "engine": "odessa"})
    form.is_valid()
    errors = [str(message) for name in [*ODESSA_FIELDS, "__all__"] for message in form.errors.get(name, [])]
    if errors:
        return JsonResponse({"deals": [], "summary": "", "error": " ".join(errors)})
    try:
        deals = odessa_deal_schedule(form.cleaned_data["players"], form.engine_options())
    except InvalidSetup as exc:
        return JsonResponse({"deals": [], "summary": "", "error": engine_message_text(exc)})
    return JsonResponse({"deals": deals, "summary": odessa.summary(deals), "error": ""})
