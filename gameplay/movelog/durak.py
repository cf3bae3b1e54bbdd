"""Durak's moves in words. Every Durak move is public: a card played lies face up on the table.

Durak's record also tells what happened without a move: a defender who
cannot beat the cards is made to take, a bout ends (the cards go to the
discard or into the defender's hand), the players draw from the talon, a
player with no cards leaves, the game ends. ``describe_played`` words a move
by the state it was made in (the attacker's "done" is "бито" only when every
card is beaten; after a take it means he throws in no more) and adds those
steps from the engine's events. All of it is public.
"""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from gameplay.engine.cards import describe


def _cards(cards: list[str] | None) -> str:
    return " ".join(describe(card) for card in cards or [])


def describe_move(action: dict, who: str, visible: bool = True) -> str:
    kind = action.get("type")
    if kind == "attack":
        return gettext("%(who)s attacks with %(cards)s") % {"who": who, "cards": _cards(action.get("cards"))}
    if kind == "throw":
        return gettext("%(who)s throws in %(cards)s") % {"who": who, "cards": _cards(action.get("cards"))}
    if kind == "transfer":
        return gettext("%(who)s transfers with %(cards)s") % {"who": who, "cards": _cards(action.get("cards"))}
    if kind == "beat":
        return gettext("%(who)s beats %(attack)s with %(card)s") % {
            "who": who, "attack": describe(action.get("attack", "")), "card": describe(action.get("card", ""))}
    if kind == "take":
        return gettext("%(who)s takes the cards") % {"who": who}
    if kind == "done":
        return gettext("%(who)s is done") % {"who": who}
    return gettext("%(who)s moves") % {"who": who}


def describe_played(action: dict, who: str, before: dict, events: list[dict], names: dict[int, str]) -> tuple[str, list[str]]:
    """A move in the words of the moment it was made (``before``: the state it was made in), and
    the steps that followed it by themselves (``events``: the engine's events of the move)."""
    if action.get("type") == "done" and before.get("taking"):
        text = gettext("%(who)s throws in no more") % {"who": who}
    else:
        text = describe_move(action, who)
    steps = [step for step in (describe_event(event, names) for event in events) if step]
    return text, steps


def describe_event(event: dict, names: dict[int, str]) -> str | None:
    """An automatic step in words; None for an event that only repeats the move itself."""
    kind = event.get("type")
    who = names.get(event.get("seat"), "") if "seat" in event else ""
    if kind == "forced_take":
        return gettext("%(who)s cannot beat every card and must take") % {"who": who}
    if kind == "bout_end":
        if event.get("result") == "take":
            return gettext("%(who)s takes %(cards)s") % {
                "who": names.get(event.get("defender"), ""), "cards": _cards(event.get("cards"))}
        return gettext("Beaten: %(cards)s go to the discard") % {"cards": _cards(event.get("cards"))}
    if kind == "drew":
        count = event.get("count", 0)
        return ngettext("%(who)s draws %(n)s card", "%(who)s draws %(n)s cards", count) % {"who": who, "n": count}
    if kind == "left":
        return gettext("%(who)s has no cards left and is out of the game") % {"who": who}
    if kind == "game_over":
        return _game_over(event, names)
    return None


def _game_over(result: dict, names: dict[int, str]) -> str:
    durak = result.get("durak")
    if durak is not None:
        return gettext("Game over: %(who)s is the durak") % {"who": names.get(durak, "")}
    if result.get("losers"):
        return gettext("Game over: %(who)s are left with cards") % {
            "who": ", ".join(names.get(seat, "") for seat in result["losers"])}
    return gettext("Game over: nobody is the durak, a draw")


def section(state: dict) -> str:
    """The part of the game a move belongs to, for the game's record: the bout."""
    return gettext("Bout %(n)s") % {"n": state["bout"]}
