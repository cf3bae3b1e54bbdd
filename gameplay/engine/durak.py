"""Durak ("Дурак"), podkidnoy and perevodnoy, for 2, 3, 4 players or 2×2, as specified in rules/durak.md.

36 cards (6..A), 6 each dealt one at a time clockwise from the dealer's left,
the next card turned for trump and put under the talon. A game is a series
of bouts: the attacker opens, the defender beats, takes or (perevodnoy)
transfers, the throwers throw in cards of the ranks on the table and press
"done"; then everybody draws up to 6. Players who run out of cards once the
talon is empty leave the game as winners; the last one holding cards is the
durak.

Phases: ``"attack"`` (the attacker must open the bout), ``"defend"`` (some
card is unbeaten and the defender is on the move; throwers may throw in out
of turn), ``"window"`` (the throwers' window: every card is beaten, or the
defender is taking — ``taking`` is true), ``"over"``. Each phase has its own
legal-move functions.

Who acts
--------
- ``actors()`` are the seats the game is waiting for: the attacker
  (``attack``), the defender (``defend``), or, in the window, every thrower
  who has not pressed "done" and still holds cards, whether or not he holds a
  card that fits (rules: nobody may learn who could have thrown in). A passive
  thrower (the defender is on the move) is not an actor, but
  ``legal_actions`` lists his throw-ins and ``apply`` accepts them: throwing
  in is out of turn. Nothing in a view, an event or a timer tells one seat
  what another seat could do; a seat's legal moves are in its own view only.
- ``accepts_stale(state, seat, action)`` is true for ``"throw"`` moves: the
  platform applies a throw-in made on an older version if it is still legal;
  otherwise ``apply`` refuses it with the reason (e.g. "The bout is full: no
  more cards can be thrown in.").

Decisions where the rules page leaves room
------------------------------------------
- First dealer: ``options["first_dealer"]`` if given, else
  ``int(shuffled(["0", "1", ...], seed, 0)[0])`` (deal number 0 of the seed).
  The deal itself is ``shuffled(durak_deck(), seed, 1)``: cards are dealt from
  its front, one at a time clockwise from the dealer's left; the next card is
  the trump card; the talon is the rest in order, with the trump card moved
  to its end (it is drawn last).
- First attacker: ``options["first_attacker"]`` if given (no trump is shown
  then); else the holder of the lowest trump, which is shown (``shown_trump``);
  else the dealer's left.
- One move puts cards of one rank: an attack, a throw-in and a transfer each
  hold one or more cards of a single rank (throwing two ranks is two moves),
  so ``legal_actions`` lists every such move concretely.
- Limits: an opening attack, every throw-in and every transfer keep both
  limits: at most 6 attack cards on the table in the bout (5 in bout 1) —
  transferred cards count, a transfer continues the same bout — and never
  more unbeaten cards than the defender holds.
- A transfer also needs the next player (clockwise, still in the game; in
  teams the defender's next opponent) to hold at least as many cards as will
  then lie unbeaten. In a two-player game that is the attacker, so the
  attack can be transferred back. Transfers may chain.
- The defender may beat in any order and with any card that beats; if after
  an attack, a throw-in, a beat or a transfer he cannot beat every unbeaten
  card (a complete matching) and has no legal transfer, he is made taking at
  once (event ``forced_take``). He may take only while some card is
  unbeaten; once everything is beaten the window opens.
- The window waits for every thrower who still holds cards and has not
  pressed "done"; each may throw in (if he has a card that fits) or press
  "done" (the two-player game: the attacker says "Бито", or lets the taker
  take). It ends the bout without waiting for anybody only for a public
  reason: no more cards may be added (the bout holds its 6, first bout 5,
  attack cards, or the defender has no card left to cover another), or no
  thrower holds a card. A thrower who pressed "done" may not throw in again
  until someone else throws in; every throw-in makes every thrower active
  again (``done`` is cleared) and, if the defender is not taking, puts him
  back on the move.
- "Done" in advance: a thrower may say "done for me in this bout" while the
  bout is being attacked or defended (``may_order_ahead``; the bout number is
  ``ahead_scope``). The platform keeps that order private and applies the
  move ``ahead_action`` (``done``) whenever the window waits for him in that
  bout, whatever his cards, at his secret release time like any standing
  order (never at once); it is recorded as his move.
- The "attacker" after transfers is the last transferrer (he becomes the
  attacker, the rules say). Drawing starts with him, then the other players
  still in the game counter-clockwise from him (in teams the defender's
  partner too: everybody draws), the defender last.
- Leaving: a player leaves only at the end of a bout, after drawing, when he
  has no cards and the talon is empty. During a bout a player with no cards
  simply has nothing to play. Players who have left never throw in, defend
  or attack.
- Next attacker: after a discard ("отбой") the defender, or, if he has left,
  the next player clockwise still in the game; after a take the next player
  clockwise after the defender still in the game (in teams: his next
  opponent still in the game). The defender is the attacker's next player
  still in the game (teams: next opponent still in the game).
- End: without teams, when at most one player is still in the game: that
  player is the durak; if nobody is left, the players who left in that last
  bout draw (½ each), earlier leavers are winners. In teams, when both
  players of a pair have left that pair wins (½ each); if both pairs are out
  in the same bout it is a draw (¼ each, ½ per pair); ``durak`` is ``None``
  in teams except after a forfeit.
- Places: competition ranking by points (1 + number of players with more
  points): winners 1, the durak ``players``, a losing pair 3, drawn players
  share the place after the winners.
- Forfeit (time-out or resignation): the game ends; the seat is the durak
  and every other player a winner (teams: his pair loses, the other pair
  wins ½ each). A player who has already left (won) cannot forfeit, except
  in teams while his partner still plays.
- Clocks (``timers``): attacker and defender expire with a loss
  (``"forfeit"``) after the reserve; throwers' clocks in the window (every
  thrower it waits for) expire with an automatic "done". ``restart`` is true in the state produced by a
  throw-in (state flag ``defender_clock_restart``, cleared by the next move):
  it restarts the defender's clock, and in the window while the defender is
  taking it restarts the throwers' clocks too (a new card is new information).
- Every action may carry ``"auto": true`` (added by the platform to automatic
  moves); it changes nothing in the rules and is echoed in the events.
- Public information: the trump card while it is in the talon (the suit
  always), counts of talon, discard pile and hands, the table, the shown
  lowest trump, the cards each player picked up from the table and still
  holds (``taken``), and the last finished bout's cards (``last_bout``).

Rules versions (changelog)
--------------------------
- 1: the throwers' window waited only for the throwers who held a card that
  fitted, and ended at once when nobody did (which told everybody who could
  throw in).
- 2: the window waits for every thrower who still holds cards (see above).
  A game started under version 1 is upgraded by ``upgrade`` at the next safe
  point, the start of a bout (phase ``attack``): the bout in progress
  finishes under version 1, every later bout plays under version 2. The
  platform records the upgrade as a move, so the game replays.

State layout (a plain JSON dict)
--------------------------------
``game rules`` (rules version, see above) ``seed options players teams`` (pairs or ``None``) ``dealer trump
trump_card talon`` (top first, trump card last) ``discard hands taken``
(per seat) ``shown_trump`` (``{"seat", "card"}`` or ``None``) ``bout``
(number of the current bout) ``bouts_played phase attacker defender opener``
(who opened the bout) ``taking table`` (``[{"attack", "beat"}]``) ``done``
(throwers who pressed done) ``defender_clock_restart left``
(``[{"seat", "bout"}]`` in leaving order) ``last_bout result``
(``{"winners", "losers", "drawn", "durak"}`` once over) ``forfeited``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Any

from .cards import DISPLAY_SUIT_ORDER, SUITS, describe, is_card, make_deck, rank_value, suit_of, suit_symbol
from .core import N_, Action, Engine, Event, IllegalMove, InvalidSetup, State, clone, parse_envelope, shuffled

HAND_SIZE = 6
BOUT_LIMIT = 6
FIRST_BOUT_LIMIT = 5
DEALER_DRAW_NO = 0
DEAL_NO = 1
PODKIDNOY = "podkidnoy"
PEREVODNOY = "perevodnoy"
MODES = (PODKIDNOY, PEREVODNOY)
TEAM_PLAYERS = 4
PAIRS = [[0, 2], [1, 3]]

WIN_POINTS = 1.0
DRAW_POINTS = 0.5
LOSS_POINTS = 0.0


class Phase:
    """The phases of a game, stored in the state as plain strings."""

    ATTACK = "attack"
    DEFEND = "defend"
    WINDOW = "window"
    OVER = "over"


class Role:
    """Role letters shown per seat in the view."""

    ATTACKER = "A"
    DEFENDER = "D"
    THROWER = "T"
    TAKING = "Z"
    WON = "won"
    DURAK = "durak"
    LOST = "lost"
    DRAW = "draw"


ACTION_KEYS = {
    "attack": {"type", "cards"},
    "throw": {"type", "cards"},
    "beat": {"type", "attack", "card"},
    "transfer": {"type", "cards"},
    "take": {"type"},
    "done": {"type"},
}

UNEXPECTED_FIELDS = {
    "attack": N_("Unexpected field(s) in an attack move: %(fields)s."),
    "throw": N_("Unexpected field(s) in a throw-in move: %(fields)s."),
    "beat": N_("Unexpected field(s) in a beat move: %(fields)s."),
    "transfer": N_("Unexpected field(s) in a transfer move: %(fields)s."),
    "take": N_("Unexpected field(s) in a take move: %(fields)s."),
    "done": N_("Unexpected field(s) in a done move: %(fields)s."),
}

MSG_BOUT_FULL = N_("The bout is full: no more cards can be thrown in.")
MSG_DEFENDER_FULL = N_("The defender cannot be given more unbeaten cards than the defender's hand holds.")
MSG_TOO_MANY = N_("Too many cards: only %(room)s more may be put on the table now.")
MSG_NOT_OPENED = N_("The bout has not been opened yet: the attacker moves first.")
MSG_NO_BOUT_TO_THROW = N_("No bout is open: wait for the attacker to attack.")
MSG_RECEIVER_FULL = N_("You cannot transfer: the next player would get %(unbeaten)s unbeaten cards but holds "
                       "only %(cards)s.")
MSG_ALREADY_TAKING = N_("You have decided to take the cards.")


# -- cards -----------------------------------------------------------------------------------------


def durak_deck() -> list[str]:
    """The 36 Durak cards in canonical order: 6..A of S C D H."""
    return make_deck(lowest_rank="6")


DECK = frozenset(durak_deck())


def is_durak_card(code: object) -> bool:
    """True for a card string of the 36-card deck (6..A)."""
    return is_card(code) and code in DECK


def copy_pairs(pairs: list[list[int]] | None) -> list[list[int]] | None:
    """A copy of the teams' pairs (or ``None``)."""
    return [list(pair) for pair in pairs] if pairs is not None else None


