"""Joker's moves in words: trump, bids, cards and the joker's ways. Every Joker move is public."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from gameplay.engine.cards import SUIT_SYMBOLS, describe
from gameplay.movelog import bid_words


def describe_move(action: dict, who: str, visible: bool = True) -> str:
    kind = action.get("type")
    if kind == "trump":
        suit = action.get("suit")
        if suit is None:
            return gettext("%(who)s names no trump") % {"who": who}
        return gettext("%(who)s names trump: %(suit)s") % {"who": who, "suit": SUIT_SYMBOLS[suit]}
    if kind == "bid":
        return bid_words(action, who)
    if kind == "play":
        card = action.get("card", "")
        if not card.startswith("X"):
            return gettext("%(who)s plays %(card)s") % {"who": who, "card": describe(card)}
        return _joker(action, who)
    return gettext("%(who)s moves") % {"who": who}


def _joker(action: dict, who: str) -> str:
    suit = action.get("suit")
    high = action.get("joker") == "high"
    if suit:  # a led joker names a suit: "хочу" (the highest of it) or "забирает" (the lowest)
        template = (pgettext("joker led", "%(who)s leads the joker: high, %(suit)s") if high
                    else pgettext("joker led", "%(who)s leads the joker: low, %(suit)s"))
        return template % {"who": who, "suit": SUIT_SYMBOLS[suit]}
    template = (pgettext("joker not led", "%(who)s plays the joker high") if high
                else pgettext("joker not led", "%(who)s plays the joker low"))
    return template % {"who": who}


def section(state: dict) -> str:
    """The part of the game a move belongs to, for the game's record: the deal."""
    return ngettext("Deal %(n)s: %(cards)s card each", "Deal %(n)s: %(cards)s cards each", state["cards"]) % {
        "n": state["deal"], "cards": state["cards"]}
