"""Georgian Joker, "Popular" mode, as specified in rules/joker.md.

Four players, 36 cards (6..A minus 6♠ 6♣, plus jokers X1 X2), 24 deals in four
pulkas (1..8, 9×4, 8..1, 9×4 cards each), bids where the dealer may not make
the sum equal the hand size, tricks with the four joker uses, deal scores with
the "штанга", premiums at the end of each pulka, ranking with the sheet-order
tie-break.

Phases: ``"trump"`` (9-card deals: the dealer's left names the trump),
``"bid"``, ``"play"``, ``"over"``. One player acts at a time; each phase has
its own legal-move function, as in OpenSpiel's games.

Decisions where the rules page is silent
-----------------------------------------
- Dealing: deals of 1–8 cards are dealt one card at a time clockwise from the
  dealer's left; 9-card deals in packets of 3, so the trump chooser's "first 3
  cards" are his first packet. The first card of the rest of the deck is the
  one turned for trump.
- The leader may lead any card at any time, trumps and jokers included (there
  is no "trumps must be broken" rule).
- A led joker may name any suit S, also one the leader does not hold and also
  the trump suit. If S is trump and the joker is led "high", the others must
  play their highest trump, and no trump beats it; only a later "high" joker
  does. If S is trump and the joker is led "low", any trump beats it.
- "Must trump" means any trump: nobody has to overtrump; "must follow" means
  any card of the suit, except after a joker led "high", which demands the
  single highest card of S. A joker is always allowed instead.
- A joker played by a non-leader does not change the suit to follow.
- Premium bonus: the player's own highest deal score in the pulka, not
  counting the pulka's last deal. A premium player made every bid, so every
  such score is at least 50 and the bonus is always positive (were it zero or
  less, nothing would be added). If several deals share the highest score the
  earliest is marked as the bonus source; likewise the earliest of the
  victim's highest deals is marked as written off.
- A premium player whose bonus is cancelled by a premium neighbour gets no
  ``premium`` mark on the sheet (the mark means "bonus written here");
  ``sheet()["pulkas"][i]["premium"][seat]["on_premium"]`` still says he made
  every bid.
- ``premium[seat]["written_off"]`` is the amount subtracted from that seat
  (``written_off_by`` names the premium player who wrote it off).
- Joker mark (``cells[seat]["joker"]``): the player held a joker when the deal
  was dealt. While a deal is in progress it is shown only once he has played a
  joker (until then it is hidden information).
- Spoiled mark: set from the deal where the player first missed his bid to the
  end of that pulka, rows not yet played included.
- Totals in the middle of a pulka count the deals played so far; premiums
  count only for complete pulkas. ``outcome()`` before the end of the game is
  the provisional ranking by those totals. ``forfeit()`` ends the game with
  the current totals; the forfeiting player is placed last.
- Automatic moves (time-outs): trump choice → no trump; bid → the lowest
  allowed bid; card → the weakest legal ordinary card (non-trumps before
  trumps, then lower rank, then suit order S C D H); with only jokers allowed,
  a joker "low", naming, when leading, the first suit in S C D H order that
  is not trump.
- Options: Joker has none; ``validate_options`` refuses unknown keys.
- Every action may carry ``"auto": true`` (added by the platform on
  time-outs); it does not change legality and marks that seat's cell of the
  deal as automatic on the sheet.

Rules versions (changelog)
--------------------------
- 1: the rules as first played on the site (``state["rules"]``; see
  "Rules versions" in core.py).

State layout (a plain JSON dict; everything is per seat where a list has 4 items)
---------------------------------------------------------------------------------
``game``, ``seed``, ``options``, ``players``; ``tuz`` (the тузование:
``[{"seat", "card"}]``), ``first_dealer``, ``order`` (sheet order, 1st..4th);
the deal in progress: ``deal`` (1..24), ``cards``, ``dealer``, ``phase``,
``turn``, ``hands`` (in dealt order), ``rest`` (undealt cards, top first),
``trump``, ``trump_card`` (turned card or ``None``), ``trump_chooser``,
``bids``, ``taken``, ``trick`` (plays so far), ``played`` (cards played this
deal), ``held_joker``, ``joker_shown``, ``auto``; ``last_trick``
(``{"deal", "plays", "winner"}``); ``history`` (one record per complete deal:
``deal cards dealer trump trump_card bids tricks points joker auto``);
``forfeited``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import (
    SUITS,
    describe,
    is_card,
    is_joker,
    is_suit,
    make_deck,
    rank_value,
    sort_hand,
    suit_of,
)
from .core import N_, Action, Engine, Event, IllegalMove, State, clone, clone_for_move, forfeited, parse_envelope, require_int, shuffled
from .tricks import JOKER_MODES, LOW, Play, Trick, obligation

PLAYERS = 4
TUZ_DEAL_NO = 0
DEAL_SIZES: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9)
PULKA_DEALS: tuple[tuple[int, ...], ...] = (
    tuple(range(1, 9)),
    tuple(range(9, 13)),
    tuple(range(13, 21)),
    tuple(range(21, 25)),
)
LAST_DEAL = len(DEAL_SIZES)
FULL_HAND = 9
PACKET_FOR_FULL_HAND = 3

PASS_MADE_POINTS = 50
SHTANGA_POINTS = -200

ACTION_KEYS = {
    "trump": {"type", "suit"},
    "bid": {"type", "tricks"},
    "play": {"type", "card", "joker", "suit"},
}


class Phase:
    """The phases of a game, stored in the state as plain strings."""

    TRUMP = "trump"  # 9-card deals: the dealer's left names the trump
    BID = "bid"
    PLAY = "play"
    OVER = "over"


# The refusal of a move of the wrong kind, by (phase, kind of move): whole
# sentences, so that each one can be translated as it is.
WRONG_PHASE = {
    (Phase.TRUMP, Phase.BID): N_("It is time to choose the trump, not to bid."),
    (Phase.TRUMP, Phase.PLAY): N_("It is time to choose the trump, not to play a card."),
    (Phase.BID, Phase.TRUMP): N_("It is time to bid, not to choose the trump."),
    (Phase.BID, Phase.PLAY): N_("It is time to bid, not to play a card."),
    (Phase.PLAY, Phase.TRUMP): N_("It is time to play a card, not to choose the trump."),
    (Phase.PLAY, Phase.BID): N_("It is time to play a card, not to bid."),
}

# Fields a move of each kind may not carry, one sentence per kind.
UNEXPECTED_FIELDS = {
    "trump": N_("Unexpected field(s) in a trump move: %(fields)s."),
    "bid": N_("Unexpected field(s) in a bid move: %(fields)s."),
    "play": N_("Unexpected field(s) in a play move: %(fields)s."),
}


def joker_deck() -> list[str]:
    """The 36 Joker cards in canonical order: 6..A of S C D H without 6♠ 6♣, then X1 X2."""
    return make_deck(lowest_rank="6", without=("6S", "6C"), jokers=2)


def cards_in_deal(deal_no: int) -> int:
    """How many cards each player gets in deal ``deal_no`` (1..24)."""
    return DEAL_SIZES[deal_no - 1]


def pulka_of(deal_no: int) -> int:
    """The pulka (1..4) that deal ``deal_no`` belongs to."""
    for number, deals in enumerate(PULKA_DEALS, start=1):
        if deal_no in deals:
            return number
    raise ValueError(f"There is no deal {deal_no}")


def dealer_of(first_dealer: int, deal_no: int) -> int:
    """The dealer of deal ``deal_no``: the deal passes clockwise from the first dealer."""
    return (first_dealer + deal_no - 1) % PLAYERS


def next_seat(seat: int) -> int:
    return (seat + 1) % PLAYERS


def sheet_order(first_dealer: int) -> list[int]:
    """Sheet order 1st..4th: the first dealer's left is 1st, the first dealer is 4th."""
    return [(first_dealer + offset) % PLAYERS for offset in range(1, PLAYERS + 1)]


