"""A challenge's terms: the table it will start, in words, before anyone
accepts (the challenges page, the email, the live notice and the API show
the same list)."""

from __future__ import annotations

from django.utils.translation import gettext

from gameplay.computer_levels import DEFAULT_LEVEL
from correspondence.models import Challenge
from gameplay import labels
from gameplay import services as game_services
from gameplay.models import Game


def challenge_table(challenge: Challenge) -> Game:
    """The table the challenge starts once accepted, not saved: its options
    and time control completed as gameplay completes them (the preset's
    times where none were given)."""
    try:
        return game_services.check_table(challenge.created_by, challenge.engine, challenge.options,
                                         players=challenge.seats_count, rated=challenge.rated, **challenge.table)
    except (game_services.GameError, TypeError):  # a table the rules no longer allow: its stored terms as they are
        return Game(engine=challenge.engine, options=challenge.options, seats_count=challenge.seats_count,
                    rated=challenge.rated, **{key: value for key, value in challenge.table.items()
                                              if key in {"move_seconds", "reserve_seconds", "on_timeout",
                                                         "night_pause", "is_private", "series_length"}})


def challenge_terms(challenge: Challenge) -> list[str]:
    """Every term of the challenge's table in a few words each, in the active language."""
    terms = labels.table_terms(challenge_table(challenge))
    if challenge.fill_with_bots:
        level = challenge.computer_level
        terms.append(gettext("with computer players") if level == DEFAULT_LEVEL
                     else gettext("with computer players of level %(level)s") % {"level": level})
    return terms


def challenge_time_control(challenge: Challenge) -> dict:
    """The time control of the challenge's table, completed: what the API shows."""
    table = challenge_table(challenge)
    return {"time_preset": table.time_preset, "move_seconds": table.move_seconds,
            "reserve_seconds": table.reserve_seconds, "timer_seconds": table.timer_seconds,
            "on_timeout": table.on_timeout, "night_pause": table.night_pause, "is_private": table.is_private,
            "series_length": table.series_length}
