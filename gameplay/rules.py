"""Rules pages for players, and the notice offering them at a first game.

Each game the site runs has one template per language,
``gameplay/templates/rules/<slug>.<lang>.html`` (a game without one has no
page: adding a game's rules is adding its two templates). The page picks the
request's language, English when the language has no text.

The texts name the new-table form's options through ``table_options()``, so
that a label on the page is the label on the form, in either language.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import get_language

from gameplay.engine import ENGINES
from gameplay import computer_levels
from gameplay.forms import NewGameForm
from gameplay.i18n import engine_name
from gameplay.models import Game, Seat

FALLBACK_LANGUAGE = "en"
# The games that count as "played" before this one (an open table was never played).
PLAYED = [Game.Status.ACTIVE, Game.Status.FINISHED]


def rules_template(slug: str, language: str | None = None) -> str | None:
    """The name of the rules template of game `slug` in `language` (the
    active one by default; English when it has none); None without any."""
    language = (language or get_language() or FALLBACK_LANGUAGE).split("-")[0]
    for lang in dict.fromkeys([language, FALLBACK_LANGUAGE]):
        name = f"rules/{slug}.{lang}.html"
        try:
            get_template(name)
        except TemplateDoesNotExist:
            continue
        return name
    return None


def games_with_rules() -> list[tuple[str, str]]:
    """(slug, name in the active language) of every game with a rules page."""
    return [(slug, engine_name(engine)) for slug, engine in ENGINES.items() if rules_template(slug)]


def table_options() -> dict[str, dict]:
    """Every field of the new-table form: its label and its choices' labels
    by value (as strings, so that a template can write
    ``options.ipuker_min_stake.choices.9``)."""
    return {
        name: {"label": field.label, "choices": {str(value): label for value, label in getattr(field, "choices", [])}}
        for name, field in NewGameForm().fields.items()
    }


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "rules/index.html", {"games": games_with_rules()})


def rules_page(request: HttpRequest, slug: str) -> HttpResponse:
    template = rules_template(slug) if slug in ENGINES else None
    if template is None:
        raise Http404
    context = {"slug": slug, "game_name": engine_name(ENGINES[slug]), "options": table_options(),
               "games": games_with_rules(), "computer_levels": computer_levels.descriptions()}
    return render(request, template, context)


def first_time_at(user, game: Game) -> bool:
    """True if `user` played no game of this kind before this one (none
    created earlier is active or finished): his first table of it. One query
    (an EXISTS on his seats)."""
    return not Seat.objects.filter(user=user, game_id__lt=game.pk, game__engine=game.engine,
                                   game__status__in=PLAYED).exists()
