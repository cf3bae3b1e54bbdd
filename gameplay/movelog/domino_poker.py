"""Domino Poker's moves in words, and which of them a seat may read.

Bids, tiles played and the leader's pick in stage 5 are public when made.
The stage-5 choices to show or hide a tile are secret until the last one is
in (rules/domino-poker.md "Stage 5"): until then only their maker reads one.
Every player makes exactly one such choice in a game, so they are all in
once there are as many choices as players; a game that ended before that (a
resignation, a loss on time) reveals them with its seed.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from gameplay.models import Game, Move
from gameplay.movelog import bid_words
from gameplay.schedules.domino_poker import stage_name

REVEAL = "reveal"


def describe_move(action: dict, who: str, visible: bool = True) -> str:
    kind = action.get("type")
    if kind == "bid":
        return bid_words(action, who)
    if kind == "play":
        return gettext("%(who)s plays the tile %(tile)s") % {"who": who, "tile": action.get("tile")}
    if kind == "pick":
        params = {"who": who, "n": _position(action.get("index"))}
        if action.get("direction") == "left":
            return gettext("%(who)s turns over tile %(n)s of the row and counts to the left") % params
        return gettext("%(who)s turns over tile %(n)s of the row and counts to the right") % params
    if kind == REVEAL:
        if not visible:
            return gettext("%(who)s chooses in secret whether to show") % {"who": who}
        if action.get("show"):
            return gettext("%(who)s shows the tile") % {"who": who}
        return gettext("%(who)s hides the tile") % {"who": who}
    return gettext("%(who)s moves") % {"who": who}


def _position(index) -> int | str:
    """Positions are counted from 1 for people (the engine counts from 0)."""
    return index + 1 if isinstance(index, int) and not isinstance(index, bool) else "?"


def shown_moves(game: Game, moves: list[Move], viewer: int | None) -> set[int]:
    """The seqs of the moves whose values `viewer` may read: all but the other
    players' show-or-hide choices while some choice is still awaited."""
    choices = [move for move in moves if move.action.get("type") == REVEAL]
    all_in = len({move.position for move in choices}) >= game.seats_count or game.is_over
    return {move.seq for move in moves
            if move.action.get("type") != REVEAL or all_in or move.position == viewer}


def section(state: dict) -> str:
    """The part of the game a move belongs to, for the game's record: the deal and its tiles, or its stage."""
    deal, tiles = state.get("deal"), state.get("tiles")
    if state.get("kind", "bidding") != "bidding":
        return gettext("Deal %(n)s: %(stage)s") % {"n": deal, "stage": stage_name(state.get("stage"))}
    return ngettext("Deal %(n)s: %(tiles)s tile each", "Deal %(n)s: %(tiles)s tiles each", tiles or 0) % {
        "n": deal, "tiles": tiles}