def beats(card: str, attack: str, trump: str) -> bool:
    """True if ``card`` beats ``attack``: a higher card of its suit, or a trump on a non-trump."""
    if suit_of(card) == suit_of(attack):
        return rank_value(card) > rank_value(attack)
    return suit_of(card) == trump


def card_cost(card: str, trump: str) -> tuple[int, int, int]:
    """Sort key, cheapest first: non-trumps before trumps, then rank, then suit order."""
    return (int(suit_of(card) == trump), rank_value(card), SUITS.index(card[1]))


def lowest_card(cards: Iterable[str], trump: str) -> str:
    """The cheapest card: the lowest non-trump, or the lowest trump if all are trumps."""
    return min(cards, key=lambda card: card_cost(card, trump))


def sort_durak_hand(cards: Iterable[str], trump: str) -> list[str]:
    """A hand for display: by suit (alternating colours, trumps last), each suit from the lowest rank up."""
    order = DISPLAY_SUIT_ORDER.replace(trump, "") + trump
    return sorted(cards, key=lambda card: (order.index(card[1]), rank_value(card)))


def can_beat_all(unbeaten: list[str], hand: list[str], trump: str) -> bool:
    """True if each unbeaten card can be beaten by a different card of ``hand`` (bipartite matching)."""
    if len(unbeaten) > len(hand):
        return False
    options = [[i for i, card in enumerate(hand) if beats(card, attack, trump)] for attack in unbeaten]
    owner: dict[int, int] = {}

    def assign(attack_index: int, tried: set[int]) -> bool:
        for card_index in options[attack_index]:
            if card_index in tried:
                continue
            tried.add(card_index)
            if card_index not in owner or assign(owner[card_index], tried):
                owner[card_index] = attack_index
                return True
        return False

    return all(assign(index, set()) for index in range(len(unbeaten)))


