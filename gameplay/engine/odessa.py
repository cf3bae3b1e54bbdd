"""Odessa poker ("Одесский покер", расписной покер), as specified in rules/odessa-poker.md.

2–6 players, a 36, 52 or 53-card deck, deals of 1 … max_hand … 1 cards then
the special deals, bids with a dealer rule, tricks with one joker (the 7♠, or
``X1`` in the 53-card deck) played "high", "low" or "demand S". The options,
the decks and the deal schedule live in ``odessa_setup`` (``deal_schedule``
is the public preview of a table's deals), the scoring and the sheet rows in
``odessa_scoring``; the trick-taking core is shared with Joker in ``tricks``
(``ODESSA_JOKER`` below names where the games differ).

Phases: ``"bid"``, ``"play"``, ``"over"``; one player acts at a time.

Decisions where the rules page is silent
-----------------------------------------
- The joker card: with the 36 and 52-card decks the 7♠ *is* the joker for the
  whole game: it belongs to no suit (it is never a spade to follow, to trump
  with or to beat), in the hand, on the table and when turned for trump.
- A led joker ("high", "low" or "demand") may name any suit, also one the
  leader does not hold and also the trump.
- Led "high" naming S: the others follow S with any card of S, else trump,
  else anything; the joker wins. Not led, "high" wins the trick, "low" cannot.
- "demand S": every other player must play the highest card of S he holds;
  void in S he may play any card (no duty to trump). The joker wins.
- ``joker_demand`` "first_trick_only": the demand may be led only on the
  first trick of a deal (no trick has been taken yet).
- Blind deal with a turned trump: the trump card is turned when the deal is
  dealt but shown (view, sheet, events) only once every bid is in; a
  ``trump_turned`` event then tells everybody. With a fixed trump suit the
  suit is known from the start (no card of the deal shows it).
- Blind deal and ``dealer_rule`` "over": the dealer must make the sum exceed
  the hand; since every other bid is at least 1 this is always possible.
- ``dealer_rule`` "over" in ordinary deals: when everyone else passed, the
  dealer must bid the whole hand (the sum then equals the hand size).
- Golden and miser deals have no bidding: ``bids`` stay ``None``; the deal
  starts in the play phase with the dealer's left leading.
- The first dealer is ``deal_rng(seed, 0).randrange(players)``; the sheet
  order starts at the first dealer's left.
- Totals in the middle of the game count the complete deals; ``outcome()``
  before the end is the provisional ranking. ``forfeit()`` ends the game
  with the current totals, the forfeiting seat placed last alone.
- Automatic moves (time-outs): bid → the smallest allowed bid; card → the
  weakest legal ordinary card (non-trumps before trumps, then lower rank,
  then suit order S C D H); with only the joker allowed, the joker "low",
  naming, when leading, the suit of the player's longest suit (ties by
  ♠ ♣ ♦ ♥; only the joker in hand: ♠).
- Every action may carry ``"auto": true`` (added by the platform on
  time-outs); it marks that seat's cell of the deal as automatic.

Wire shapes (as Joker's where the meaning is the same)
------------------------------------------------------
Actions: ``{"type": "bid", "tricks": n}``, ``{"type": "play", "card": "QS"}``,
the joker ``{"type": "play", "card": "7S"|"X1", "joker": "high"|"low"|"demand",
"suit": "S"}`` (``suit`` only when leading; ``demand`` only when leading and
allowed).

``view`` keys shared with Joker: ``game seat players phase finished deal
deals_total cards dealer first_dealer order trump trump_card actors turn
bids bids_sum bids_status forbidden_bid taken trick leader last_trick
hand_sizes hand legal_actions totals forfeited outcome``. Extra keys:
``options``; ``max_hand``; ``schedule`` (``deal_schedule``); ``special``
(``None`` or the special being played: ``blind golden miser no_trump``);
``multiplier`` (1, or the special's multiplier); ``bidding`` (this deal has
bids); ``blind`` (a blind deal); ``hand_hidden`` (a blind deal before every
bid is in: ``hand`` is ``[]`` for everybody); ``trump_hidden`` (the turned
card is not shown yet); ``no_trump`` (the deal has no trump: the no_trump
special, a turned joker or no card to turn); ``joker_card`` (``"7S"`` or
``"X1"``); ``demand_allowed`` (the player to lead may lead the demand now);
``dealer_min_bid`` (dealer rule "over": the dealer's smallest allowed bid,
while the dealer bids); ``places`` (current places, ties shared).

Events (as Joker's): ``bid``, ``bids_complete`` (``status``), ``played``,
``trick``, ``deal_scored``, ``new_deal`` (``deal dealer cards trump
trump_card special``; a blind deal's turned card is left out), ``game_over``,
and Odessa's ``trump_turned`` (``trump trump_card``: the blind deal's trump,
once every bid is in). The first event of a move carries ``auto``.

``sheet``: ``{"kind", "order", "players", "multiplier", "deals": [row],
"totals", "places", "ranking"}``; a row: ``deal cards special dealer complete
trump trump_card cells``; a cell per seat: ``bid tricks points total auto``
(``total``: the running total, the sheet's second column).

Rules versions (changelog)
--------------------------
- 1: the rules as first played on the site.

State layout
------------
``game rules seed options players max_hand first_dealer order``; the deal in
progress: ``deal cards special dealer phase turn hands rest trump trump_card
bids taken trick played auto``; ``last_trick`` (``{"deal", "plays",
"winner"}``); ``history`` (records, see ``odessa_scoring``); ``forfeited``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from .cards import SUITS, describe, is_card, is_suit, rank_value, sort_hand, suit_of
from .core import N_, Action, Engine, Event, IllegalMove, State, clone, clone_for_move, deal_rng, forfeited, parse_envelope, require_int, shuffled
from .odessa_scoring import deal_points, places_of, ranking_of, score_sheet, totals_of
from .odessa_setup import (
    BLIND,
    DEFAULT_OPTIONS,
    GOLDEN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MISER,
    NO_TRUMP,
    TURNED,
    check_fits_players,
    check_options,
    deal_schedule,
    joker_card,
    make_odessa_deck,
    max_hand_of,
)
from .tricks import DEMAND, HIGH, LOW, JokerRules, Play, Trick, obligation

__all__ = ["OdessaEngine", "deal_schedule", "odessa_joker"]

FIRST_DEALER_DEAL_NO = 0
NO_BIDDING = (GOLDEN, MISER)

ACTION_KEYS = {"bid": {"type", "tricks"}, "play": {"type", "card", "joker", "suit"}}
UNEXPECTED_FIELDS = {
    "bid": N_("Unexpected field(s) in a bid move: %(fields)s."),
    "play": N_("Unexpected field(s) in a play move: %(fields)s."),
}


def odessa_joker(deck_size: int) -> JokerRules:
    """The joker of Odessa poker: one card, "high" always wins, the "demand" lead exists."""
    return JokerRules(cards=frozenset([joker_card(deck_size)]), high_lead_asks_highest=False,
                      high_lead_yields_to_trump=False, demand=True)


class Phase:
    BID = "bid"
    PLAY = "play"
    OVER = "over"


WRONG_PHASE = {
    (Phase.BID, Phase.PLAY): N_("It is time to bid, not to play a card."),
    (Phase.PLAY, Phase.BID): N_("It is time to play a card, not to bid."),
}


def first_dealer_of(seed: int, players: int) -> int:
    return deal_rng(seed, FIRST_DEALER_DEAL_NO).randrange(players)


def deal_hands(deck: list[str], dealer: int, players: int, cards: int) -> tuple[list[list[str]], list[str]]:
    """Deal ``cards`` to each player one at a time clockwise from the dealer's left; (hands, rest)."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for position in range(cards * players):
        hands[(dealer + 1 + position) % players].append(deck[position])
    return hands, deck[cards * players:]


