"""Odessa poker's table options, decks and deal schedule (rules/odessa-poker.md).

Pure functions, shared by the engine (``odessa.py``) and the platform (the
new-table form previews ``deal_schedule``). See ``odessa.py`` for the rules
decisions; this module only knows what a table may choose.

Options (JSON values; defaults in ``DEFAULT_OPTIONS``)
------------------------------------------------------
- ``deck``: the int ``36`` (6–A), ``52`` (2–A) — in both the 7♠ is the joker —
  or ``53`` (52 + the joker ``X1``).
- ``max_hand``: an int from 2 to the limit, or ``None`` for the limit itself,
  min(12, deck size // players) (``hand_limit``). The limit depends on the
  number of players, so ``validate_options`` keeps ``None`` and
  ``check_options_for_players`` checks a number against it.
- ``trump``: ``"turned"`` or a fixed suit ``"S" "C" "D" "H"``.
- ``dealer_rule``: ``"not_equal"``, ``"free"`` or ``"over"``.
- ``joker_demand``: ``"any_trick"``, ``"first_trick_only"`` or ``"off"``.
- ``specials``: a list of distinct names from ``"blind" "golden" "miser"
  "no_trump"``, played in the list's order (may be empty).
- ``specials_mode``: ``"round"`` (each special dealt ``players`` times) or ``"once"``.
- ``special_multiplier``: the int ``2`` or ``3``.
"""

from __future__ import annotations

from .cards import SUITS, make_deck
from .core import N_, InvalidSetup

MIN_PLAYERS = 2
MAX_PLAYERS = 6
DECK_SIZES = (36, 52, 53)
HAND_CAP = 12
MIN_HAND = 2

TURNED = "turned"
DEALER_RULES = ("not_equal", "free", "over")
DEMAND_RULES = ("any_trick", "first_trick_only", "off")
BLIND, GOLDEN, MISER, NO_TRUMP = "blind", "golden", "miser", "no_trump"
SPECIALS = (BLIND, GOLDEN, MISER, NO_TRUMP)
SPECIALS_MODES = ("round", "once")
MULTIPLIERS = (2, 3)

DEFAULT_OPTIONS: dict = {
    "deck": 36,
    "max_hand": None,
    "trump": TURNED,
    "dealer_rule": "not_equal",
    "joker_demand": "any_trick",
    "specials": list(SPECIALS),
    "specials_mode": "round",
    "special_multiplier": 2,
}


def make_odessa_deck(size: int) -> list[str]:
    """The deck in canonical order: 36 = 6..A, 52 = 2..A, 53 = 2..A then ``X1``."""
    if size == 36:
        return make_deck(lowest_rank="6")
    if size == 52:
        return make_deck()
    if size == 53:
        return make_deck(jokers=1)
    raise ValueError(f"Odessa poker has no {size}-card deck")


def joker_card(deck_size: int) -> str:
    """The card that acts as the joker: ``X1`` in the 53-card deck, else the 7♠."""
    return "X1" if deck_size == 53 else "7S"


def hand_limit(players: int, deck_size: int) -> int:
    """The longest hand the deck allows: min(12, deck size // players)."""
    return min(HAND_CAP, deck_size // players)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_options(options: dict) -> None:
    """``InvalidSetup`` for the first option (defaults filled in) that is not allowed."""
    if not _is_int(options["deck"]) or options["deck"] not in DECK_SIZES:
        raise InvalidSetup(N_("The deck must have 36, 52 or 53 cards."))
    max_hand = options["max_hand"]
    if max_hand is not None and not _is_int(max_hand):
        raise InvalidSetup(N_("The longest hand must be a whole number of cards, or empty for the most "
                              "the deck allows."))
    if max_hand is not None and not MIN_HAND <= max_hand <= HAND_CAP:
        raise InvalidSetup(N_("The longest hand must be from %(low)s to %(high)s cards."),
                           low=MIN_HAND, high=HAND_CAP)
    if options["trump"] != TURNED and (not isinstance(options["trump"], str) or options["trump"] not in SUITS):
        raise InvalidSetup(N_('The trump must be "turned" or a suit: S, C, D or H.'))
    if options["dealer_rule"] not in DEALER_RULES:
        raise InvalidSetup(N_('The dealer rule must be "not_equal", "free" or "over".'))
    if options["joker_demand"] not in DEMAND_RULES:
        raise InvalidSetup(N_('The joker demand rule must be "any_trick", "first_trick_only" or "off".'))
    _check_specials(options["specials"])
    if options["specials_mode"] not in SPECIALS_MODES:
        raise InvalidSetup(N_('The specials are played "round" (once per player) or "once".'))
    if not _is_int(options["special_multiplier"]) or options["special_multiplier"] not in MULTIPLIERS:
        raise InvalidSetup(N_("The special deals' multiplier must be 2 or 3."))


def _check_specials(specials: object) -> None:
    if not isinstance(specials, list) or not all(isinstance(name, str) and name in SPECIALS for name in specials):
        raise InvalidSetup(N_('The specials must be a list drawn from "blind", "golden", "miser" and "no_trump".'))
    for position, name in enumerate(specials):
        if name in specials[:position]:
            raise InvalidSetup(N_("Each special deal may be listed once: %(special)s is listed twice."),
                               special=name)


def check_fits_players(options: dict, players: int) -> None:
    """``InvalidSetup`` if ``max_hand`` is more than the deck allows ``players`` players."""
    limit = hand_limit(players, options["deck"])
    if options["max_hand"] is not None and options["max_hand"] > limit:
        raise InvalidSetup(
            N_("With %(players)s players and a %(deck)s-card deck a hand holds at most %(limit)s cards: "
               "choose a longest hand of %(low)s to %(limit)s cards."),
            players=players, deck=options["deck"], limit=limit, low=MIN_HAND)


def filled_options(options: dict | None) -> dict:
    """``options`` over the defaults (unknown keys are the engine's concern)."""
    return {**DEFAULT_OPTIONS, **(options or {})}


def max_hand_of(players: int, options: dict) -> int:
    """The longest hand of this table: ``max_hand`` or, if it is ``None``, the limit."""
    if options["max_hand"] is not None:
        return options["max_hand"]
    return hand_limit(players, options["deck"])


def deal_schedule(players: int, options: dict | None = None) -> list[dict]:
    """Every deal of a game, in order: ``[{"deal": 1, "cards": 1, "special": None}, ...]``.

    1, 2, …, max_hand − 1 cards; ``players`` deals of max_hand; max_hand − 1,
    …, 1; then each special of ``options["specials"]`` in order, with
    max_hand cards, ``players`` times (``specials_mode`` "round") or once.
    ``options`` may be partial (defaults are filled in); they are checked,
    so a combination the table may not choose raises ``InvalidSetup``.
    """
    if not _is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InvalidSetup(N_("This game is played by %(min)s to %(max)s players."),
                           min=MIN_PLAYERS, max=MAX_PLAYERS)
    options = filled_options(options)
    check_options(options)
    check_fits_players(options, players)
    top = max_hand_of(players, options)
    sizes = [(cards, None) for cards in range(1, top)]
    sizes += [(top, None)] * players
    sizes += [(cards, None) for cards in range(top - 1, 0, -1)]
    repeats = players if options["specials_mode"] == "round" else 1
    sizes += [(top, special) for special in options["specials"] for _ in range(repeats)]
    return [{"deal": number, "cards": cards, "special": special}
            for number, (cards, special) in enumerate(sizes, start=1)]