def same_rank_sets(cards: Iterable[str], max_size: int, trump: str) -> list[list[str]]:
    """Every non-empty set of cards of one rank among ``cards``, at most ``max_size`` cards, cheapest first."""
    by_rank: dict[str, list[str]] = {}
    for card in sorted(cards, key=lambda c: card_cost(c, trump)):
        by_rank.setdefault(card[0], []).append(card)
    sets: list[list[str]] = []
    for same in by_rank.values():
        for size in range(1, min(max_size, len(same)) + 1):
            sets.extend(list(chosen) for chosen in combinations(same, size))
    return sets


def deal_hands(deck: list[str], dealer: int, players: int) -> tuple[list[list[str]], str, list[str]]:
    """Deal 6 each one at a time clockwise from the dealer's left; returns (hands, trump card, talon)."""
    hands: list[list[str]] = [[] for _ in range(players)]
    position = 0
    for _ in range(HAND_SIZE):
        for offset in range(1, players + 1):
            hands[(dealer + offset) % players].append(deck[position])
            position += 1
    trump_card = deck[position]
    return hands, trump_card, deck[position + 1:] + [trump_card]


def lowest_trump(hands: list[list[str]], trump: str) -> dict | None:
    """``{"seat", "card"}`` of the lowest trump in any hand, or ``None`` if nobody holds a trump."""
    held = [(rank_value(card), seat, card) for seat, hand in enumerate(hands) for card in hand
            if suit_of(card) == trump]
    if not held:
        return None
    _, seat, card = min(held)
    return {"seat": seat, "card": card}


def draw_first_dealer(seed: int, players: int) -> int:
    """The first dealer drawn from the seed (deal number 0)."""
    return int(shuffled([str(seat) for seat in range(players)], seed, DEALER_DRAW_NO)[0])


