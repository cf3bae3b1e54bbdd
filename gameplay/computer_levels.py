"""The computer players' levels as the site offers them (issue 43): what each
does in one sentence (the table form, the rules pages, the computers'
ranking), and the check of a level that a form, the API or a challenge sends."""

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _, gettext

from gameplay.bots import LEVELS

DEFAULT_LEVEL = 1

DESCRIPTIONS = {
    1: _("Level 1 plays each move by rules of thumb, looking at that move alone."),
    2: _("Level 2 deals the cards or tiles it cannot see in many ways that fit everything it has seen, "
         "and searches those deals for its best move with a small budget."),
    3: _("Level 3 searches the same way with a larger budget: it thinks longer and plays stronger."),
}


class UnknownLevel(ValueError):
    """A computer level that does not exist; its message is for the player."""


def level_refusal(value: Any) -> str:
    """Why `value` is no computer level, in the reader's language."""
    return gettext("There is no computer level %(level)s: the levels are %(levels)s.") % {
        "level": value, "levels": ", ".join(str(level) for level in LEVELS)}


def checked_level(value: Any) -> int:
    """`value` as a level, or UnknownLevel (a bool, a string or a number that is no level)."""
    if isinstance(value, bool) or not isinstance(value, int) or value not in LEVELS:
        raise UnknownLevel(level_refusal(value))
    return value


def level_choices() -> list[tuple[int, str]]:
    """The levels for a form's select: "1", "2", "3" with what each does as its title."""
    return [(level, str(level)) for level in LEVELS]


def descriptions() -> list[tuple[int, str]]:
    return [(level, DESCRIPTIONS[level]) for level in LEVELS]


def _levels_in_a_few_sentences() -> str:
    return " ".join(str(text) for _level, text in descriptions())


# What every level does, for a form's help text (in the reader's language when shown).
level_help = lazy(_levels_in_a_few_sentences, str)()