def deal_points(bid: int, tricks: int, cards: int) -> int:
    """Points for one deal (rules: "Scoring of one deal")."""
    if bid == tricks == 0:
        return PASS_MADE_POINTS
    if bid == tricks == cards:
        return 100 * cards
    if bid == tricks:
        return 50 * bid + 50
    if tricks == 0:
        return SHTANGA_POINTS
    return 10 * tricks


def forbidden_dealer_bid(other_bids_sum: int, cards: int) -> int | None:
    """The bid the dealer may not make (it would make the sum equal ``cards``), if any."""
    forbidden = cards - other_bids_sum
    return forbidden if 0 <= forbidden <= cards else None


def bids_status(bids: list[int | None], cards: int) -> str | None:
    """``"over"`` (пихается) or ``"under"`` (отнимается) once every bid is in, else ``None``."""
    if any(bid is None for bid in bids):
        return None
    total = sum(bid for bid in bids if bid is not None)
    if total > cards:
        return "over"
    if total < cards:
        return "under"
    return None


def tuzovanie(seed: int) -> list[dict]:
    """Cards dealt face up clockwise from seat 0 until the first ace; its receiver deals first."""
    sequence = []
    for position, card in enumerate(shuffled(joker_deck(), seed, TUZ_DEAL_NO)):
        seat = position % PLAYERS
        sequence.append({"seat": seat, "card": card})
        if not is_joker(card) and card[0] == "A":
            return sequence
    raise AssertionError("A Joker deck always holds an ace")