def _is_seat_number(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- seats and roles (functions of the state) ------------------------------------------------------


def left_seats(state: State) -> list[int]:
    """Seats that have left the game (won), in leaving order."""
    return [entry["seat"] for entry in state["left"]]


def in_game(state: State, seat: int) -> bool:
    return seat not in left_seats(state)


def seats_in_game(state: State) -> list[int]:
    gone = set(left_seats(state))
    return [seat for seat in range(state["players"]) if seat not in gone]


def are_partners(state: State, first: int, second: int) -> bool:
    """True in teams for two different seats of the same pair (seats 0+2, 1+3)."""
    return state["teams"] is not None and first != second and first % 2 == second % 2


def next_in_game(state: State, seat: int) -> int | None:
    """The next seat clockwise after ``seat`` that is still in the game."""
    players = state["players"]
    for offset in range(1, players):
        candidate = (seat + offset) % players
        if in_game(state, candidate):
            return candidate
    return None


def next_opponent(state: State, seat: int) -> int | None:
    """The next seat clockwise still in the game that is not ``seat``'s partner (anyone without teams)."""
    players = state["players"]
    for offset in range(1, players):
        candidate = (seat + offset) % players
        if in_game(state, candidate) and not are_partners(state, seat, candidate):
            return candidate
    return None


def throwers(state: State) -> list[int]:
    """Everybody still in the game except the defender (in teams: only the defender's opponents)."""
    defender = state["defender"]
    return [seat for seat in seats_in_game(state) if seat != defender and not are_partners(state, seat, defender)]


def drawing_order(state: State) -> list[int]:
    """The attacker, the others still in the game counter-clockwise from him, the defender last."""
    players, attacker, defender = state["players"], state["attacker"], state["defender"]
    ring = [(attacker - offset) % players for offset in range(players)]
    return [seat for seat in ring if seat != defender and in_game(state, seat)] + [defender]


# -- the table -------------------------------------------------------------------------------------


def attack_cards(state: State) -> list[str]:
    return [pair["attack"] for pair in state["table"]]


def unbeaten_cards(state: State) -> list[str]:
    return [pair["attack"] for pair in state["table"] if pair["beat"] is None]


def table_cards(state: State) -> list[str]:
    return [card for pair in state["table"] for card in (pair["attack"], pair["beat"]) if card is not None]


def table_ranks(state: State) -> set[str]:
    return {card[0] for card in table_cards(state)}


def any_beaten(state: State) -> bool:
    return any(pair["beat"] is not None for pair in state["table"])


def bout_limit(state: State) -> int:
    """Attack cards allowed in the current bout: 5 in the first bout, 6 later."""
    return FIRST_BOUT_LIMIT if state["bout"] == 1 else BOUT_LIMIT


def room_on_table(state: State) -> int:
    """How many more attack cards may be put now (both limits); the opening attack's maximum before it."""
    by_bout = bout_limit(state) - len(state["table"])
    by_defender = len(state["hands"][state["defender"]]) - len(unbeaten_cards(state))
    return max(0, min(by_bout, by_defender))


class DurakEngine(Engine):
    """The Durak engine (see the module docstring for rules decisions and the state layout)."""

    slug = "durak"
    name = N_("Durak")
    min_players = 2
    max_players = 4
    rules_version = 2
    ahead_action = {"type": "done"}

    # -- options -----------------------------------------------------------------------

    def default_options(self) -> dict:
        return {"mode": PODKIDNOY, "teams": False, "first_dealer": None, "first_attacker": None}

    def validate_options(self, options: dict) -> dict:
        """Defaults filled in; ``InvalidSetup`` (a ``ValueError``) for unknown keys or bad values."""
        options = super().validate_options(options)
        if options["mode"] not in MODES:
            raise InvalidSetup(N_('The mode must be "podkidnoy" or "perevodnoy", not %(mode)s.'),
                               mode=repr(options["mode"]))
        if not isinstance(options["teams"], bool):
            raise InvalidSetup(N_('The option "teams" must be true or false.'))
        for key in ("first_dealer", "first_attacker"):
            value = options[key]
            if value is not None and (not _is_seat_number(value) or value < 0):
                raise InvalidSetup(N_("The option %(option)s must be a seat number or null, not %(value)s."),
                                   option=key, value=repr(value))
        return options

    def check_options_for_players(self, options: dict, players: int) -> dict:
        """The validated options if they suit ``players``; ``InvalidSetup`` (a ``ValueError``) otherwise.

        Teams need exactly 4 players; ``first_dealer`` and ``first_attacker``
        must be seats of the table. The platform may call this when a table
        is created; ``start`` calls it too.
        """
        self.check_players(players)
        options = self.validate_options(options)
        if options["teams"] and players != TEAM_PLAYERS:
            raise InvalidSetup(N_("Durak in pairs (2×2) is played by exactly 4 players, not %(players)s."),
                               players=players)
        for key in ("first_dealer", "first_attacker"):
            if options[key] is not None and options[key] >= players:
                raise InvalidSetup(
                    N_("The option %(option)s names seat %(seat)s, but the seats are 0 to %(last)s."),
                    option=key, seat=options[key], last=players - 1)
        return options

    # -- setting up --------------------------------------------------------------------

    def start(self, players: int = 2, options: dict | None = None, seed: int = 0,
              rules_version: int | None = None) -> State:
        """A new game: dealt, trump turned, lowest trump shown, the first bout waiting for its attacker."""
        options = self.check_options_for_players(options or {}, players)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("The seed must be an integer.")
        rules = self.check_rules_version(rules_version)
        dealer = options["first_dealer"]
        if dealer is None:
            dealer = draw_first_dealer(seed, players)
        hands, trump_card, talon = deal_hands(shuffled(durak_deck(), seed, DEAL_NO), dealer, players)
        trump = suit_of(trump_card)
        assert trump is not None
        state: State = {
            "game": self.slug, "rules": rules, "seed": seed, "options": options, "players": players,
            "teams": [list(pair) for pair in PAIRS] if options["teams"] else None,
            "dealer": dealer, "trump": trump, "trump_card": trump_card, "talon": talon, "discard": [],
            "hands": hands, "taken": [[] for _ in range(players)], "shown_trump": None,
            "bout": 1, "bouts_played": 0, "phase": Phase.ATTACK, "attacker": None, "defender": None,
            "opener": None, "taking": False, "table": [], "done": [], "defender_clock_restart": False,
            "left": [], "last_bout": None, "result": None, "forfeited": None,
        }
        attacker = options["first_attacker"]
        if attacker is None:
            state["shown_trump"] = lowest_trump(hands, trump)
            attacker = state["shown_trump"]["seat"] if state["shown_trump"] else (dealer + 1) % players
        self._set_bout_roles(state, attacker)
        return state

    @staticmethod
    def _set_bout_roles(state: State, attacker: int) -> None:
        defender = next_opponent(state, attacker)
        assert defender is not None
        state.update({"attacker": attacker, "defender": defender, "opener": attacker})

    # -- whose turn --------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["phase"] == Phase.OVER

    def actors(self, state: State) -> list[int]:
        """The seats the game waits for (passive throwers may also throw in, see the module docstring)."""
        phase = state["phase"]
        if phase == Phase.ATTACK:
            return [state["attacker"]]
        if phase == Phase.DEFEND:
            return [state["defender"]]
        if phase == Phase.WINDOW:
            return self.waiting_throwers(state)
        return []

    def waiting_throwers(self, state: State) -> list[int]:
        """The throwers the window waits for: every thrower with cards who has not pressed done.

        None when no card may be added (a public reason: the bout is full or
        the defender could cover no more). Under rules version 1 only the
        throwers holding a card that fits were waited for.
        """
        if state["phase"] != Phase.WINDOW:
            return []
        if state["rules"] == 1:
            return [seat for seat in throwers(state) if seat not in state["done"] and self._legal_throws(state, seat)]
        if room_on_table(state) == 0:
            return []
        return [seat for seat in throwers(state) if seat not in state["done"] and state["hands"][seat]]

    def ahead_scope(self, state: State) -> int | None:
        """The bout number: a "done" said in advance holds for this bout only."""
        return None if state["phase"] == Phase.OVER else state["bout"]

    def may_order_ahead(self, state: State, seat: int) -> bool:
        """A thrower may say "done" in advance while the bout is attacked or defended (rules version 2)."""
        return (state["rules"] >= 2 and state["phase"] in (Phase.ATTACK, Phase.DEFEND)
                and _is_seat_number(seat) and seat in throwers(state))

    def upgrade(self, state: State) -> State | None:
        """A version 1 game moves to version 2 at the start of a bout (see the changelog)."""
        if state["rules"] == 1 and state["phase"] == Phase.ATTACK:
            upgraded = clone(state)
            upgraded["rules"] = 2
            return upgraded
        return None

    def accepts_stale(self, state: State, seat: int, action: Action, made_at: int | None = None) -> bool:
        """True for throw-ins: they are judged against the current state even if made on an older one."""
        return isinstance(action, dict) and action.get("type") == "throw"

    def timers(self, state: State) -> list[dict]:
        """Who is on the clock: attacker or defender (a loss after the reserve), or the throwers (auto "done")."""
        phase = state["phase"]
        restart = bool(state["defender_clock_restart"])
        if phase == Phase.ATTACK:
            return [self._timer(state["attacker"], "attacker", "forfeit", True, False)]
        if phase == Phase.DEFEND:
            return [self._timer(state["defender"], "defender", "forfeit", True, restart)]
        if phase == Phase.WINDOW:
            return [self._timer(seat, "throwers", "auto", False, restart) for seat in self.waiting_throwers(state)]
        return []

    @staticmethod
    def _timer(seat: int, clock: str, expiry: str, reserve: bool, restart: bool) -> dict:
        return {"seat": seat, "clock": clock, "expiry": expiry, "reserve": reserve, "restart": restart}

    # -- legal actions, per phase --------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (a passive thrower's throw-ins included)."""
        phase = state["phase"]
        if phase == Phase.OVER or not _is_seat_number(seat) or not 0 <= seat < state["players"]:
            return []
        if not in_game(state, seat):
            return []
        if phase == Phase.ATTACK:
            return self._legal_attacks(state) if seat == state["attacker"] else []
        if seat == state["defender"]:
            return self._legal_defences(state) if phase == Phase.DEFEND else []
        if seat in state["done"]:
            return []
        throws = [{"type": "throw", "cards": cards} for cards in self._legal_throws(state, seat)]
        if seat in self.waiting_throwers(state):
            return throws + [{"type": "done"}]
        return throws

    def _legal_attacks(self, state: State) -> list[Action]:
        hand = state["hands"][state["attacker"]]
        return [{"type": "attack", "cards": cards}
                for cards in same_rank_sets(hand, room_on_table(state), state["trump"])]

    def _legal_throws(self, state: State, seat: int) -> list[list[str]]:
        """The card sets ``seat`` may throw in now (ignoring whether he pressed done)."""
        if state["phase"] not in (Phase.DEFEND, Phase.WINDOW) or seat not in throwers(state):
            return []
        room = room_on_table(state)
        if room == 0:
            return []
        ranks = table_ranks(state)
        playable = [card for card in state["hands"][seat] if card[0] in ranks]
        return same_rank_sets(playable, room, state["trump"])

    def _legal_defences(self, state: State) -> list[Action]:
        return self._legal_beats(state) + self._legal_transfers(state) + [{"type": "take"}]

    def _legal_beats(self, state: State) -> list[Action]:
        trump = state["trump"]
        hand = sort_durak_hand(state["hands"][state["defender"]], trump)
        return [{"type": "beat", "attack": attack, "card": card}
                for attack in unbeaten_cards(state) for card in hand if beats(card, attack, trump)]

    def _legal_transfers(self, state: State) -> list[Action]:
        if self._transfer_refusal(state) is not None:
            return []
        rank = state["table"][0]["attack"][0]
        hand = state["hands"][state["defender"]]
        same = [card for card in hand if card[0] == rank]
        room = self._transfer_room(state)
        return [{"type": "transfer", "cards": cards} for cards in same_rank_sets(same, room, state["trump"])]

    def _transfer_refusal(self, state: State) -> IllegalMove | None:
        """Why the defender cannot transfer now at all (whatever cards he would add), or ``None``."""
        if state["options"]["mode"] != PEREVODNOY:
            return IllegalMove(N_("Transfers are played only in perevodnoy (transfer) Durak."))
        if state["phase"] != Phase.DEFEND:
            return IllegalMove(MSG_ALREADY_TAKING if state["taking"]
                               else N_("You can transfer only while cards on the table are unbeaten."))
        if any_beaten(state):
            return IllegalMove(N_("You have already beaten a card in this bout: you can no longer transfer."))
        if len({card[0] for card in attack_cards(state)}) != 1:
            return IllegalMove(N_("You can transfer only when every attack card on the table has the same rank."))
        if self._transfer_room(state) >= 1:
            return None
        if len(state["table"]) >= bout_limit(state):
            return IllegalMove(MSG_BOUT_FULL)
        receiver = next_opponent(state, state["defender"])
        assert receiver is not None
        return IllegalMove(MSG_RECEIVER_FULL, unbeaten=len(state["table"]) + 1,
                           cards=len(state["hands"][receiver]))

    @staticmethod
    def _transfer_room(state: State) -> int:
        """How many cards a transfer may add: the bout limit and the receiver's hand both count."""
        receiver = next_opponent(state, state["defender"])
        if receiver is None:
            return 0
        on_table = len(state["table"])
        return max(0, min(bout_limit(state), len(state["hands"][receiver])) - on_table)

    # -- applying a move -----------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The state after ``seat`` plays ``action``, and the public events; ``state`` is untouched."""
        self._check_seat(state, seat)
        action_type, is_auto = self._parse_envelope(action)
        new_state = clone(state)
        new_state["defender_clock_restart"] = False
        handler = {
            "attack": self._apply_attack, "throw": self._apply_throw, "beat": self._apply_beat,
            "transfer": self._apply_transfer, "take": self._apply_take, "done": self._apply_done,
        }[action_type]
        events = handler(new_state, seat, action)
        events[0]["auto"] = is_auto
        events.extend(self._settle(new_state))
        return new_state, events

    @staticmethod
    def _check_seat(state: State, seat: Any) -> None:
        if state["phase"] == Phase.OVER:
            raise IllegalMove(N_("The game is over."))
        if not _is_seat_number(seat) or not 0 <= seat < state["players"]:
            raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
        if not in_game(state, seat):
            raise IllegalMove(N_("You have no cards left and have left the game: you have no more moves."))

    @staticmethod
    def _parse_envelope(action: Any) -> tuple[str, bool]:
        """The action's type and its ``auto`` flag, after checking its shape."""
        return parse_envelope(action, ACTION_KEYS, N_("Unknown kind of move %(kind)s: expected attack, throw, beat, transfer, take or done."), UNEXPECTED_FIELDS)

    @staticmethod
    def _parse_cards(action: Action, hand: list[str]) -> list[str]:
        """The move's ``cards``: a non-empty list of distinct cards of one rank, all in ``hand``."""
        cards = action.get("cards")
        if not isinstance(cards, list) or not cards:
            raise IllegalMove(N_('List the cards in "cards", such as ["7H", "7S"].'))
        for card in cards:
            if not is_durak_card(card):
                raise IllegalMove(N_("%(card)s is not a card of this game (6 to A of ♠ ♣ ♦ ♥)."),
                                  card=repr(card))
        for card in cards:
            if cards.count(card) > 1:
                raise IllegalMove(N_("You named %(card)s twice."), card=describe(card))
            if card not in hand:
                raise IllegalMove(N_("You do not hold %(card)s."), card=describe(card))
        if len({card[0] for card in cards}) > 1:
            raise IllegalMove(N_("Put cards of one rank at a time."))
        return list(cards)

    @staticmethod
    def _play_from_hand(state: State, seat: int, cards: list[str]) -> None:
        for card in cards:
            state["hands"][seat].remove(card)
            if card in state["taken"][seat]:
                state["taken"][seat].remove(card)

    @staticmethod
    def _check_room(state: State, count: int) -> None:
        """``IllegalMove`` naming the limit if ``count`` more attack cards do not fit now."""
        room = room_on_table(state)
        if count <= room:
            return
        if room == 0:
            if len(state["table"]) >= bout_limit(state):
                raise IllegalMove(MSG_BOUT_FULL)
            raise IllegalMove(MSG_DEFENDER_FULL)
        raise IllegalMove(MSG_TOO_MANY, room=room)

    def _apply_attack(self, state: State, seat: int, action: Action) -> list[Event]:
        if state["phase"] != Phase.ATTACK:
            raise IllegalMove(N_("The bout is already open: throw in cards of the ranks on the table."))
        if seat != state["attacker"]:
            raise IllegalMove(N_("It is not your turn: only the attacker opens the bout."))
        cards = self._parse_cards(action, state["hands"][seat])
        self._check_room(state, len(cards))
        self._play_from_hand(state, seat, cards)
        state["table"] = [{"attack": card, "beat": None} for card in cards]
        state["phase"] = Phase.DEFEND
        return [{"type": "attack", "seat": seat, "cards": cards, "defender": state["defender"]}]

    def _apply_throw(self, state: State, seat: int, action: Action) -> list[Event]:
        self._check_thrower(state, seat)
        if seat in state["done"]:
            raise IllegalMove(N_("You have pressed done: you can throw in again after another player throws in."))
        cards = self._parse_cards(action, state["hands"][seat])
        ranks = table_ranks(state)
        if cards[0][0] not in ranks:
            raise IllegalMove(N_("You can only throw in cards of a rank already on the table (%(ranks)s)."),
                              ranks=", ".join(sorted({describe(card)[:-1] for card in table_cards(state)})))
        self._check_room(state, len(cards))
        self._play_from_hand(state, seat, cards)
        state["table"].extend({"attack": card, "beat": None} for card in cards)
        state["done"] = []
        state["defender_clock_restart"] = True
        if not state["taking"]:
            state["phase"] = Phase.DEFEND
        return [{"type": "throw", "seat": seat, "cards": cards, "defender": state["defender"]}]

    @staticmethod
    def _check_thrower(state: State, seat: int) -> None:
        if state["phase"] == Phase.ATTACK:
            raise IllegalMove(MSG_NO_BOUT_TO_THROW)
        if seat == state["defender"]:
            raise IllegalMove(N_("You are defending: you cannot throw in cards."))
        if are_partners(state, seat, state["defender"]):
            raise IllegalMove(N_("You do not throw in cards to your partner."))

    def _apply_beat(self, state: State, seat: int, action: Action) -> list[Event]:
        self._check_defender_on_move(state, seat, N_("Only the defender beats cards."))
        attack, card = action.get("attack"), action.get("card")
        if not is_durak_card(attack):
            raise IllegalMove(N_('Name the card to beat in "attack", such as "7H".'))
        if not is_durak_card(card):
            raise IllegalMove(N_('Name your card in "card", such as "9H".'))
        pair = next((pair for pair in state["table"] if pair["attack"] == attack), None)
        if pair is None:
            raise IllegalMove(N_("%(card)s is not on the table."), card=describe(attack))
        if pair["beat"] is not None:
            raise IllegalMove(N_("%(card)s is already beaten."), card=describe(attack))
        if card not in state["hands"][seat]:
            raise IllegalMove(N_("You do not hold %(card)s."), card=describe(card))
        self._check_beats(card, attack, state["trump"])
        self._play_from_hand(state, seat, [card])
        pair["beat"] = card
        return [{"type": "beat", "seat": seat, "attack": attack, "card": card}]

    @staticmethod
    def _check_beats(card: str, attack: str, trump: str) -> None:
        if beats(card, attack, trump):
            return
        if suit_of(attack) == trump:
            raise IllegalMove(N_("%(attack)s is a trump: only a higher trump beats it."), attack=describe(attack))
        raise IllegalMove(N_("%(card)s does not beat %(attack)s: play a higher card of the same suit or a "
                             "trump (%(trump)s)."), card=describe(card), attack=describe(attack),
                          trump=suit_symbol(trump))

    @staticmethod
    def _check_defender_on_move(state: State, seat: int, not_defender: str) -> None:
        """``IllegalMove`` unless ``seat`` is the defender and some card waits for him."""
        if state["phase"] == Phase.ATTACK:
            raise IllegalMove(MSG_NOT_OPENED)
        if seat != state["defender"]:
            raise IllegalMove(not_defender)
        if state["taking"]:
            raise IllegalMove(MSG_ALREADY_TAKING)
        if state["phase"] != Phase.DEFEND:
            raise IllegalMove(N_("Every card on the table is beaten: wait for the throwers."))

    def _apply_transfer(self, state: State, seat: int, action: Action) -> list[Event]:
        if state["options"]["mode"] != PEREVODNOY:
            raise IllegalMove(N_("Transfers are played only in perevodnoy (transfer) Durak."))
        self._check_defender_on_move(state, seat, N_("Only the defender can transfer the attack."))
        refusal = self._transfer_refusal(state)
        if refusal is not None:
            raise refusal
        cards = self._parse_cards(action, state["hands"][seat])
        rank = state["table"][0]["attack"][0]
        if cards[0][0] != rank:
            raise IllegalMove(N_("Transfer with cards of the rank on the table (%(rank)s)."),
                              rank=describe(state["table"][0]["attack"])[:-1])
        self._check_transfer_fits(state, len(cards))
        receiver = next_opponent(state, seat)
        self._play_from_hand(state, seat, cards)
        state["table"].extend({"attack": card, "beat": None} for card in cards)
        state.update({"attacker": seat, "defender": receiver, "done": []})
        return [{"type": "transfer", "seat": seat, "cards": cards, "defender": receiver}]

    @staticmethod
    def _check_transfer_fits(state: State, count: int) -> None:
        total = len(state["table"]) + count
        if total > bout_limit(state):
            raise IllegalMove(N_("At most %(limit)s cards may be played in this bout."), limit=bout_limit(state))
        receiver = next_opponent(state, state["defender"])
        assert receiver is not None
        held = len(state["hands"][receiver])
        if total > held:
            raise IllegalMove(MSG_RECEIVER_FULL, unbeaten=total, cards=held)

    def _apply_take(self, state: State, seat: int, action: Action) -> list[Event]:
        if state["phase"] == Phase.WINDOW and seat == state["defender"] and not state["taking"]:
            raise IllegalMove(N_("Every card on the table is beaten: there is nothing to take."))
        self._check_defender_on_move(state, seat, N_("Only the defender takes the cards."))
        self._start_taking(state)
        return [{"type": "take", "seat": seat}]

    @staticmethod
    def _start_taking(state: State) -> None:
        state.update({"taking": True, "phase": Phase.WINDOW, "done": []})

    def _apply_done(self, state: State, seat: int, action: Action) -> list[Event]:
        self._check_thrower(state, seat)
        if state["phase"] != Phase.WINDOW:
            raise IllegalMove(N_("Wait: you can press done once every card is beaten or the defender takes."))
        if seat in state["done"]:
            raise IllegalMove(N_("You have already pressed done."))
        if seat not in self.waiting_throwers(state):
            if state["rules"] == 1:
                raise IllegalMove(N_("You have nothing to throw in: the bout does not wait for you."))
            raise IllegalMove(N_("You have no cards left: the bout does not wait for you."))
        state["done"].append(seat)
        return [{"type": "done", "seat": seat}]

    # -- after every move: forced take, window, end of bout ---------------------------------

    def _settle(self, state: State) -> list[Event]:
        events: list[Event] = []
        if state["phase"] == Phase.DEFEND:
            if not unbeaten_cards(state):
                state.update({"phase": Phase.WINDOW, "done": []})
            elif not self._can_defend(state):
                self._start_taking(state)
                events.append({"type": "forced_take", "seat": state["defender"]})
        if state["phase"] == Phase.WINDOW and not self.waiting_throwers(state):
            events.extend(self._end_bout(state))
        return events

    def _can_defend(self, state: State) -> bool:
        """True if the defender can beat every unbeaten card, or transfer."""
        hand = state["hands"][state["defender"]]
        return can_beat_all(unbeaten_cards(state), hand, state["trump"]) or bool(self._legal_transfers(state))

    def _end_bout(self, state: State) -> list[Event]:
        defender, cards = state["defender"], table_cards(state)
        result = "take" if state["taking"] else "discard"
        if state["taking"]:
            state["hands"][defender].extend(cards)
            state["taken"][defender].extend(cards)
        else:
            state["discard"].extend(cards)
        state["last_bout"] = {"bout": state["bout"], "result": result, "attacker": state["attacker"],
                              "defender": defender, "table": [dict(pair) for pair in state["table"]]}
        state.update({"table": [], "done": [], "bouts_played": state["bouts_played"] + 1})
        events: list[Event] = [{"type": "bout_end", "bout": state["bout"], "result": result,
                                "defender": defender, "cards": cards}]
        events.extend(self._draw_up(state))
        events.extend(self._leave_without_cards(state))
        finished = self._finish_if_over(state)
        if finished is not None:
            events.append(finished)
            return events
        attacker = self._next_attacker(state, defender, result)
        state.update({"bout": state["bout"] + 1, "phase": Phase.ATTACK, "taking": False})
        self._set_bout_roles(state, attacker)
        events.append({"type": "bout", "bout": state["bout"], "attacker": attacker, "defender": state["defender"]})
        return events

    @staticmethod
    def _draw_up(state: State) -> list[Event]:
        """Everybody draws up to 6 in drawing order; the events give counts only."""
        events: list[Event] = []
        for seat in drawing_order(state):
            need = HAND_SIZE - len(state["hands"][seat])
            if need <= 0 or not state["talon"]:
                continue
            drawn = state["talon"][:need]
            del state["talon"][:need]
            state["hands"][seat].extend(drawn)
            events.append({"type": "drew", "seat": seat, "count": len(drawn), "talon": len(state["talon"])})
        return events

    @staticmethod
    def _leave_without_cards(state: State) -> list[Event]:
        if state["talon"]:
            return []
        events: list[Event] = []
        for seat in seats_in_game(state):
            if not state["hands"][seat]:
                state["left"].append({"seat": seat, "bout": state["bout"]})
                events.append({"type": "left", "seat": seat, "bout": state["bout"]})
        return events

    @staticmethod
    def _next_attacker(state: State, defender: int, result: str) -> int:
        if result == "discard":
            attacker = defender if in_game(state, defender) else next_in_game(state, defender)
        else:
            attacker = next_opponent(state, defender)
        assert attacker is not None
        return attacker

    def _finish_if_over(self, state: State) -> Event | None:
        """Ends the game if it is decided (sets ``result`` and the phase); returns the ``game_over`` event."""
        result = self._team_result(state) if state["teams"] else self._single_result(state)
        if result is None:
            return None
        state.update({"phase": Phase.OVER, "result": result, "taking": False})
        return {"type": "game_over", **clone(result)}

    @staticmethod
    def _single_result(state: State) -> dict | None:
        remaining = seats_in_game(state)
        if len(remaining) > 1:
            return None
        if len(remaining) == 1:
            durak = remaining[0]
            winners = [seat for seat in range(state["players"]) if seat != durak]
            return {"winners": winners, "losers": [durak], "drawn": [], "durak": durak}
        drawn = sorted(entry["seat"] for entry in state["left"] if entry["bout"] == state["bout"])
        winners = sorted(seat for seat in left_seats(state) if seat not in drawn)
        return {"winners": winners, "losers": [], "drawn": drawn, "durak": None}

    @staticmethod
    def _team_result(state: State) -> dict | None:
        gone = set(left_seats(state))
        finished = [pair for pair in state["teams"] if set(pair) <= gone]
        if not finished:
            return None
        if len(finished) == 2:
            return {"winners": [], "losers": [], "drawn": [0, 1, 2, 3], "durak": None}
        winners = list(finished[0])
        losers = next(list(pair) for pair in state["teams"] if pair != finished[0])
        return {"winners": sorted(winners), "losers": sorted(losers), "drawn": [], "durak": None}

    # -- automatic moves, forfeits --------------------------------------------------------

    def auto_action(self, state: State, seat: int) -> Action:
        """Thrower in the window: done; attacker: the lowest card (non-trumps first); defender: take."""
        if seat not in self.actors(state):
            raise IllegalMove(N_("It is not your turn."))
        phase = state["phase"]
        if phase == Phase.ATTACK:
            return {"type": "attack", "cards": [lowest_card(state["hands"][seat], state["trump"])]}
        if phase == Phase.DEFEND:
            return {"type": "take"}
        return {"type": "done"}

    def forfeit(self, state: State, seat: int) -> State:
        """A new state: the game ends now and ``seat`` is the durak (in teams his pair loses)."""
        if state["phase"] == Phase.OVER:
            raise IllegalMove(N_("The game is already over."))
        if not _is_seat_number(seat) or not 0 <= seat < state["players"]:
            raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
        if not in_game(state, seat) and not state["teams"]:
            raise IllegalMove(N_("You have already left the game as a winner."))
        new_state = clone(state)
        if state["teams"]:
            losers = next(list(pair) for pair in state["teams"] if seat in pair)
        else:
            losers = [seat]
        winners = [other for other in range(state["players"]) if other not in losers]
        new_state.update({"phase": Phase.OVER, "forfeited": seat, "taking": False, "defender_clock_restart": False,
                          "result": {"winners": winners, "losers": losers, "drawn": [], "durak": seat}})
        return new_state

    # -- results -------------------------------------------------------------------------

    def outcome(self, state: State) -> dict:
        """Scores, places (1 = best, ties shared), winners, teams, durak, draw; provisional while playing."""
        players = state["players"]
        result = state["result"] or {"winners": [], "losers": [], "drawn": [], "durak": None}
        share = 2 if state["teams"] else 1  # a pair shares one point
        scores = [LOSS_POINTS] * players
        for seat in result["winners"]:
            scores[seat] = WIN_POINTS / share
        for seat in result["drawn"]:
            scores[seat] = DRAW_POINTS / share
        if state["result"] is None:
            places = [1] * players
        else:
            places = [1 + sum(other > mine for other in scores) for mine in scores]
        return {
            "scores": scores, "places": places, "winners": list(result["winners"]),
            "losers": list(result["losers"]), "drawn": list(result["drawn"]),
            "teams": copy_pairs(state["teams"]), "durak": result["durak"],
            "draw": bool(result["drawn"]), "forfeited": state["forfeited"],
            "finished": state["result"] is not None,
        }

    def next_game_options(self, options: dict, outcome: dict) -> dict:
        """Options of the next game of a series (rules, "First attacker"): the
        loser deals; in teams a player of the winning pair attacks first, the
        one to the dealer's left. The losing pair's dealer is its lower seat; a
        draw leaves both to the draw."""
        dealer = outcome["durak"]
        if dealer is None and outcome["losers"]:
            dealer = min(outcome["losers"])
        attacker = None
        if dealer is not None and options.get("teams"):
            attacker = (dealer + 1) % 4
        return {**options, "first_dealer": dealer, "first_attacker": attacker}

    def sheet(self, state: State) -> dict:
        """The game's line of a series sheet: mode, teams, result (``None`` while playing), bouts played."""
        return {
            "kind": self.slug, "players": state["players"], "mode": state["options"]["mode"],
            "teams": copy_pairs(state["teams"]),
            "result": self.outcome(state) if self.is_over(state) else None,
            "bouts": state["bouts_played"], "left": [dict(entry) for entry in state["left"]],
        }

    # -- what a seat may see ---------------------------------------------------------------

    def roles(self, state: State) -> list[str | None]:
        """Role per seat: A (before the opening), D, Z (taking), T, won; at the end won/durak/lost/draw.

        ``None`` for a seat with no role (the defender's partner in teams).
        """
        if state["phase"] == Phase.OVER:
            return self._final_roles(state)
        roles: list[str | None] = [None] * state["players"]
        for seat in throwers(state):
            roles[seat] = Role.THROWER
        if state["phase"] == Phase.ATTACK:
            roles[state["attacker"]] = Role.ATTACKER
        roles[state["defender"]] = Role.TAKING if state["taking"] else Role.DEFENDER
        for seat in left_seats(state):
            roles[seat] = Role.WON
        return roles

    @staticmethod
    def _final_roles(state: State) -> list[str | None]:
        result = state["result"]
        roles: list[str | None] = [None] * state["players"]
        for seat in result["winners"]:
            roles[seat] = Role.WON
        for seat in result["drawn"]:
            roles[seat] = Role.DRAW
        for seat in result["losers"]:
            roles[seat] = Role.DURAK if seat == result["durak"] or not state["teams"] else Role.LOST
        return roles

    def view(self, state: State, seat: int | None) -> dict:
        """Everything ``seat`` may know (``None``: a spectator, who sees no hand).

        Keys: ``game seat players mode teams phase finished``; cards: ``trump
        trump_card`` (only while it lies under the talon) ``talon discard
        hand_sizes hand`` (own cards sorted by suit, trumps last, low to high;
        ``None`` for spectators) ``taken`` (per seat: cards picked up from the
        table and still held) ``shown_trump``; the bout: ``bout dealer
        attacker opener defender taking roles table limits done actors
        legal_actions last_bout``; results: ``left outcome forfeited``.
        Never another hand, the talon order or the seed, nor what another
        seat could do (``actors`` follow from public facts only).
        """
        if seat is not None and (not _is_seat_number(seat) or not 0 <= seat < state["players"]):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        over = state["phase"] == Phase.OVER
        talon = state["talon"]
        return {
            "game": self.slug, "seat": seat, "players": state["players"], "mode": state["options"]["mode"],
            "teams": copy_pairs(state["teams"]), "phase": state["phase"], "finished": over,
            "trump": state["trump"], "trump_card": talon[-1] if talon else None,
            "talon": len(talon), "discard": len(state["discard"]),
            "hand_sizes": [len(hand) for hand in state["hands"]],
            "hand": sort_durak_hand(state["hands"][seat], state["trump"]) if seat is not None else None,
            "taken": [list(cards) for cards in state["taken"]],
            "shown_trump": dict(state["shown_trump"]) if state["shown_trump"] else None,
            "bout": state["bout"], "dealer": state["dealer"],
            "attacker": state["attacker"], "opener": state["opener"], "defender": state["defender"],
            "taking": state["taking"], "roles": self.roles(state),
            "table": [dict(pair) for pair in state["table"]],
            "limits": self._limits(state), "done": list(state["done"]),
            "actors": self.actors(state),
            "legal_actions": self.legal_actions(state, seat) if seat is not None else [],
            "last_bout": clone(state["last_bout"]) if state["last_bout"] else None,
            "left": [dict(entry) for entry in state["left"]],
            "outcome": self.outcome(state) if over else None, "forfeited": state["forfeited"],
        }

    @staticmethod
    def _limits(state: State) -> dict:
        """``max_attack`` (5 or 6 this bout), ``attack_cards`` on the table, ``room`` (cards that may be added)."""
        if state["phase"] == Phase.OVER:
            return {"max_attack": bout_limit(state), "attack_cards": 0, "room": 0}
        return {"max_attack": bout_limit(state), "attack_cards": len(state["table"]), "room": room_on_table(state)}
