"""Durak's moves in words. Every Durak move is public: a card played lies face up on the table."""

from __future__ import annotations

from django.utils.translation import gettext

from gameplay.engine.cards import describe


def _cards(action: dict) -> str:
    return " ".join(describe(card) for card in action.get("cards") or [])


def describe_move(action: dict, who: str, visible: bool = True) -> str:
    kind = action.get("type")
    if kind == "attack":
        return gettext("%(who)s attacks with %(cards)s") % {"who": who, "cards": _cards(action)}
    if kind == "throw":
        return gettext("%(who)s throws in %(cards)s") % {"who": who, "cards": _cards(action)}
    if kind == "transfer":
        return gettext("%(who)s transfers with %(cards)s") % {"who": who, "cards": _cards(action)}
    if kind == "beat":
        return gettext("%(who)s beats %(attack)s with %(card)s") % {
            "who": who, "attack": describe(action.get("attack", "")), "card": describe(action.get("card", ""))}
    if kind == "take":
        return gettext("%(who)s takes the cards") % {"who": who}
    if kind == "done":
        return gettext("%(who)s is done") % {"who": who}
    return gettext("%(who)s moves") % {"who": who}


def section(state: dict) -> str:
    """The part of the game a move belongs to, for the game's record: the bout."""
    return gettext("Bout %(n)s") % {"n": state["bout"]}
