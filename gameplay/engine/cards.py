"""Playing cards in the project's notation.

A card is a two-character string, rank then suit: ``"AS"``, ``"TH"``, ``"6D"``.

- Ranks, weakest first: ``2 3 4 5 6 7 8 9 T J Q K A``.
- Suits: ``S`` (♠), ``C`` (♣), ``D`` (♦), ``H`` (♥). Suits carry no order of
  strength; ``SUITS`` is only the canonical order used for decks and lists.
- Jokers: ``"X1"`` and ``"X2"``; they have no rank and no suit.

Everything here is plain functions over strings, so cards can be stored in a
JSON state as they are.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TypeGuard

RANKS = "23456789TJQKA"
SUITS = "SCDH"
JOKERS = ("X1", "X2")
SUIT_SYMBOLS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}
RANK_NAMES = {"T": "10"}

# Order of suits when a hand is shown: colours alternate (♠ ♥ ♣ ♦).
DISPLAY_SUIT_ORDER = "SHCD"


def is_joker(card: str) -> bool:
    """True for ``X1`` and ``X2``."""
    return card in JOKERS


def is_card(code: object) -> TypeGuard[str]:
    """True if ``code`` is a well-formed card string (any rank 2..A, or a joker)."""
    if not isinstance(code, str):
        return False
    if code in JOKERS:
        return True
    return len(code) == 2 and code[0] in RANKS and code[1] in SUITS


def is_suit(code: object) -> TypeGuard[str]:
    """True if ``code`` is one of ``S C D H``."""
    return isinstance(code, str) and len(code) == 1 and code in SUITS


def suit_of(card: str) -> str | None:
    """The suit letter of a card; ``None`` for a joker."""
    return None if is_joker(card) else card[1]


def rank_of(card: str) -> str | None:
    """The rank letter of a card; ``None`` for a joker."""
    return None if is_joker(card) else card[0]


def rank_value(card: str) -> int:
    """Strength of the card's rank: 0 for ``2`` ... 12 for ``A``; 13 for a joker."""
    if is_joker(card):
        return len(RANKS)
    return RANKS.index(card[0])


def suit_symbol(suit: str | None) -> str:
    """``"♠"`` for ``"S"`` and so on; ``"no trump"`` (English, not for translated messages) for ``None``."""
    if suit is None:
        return "no trump"
    return SUIT_SYMBOLS[suit]


def describe(card: str) -> str:
    """A card as players read it in messages: ``"Q♠"``, ``"10♥"``, ``"the joker"``.

    Ordinary cards read the same in every language, so they may be a
    parameter of a translated message; "the joker" is English: messages
    about a joker are separate sentences (see ``core``, "Messages for players").
    """
    if is_joker(card):
        return "the joker"
    rank = RANK_NAMES.get(card[0], card[0])
    return f"{rank}{SUIT_SYMBOLS[card[1]]}"


def make_deck(lowest_rank: str = "2", without: Iterable[str] = (), jokers: int = 0) -> list[str]:
    """A deck in canonical order: suits in ``SUITS`` order, ranks weakest first, jokers last.

    ``lowest_rank`` cuts the small cards (``"6"`` gives a 36-card deck);
    ``without`` removes single cards; ``jokers`` appends ``X1``, ``X2``...
    """
    if lowest_rank not in RANKS:
        raise ValueError(f"Unknown rank {lowest_rank!r}")
    if not 0 <= jokers <= len(JOKERS):
        raise ValueError(f"A deck may hold 0 to {len(JOKERS)} jokers")
    excluded = set(without)
    ranks = RANKS[RANKS.index(lowest_rank):]
    deck = [rank + suit for suit in SUITS for rank in ranks if rank + suit not in excluded]
    return deck + list(JOKERS[:jokers])


def cards_of_suit(cards: Iterable[str], suit: str) -> list[str]:
    """The cards of ``suit`` among ``cards`` (jokers never belong to a suit)."""
    return [card for card in cards if suit_of(card) == suit]


def highest(cards: Sequence[str]) -> str:
    """The card of highest rank (ties keep the first one)."""
    return max(cards, key=rank_value)


def lowest(cards: Sequence[str]) -> str:
    """The card of lowest rank (ties keep the first one)."""
    return min(cards, key=rank_value)


def sort_hand(cards: Iterable[str], first_suit: str | None = None) -> list[str]:
    """A hand sorted for display: jokers first, then by suit, each suit from the ace down.

    Suits follow ``DISPLAY_SUIT_ORDER`` (alternating colours); ``first_suit``
    (usually the trump) is moved to the front.
    """
    keys = _display_keys(first_suit)
    return sorted(cards, key=lambda card: keys.get(card) or _display_key(card, first_suit))


@functools.cache
def _display_keys(first_suit: str | None) -> dict[str, tuple[int, int, str]]:
    """Every card's sort key for ``sort_hand`` (each view of a hand sorts it)."""
    return {card: _display_key(card, first_suit) for card in make_deck(jokers=len(JOKERS))}


def _display_key(card: str, first_suit: str | None) -> tuple[int, int, str]:
    suit_order = DISPLAY_SUIT_ORDER
    if first_suit is not None:
        suit_order = first_suit + suit_order.replace(first_suit, "")
    if is_joker(card):
        return (0, 0, card)
    return (1 + suit_order.index(card[1]), -rank_value(card), card)