def deal_hands(deck: list[str], dealer: int, cards: int) -> tuple[list[list[str]], list[str]]:
    """Deal ``cards`` to each player clockwise from the dealer's left; returns (hands, rest)."""
    packet = PACKET_FOR_FULL_HAND if cards == FULL_HAND else 1
    hands: list[list[str]] = [[] for _ in range(PLAYERS)]
    position = 0
    for _ in range(cards // packet):
        for offset in range(1, PLAYERS + 1):
            seat = (dealer + offset) % PLAYERS
            hands[seat].extend(deck[position:position + packet])
            position += packet
    return hands, deck[position:]


# -- premium ---------------------------------------------------------------


def _highest_deal(record_points: list[tuple[int, int]]) -> tuple[int, int] | None:
    """(deal number, points) of the earliest highest score among ``record_points``."""
    if not record_points:
        return None
    best = max(points for _, points in record_points)
    return next((deal, points) for deal, points in record_points if points == best)


def pulka_premium(records: list[dict], order: list[int]) -> list[dict]:
    """Premium results of a complete pulka, per seat.

    ``records`` are the pulka's deal records in order (each with ``deal``,
    ``bids``, ``tricks``, ``points``). Each seat gets ``on_premium``,
    ``bonus`` (added to him), ``bonus_deal`` (the deal whose score was added),
    ``written_off`` (subtracted from him), ``written_off_by`` and
    ``written_off_deal``.
    """
    seats = range(PLAYERS)
    on_premium = [all(r["bids"][s] == r["tricks"][s] for r in records) for s in seats]
    counted = records[:-1]  # the pulka's last deal never counts for bonus or write-off
    highest = [_highest_deal([(r["deal"], r["points"][s]) for r in counted]) for s in seats]
    result = [
        {"on_premium": on_premium[s], "bonus": 0, "bonus_deal": None,
         "written_off": 0, "written_off_by": None, "written_off_deal": None}
        for s in seats
    ]
    for place, seat in enumerate(order):
        if not on_premium[seat]:
            continue
        before = order[place - 1]
        after = order[(place + 1) % len(order)]
        own_best = highest[seat]
        if not on_premium[before] and own_best is not None and own_best[1] > 0:
            result[seat]["bonus_deal"], result[seat]["bonus"] = own_best
        victim_best = highest[after]
        if not on_premium[after] and victim_best is not None and victim_best[1] > 0:
            result[after]["written_off_deal"], result[after]["written_off"] = victim_best
            result[after]["written_off_by"] = seat
    return result


def pulka_scores(played: list[dict], deal_numbers: tuple[int, ...], order: list[int]
                 ) -> tuple[list[int], list[dict] | None]:
    """A pulka's subtotal per seat and, once it is complete, its premiums.

    ``played`` are the pulka's complete deal records so far. The subtotal is
    the sum of deal scores plus bonuses minus write-offs (premiums only for a
    complete pulka).
    """
    subtotal = [sum(record["points"][seat] for record in played) for seat in range(PLAYERS)]
    if len(played) < len(deal_numbers):
        return subtotal, None
    premium = pulka_premium(played, order)
    return [subtotal[s] + premium[s]["bonus"] - premium[s]["written_off"] for s in range(PLAYERS)], premium


def played_in_pulkas(history: list[dict]) -> list[tuple[tuple[int, ...], list[dict]]]:
    """Each pulka's deal numbers with its complete deal records, in order."""
    records = {record["deal"]: record for record in history}
    return [(deals, [records[deal] for deal in deals if deal in records]) for deals in PULKA_DEALS]


def game_totals(history: list[dict], order: list[int]) -> list[int]:
    """Totals per seat: every complete deal, plus the premiums of complete pulkas."""
    known = _last_totals.get(history, order)
    if known is not None:
        return known
    totals = [0] * PLAYERS
    for deals, played in played_in_pulkas(history):
        subtotal, _ = pulka_scores(played, deals, order)
        totals = [total + sub for total, sub in zip(totals, subtotal, strict=True)]
    _last_totals.remember(history, order, totals)
    return totals


class _LastTotals:
    """The totals of the last history list summed, kept with that very list.

    A move's fan-out builds five views of one state (four seats and the
    spectators), each with its totals; summing the deal records and the
    pulkas' premiums five times made a late move's views cost four times an
    early one's. The records of a history are never changed once appended,
    so the same list object (``is``, held here so its id cannot be reused)
    of the same length has the same totals. Pure: a cache of a pure function.
    """

    def __init__(self) -> None:
        self._entry: tuple[list[dict], int, tuple[int, ...], tuple[int, ...]] | None = None

    def get(self, history: list[dict], order: list[int]) -> list[int] | None:
        entry = self._entry  # one read: another thread may replace it meanwhile
        if entry is None or entry[0] is not history or entry[1] != len(history) or entry[2] != tuple(order):
            return None
        return list(entry[3])

    def remember(self, history: list[dict], order: list[int], totals: list[int]) -> None:
        self._entry = (history, len(history), tuple(order), tuple(totals))


_last_totals = _LastTotals()


class JokerEngine(Engine):
    """The Joker engine (see the module docstring for rules decisions and state layout)."""

    slug = "joker"
    table_chooses_on_timeout = True  # rules/joker.md "Time-outs": forfeit or autoplay, a table option
    sheet_points_per_unit = 100  # the sheet writes totals in hundreds
    name = N_("Joker")
    min_players = PLAYERS
    max_players = PLAYERS

    # -- setting up ----------------------------------------------------------

    def start(self, players: int = PLAYERS, options: dict | None = None, seed: int = 0,
              rules_version: int | None = None) -> State:
        """A new game: тузование, then deal 1 dealt and ready for bidding."""
        self.check_players(players)
        options = self.validate_options(options or {})
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("The seed must be an integer.")
        rules = self.check_rules_version(rules_version)
        tuz = tuzovanie(seed)
        first_dealer = tuz[-1]["seat"]
        state: State = {
            "game": self.slug,
            "rules": rules,
            "seed": seed,
            "options": options,
            "players": players,
            "tuz": tuz,
            "first_dealer": first_dealer,
            "order": sheet_order(first_dealer),
            "last_trick": None,
            "history": [],
            "forfeited": None,
        }
        self._deal_into(state, 1)
        return state

    def _deal_into(self, state: State, deal_no: int) -> None:
        """Shuffle and deal ``deal_no`` into ``state`` (a working copy), setting trump or asking for it."""
        cards = cards_in_deal(deal_no)
        dealer = dealer_of(state["first_dealer"], deal_no)
        hands, rest = deal_hands(shuffled(joker_deck(), state["seed"], deal_no), dealer, cards)
        state.update({
            "deal": deal_no,
            "cards": cards,
            "dealer": dealer,
            "hands": hands,
            "rest": rest,
            "bids": [None] * PLAYERS,
            "taken": [0] * PLAYERS,
            "trick": [],
            "played": [],
            "held_joker": [any(is_joker(card) for card in hand) for hand in hands],
            "joker_shown": [False] * PLAYERS,
            "auto": [False] * PLAYERS,
            "turn": next_seat(dealer),
        })
        if cards == FULL_HAND:
            state.update({"phase": Phase.TRUMP, "trump": None, "trump_card": None,
                          "trump_chooser": next_seat(dealer)})
        else:
            turned = rest[0]
            state.update({"phase": Phase.BID, "trump": suit_of(turned), "trump_card": turned,
                          "trump_chooser": None})

    # -- whose turn ------------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        return [] if state["phase"] == Phase.OVER else [state["turn"]]

    def is_over(self, state: State) -> bool:
        return state["phase"] == Phase.OVER

    def timers(self, state: State) -> list[dict]:
        """The player to move is on the clock; on expiry the platform applies ``auto_action``."""
        return [{"seat": seat, "expiry": "auto"} for seat in self.actors(state)]

    # -- legal actions, one function per phase ----------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        phase = state["phase"]
        if phase == Phase.TRUMP:
            return self._legal_trumps()
        if phase == Phase.BID:
            return [{"type": "bid", "tricks": tricks} for tricks in self._allowed_bids(state, seat)]
        return self._legal_plays(state, seat)

    @staticmethod
    def _legal_trumps() -> list[Action]:
        return [{"type": "trump", "suit": suit} for suit in SUITS] + [{"type": "trump", "suit": None}]

    @staticmethod
    def _forbidden_bid(state: State, seat: int) -> int | None:
        if seat != state["dealer"]:
            return None
        others = sum(bid for other, bid in enumerate(state["bids"]) if other != seat and bid is not None)
        return forbidden_dealer_bid(others, state["cards"])

    def _allowed_bids(self, state: State, seat: int) -> list[int]:
        forbidden = self._forbidden_bid(state, seat)
        return [tricks for tricks in range(state["cards"] + 1) if tricks != forbidden]

    @staticmethod
    def _current_trick(state: State) -> Trick:
        return Trick.from_dicts(state["trick"], state["trump"])

    def _legal_plays(self, state: State, seat: int) -> list[Action]:
        hand = state["hands"][seat]
        trick = self._current_trick(state)
        rule = obligation(hand, trick)
        actions: list[Action] = []
        for card in sort_hand(hand, state["trump"]):
            if not rule.allows(card):
                continue
            if not is_joker(card):
                actions.append({"type": "play", "card": card})
            elif trick.is_empty:
                actions.extend({"type": "play", "card": card, "joker": mode, "suit": suit}
                               for mode in JOKER_MODES for suit in SUITS)
            else:
                actions.extend({"type": "play", "card": card, "joker": mode} for mode in JOKER_MODES)
        return actions

    # -- applying a move -----------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The state after ``seat`` plays ``action``, and the public events; ``state`` is untouched."""
        self._check_turn(state, seat)
        action_type, is_auto = self._parse_envelope(action)
        phase = state["phase"]
        if action_type != phase:
            raise IllegalMove(WRONG_PHASE[phase, action_type])
        new_state = clone_for_move(state)
        if is_auto:
            new_state["auto"][seat] = True
        handler = {Phase.TRUMP: self._apply_trump, Phase.BID: self._apply_bid, Phase.PLAY: self._apply_play}[phase]
        events = handler(new_state, seat, action)
        events[0]["auto"] = is_auto
        return new_state, events

    def refusal(self, state: State, seat: int, action: Action) -> IllegalMove | None:
        """What ``apply`` would refuse ``action`` with, or ``None`` (see ``refusals``)."""
        return self.refusals(state, seat, [action])[0]

    def refusals(self, state: State, seat: int, actions: list[Action]) -> list[IllegalMove | None]:
        """What ``apply`` would refuse each action with, or ``None``; card
        plays are judged without copying the state (the same checks, in the
        same order, as ``apply`` and ``_apply_play``), and what the hand must
        play on the trick is worked out once for all of them."""
        judge = None
        answers: list[IllegalMove | None] = []
        for action in actions:
            try:
                self._check_turn(state, seat)
                action_type, _is_auto = self._parse_envelope(action)
                phase = state["phase"]
                if action_type != phase:
                    raise IllegalMove(WRONG_PHASE[phase, action_type])
                if phase != Phase.PLAY:
                    answers.append(super().refusal(state, seat, action))
                    continue
                if judge is None:
                    judge = self._play_judge(state, seat)
                judge(action)
            except IllegalMove as exc:
                answers.append(exc)
                continue
            answers.append(None)
        return answers

    def _check_turn(self, state: State, seat: Any) -> None:
        if state["phase"] == Phase.OVER:
            raise IllegalMove(N_("The game is over."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
        if seat != state["turn"]:
            raise IllegalMove(N_("It is not your turn."))

    @staticmethod
    def _parse_envelope(action: Any) -> tuple[str, bool]:
        """The action's type and its ``auto`` flag, after checking its shape."""
        return parse_envelope(action, ACTION_KEYS, N_("Unknown kind of move %(kind)s: expected trump, bid or play."), UNEXPECTED_FIELDS)

    def _apply_trump(self, state: State, seat: int, action: Action) -> list[Event]:
        if "suit" not in action:
            raise IllegalMove(N_('Name the trump: "suit" S, C, D, H, or null for no trump.'))
        suit = action["suit"]
        if suit is not None and not is_suit(suit):
            raise IllegalMove(N_("%(suit)s is not a suit: name S, C, D or H, or null for no trump."),
                              suit=repr(suit))
        state["trump"] = suit
        state["phase"] = Phase.BID
        state["turn"] = next_seat(state["dealer"])
        return [{"type": "trump", "seat": seat, "suit": suit}]

    def _apply_bid(self, state: State, seat: int, action: Action) -> list[Event]:
        cards = state["cards"]
        if "tricks" not in action:
            raise IllegalMove(N_('Say how many tricks you bid: "tricks".'))
        tricks = require_int(action["tricks"], N_("A bid must be a whole number."))
        if not 0 <= tricks <= cards:
            raise IllegalMove(N_("Bid from 0 to %(cards)s tricks."), cards=cards)
        if tricks == self._forbidden_bid(state, seat):
            raise IllegalMove(
                N_("As the dealer you may not bid %(tricks)s: the bids would add up to %(cards)s, "
                   "the number of cards each player holds."),
                tricks=tricks, cards=cards,
            )
        state["bids"][seat] = tricks
        events: list[Event] = [{"type": "bid", "seat": seat, "tricks": tricks}]
        if seat == state["dealer"]:
            state["phase"] = Phase.PLAY
            state["turn"] = next_seat(state["dealer"])
            events.append({"type": "bids_complete", "status": bids_status(state["bids"], cards)})
        else:
            state["turn"] = next_seat(seat)
        return events

    def _lawful_play(self, state: State, seat: int, action: Action) -> tuple[list, Trick, Play]:
        """(hand, trick, play) of a card play the rules allow, or IllegalMove saying why not."""
        return self._play_judge(state, seat)(action)

    def _play_judge(self, state: State, seat: int) -> Callable[[Action], tuple[list, Trick, Play]]:
        """``_lawful_play`` for this state and seat, the trick and what the hand must play found once."""
        hand = state["hands"][seat]
        trick = self._current_trick(state)
        rule = obligation(hand, trick)

        def judge(action: Action) -> tuple[list, Trick, Play]:
            play = self._parse_play(seat, action, hand, leading=trick.is_empty)
            if not rule.allows(play.card):
                raise rule.refusal(play.card)
            return hand, trick, play

        return judge

    def _apply_play(self, state: State, seat: int, action: Action) -> list[Event]:
        hand, trick, play = self._lawful_play(state, seat, action)
        hand.remove(play.card)
        state["played"].append(play.card)
        if play.is_joker:
            state["joker_shown"][seat] = True
        trick = trick.add(play)
        state["trick"] = trick.to_dicts()
        events: list[Event] = [{"type": "played", **play.to_dict()}]
        if len(trick.plays) < PLAYERS:
            state["turn"] = next_seat(seat)
            return events
        events.append(self._finish_trick(state, trick))
        if not any(state["hands"]):
            events.extend(self._finish_deal(state))
        return events

    @staticmethod
    def _parse_play(seat: int, action: Action, hand: list[str], leading: bool) -> Play:
        card = action.get("card")
        if not is_card(card):
            raise IllegalMove(N_('Name a card to play, such as "QS"; %(card)s is not a card.'), card=repr(card))
        if card not in hand:
            if is_joker(card):
                raise IllegalMove(N_("You do not hold the joker."))
            raise IllegalMove(N_("You do not hold %(card)s."), card=describe(card))
        mode, suit = action.get("joker"), action.get("suit")
        if not is_joker(card):
            if mode is not None or suit is not None:
                raise IllegalMove(N_('Only a joker is played "high" or "low" with a suit.'))
            return Play(seat=seat, card=card)
        if not isinstance(mode, str) or mode not in JOKER_MODES:
            raise IllegalMove(N_('Say how the joker plays: "high" or "low".'))
        if leading and not is_suit(suit):
            raise IllegalMove(N_("Leading the joker, name its suit: S, C, D or H."))
        if not leading and suit is not None:
            raise IllegalMove(N_("Only the player who leads names a suit for the joker."))
        return Play(seat=seat, card=card, joker=mode, suit=suit if leading else None)

    def _finish_trick(self, state: State, trick: Trick) -> Event:
        winner = trick.winner()
        state["taken"][winner] += 1
        state["last_trick"] = {"deal": state["deal"], "plays": trick.to_dicts(), "winner": winner}
        state["trick"] = []
        state["turn"] = winner
        return {"type": "trick", "winner": winner, "plays": trick.to_dicts()}

    def _finish_deal(self, state: State) -> list[Event]:
        deal_no, cards = state["deal"], state["cards"]
        points = [deal_points(state["bids"][s], state["taken"][s], cards) for s in range(PLAYERS)]
        state["history"].append({
            "deal": deal_no,
            "cards": cards,
            "dealer": state["dealer"],
            "trump": state["trump"],
            "trump_card": state["trump_card"],
            "bids": list(state["bids"]),
            "tricks": list(state["taken"]),
            "points": points,
            "joker": list(state["held_joker"]),
            "auto": list(state["auto"]),
        })
        events: list[Event] = [{"type": "deal_scored", "deal": deal_no, "bids": list(state["bids"]),
                                "tricks": list(state["taken"]), "points": points}]
        pulka = pulka_of(deal_no)
        if deal_no == PULKA_DEALS[pulka - 1][-1]:
            deal_numbers, played = played_in_pulkas(state["history"])[pulka - 1]
            subtotal, _ = pulka_scores(played, deal_numbers, state["order"])
            events.append({"type": "pulka_scored", "pulka": pulka, "subtotal": subtotal,
                           "totals": self.totals(state)})
        if deal_no == LAST_DEAL:
            state.update({"phase": Phase.OVER, "turn": None})
            events.append({"type": "game_over"})
            return events
        self._deal_into(state, deal_no + 1)
        events.append({"type": "new_deal", "deal": state["deal"], "dealer": state["dealer"],
                       "cards": state["cards"], "trump": state["trump"], "trump_card": state["trump_card"]})
        return events

    # -- automatic moves, forfeits --------------------------------------------

    def auto_action(self, state: State, seat: int) -> Action:
        """The move made for a player whose time ran out (see the module docstring)."""
        if seat not in self.actors(state):
            raise IllegalMove(N_("It is not your turn."))
        phase = state["phase"]
        if phase == Phase.TRUMP:
            return {"type": "trump", "suit": None}
        if phase == Phase.BID:
            return {"type": "bid", "tricks": self._allowed_bids(state, seat)[0]}
        return self._weakest_play(state, seat)

    def _weakest_play(self, state: State, seat: int) -> Action:
        trump = state["trump"]
        trick = self._current_trick(state)
        allowed = [card for card in state["hands"][seat] if obligation(state["hands"][seat], trick).allows(card)]
        ordinary = [card for card in allowed if not is_joker(card)]
        if ordinary:
            weakest = min(ordinary, key=lambda card: (card[1] == trump, rank_value(card), SUITS.index(card[1])))
            return {"type": "play", "card": weakest}
        joker = min(allowed)
        if not trick.is_empty:
            return {"type": "play", "card": joker, "joker": LOW}
        named = next(suit for suit in SUITS if suit != trump)
        return {"type": "play", "card": joker, "joker": LOW, "suit": named}

    def forfeit(self, state: State, seat: int) -> State:
        """A new state: the game ends now, ``seat`` is placed last (time-out forfeit or resignation)."""
        return forfeited(state, seat, PLAYERS)

    # -- results -------------------------------------------------------------

    def totals(self, state: State) -> list[int]:
        """Current totals per seat (complete deals, plus premiums of complete pulkas)."""
        return game_totals(state["history"], state["order"])

    @staticmethod
    def ranking(totals: list[int], order: list[int], forfeited: int | None = None) -> list[int]:
        """Seats best first: highest total, ties by sheet order; a forfeiting seat last."""
        ranked = sorted(range(PLAYERS), key=lambda seat: (-totals[seat], order.index(seat)))
        if forfeited is not None:
            ranked.remove(forfeited)
            ranked.append(forfeited)
        return ranked

    def outcome(self, state: State) -> dict:
        """Scores, places (1 = best, never tied), winners; provisional while the game runs."""
        totals = self.totals(state)
        ranked = self.ranking(totals, state["order"], state["forfeited"])
        places = [0] * PLAYERS
        for place, seat in enumerate(ranked, start=1):
            places[seat] = place
        return {"scores": totals, "places": places, "winners": [ranked[0]], "teams": None,
                "forfeited": state["forfeited"]}

    # -- the score sheet -------------------------------------------------------

    def sheet(self, state: State) -> dict:
        """The score sheet: 24 rows in 4 pulkas with marks, subtotals and totals (public only)."""
        running = [0] * PLAYERS
        pulkas = []
        for number, (deal_numbers, played) in enumerate(played_in_pulkas(state["history"]), start=1):
            pulka = self._sheet_pulka(state, number, deal_numbers, played)
            running = [total + sub for total, sub in zip(running, pulka["subtotal"], strict=True)]
            pulka["total"] = list(running)
            pulkas.append(pulka)
        return {"kind": self.slug, "order": list(state["order"]), "pulkas": pulkas,
                "totals": running, "ranking": self.ranking(running, state["order"], state["forfeited"])}

    def _sheet_pulka(self, state: State, number: int, deal_numbers: tuple[int, ...], played: list[dict]) -> dict:
        subtotal, premium = pulka_scores(played, deal_numbers, state["order"])
        records = {record["deal"]: record for record in played}
        spoiled_from = [self._first_miss(played, seat) for seat in range(PLAYERS)]
        deals = [self._sheet_row(state, deal, records.get(deal), premium, spoiled_from, deal == deal_numbers[-1])
                 for deal in deal_numbers]
        premium_summary = None
        if premium is not None:
            premium_summary = [{"on_premium": p["on_premium"], "bonus": p["bonus"],
                                "written_off": p["written_off"], "written_off_by": p["written_off_by"]}
                               for p in premium]
        return {"number": number, "deals": deals, "premium": premium_summary,
                "subtotal": subtotal, "total": None, "complete": premium is not None}

    @staticmethod
    def _first_miss(records: list[dict], seat: int) -> int | None:
        """The first deal of ``records`` where ``seat`` missed his bid, if any."""
        return next((r["deal"] for r in records if r["bids"][seat] != r["tricks"][seat]), None)

    def _sheet_row(self, state: State, deal_no: int, record: dict | None, premium: list[dict] | None,
                   spoiled_from: list[int | None], is_last_of_pulka: bool) -> dict:
        row: dict[str, Any] = {"deal": deal_no, "cards": cards_in_deal(deal_no),
               "dealer": dealer_of(state["first_dealer"], deal_no), "complete": record is not None}
        if record is not None:
            row.update({"trump": record["trump"], "trump_card": record["trump_card"]})
            cells = [self._complete_cell(record, seat, premium, is_last_of_pulka) for seat in range(PLAYERS)]
        elif deal_no == state["deal"]:
            row.update({"trump": state["trump"] if state["phase"] != Phase.TRUMP else None,
                        "trump_card": state["trump_card"]})
            cells = [self._current_cell(state, seat) for seat in range(PLAYERS)]
        else:
            row.update({"trump": None, "trump_card": None})
            cells = [self._empty_cell() for _ in range(PLAYERS)]
        for cell, first_miss in zip(cells, spoiled_from, strict=True):
            cell["spoiled"] = first_miss is not None and deal_no >= first_miss
        row["cells"] = cells
        return row

    @staticmethod
    def _empty_cell() -> dict:
        return {"bid": None, "tricks": None, "points": None, "joker": False, "spoiled": False,
                "premium": False, "bonus_source": False, "written_off_source": False, "auto": False}

    def _current_cell(self, state: State, seat: int) -> dict:
        cell = self._empty_cell()
        cell.update({"bid": state["bids"][seat],
                     "tricks": state["taken"][seat] if state["phase"] == Phase.PLAY else None,
                     "joker": state["joker_shown"][seat], "auto": state["auto"][seat]})
        return cell

    def _complete_cell(self, record: dict, seat: int, premium: list[dict] | None, is_last: bool) -> dict:
        cell = self._empty_cell()
        cell.update({"bid": record["bids"][seat], "tricks": record["tricks"][seat],
                     "points": record["points"][seat], "joker": record["joker"][seat],
                     "auto": record["auto"][seat]})
        if premium is not None:
            mine = premium[seat]
            cell["premium"] = is_last and mine["bonus"] > 0
            cell["bonus_source"] = mine["bonus_deal"] == record["deal"]
            cell["written_off_source"] = mine["written_off_deal"] == record["deal"]
        return cell

    # -- what a seat may see -------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict:
        """Everything ``seat`` may know (``None``: a spectator, who sees no hand).

        Keys: ``game seat players phase finished``; the deal: ``deal
        deals_total pulka cards dealer first_dealer order tuz``; trump:
        ``trump trump_card trump_chooser trump_chosen``; turn: ``actors turn``;
        bidding: ``bids bids_sum bids_status forbidden_bid``; play: ``taken
        trick leader last_trick``; cards: ``hand_sizes hand`` (own cards,
        sorted: jokers, trump, then ♠ ♥ ♣ ♦, aces first; only the first 3 for
        the trump chooser and none for the others while trump is being named;
        ``None`` for spectators), ``legal_actions``; results: ``totals
        forfeited outcome``. Never another hand, the rest of the deck or the
        seed.
        """
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        phase = state["phase"]
        trick = self._current_trick(state)
        over = phase == Phase.OVER
        return {
            "game": self.slug,
            "seat": seat,
            "players": PLAYERS,
            "phase": phase,
            "finished": over,
            "deal": state["deal"],
            "deals_total": LAST_DEAL,
            "pulka": pulka_of(state["deal"]),
            "cards": state["cards"],
            "dealer": state["dealer"],
            "first_dealer": state["first_dealer"],
            "order": list(state["order"]),
            "tuz": [dict(item) for item in state["tuz"]],
            "trump": state["trump"],
            "trump_card": state["trump_card"],
            "trump_chooser": state["trump_chooser"],
            "trump_chosen": state["trump_chooser"] is not None and phase != Phase.TRUMP,
            "actors": self.actors(state),
            "turn": state["turn"],
            "bids": list(state["bids"]),
            "bids_sum": sum(bid for bid in state["bids"] if bid is not None),
            "bids_status": bids_status(state["bids"], state["cards"]),
            "forbidden_bid": self._visible_forbidden_bid(state),
            "taken": list(state["taken"]),
            "trick": trick.to_dicts(),
            "leader": trick.lead.seat if trick.lead else (state["turn"] if phase == Phase.PLAY else None),
            "last_trick": clone(state["last_trick"]) if state["last_trick"] else None,
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "hand": self._visible_hand(state, seat),
            "legal_actions": self.legal_actions(state, seat) if seat is not None else [],
            "totals": self.totals(state),
            "forfeited": state["forfeited"],
            "outcome": self.outcome(state) if over else None,
        }

    def _visible_forbidden_bid(self, state: State) -> int | None:
        if state["phase"] != Phase.BID or state["turn"] != state["dealer"]:
            return None
        return self._forbidden_bid(state, state["dealer"])

    @staticmethod
    def _visible_hand(state: State, seat: int | None) -> list[str] | None:
        """The seat's own cards it may see: none for spectators, 3 for the trump chooser, else all."""
        if seat is None:
            return None
        hand = state["hands"][seat]
        if state["phase"] == Phase.TRUMP:
            hand = hand[:PACKET_FOR_FULL_HAND] if seat == state["trump_chooser"] else []
        return sort_hand(hand, state["trump"])
