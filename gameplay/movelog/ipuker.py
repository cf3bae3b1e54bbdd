"""Ipuker's moves in words, and which of them a seat may read.

The non-leaders stake, then pass cards, at the same time and in secret: a
stake is shown once every non-leader's stake is in (``stakes_revealed``), a
number of cards once every count is in (``cards_revealed``); until then only
its maker sees it, and, for the cards, the round's leader, who receives them
(rules/ipuker.md; the engine's ``view`` shows the same). The leader's own
stake is public when made. Which moves are revealed is read from the events of
a replay of the game (at most 28 moves), so the log follows the engine exactly.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from gameplay.engine import get_engine
from gameplay.models import Game, Move
from gameplay.records import apply_recorded


def describe_move(action: dict, who: str, visible: bool = True) -> str:
    kind = action.get("type")
    if kind == "stake":
        if not visible:
            return gettext("%(who)s stakes in secret") % {"who": who}
        n = action.get("tokens")
        return ngettext("%(who)s stakes %(n)s token", "%(who)s stakes %(n)s tokens", n) % {"who": who, "n": n}
    if kind == "cards":
        if not visible:
            return gettext("%(who)s passes cards in secret") % {"who": who}
        n = action.get("count")
        return ngettext("%(who)s passes %(n)s card", "%(who)s passes %(n)s cards", n) % {"who": who, "n": n}
    return gettext("%(who)s moves") % {"who": who}


def shown_moves(game: Game, moves: list[Move], viewer: int | None) -> set[int]:
    """The seqs of the moves whose values `viewer` may read."""
    engine = get_engine(game.engine)
    state = engine.start(players=game.seats_count, options=game.options, seed=int(game.seed),
                         rules_version=game.rules_version)
    shown: set[int] = set()
    pending: list[int] = []  # secret commitments of the current phase, not yet revealed
    for move in moves:
        phase, leader = state["phase"], state["leader"]
        state, events = apply_recorded(engine, state, move.position, move.action)
        secret = move.action.get("type") in ("stake", "cards") and phase in ("stake", "cards")
        if not secret or move.position == viewer or (phase == "cards" and viewer == leader):
            shown.add(move.seq)
        else:
            pending.append(move.seq)
        if any(e["type"] in ("stakes_revealed", "cards_revealed") for e in events):
            shown.update(pending)
            pending = []
        if any(e["type"] == "new_round" for e in events):
            pending = []
    return shown


def section(state: dict) -> str:
    """The part of the game a move belongs to, for the game's record: the round."""
    return gettext("Round %(n)s") % {"n": state["round"]}
