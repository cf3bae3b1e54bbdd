from django import template

from gameplay import points as scores
from gameplay.engine.cards import SUIT_SYMBOLS
from gameplay.movelog.odessa import special_name
from gameplay.schedules.domino_poker import stage_name
from scoresheets.sheets import ordered, sheet_context

register = template.Library()


@register.filter
def hundreds(points) -> str:
    """Totals are written in hundreds: 1450 -> 14.5, -200 -> -2.0."""
    return scores.hundreds(points)


@register.filter
def game_points(points, engine: str) -> str:
    """`{{ seat.points|game_points:game.engine }}`: in the units of that game's score sheet."""
    return scores.format_points(engine, points)


@register.filter
def in_order(cells, order):
    if cells is None:
        return []
    return ordered(cells, order)


@register.filter
def domino_stage(stage: int) -> str:
    """A domino Poker stage's heading on its sheet: "Stage 2: blind" ("Этап 2: «Вслепую»")."""
    return stage_name(stage)


@register.filter
def odessa_special(name) -> str:
    """An Odessa special deal's name in the active language ("" for an ordinary deal)."""
    return special_name(name)


@register.filter
def suit_symbol(suit) -> str:
    """S C D H as ♠ ♣ ♦ ♥ ("" for none)."""
    return SUIT_SYMBOLS.get(suit, "")


@register.inclusion_tag("scoresheets/fragment.html")
def game_sheet(game, result=None, viewer=None) -> dict:
    """`{% game_sheet game result %}`: the game's score sheet as its page shows
    it beside the table (the sheet's own fragment, which live updates replace)."""
    return {"sheet": sheet_context(game, result, viewer)}
