"""Domino Poker's words on the platform: the stages by name and the deal
schedule a table's options give (the new-table form's preview, the lobby's
label; the preview's JSON endpoint is `gameplay.previews`).

The schedule itself is the engine's (``domino_poker_rules.deal_schedule``): this
module only words it, so the preview can never disagree with the game.
"""

from __future__ import annotations

from itertools import groupby

from django.utils.translation import gettext, ngettext, pgettext

from gameplay.engine.domino_poker_rules import deal_schedule

SLUG = "domino_poker"
BIDDING_STAGE, BLIND_STAGE, GRAB_STAGE, MISERE_STAGE, FINAL_STAGE = 1, 2, 3, 4, 5


def stage_name(stage: int) -> str:
    """"Stage 2: blind" ("Этап 2: «Вслепую»"): the heading of a stage on the sheet, the table and the form."""
    names = {
        BIDDING_STAGE: pgettext("domino stage", "Stage 1"),
        BLIND_STAGE: pgettext("domino stage", "Stage 2: blind"),
        GRAB_STAGE: pgettext("domino stage", "Stage 3: grab"),
        MISERE_STAGE: pgettext("domino stage", "Stage 4: misère"),
        FINAL_STAGE: pgettext("domino stage", "Stage 5: show or hide"),
    }
    return names.get(stage, "")


def schedule(options: dict, players: int = 4) -> list[dict]:
    """The deals of a game with these options, in order (the engine's ``deal_schedule``: ``stage``,
    ``kind``, ``tiles``...); ``InvalidSetup`` (a ``ValueError``) for options it refuses."""
    return deal_schedule(players, options)


def _tiles_run(tiles: list[int]) -> str:
    """1, 2, 3, 7 ×4, 3, 2, 1: the tiles of a stage's deals, repeats written once with their count."""
    parts = []
    for count, same in groupby(tiles):
        n = len(list(same))
        parts.append(f"{count} ×{n}" if n > 1 else str(count))
    return ", ".join(parts)


def schedule_lines(options: dict, players: int = 4) -> list[str]:
    """The schedule in words, one line per stage played and the total: what the form previews."""
    deals = schedule(options, players)
    lines = []
    for stage, in_stage in groupby(deals, key=lambda deal: deal["stage"]):
        tiles = [deal["tiles"] for deal in in_stage]
        if stage == BIDDING_STAGE:
            text = ngettext("%(run)s tiles each (%(n)s deal)", "%(run)s tiles each (%(n)s deals)", len(tiles)) % {
                "run": _tiles_run(tiles), "n": len(tiles)}
        elif stage == FINAL_STAGE:
            text = gettext("one tile each from the row of 28")
        else:
            text = ngettext("%(n)s deal of 7 tiles each", "%(n)s deals of 7 tiles each", len(tiles)) % {"n": len(tiles)}
        lines.append(f"{stage_name(stage)} — {text}")
    lines.append(ngettext("In all: %(n)s deal", "In all: %(n)s deals", len(deals)) % {"n": len(deals)})
    return lines


def variant_words(options: dict, players: int) -> str:
    """The table's options in a few words for the lobby and "my games": "3 players, 20 deals: 7×4, blind 1,
    grab 1, misère 1, stage 5"."""
    options = options or {}
    count = ngettext("%(n)s player", "%(n)s players", players) % {"n": players}
    try:
        deals = len(schedule(options, players))
    except ValueError:
        return count
    parts = [gettext("7×%(n)s") % {"n": options.get("sevens", 4)},
             gettext("blind %(n)s") % {"n": options.get("blind_deals", 1)},
             gettext("grab %(n)s") % {"n": options.get("grab_deals", 1)},
             gettext("misère %(n)s") % {"n": options.get("misere_deals", 1)}]
    if options.get("final_stage"):
        parts.append(gettext("stage 5"))
    summary = ngettext("%(n)s deal", "%(n)s deals", deals) % {"n": deals}
    return f"{count}, {summary}: {', '.join(parts)}"
