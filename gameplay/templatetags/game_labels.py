"""A game's words in templates: `{{ game|game_name }}`, `{{ game|variant_label }}`,
`{{ game|time_control }}` (gameplay.labels)."""

from django import template

from gameplay import labels

register = template.Library()

register.filter("game_name", labels.game_name)
register.filter("variant_label", labels.variant_label)
register.filter("time_control", labels.time_control_label)
