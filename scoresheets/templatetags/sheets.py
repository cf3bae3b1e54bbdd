from django import template

from scoresheets import scores
from scoresheets.sheets import ordered

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
    from gameplay.schedules.domino_poker import stage_name

    return stage_name(stage)


@register.filter
def odessa_special(name) -> str:
    """An Odessa special deal's name in the active language ("" for an ordinary deal)."""
    from gameplay.movelog.odessa import special_name

    return special_name(name)


@register.filter
def suit_symbol(suit) -> str:
    """S C D H as ♠ ♣ ♦ ♥ ("" for none)."""
    from gameplay.engine.cards import SUIT_SYMBOLS

    return SUIT_SYMBOLS.get(suit, "")
