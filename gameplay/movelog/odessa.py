"""Odessa poker's moves in words: bids and cards, the joker's ways (high, low, a demand). Every
Odessa move is public (the blind deal's bids are made before anyone sees a card, but not in secret)."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext, pgettext

from gameplay.engine.cards import SUIT_SYMBOLS, describe
from gameplay.movelog import bid_words

SPECIALS = {
    "blind": lambda: pgettext("odessa special", "blind"),
    "golden": lambda: pgettext("odessa special", "golden"),
    "miser": lambda: pgettext("odessa special", "miser"),
    "no_trump": lambda: pgettext("odessa special", "no trump"),
}


def describe_move(action: dict, who: str, visible: bool = True) -> str:
    kind = action.get("type")
    if kind == "bid":
        return bid_words(action, who)
    if kind == "play":
        card = action.get("card", "")
        if not action.get("joker"):
            return gettext("%(who)s plays %(card)s") % {"who": who, "card": describe(card)}
        return _joker(action, who, "★" if card.startswith("X") else describe(card))
    return gettext("%(who)s moves") % {"who": who}


def _joker(action: dict, who: str, card: str) -> str:
    """A joker (X1, or 7♠ standing for it) and the way it is played."""
    mode, suit = action.get("joker"), action.get("suit")
    values = {"who": who, "card": card, "suit": SUIT_SYMBOLS.get(suit, "")}
    if mode == "demand":
        return pgettext("odessa joker", "%(who)s leads the joker %(card)s demanding the highest %(suit)s") % values
    if suit:
        template = (pgettext("odessa joker", "%(who)s leads the joker %(card)s high, naming %(suit)s") if mode == "high"
                    else pgettext("odessa joker", "%(who)s leads the joker %(card)s low, naming %(suit)s"))
        return template % values
    template = (pgettext("odessa joker", "%(who)s plays the joker %(card)s high") if mode == "high"
                else pgettext("odessa joker", "%(who)s plays the joker %(card)s low"))
    return template % values


def special_name(special: str | None) -> str:
    """A special deal's name in the active language ("" for an ordinary deal)."""
    return SPECIALS[special]() if special in SPECIALS else ""


def section(state: dict) -> str:
    """The part of the game a move belongs to, for the game's record: the deal (and its special)."""
    cards = state.get("cards", 0)
    text = ngettext("Deal %(n)s: %(cards)s card each", "Deal %(n)s: %(cards)s cards each", cards) % {
        "n": state.get("deal"), "cards": cards}
    special = special_name(state.get("special"))
    return f"{text} ({special})" if special else text
