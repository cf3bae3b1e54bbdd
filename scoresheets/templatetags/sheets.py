from django import template

from scoresheets.sheets import ordered

register = template.Library()


@register.filter
def hundreds(points) -> str:
    """Totals are written in hundreds: 1450 -> 14.5, -200 -> -2.0."""
    if points is None:
        return ""
    return f"{points / 100:.1f}"


@register.filter
def in_order(cells, order):
    if cells is None:
        return []
    return ordered(cells, order)
