"""{% load rules_links %}{% games_with_rules as games %}: (slug, name) of every game with a rules page."""

from django import template

from gameplay.rules import games_with_rules as _games_with_rules

register = template.Library()


@register.simple_tag
def games_with_rules() -> list[tuple[str, str]]:
    return _games_with_rules()
