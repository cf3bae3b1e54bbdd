"""The trick-taking core shared by Joker and Odessa poker.

A trick is a small immutable value: the trump suit and the cards played so
far, in order. The functions here answer the two questions of every trick
game: which cards may a player play now (``obligation``), and who wins a
complete trick (``Trick.winning_play``). Scoring lives in each game's module.

Joker play modes
----------------
A joker is played with a mode:

- led "high" with a named suit S: it is the highest card of S; the others
  must play their *highest* card of S, else a trump, else anything. It loses
  only to a trump when S is not trump (the highest trump wins) and to a later
  joker played "high".
- led "low" with a named suit S: it is the lowest card of S; the others must
  follow S with any card, else trump, else anything. It loses to any card of
  S, to any trump and to a joker played "high"; if none of those was played it
  wins.
- not led, "high": beats everything played before it; only a later "high"
  joker beats it.
- not led, "low": a discard that cannot win.

A joker may be played at any time, whatever the following duties. In state
and on the wire a play is ``{"seat", "card", "joker", "suit"}``; ``joker`` and
``suit`` are ``None`` for ordinary cards, and ``suit`` is set only for a led
joker.

Where the two games differ: ``JokerRules``
------------------------------------------
Everything above is Georgian Joker (``GEORGIAN``, the default of every
function here, so Joker's code passes nothing). Odessa poker (``odessa``)
differs in three explicit parameters of ``JokerRules``:

- ``cards``: the cards that act as the joker. Joker: ``X1 X2``. Odessa: ``7S``
  (the 36 and 52-card decks; the 7♠ then belongs to no suit) or ``X1`` (53).
- ``high_lead_asks_highest`` / ``high_lead_yields_to_trump``: Joker's joker
  led "high" demands the highest card of S and loses to a trump when S is
  not trump. Odessa's "high" is the strongest card of the deck: led "high"
  it wins, and the others follow S under the ordinary duties.
- ``demand``: Odessa's third lead, "demand S": the joker wins, and every other
  player must play the highest card of S; void in S, any card (no duty to
  trump).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .cards import JOKERS, cards_of_suit, describe, highest, is_joker, rank_value, suit_of, suit_symbol
from .core import N_, IllegalMove

HIGH = "high"
LOW = "low"
DEMAND = "demand"
JOKER_MODES = (HIGH, LOW)


@dataclass(frozen=True)
class JokerRules:
    """How a game's joker plays where Joker and Odessa poker differ (see the module docstring)."""

    cards: frozenset[str] = frozenset(JOKERS)
    high_lead_asks_highest: bool = True
    high_lead_yields_to_trump: bool = True
    demand: bool = False

    def is_joker(self, card: str) -> bool:
        return card in self.cards

    @property
    def modes(self) -> tuple[str, ...]:
        """Every way of playing the joker (``DEMAND`` only when leading)."""
        return (HIGH, LOW, DEMAND) if self.demand else JOKER_MODES


GEORGIAN = JokerRules()


@dataclass(frozen=True)
class Play:
    """One card on the table: who played it and, for a joker, how."""

    seat: int
    card: str
    joker: str | None = None
    suit: str | None = None

    @property
    def is_joker(self) -> bool:
        return is_joker(self.card)

    @property
    def is_high_joker(self) -> bool:
        return self.is_joker and self.joker == HIGH

    @property
    def card_suit(self) -> str | None:
        """The suit of an ordinary card; ``None`` for a joker."""
        return suit_of(self.card)

    def to_dict(self) -> dict:
        return {"seat": self.seat, "card": self.card, "joker": self.joker, "suit": self.suit}

    @classmethod
    def from_dict(cls, data: dict) -> Play:
        return cls(seat=data["seat"], card=data["card"], joker=data.get("joker"), suit=data.get("suit"))