def bids_status(bids: list[int | None], cards: int) -> str | None:
    """``"over"`` or ``"under"`` once every bid is in and the sum differs from the hand; else ``None``."""
    if any(bid is None for bid in bids):
        return None
    total = sum(bid for bid in bids if bid is not None)
    return "over" if total > cards else "under" if total < cards else None


class OdessaEngine(Engine):
    """The Odessa poker engine (see the module docstring)."""

    slug = "odessa"
    name = N_("Odessa poker")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    table_chooses_on_timeout = True

    # -- options ---------------------------------------------------------------

    def default_options(self) -> dict:
        return clone(DEFAULT_OPTIONS)

    def validate_options(self, options: dict) -> dict:
        """Options with defaults filled in; ``InvalidSetup`` for anything unknown or not allowed."""
        options = super().validate_options(options)
        check_options(options)
        return options

    def check_options_for_players(self, options: dict, players: int) -> dict:
        """``InvalidSetup`` when the longest hand is more than the deck allows that many players."""
        self.check_players(players)
        check_fits_players(options, players)
        return options

    # -- setting up ------------------------------------------------------------

    def start(self, players: int = 4, options: dict | None = None, seed: int = 0,
              rules_version: int | None = None) -> State:
        """A new game: the first dealer drawn, deal 1 dealt and ready for bidding."""
        self.check_players(players)
        options = self.check_options_for_players(self.validate_options(options or {}), players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("The seed must be an integer.")
        first_dealer = first_dealer_of(seed, players)
        state: State = {
            "game": self.slug,
            "rules": self.check_rules_version(rules_version),
            "seed": seed,
            "options": options,
            "players": players,
            "max_hand": max_hand_of(players, options),
            "first_dealer": first_dealer,
            "order": [(first_dealer + offset) % players for offset in range(1, players + 1)],
            "last_trick": None,
            "history": [],
            "forfeited": None,
        }
        self._deal_into(state, 1)
        return state

    @staticmethod
    def schedule(state: State) -> list[dict]:
        return deal_schedule(state["players"], state["options"])

    def _deal_into(self, state: State, deal_no: int) -> None:
        """Shuffle and deal ``deal_no`` into ``state`` (a working copy) and set its trump."""
        players, options = state["players"], state["options"]
        plan = self.schedule(state)[deal_no - 1]
        cards, special = plan["cards"], plan["special"]
        dealer = (state["first_dealer"] + deal_no - 1) % players
        deck = shuffled(make_odessa_deck(options["deck"]), state["seed"], deal_no)
        hands, rest = deal_hands(deck, dealer, players, cards)
        trump, trump_card = self._trump_of(options, special, rest)
        state.update({
            "deal": deal_no, "cards": cards, "special": special, "dealer": dealer,
            "phase": Phase.PLAY if special in NO_BIDDING else Phase.BID,
            "turn": (dealer + 1) % players,
            "hands": hands, "rest": rest, "trump": trump, "trump_card": trump_card,
            "bids": [None] * players, "taken": [0] * players, "trick": [], "played": [],
            "auto": [False] * players,
        })

    @staticmethod
    def _trump_of(options: dict, special: str | None, rest: list[str]) -> tuple[str | None, str | None]:
        """(trump, turned card) of a deal: no_trump none; a fixed suit; else the turned card's suit."""
        if special == NO_TRUMP:
            return None, None
        if options["trump"] != TURNED:
            return options["trump"], None
        if not rest:
            return None, None
        turned = rest[0]
        return (None if turned == joker_card(options["deck"]) else suit_of(turned)), turned

    # -- whose turn --------------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        return [] if state["phase"] == Phase.OVER else [state["turn"]]

    def is_over(self, state: State) -> bool:
        return state["phase"] == Phase.OVER

    def timers(self, state: State) -> list[dict]:
        """The player to move is on the clock; on expiry the platform applies ``auto_action`` (or forfeits)."""
        return [{"seat": seat, "expiry": "auto"} for seat in self.actors(state)]

    # -- legal actions -------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        if state["phase"] == Phase.BID:
            return [{"type": "bid", "tricks": tricks} for tricks in self._allowed_bids(state, seat)]
        return self._legal_plays(state, seat)

    @staticmethod
    def _lowest_bid(state: State) -> int:
        return 1 if state["special"] == BLIND else 0

    @staticmethod
    def _others_sum(state: State, seat: int) -> int:
        return sum(bid for other, bid in enumerate(state["bids"]) if other != seat and bid is not None)

    def _allowed_bids(self, state: State, seat: int) -> list[int]:
        cards = state["cards"]
        bids = list(range(self._lowest_bid(state), cards + 1))
        if seat != state["dealer"]:
            return bids
        rule, others = state["options"]["dealer_rule"], self._others_sum(state, seat)
        if rule == "not_equal":
            return [bid for bid in bids if others + bid != cards]
        if rule == "over":
            return [bid for bid in bids if others + bid > cards] or [cards]
        return bids

    def _trick(self, state: State) -> Trick:
        return Trick.from_dicts(state["trick"], state["trump"], odessa_joker(state["options"]["deck"]))

    def _demand_allowed(self, state: State) -> bool:
        """True if a joker led now may be led "demand" (``joker_demand``)."""
        if state["phase"] != Phase.PLAY or state["trick"]:
            return False
        rule = state["options"]["joker_demand"]
        return rule == "any_trick" or (rule == "first_trick_only" and sum(state["taken"]) == 0)

    def _joker_modes(self, state: State, leading: bool) -> tuple[str, ...]:
        if leading and self._demand_allowed(state):
            return (HIGH, LOW, DEMAND)
        return (HIGH, LOW)

    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        hand = state["hands"][seat]
        trick = self._trick(state)
        rule = obligation(hand, trick)
        jokers = trick.rules.cards
        actions: list[Action] = []
        for card in self._sorted(hand, state):
            if not rule.allows(card):
                continue
            if card not in jokers:
                actions.append({"type": "play", "card": card})
            elif trick.is_empty:
                actions.extend({"type": "play", "card": card, "joker": mode, "suit": suit}
                               for mode in self._joker_modes(state, True) for suit in SUITS)
            else:
                actions.extend({"type": "play", "card": card, "joker": mode} for mode in (HIGH, LOW))
        return actions

    @staticmethod
    def _sorted(cards: list[str], state: State) -> list[str]:
        """Cards for display: the joker first, then the trump, then ♠ ♥ ♣ ♦, aces first."""
        joker = joker_card(state["options"]["deck"])
        return [card for card in cards if card == joker] + sort_hand(
            [card for card in cards if card != joker], state["trump"])

    # -- applying a move ---------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The state after ``seat`` plays ``action``, and the public events; ``state`` is untouched."""
        self._check_turn(state, seat)
        action_type, is_auto = parse_envelope(
            action, ACTION_KEYS, N_("Unknown kind of move %(kind)s: expected bid or play."), UNEXPECTED_FIELDS)
        phase = state["phase"]
        if action_type != phase:
            raise IllegalMove(WRONG_PHASE[phase, action_type])
        new_state = clone_for_move(state)
        if is_auto:
            new_state["auto"][seat] = True
        handler = self._apply_bid if phase == Phase.BID else self._apply_play
        events = handler(new_state, seat, action)
        events[0]["auto"] = is_auto
        return new_state, events

    def _check_turn(self, state: State, seat: Any) -> None:
        if state["phase"] == Phase.OVER:
            raise IllegalMove(N_("The game is over."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
            raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
        if seat != state["turn"]:
            raise IllegalMove(N_("It is not your turn."))

    def _apply_bid(self, state: State, seat: int, action: Action) -> list[Event]:
        if "tricks" not in action:
            raise IllegalMove(N_('Say how many tricks you bid: "tricks".'))
        tricks = require_int(action["tricks"], N_("A bid must be a whole number."))
        self._check_bid(state, seat, tricks)
        state["bids"][seat] = tricks
        events: list[Event] = [{"type": "bid", "seat": seat, "tricks": tricks}]
        if seat != state["dealer"]:
            state["turn"] = (seat + 1) % state["players"]
            return events
        state["phase"] = Phase.PLAY
        state["turn"] = (state["dealer"] + 1) % state["players"]
        events.append({"type": "bids_complete", "status": bids_status(state["bids"], state["cards"])})
        if state["special"] == BLIND:
            events.append({"type": "trump_turned", "trump": state["trump"], "trump_card": state["trump_card"]})
        return events

    def _check_bid(self, state: State, seat: int, tricks: int) -> None:
        cards, lowest = state["cards"], self._lowest_bid(state)
        if not lowest <= tricks <= cards:
            if lowest:
                raise IllegalMove(N_("In the blind deal bid from 1 to %(cards)s tricks: there is no pass."),
                                  cards=cards)
            raise IllegalMove(N_("Bid from 0 to %(cards)s tricks."), cards=cards)
        allowed = self._allowed_bids(state, seat)
        if tricks in allowed:
            return
        if state["options"]["dealer_rule"] == "not_equal":
            raise IllegalMove(
                N_("As the dealer you may not bid %(tricks)s: the bids would add up to %(cards)s, "
                   "the number of cards each player holds."), tricks=tricks, cards=cards)
        if allowed == [cards] and self._others_sum(state, seat) + cards <= cards:
            raise IllegalMove(N_("Everybody else passed: as the dealer you must bid the whole hand, %(cards)s."),
                              cards=cards)
        raise IllegalMove(N_("As the dealer you must make the bids add up to more than %(cards)s: "
                             "bid at least %(least)s."), cards=cards, least=min(allowed))

    def _apply_play(self, state: State, seat: int, action: Action) -> list[Event]:
        hand = state["hands"][seat]
        trick = self._trick(state)
        play = self._parse_play(state, seat, action, hand, trick)
        rule = obligation(hand, trick)
        if not rule.allows(play.card):
            raise rule.refusal(play.card)
        hand.remove(play.card)
        state["played"].append(play.card)
        trick = trick.add(play)
        state["trick"] = trick.to_dicts()
        events: list[Event] = [{"type": "played", **play.to_dict()}]
        if len(trick.plays) < state["players"]:
            state["turn"] = (seat + 1) % state["players"]
            return events
        events.append(self._finish_trick(state, trick))
        if not any(state["hands"]):
            events.extend(self._finish_deal(state))
        return events

    def _parse_play(self, state: State, seat: int, action: Action, hand: list[str], trick: Trick) -> Play:
        card = action.get("card")
        if not is_card(card):
            raise IllegalMove(N_('Name a card to play, such as "QS"; %(card)s is not a card.'), card=repr(card))
        joker = trick.rules.is_joker(card)
        if card not in hand:
            if joker:
                raise IllegalMove(N_("You do not hold the joker."))
            raise IllegalMove(N_("You do not hold %(card)s."), card=describe(card))
        mode, suit = action.get("joker"), action.get("suit")
        if not joker:
            if mode is not None or suit is not None:
                raise IllegalMove(N_('Only a joker is played "high" or "low" with a suit.'))
            return Play(seat=seat, card=card)
        leading = trick.is_empty
        if mode == DEMAND and not self._demand_allowed(state):
            if not leading:
                raise IllegalMove(N_("Only the player who leads may demand with the joker."))
            if state["options"]["joker_demand"] == "off":
                raise IllegalMove(N_("At this table the joker may not demand."))
            raise IllegalMove(N_("At this table the joker may demand only on the first trick of a deal."))
        if not isinstance(mode, str) or mode not in (HIGH, LOW, DEMAND):
            raise IllegalMove(N_('Say how the joker plays: "high", "low" or "demand".'))
        if leading and not is_suit(suit):
            raise IllegalMove(N_("Leading the joker, name its suit: S, C, D or H."))
        if not leading and suit is not None:
            raise IllegalMove(N_("Only the player who leads names a suit for the joker."))
        return Play(seat=seat, card=card, joker=mode, suit=suit if leading else None)

    @staticmethod
    def _finish_trick(state: State, trick: Trick) -> Event:
        winner = trick.winner()
        state["taken"][winner] += 1
        state["last_trick"] = {"deal": state["deal"], "plays": trick.to_dicts(), "winner": winner}
        state["trick"] = []
        state["turn"] = winner
        return {"type": "trick", "winner": winner, "plays": trick.to_dicts()}

    def _finish_deal(self, state: State) -> list[Event]:
        deal_no, special = state["deal"], state["special"]
        multiplier = state["options"]["special_multiplier"]
        points = [deal_points(special, bid, tricks, multiplier)
                  for bid, tricks in zip(state["bids"], state["taken"], strict=True)]
        state["history"].append({
            "deal": deal_no, "cards": state["cards"], "special": special, "dealer": state["dealer"],
            "trump": state["trump"], "trump_card": state["trump_card"], "bids": list(state["bids"]),
            "tricks": list(state["taken"]), "points": points, "auto": list(state["auto"]),
        })
        events: list[Event] = [{"type": "deal_scored", "deal": deal_no, "bids": list(state["bids"]),
                                "tricks": list(state["taken"]), "points": points}]
        if deal_no == len(self.schedule(state)):
            state.update({"phase": Phase.OVER, "turn": None})
            events.append({"type": "game_over"})
            return events
        self._deal_into(state, deal_no + 1)
        trump_hidden = self._trump_hidden(state)
        events.append({"type": "new_deal", "deal": state["deal"], "dealer": state["dealer"],
                       "cards": state["cards"], "special": state["special"],
                       "trump": None if trump_hidden else state["trump"],
                       "trump_card": None if trump_hidden else state["trump_card"]})
        return events

    # -- automatic moves, forfeits -------------------------------------------------

    def auto_action(self, state: State, seat: int) -> Action:
        """The move made for a player whose time ran out (see the module docstring)."""
        if seat not in self.actors(state):
            raise IllegalMove(N_("It is not your turn."))
        if state["phase"] == Phase.BID:
            return {"type": "bid", "tricks": self._allowed_bids(state, seat)[0]}
        return self._weakest_play(state, seat)

    def _weakest_play(self, state: State, seat: int) -> Action:
        trump, hand = state["trump"], state["hands"][seat]
        trick = self._trick(state)
        rule = obligation(hand, trick)
        joker = joker_card(state["options"]["deck"])
        ordinary = [card for card in hand if card != joker and rule.allows(card)]
        if ordinary:
            weakest = min(ordinary, key=lambda card: (card[1] == trump, rank_value(card), SUITS.index(card[1])))
            return {"type": "play", "card": weakest}
        if not trick.is_empty:
            return {"type": "play", "card": joker, "joker": LOW}
        lengths = Counter(card[1] for card in hand if card != joker)
        longest = max(SUITS, key=lambda suit: (lengths[suit], -SUITS.index(suit)))
        return {"type": "play", "card": joker, "joker": LOW, "suit": longest}

    def forfeit(self, state: State, seat: int) -> State:
        """A new state: the game ends now, ``seat`` is placed last (time-out forfeit or resignation)."""
        return forfeited(state, seat, state["players"])

    # -- results ---------------------------------------------------------------------

    def totals(self, state: State) -> list[int]:
        return totals_of(state["history"], state["players"])

    def outcome(self, state: State) -> dict:
        """Scores, places (1 = best; equal totals share a place), winners; provisional while the game runs."""
        totals = self.totals(state)
        places = places_of(totals, state["forfeited"])
        winners = [seat for seat in ranking_of(places, state["order"]) if places[seat] == 1]
        return {"scores": totals, "places": places, "winners": winners, "teams": None,
                "forfeited": state["forfeited"]}

    def sheet(self, state: State) -> dict:
        """The score sheet: a row per deal of the schedule, two columns (bid, running total) per player."""
        return {"kind": self.slug, **score_sheet(state, self.schedule(state), not self._trump_hidden(state))}

    # -- what a seat may see ------------------------------------------------------------

    @staticmethod
    def _hand_hidden(state: State) -> bool:
        """A blind deal before every bid is in: nobody sees a card of it."""
        return state["special"] == BLIND and state["phase"] == Phase.BID

    def _trump_hidden(self, state: State) -> bool:
        return self._hand_hidden(state) and state["trump_card"] is not None

    def view(self, state: State, seat: int | None) -> dict:
        """Everything ``seat`` may know (``None``: a spectator, who sees no hand); keys in the module docstring."""
        players = state["players"]
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        phase = state["phase"]
        trick = self._trick(state)
        over = phase == Phase.OVER
        trump_hidden = self._trump_hidden(state)
        schedule = self.schedule(state)
        special = state["special"]
        multiplier = state["options"]["special_multiplier"] if special in (BLIND, GOLDEN, MISER, NO_TRUMP) else 1
        return {
            "game": self.slug, "seat": seat, "players": players, "phase": phase, "finished": over,
            "options": clone(state["options"]), "max_hand": state["max_hand"], "schedule": schedule,
            "deal": state["deal"], "deals_total": len(schedule), "cards": state["cards"],
            "special": special, "multiplier": multiplier, "bidding": special not in NO_BIDDING,
            "blind": special == BLIND, "hand_hidden": self._hand_hidden(state),
            "dealer": state["dealer"], "first_dealer": state["first_dealer"], "order": list(state["order"]),
            "trump": None if trump_hidden else state["trump"],
            "trump_card": None if trump_hidden else state["trump_card"],
            "trump_hidden": trump_hidden, "no_trump": not trump_hidden and state["trump"] is None,
            "joker_card": joker_card(state["options"]["deck"]),
            "actors": self.actors(state), "turn": state["turn"],
            "bids": list(state["bids"]),
            "bids_sum": sum(bid for bid in state["bids"] if bid is not None),
            "bids_status": bids_status(state["bids"], state["cards"]) if special not in NO_BIDDING else None,
            "forbidden_bid": self._visible_forbidden_bid(state),
            "dealer_min_bid": self._visible_dealer_min_bid(state),
            "taken": list(state["taken"]), "trick": trick.to_dicts(),
            "leader": trick.lead.seat if trick.lead else (state["turn"] if phase == Phase.PLAY else None),
            "last_trick": clone(state["last_trick"]) if state["last_trick"] else None,
            "demand_allowed": self._demand_allowed(state),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "hand": self._visible_hand(state, seat),
            "legal_actions": self.legal_actions(state, seat) if seat is not None else [],
            "totals": self.totals(state), "places": places_of(self.totals(state), state["forfeited"]),
            "forfeited": state["forfeited"],
            "outcome": self.outcome(state) if over else None,
        }

    def _dealer_bidding(self, state: State, rule: str) -> bool:
        return (state["phase"] == Phase.BID and state["turn"] == state["dealer"]
                and state["options"]["dealer_rule"] == rule)

    def _visible_forbidden_bid(self, state: State) -> int | None:
        if not self._dealer_bidding(state, "not_equal"):
            return None
        forbidden = state["cards"] - self._others_sum(state, state["dealer"])
        return forbidden if self._lowest_bid(state) <= forbidden <= state["cards"] else None

    def _visible_dealer_min_bid(self, state: State) -> int | None:
        if not self._dealer_bidding(state, "over"):
            return None
        return self._allowed_bids(state, state["dealer"])[0]

    def _visible_hand(self, state: State, seat: int | None) -> list[str] | None:
        if seat is None:
            return None
        if self._hand_hidden(state):
            return []
        return self._sorted(state["hands"][seat], state)