@dataclass(frozen=True)
class Trick:
    """The trump suit (``None`` = no trump) and the plays so far, leader first."""

    trump: str | None
    plays: tuple[Play, ...] = ()
    rules: JokerRules = GEORGIAN

    @classmethod
    def from_dicts(cls, plays: Iterable[dict], trump: str | None, rules: JokerRules = GEORGIAN) -> Trick:
        return cls(trump=trump, plays=tuple(Play.from_dict(play) for play in plays), rules=rules)

    def to_dicts(self) -> list[dict]:
        return [play.to_dict() for play in self.plays]

    @property
    def is_empty(self) -> bool:
        return not self.plays

    @property
    def lead(self) -> Play | None:
        return self.plays[0] if self.plays else None

    @property
    def led_suit(self) -> str | None:
        """The suit to follow: the led card's suit, or the suit named by a led joker."""
        lead = self.lead
        if lead is None:
            return None
        return lead.suit if self.is_joker(lead) else lead.card_suit

    def is_joker(self, play: Play) -> bool:
        """True if ``play`` is the joker under this trick's rules (Odessa's 7♠ included)."""
        return self.rules.is_joker(play.card)

    def is_high_joker(self, play: Play) -> bool:
        return self.is_joker(play) and play.joker == HIGH

    def add(self, play: Play) -> Trick:
        return Trick(trump=self.trump, plays=self.plays + (play,), rules=self.rules)

    def winner(self) -> int:
        """The seat that wins the trick as it stands."""
        return self.winning_play().seat

    def winning_play(self) -> Play:
        """The play that wins the trick as it stands (see the module docstring)."""
        if not self.plays:
            raise ValueError("An empty trick has no winner")
        lead = self.plays[0]
        later_high_jokers = [play for play in self.plays[1:] if self.is_high_joker(play)]
        if later_high_jokers:
            return later_high_jokers[-1]
        best_trump = self._highest_card_of(self.trump)
        if self.is_joker(lead):
            return self._winner_over_led_joker(lead, best_trump)
        return best_trump or self._highest_card_of(self.led_suit) or lead

    def _winner_over_led_joker(self, lead: Play, best_trump: Play | None) -> Play:
        if lead.joker == DEMAND:
            return lead
        if lead.joker == HIGH:
            yields = self.rules.high_lead_yields_to_trump and lead.suit != self.trump
            if best_trump is not None and yields:
                return best_trump
            return lead
        return best_trump or self._highest_card_of(lead.suit) or lead

    def _highest_card_of(self, suit: str | None) -> Play | None:
        """The highest ordinary card of ``suit`` in the trick, if any."""
        if suit is None:
            return None
        of_suit = [play for play in self.plays if play.card_suit == suit and not self.is_joker(play)]
        if not of_suit:
            return None
        return max(of_suit, key=lambda play: rank_value(play.card))


@dataclass(frozen=True)
class Obligation:
    """What the rules ask of the next player in a trick.

    ``kind``: ``"lead"`` (any card), ``"follow"`` (any card of ``suit``),
    ``"highest"`` (the highest card of ``suit``, after a joker led "high"),
    ``"trump"`` (void in ``led_suit``: any trump), ``"any"`` (void in both).
    ``cards`` are the ordinary cards allowed; jokers (``jokers``) are always allowed.
    """

    kind: str
    led_suit: str | None
    suit: str | None
    cards: tuple[str, ...]
    jokers: frozenset[str] = GEORGIAN.cards

    def allows(self, card: str) -> bool:
        return card in self.jokers or card in self.cards

    def refusal(self, card: str) -> IllegalMove:
        """Why ``card`` may not be played: the ``IllegalMove`` to raise, with a sentence for the player.

        Parameters are suit symbols and cards as ``describe`` writes them
        (``"Q♠"``), which read the same in every language.
        """
        if self.kind == "highest":
            return IllegalMove(N_("The joker asks for the highest %(suit)s: you must play %(card)s."),
                               suit=suit_symbol(self.suit), card=describe(self.cards[0]))
        if self.kind == "follow":
            return IllegalMove(N_("You must follow suit: you hold %(suit)s."), suit=suit_symbol(self.suit))
        if self.kind == "trump":
            return IllegalMove(N_("You have no %(led)s, so you must play a trump: you hold %(trump)s."),
                               led=suit_symbol(self.led_suit), trump=suit_symbol(self.suit))
        if card in self.jokers or is_joker(card):  # never refused today: a joker is always allowed
            return IllegalMove(N_("You may not play the joker now."))
        return IllegalMove(N_("You may not play %(card)s now."), card=describe(card))


def obligation(hand: Sequence[str], trick: Trick) -> Obligation:
    """What ``hand`` must play on ``trick``: follow, play the highest, trump, or anything."""
    rules = trick.rules
    ordinary = [card for card in hand if not rules.is_joker(card)]

    def rule(kind: str, led: str | None, suit: str | None, cards: Iterable[str]) -> Obligation:
        return Obligation(kind, led, suit, tuple(cards), rules.cards)

    if trick.is_empty:
        return rule("lead", None, None, ordinary)
    led_suit = trick.led_suit
    of_led_suit = cards_of_suit(ordinary, led_suit) if led_suit else []
    lead = trick.lead
    asks_highest = lead is not None and trick.is_joker(lead) and (
        lead.joker == DEMAND or (lead.joker == HIGH and rules.high_lead_asks_highest))
    if of_led_suit:
        if asks_highest:
            return rule("highest", led_suit, led_suit, (highest(of_led_suit),))
        return rule("follow", led_suit, led_suit, of_led_suit)
    trumps = cards_of_suit(ordinary, trick.trump) if trick.trump else []
    if trumps and not (lead is not None and lead.joker == DEMAND and trick.is_joker(lead)):
        return rule("trump", led_suit, trick.trump, trumps)
    return rule("any", led_suit, None, ordinary)


def allowed_cards(hand: Sequence[str], trick: Trick) -> list[str]:
    """The cards of ``hand`` that may be played on ``trick`` (jokers always), in hand order."""
    rule = obligation(hand, trick)
    return [card for card in hand if rule.allows(card)]
