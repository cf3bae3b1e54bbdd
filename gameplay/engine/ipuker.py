"""Ipuker ("Ипукер"), as specified in rules/ipuker.md.

Four players, four rounds; every player leads once. In a round the three
non-leaders stake tokens at the same time and in secret; if the stakes sum to
less than 27 the leader takes them and the round ends, otherwise the leader
adds his own stake (9 or more) after seeing the sum. The bank B gives the
number of fields F; the non-leaders then pass 0–9 cards each to the leader, at
the same time and in secret (the leader sees each count as it comes in), and
``free = F − C`` decides the wins.

Phases: ``"stake"`` (non-leaders, simultaneous), ``"leader_stake"`` (the
leader alone), ``"cards"`` (non-leaders, simultaneous), ``"over"``. Each phase
has its own legal-move function, as in the Joker engine.

Simultaneous, secret commitments
--------------------------------
In ``"stake"`` and ``"cards"`` every non-leader who has not committed yet is an
actor (and on the clock). A commitment is final: a second one from the same
player is refused. ``apply`` returns only public events: a commitment before
the last one gives ``{"type": "committed", "seat": s, "phase": p}`` without
its value; the last one reveals every value at once (``stakes_revealed``, or
``cards_revealed`` followed by ``round_scored``). ``view`` never shows another
player's uncommitted or unrevealed value, only a per-seat ``committed`` flag,
with one exception required by the rules: in ``"cards"`` the leader sees each
count as soon as it is committed. A player always sees his own committed
value. The ``auto`` flag of a time-out commitment is not put into any event
or view before the reveal either (an automatic stake is always the minimum,
so the flag would tell the value); the sheet shows it once the round is over.

``accepts_stale(state, seat, action)`` is True for a non-leader's stake in
``"stake"`` and his card count in ``"cards"``: the platform may then apply a
commitment made on an older version of the game, since other players'
commitments do not change its meaning. ``apply`` still judges it against the
current state (so a second commitment is refused as final). Pass
``made_at=<the version the player saw>`` as well to refuse a commitment made
before the current phase began (``state["phase_since"]``, the number of moves
applied when it began; equal to the platform's version because every stored
move is one ``apply``): a stake sent in round 1 then never lands in round 2.

Decisions where the rules page is silent
----------------------------------------
- The score sheet's three numbers per player and round ("pulya"): ``given`` is
  every token he put into the bank that round, ``taken`` every token he took
  out of it; both are never negative and the round's result is ``taken −
  given``.

  * A non-leader gives his stake; a negative win (``basic`` overflow: his
    cards × free) or the ``cards`` overflow fine (1 per card of his that found
    no field) is a payment into the bank, so it is added to ``given``; a
    positive win is ``taken``.
  * The leader gives his stake (0 when the round stopped early); he takes
    what is left in the bank, R = B + the players' payments − the positive
    wins. When R < 0 (the bank cannot pay the wins) he pays the difference:
    ``given`` = his stake + (−R), ``taken`` = 0.
  * So every token that enters the bank leaves it: in every round the
    ``given`` column and the ``taken`` column have the same sum, and the
    results sum to 0.
- The middle number ("cards"): the cards a non-leader passed; the leader
  writes the number of fields F; everyone writes 0 when the round stopped at
  step 2 (stakes under 27).
- The leader's stake is public once made (everybody needs the bank and the
  fields before passing cards).
- Leader order (``core.deal_rng(seed, 0)``): ``clockwise`` draws the first
  leader as ``rng.randrange(4)`` and goes clockwise (seat + 1) from there;
  ``random`` draws each round's leader with ``rng.randrange(len(rest))`` from
  the seats that have not led yet (in seat order), the four draws made in
  turn from one generator. The plan is made at the start and kept in the
  state; views and the sheet show a leader only from his round on (in
  ``clockwise`` the later leaders follow from the first, so the sheet shows
  them ahead).
- ``cards`` overflow (``core.deal_rng(seed, round)``): the passed cards are
  listed by owner, clockwise from the leader's left, each player's cards
  together; the list is shuffled with ``rng.shuffle`` and its first F cards
  get a field. The shuffled list of owners is kept as ``layout``.
- Options: ``min_stake`` is 9 or 1; ``max_stake`` is a whole number from
  max(9, ``min_stake``) to 100 (a bound so that the list of legal actions
  stays short); ``leader_order`` ``clockwise``|``random``; ``overflow``
  ``basic``|``kids``|``cards``. The leader's stake is 9..``max_stake`` with
  either ``min_stake``.
- Automatic moves (time-outs): a stake of ``min_stake`` (the leader: 9), a
  card count of 0. Every action may carry ``"auto": true`` (added by the
  platform); it does not change legality.
- Places: equal results share the place (1, 1, 3, 4); ``ranking`` (seats best
  first) breaks ties by seat number. ``forfeit`` ends the game at once: the
  forfeiting player is placed last alone, the others by their results of the
  complete rounds (a round in progress does not count). ``outcome`` before
  the end is the provisional standing.

Rules versions (changelog)
--------------------------
- 1: the rules as first played on the site (``state["rules"]``; see
  "Rules versions" in core.py).

State layout (a plain JSON dict; every list of 4 is per seat)
-------------------------------------------------------------
``game seed options players``; ``leader_plan`` (all four leaders; hidden in
``random`` order), ``leaders`` (those who have led so far, current one
included); the round in progress: ``round`` (1..4), ``leader``, ``phase``,
``stakes`` (committed stakes, the leader's included once made),
``stakes_revealed``, ``counts`` (committed card counts), ``bank``,
``fields``, ``auto``; ``history`` (one public record per finished round, see
``_score_round``); ``moves`` (moves applied), ``phase_since`` (``moves`` when
the current phase began); ``forfeited``.
"""

from __future__ import annotations

from typing import Any

from .core import N_, Action, Engine, Event, IllegalMove, InvalidSetup, State, clone, clone_for_move, deal_rng, made_in_phase, parse_envelope, require_int

PLAYERS = 4
ROUNDS = 4
LEADER_DEAL_NO = 0
CARDS_PER_PLAYER = 9
LEADER_JOKERS = 2
LEADER_MIN_STAKE = 9
STOP_BELOW = 27
MIN_STAKES = (9, 1)
MAX_STAKE_LIMIT = 100
LEADER_ORDERS = ("clockwise", "random")
OVERFLOWS = ("basic", "kids", "cards")

# (lowest bank, fields), highest bracket first: rules "Fields".
FIELD_BRACKETS: tuple[tuple[int, int], ...] = ((54, 15), (44, 14), (38, 13), (36, 12))

ACTION_KEYS = {
    "stake": {"type", "tokens"},
    "cards": {"type", "count"},
}


class Phase:
    """The phases of a game, stored in the state as plain strings."""

    STAKE = "stake"  # non-leaders stake, simultaneous and secret
    LEADER_STAKE = "leader_stake"  # the leader stakes after seeing the sum
    CARDS = "cards"  # non-leaders pass cards, simultaneous and secret
    OVER = "over"


SIMULTANEOUS = {Phase.STAKE: "stake", Phase.CARDS: "cards"}

# The refusal of a move of the wrong kind, by (phase, kind of move).
WRONG_PHASE = {
    (Phase.STAKE, "cards"): N_("It is time to stake tokens, not to pass cards."),
    (Phase.LEADER_STAKE, "cards"): N_("It is time for the leader's stake, not to pass cards."),
    (Phase.CARDS, "stake"): N_("The stakes are in; it is time to pass cards."),
}

UNEXPECTED_FIELDS = {
    "stake": N_("Unexpected field(s) in a stake move: %(fields)s."),
    "cards": N_("Unexpected field(s) in a cards move: %(fields)s."),
}


def fields_for(bank: int) -> int:
    """The number of fields for a bank of ``bank`` tokens (36 or more)."""
    for lowest, fields in FIELD_BRACKETS:
        if bank >= lowest:
            return fields
    raise ValueError(f"A bank of {bank} tokens is too small for fields (36 at least).")


def leader_plan(seed: int, leader_order: str) -> list[int]:
    """The four leaders in round order, drawn from ``deal_rng(seed, 0)`` (see the module docstring)."""
    rng = deal_rng(seed, LEADER_DEAL_NO)
    if leader_order == "clockwise":
        first = rng.randrange(PLAYERS)
        return [(first + offset) % PLAYERS for offset in range(PLAYERS)]
    rest = list(range(PLAYERS))
    return [rest.pop(rng.randrange(len(rest))) for _ in range(PLAYERS)]


def non_leaders(leader: int) -> list[int]:
    """The three other seats, clockwise from the leader's left."""
    return [(leader + offset) % PLAYERS for offset in range(1, PLAYERS)]


def cards_layout(seed: int, round_no: int, counts: list[int], leader: int) -> list[int]:
    """The owners of the passed cards after the ``cards`` overflow shuffle; the first F get a field."""
    owners = [seat for seat in non_leaders(leader) for _ in range(counts[seat])]
    deal_rng(seed, round_no).shuffle(owners)
    return owners


def settle(stakes: list[int], payments: list[int], wins: list[int], leader: int) -> dict:
    """The three sheet numbers from a round's stakes, payments into the bank and wins out of it.

    ``stakes``, ``payments`` (≥ 0) and ``wins`` (≥ 0) are per seat, the
    leader's payment and win 0. Returns ``given``, ``taken``, ``result`` and
    ``leader_take`` (what was left in the bank for the leader; negative when
    he pays a shortfall).
    """
    left = sum(stakes) + sum(payments) - sum(wins)
    given = [stakes[s] + payments[s] for s in range(PLAYERS)]
    taken = list(wins)
    if left >= 0:
        taken[leader] += left
    else:
        given[leader] += -left
    return {"given": given, "taken": taken, "result": [taken[s] - given[s] for s in range(PLAYERS)],
            "leader_take": left}


def competition_places(results: list[int], forfeited: int | None = None) -> list[int]:
    """Place per seat (1 = best); equal results share the place; a forfeiting seat is last alone."""
    ranked = [seat for seat in range(PLAYERS) if seat != forfeited]
    places = [0] * PLAYERS
    for seat in ranked:
        places[seat] = 1 + sum(1 for other in ranked if results[other] > results[seat])
    if forfeited is not None:
        places[forfeited] = PLAYERS
    return places


class IpukerEngine(Engine):
    """The Ipuker engine (see the module docstring for rules decisions and state layout)."""

    slug = "ipuker"
    name = N_("Ipuker")
    min_players = PLAYERS
    max_players = PLAYERS

    # -- options -------------------------------------------------------------

    def default_options(self) -> dict:
        return {"leader_order": "clockwise", "min_stake": 9, "max_stake": 30, "overflow": "basic"}

    def validate_options(self, options: dict) -> dict:
        """Options with defaults filled in; ``InvalidSetup`` (a ``ValueError``) for anything invalid."""
        options = super().validate_options(options)
        if options["leader_order"] not in LEADER_ORDERS:
            raise InvalidSetup(N_('The leader order must be "clockwise" or "random".'))
        if options["overflow"] not in OVERFLOWS:
            raise InvalidSetup(N_('The overflow rule must be "basic", "kids" or "cards".'))
        min_stake, max_stake = options["min_stake"], options["max_stake"]
        if isinstance(min_stake, bool) or min_stake not in MIN_STAKES:
            raise InvalidSetup(N_("The minimum stake must be 9 (basic) or 1 (advanced)."))
        if isinstance(max_stake, bool) or not isinstance(max_stake, int):
            raise InvalidSetup(N_("The maximum stake must be a whole number."))
        lowest = max(LEADER_MIN_STAKE, min_stake)
        if not lowest <= max_stake <= MAX_STAKE_LIMIT:
            raise InvalidSetup(N_("The maximum stake must be from %(lowest)s to %(highest)s."),
                               lowest=lowest, highest=MAX_STAKE_LIMIT)
        return options

    # -- setting up ------------------------------------------------------------

    def start(self, players: int = PLAYERS, options: dict | None = None, seed: int = 0,
              rules_version: int | None = None) -> State:
        """A new game: the leader order planned, round 1 waiting for stakes."""
        self.check_players(players)
        options = self.validate_options(options or {})
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("The seed must be an integer.")
        rules = self.check_rules_version(rules_version)
        state: State = {
            "game": self.slug,
            "rules": rules,
            "seed": seed,
            "options": options,
            "players": players,
            "leader_plan": leader_plan(seed, options["leader_order"]),
            "leaders": [],
            "history": [],
            "moves": 0,
            "phase_since": 0,
            "forfeited": None,
        }
        self._start_round(state, 1)
        return state

    @staticmethod
    def _start_round(state: State, round_no: int) -> None:
        leader = state["leader_plan"][round_no - 1]
        state["leaders"].append(leader)
        state.update({
            "round": round_no,
            "leader": leader,
            "phase": Phase.STAKE,
            "stakes": [None] * PLAYERS,
            "stakes_revealed": False,
            "counts": [None] * PLAYERS,
            "bank": None,
            "fields": None,
            "auto": [False] * PLAYERS,
            "phase_since": state["moves"],
        })

    # -- whose turn --------------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        """Who may act now: the non-leaders yet to commit, or the leader for his stake."""
        phase = state["phase"]
        if phase == Phase.LEADER_STAKE:
            return [state["leader"]]
        if phase == Phase.STAKE:
            return [s for s in range(PLAYERS) if s != state["leader"] and state["stakes"][s] is None]
        if phase == Phase.CARDS:
            return [s for s in range(PLAYERS) if s != state["leader"] and state["counts"][s] is None]
        return []

    def is_over(self, state: State) -> bool:
        return state["phase"] == Phase.OVER

    def timers(self, state: State) -> list[dict]:
        """Every actor is on the clock at once; on expiry the platform applies ``auto_action``."""
        return [{"seat": seat, "clock": "move", "expiry": "auto", "reserve": True} for seat in self.actors(state)]

    def accepts_stale(self, state: State, seat: int, action: Action, made_at: int | None = None) -> bool:
        """True if a commitment made on an older version may be judged against this state.

        That is a non-leader's stake while stakes are being committed, or his
        card count while cards are; with ``made_at`` (the version the player
        saw), only if it was made during the current phase.
        """
        if not isinstance(action, dict) or state["phase"] not in SIMULTANEOUS:
            return False
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS or seat == state["leader"]:
            return False
        if action.get("type") != SIMULTANEOUS[state["phase"]]:
            return False
        return made_in_phase(made_at, state["phase_since"])

    # -- legal actions, one function per phase ------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        phase = state["phase"]
        if phase == Phase.STAKE:
            return self._legal_stakes(state)
        if phase == Phase.LEADER_STAKE:
            return self._legal_leader_stakes(state)
        return self._legal_counts()

    @staticmethod
    def _legal_stakes(state: State) -> list[Action]:
        options = state["options"]
        return [{"type": "stake", "tokens": t} for t in range(options["min_stake"], options["max_stake"] + 1)]

    @staticmethod
    def _legal_leader_stakes(state: State) -> list[Action]:
        return [{"type": "stake", "tokens": t} for t in range(LEADER_MIN_STAKE, state["options"]["max_stake"] + 1)]

    @staticmethod
    def _legal_counts() -> list[Action]:
        return [{"type": "cards", "count": count} for count in range(CARDS_PER_PLAYER + 1)]

    # -- applying a move -----------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The state after ``seat`` makes ``action``, and the public events; ``state`` is untouched."""
        if state["phase"] == Phase.OVER:
            raise IllegalMove(N_("The game is over."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
        action_type, is_auto = self._parse_envelope(action)
        self._check_turn(state, seat, action_type)
        new_state = clone_for_move(state)
        new_state["moves"] += 1
        if is_auto:
            new_state["auto"][seat] = True
        phase = state["phase"]
        if phase == Phase.STAKE:
            events = self._apply_stake(new_state, seat, action)
        elif phase == Phase.LEADER_STAKE:
            events = self._apply_leader_stake(new_state, seat, action)
        else:
            events = self._apply_cards(new_state, seat, action)
        return new_state, events

    @staticmethod
    def _parse_envelope(action: Any) -> tuple[str, bool]:
        """The action's type and its ``auto`` flag, after checking its shape."""
        return parse_envelope(action, ACTION_KEYS, N_("Unknown kind of move %(kind)s: expected stake or cards."), UNEXPECTED_FIELDS)

    @staticmethod
    def _check_turn(state: State, seat: int, action_type: str) -> None:
        """Refuse a move by a seat that may not make a move of this kind now, saying why."""
        phase = state["phase"]
        is_leader = seat == state["leader"]
        if phase == Phase.STAKE:
            if is_leader:
                raise IllegalMove(N_("As the leader you stake after the others' stakes are shown."))
            if action_type != "stake":
                raise IllegalMove(WRONG_PHASE[phase, action_type])
            if state["stakes"][seat] is not None:
                raise IllegalMove(N_("You have already staked this round; a stake is final."))
        elif phase == Phase.LEADER_STAKE:
            if not is_leader:
                raise IllegalMove(N_("It is the leader's turn to stake."))
            if action_type != "stake":
                raise IllegalMove(WRONG_PHASE[phase, action_type])
        else:
            if is_leader:
                raise IllegalMove(N_("As the leader you receive cards; you do not pass any."))
            if action_type != "cards":
                if state["stakes"][seat] is not None:
                    raise IllegalMove(N_("You have already staked this round; a stake is final."))
                raise IllegalMove(WRONG_PHASE[phase, action_type])
            if state["counts"][seat] is not None:
                raise IllegalMove(N_("You have already passed your cards this round; that is final."))

    @staticmethod
    def _tokens(action: Action, lowest: int, highest: int) -> int:
        if "tokens" not in action:
            raise IllegalMove(N_('Say how many tokens you stake: "tokens".'))
        tokens = require_int(action["tokens"], N_("A stake must be a whole number of tokens."))
        if not lowest <= tokens <= highest:
            raise IllegalMove(N_("Stake from %(lowest)s to %(highest)s tokens."), lowest=lowest, highest=highest)
        return tokens

    def _apply_stake(self, state: State, seat: int, action: Action) -> list[Event]:
        options = state["options"]
        state["stakes"][seat] = self._tokens(action, options["min_stake"], options["max_stake"])
        events: list[Event] = [{"type": "committed", "seat": seat, "phase": Phase.STAKE}]
        if self.actors(state):
            return events
        leader = state["leader"]
        total = sum(state["stakes"][s] for s in non_leaders(leader))
        state["stakes_revealed"] = True
        state["bank"] = total
        events.append({"type": "stakes_revealed", "round": state["round"], "stakes": list(state["stakes"]),
                       "sum": total})
        if total < STOP_BELOW:
            events.extend(self._finish_round(state, self._score_stopped_round(state)))
            return events
        state["phase"] = Phase.LEADER_STAKE
        state["phase_since"] = state["moves"]
        return events

    def _apply_leader_stake(self, state: State, seat: int, action: Action) -> list[Event]:
        tokens = self._tokens(action, LEADER_MIN_STAKE, state["options"]["max_stake"])
        state["stakes"][seat] = tokens
        state["bank"] += tokens
        state["fields"] = fields_for(state["bank"])
        state["phase"] = Phase.CARDS
        state["phase_since"] = state["moves"]
        return [{"type": "leader_staked", "round": state["round"], "seat": seat, "tokens": tokens,
                 "bank": state["bank"], "fields": state["fields"]}]

    def _apply_cards(self, state: State, seat: int, action: Action) -> list[Event]:
        if "count" not in action:
            raise IllegalMove(N_('Say how many cards you pass: "count".'))
        count = require_int(action["count"], N_("The number of cards must be a whole number."))
        if not 0 <= count <= CARDS_PER_PLAYER:
            raise IllegalMove(N_("Pass from 0 to %(cards)s cards."), cards=CARDS_PER_PLAYER)
        state["counts"][seat] = count
        events: list[Event] = [{"type": "committed", "seat": seat, "phase": Phase.CARDS}]
        if self.actors(state):
            return events
        record = self._score_round(state)
        events.append({"type": "cards_revealed", "round": state["round"], "counts": list(record["counts"]),
                       "total": record["cards_total"], "fields": record["fields"], "free": record["free"]})
        events.extend(self._finish_round(state, record))
        return events

    # -- scoring a round -----------------------------------------------------------

    @staticmethod
    def _score_stopped_round(state: State) -> dict:
        """The stakes summed to less than 27: the leader takes them, everyone writes 0 cards."""
        leader = state["leader"]
        stakes = [0 if s == leader else state["stakes"][s] for s in range(PLAYERS)]
        settled = settle(stakes, [0] * PLAYERS, [0] * PLAYERS, leader)
        return {
            "round": state["round"], "leader": leader, "stopped_early": True,
            "stakes": [None if s == leader else stakes[s] for s in range(PLAYERS)],
            "bank": sum(stakes), "fields": None, "counts": [0] * PLAYERS, "cards_total": 0, "free": None,
            "overflow": None, "layout": None, "unplaced": None, "wins": None,
            "cards": [0] * PLAYERS, "auto": list(state["auto"]), **settled,
        }

    @staticmethod
    def _score_round(state: State) -> dict:
        """A played round's public record: wins by ``free = F − C`` and the overflow option.

        Keys: ``round leader stopped_early stakes bank fields counts
        cards_total free overflow`` (the option applied, ``None`` without
        overflow) ``layout unplaced`` (``cards`` overflow only) ``wins``
        (non-leaders; negative when paid in ``basic`` overflow; the leader
        ``None``) ``cards`` (the sheet's middle number) ``given taken result
        leader_take auto``.
        """
        leader, bank, fields = state["leader"], state["bank"], state["fields"]
        players = non_leaders(leader)
        counts = [0 if s == leader else state["counts"][s] for s in range(PLAYERS)]
        total = sum(counts)
        free = fields - total
        overflow = None if free >= 0 else state["options"]["overflow"]
        wins = [0] * PLAYERS
        layout = unplaced = None
        if overflow is None or overflow == "basic":
            wins = [counts[s] * free if s in players else 0 for s in range(PLAYERS)]
        elif overflow == "cards":
            layout = cards_layout(state["seed"], state["round"], counts, leader)
            unplaced = [layout[fields:].count(s) for s in range(PLAYERS)]
        payments = [max(0, -win) for win in wins]
        if unplaced is not None:
            payments = list(unplaced)
        settled = settle(list(state["stakes"]), payments, [max(0, win) for win in wins], leader)
        return {
            "round": state["round"], "leader": leader, "stopped_early": False,
            "stakes": list(state["stakes"]), "bank": bank, "fields": fields,
            "counts": [None if s == leader else counts[s] for s in range(PLAYERS)],
            "cards_total": total, "free": free, "overflow": overflow, "layout": layout, "unplaced": unplaced,
            "wins": [None if s == leader else wins[s] for s in range(PLAYERS)],
            "cards": [fields if s == leader else counts[s] for s in range(PLAYERS)],
            "auto": list(state["auto"]), **settled,
        }

    def _finish_round(self, state: State, record: dict) -> list[Event]:
        state["history"].append(record)
        events: list[Event] = [{"type": "round_scored", **clone(record), "balance": self.totals(state)}]
        if record["round"] == ROUNDS:
            state["phase"] = Phase.OVER
            events.append({"type": "game_over"})
            return events
        self._start_round(state, record["round"] + 1)
        events.append({"type": "new_round", "round": state["round"], "leader": state["leader"]})
        return events

    # -- automatic moves, forfeits --------------------------------------------

    def auto_action(self, state: State, seat: int) -> Action:
        """The move made for a player whose time ran out: the lowest stake, or no cards."""
        if seat not in self.actors(state):
            raise IllegalMove(N_("It is not your turn."))
        phase = state["phase"]
        if phase == Phase.STAKE:
            return {"type": "stake", "tokens": state["options"]["min_stake"]}
        if phase == Phase.LEADER_STAKE:
            return {"type": "stake", "tokens": LEADER_MIN_STAKE}
        return {"type": "cards", "count": 0}

    def forfeit(self, state: State, seat: int) -> State:
        """A new state: the game ends now, ``seat`` is placed last (time-out forfeit or resignation)."""
        if state["phase"] == Phase.OVER:
            raise IllegalMove(N_("The game is already over."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS:
            raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
        new_state = clone_for_move(state)
        new_state.update({"phase": Phase.OVER, "forfeited": seat})
        return new_state

    # -- results -----------------------------------------------------------------

    @staticmethod
    def totals(state: State) -> list[int]:
        """Results per seat over the finished rounds: taken − given."""
        return [sum(record["result"][s] for record in state["history"]) for s in range(PLAYERS)]

    @staticmethod
    def ranking(results: list[int], forfeited: int | None = None) -> list[int]:
        """Seats best first: highest result, ties by seat number; a forfeiting seat last."""
        ranked = sorted(range(PLAYERS), key=lambda seat: (-results[seat], seat))
        if forfeited is not None:
            ranked.remove(forfeited)
            ranked.append(forfeited)
        return ranked

    def outcome(self, state: State) -> dict:
        """Scores (taken − given), places (1 = best; ties share), winners; provisional while the game runs."""
        scores = self.totals(state)
        places = competition_places(scores, state["forfeited"])
        return {"scores": scores, "places": places, "winners": [s for s in range(PLAYERS) if places[s] == 1],
                "teams": None, "forfeited": state["forfeited"]}

    # -- the score sheet ("pulya") ---------------------------------------------

    def sheet(self, state: State) -> dict:
        """The pulya: one circle per round with given / cards / taken per player (public only).

        ``{"kind": "ipuker", "rounds": [...4], "balance", "result", "ranking",
        "forfeited"}``; each round: ``round leader started complete
        stopped_early bank fields free overflow unplaced cells balance``
        where ``cells`` holds ``{"given", "cards", "taken", "auto"}`` per seat
        and ``balance`` the running results after that round (``None`` until
        it is complete). A round in progress shows only what is public: the
        stakes once revealed, the leader's stake and the fields once made.
        """
        records = {record["round"]: record for record in state["history"]}
        running = [0] * PLAYERS
        rounds = []
        for round_no in range(1, ROUNDS + 1):
            record = records.get(round_no)
            if record is not None:
                running = [running[s] + record["result"][s] for s in range(PLAYERS)]
                rounds.append(self._sheet_complete_round(record, running))
            else:
                rounds.append(self._sheet_open_round(state, round_no))
        return {"kind": self.slug, "rounds": rounds, "balance": list(running), "result": list(running),
                "ranking": self.ranking(running, state["forfeited"]), "forfeited": state["forfeited"]}

    @staticmethod
    def _sheet_complete_round(record: dict, running: list[int]) -> dict:
        cells = [{"given": record["given"][s], "cards": record["cards"][s], "taken": record["taken"][s],
                  "auto": record["auto"][s]} for s in range(PLAYERS)]
        return {"round": record["round"], "leader": record["leader"], "started": True, "complete": True,
                "stopped_early": record["stopped_early"], "bank": record["bank"], "fields": record["fields"],
                "free": record["free"], "overflow": record["overflow"],
                "unplaced": list(record["unplaced"]) if record["unplaced"] is not None else None,
                "cells": cells, "balance": list(running)}

    @staticmethod
    def _sheet_open_round(state: State, round_no: int) -> dict:
        started = round_no <= len(state["leaders"])
        leader = None
        if started:
            leader = state["leaders"][round_no - 1]
        elif state["options"]["leader_order"] == "clockwise":
            leader = state["leader_plan"][round_no - 1]
        cells = [{"given": None, "cards": None, "taken": None, "auto": False} for _ in range(PLAYERS)]
        bank = fields = None
        if started and state["stakes_revealed"]:
            bank, fields = state["bank"], state["fields"]
            for seat in range(PLAYERS):
                cells[seat]["given"] = state["stakes"][seat]
            if fields is not None:
                cells[leader]["cards"] = fields
        return {"round": round_no, "leader": leader, "started": started, "complete": False,
                "stopped_early": False, "bank": bank, "fields": fields, "free": None, "overflow": None,
                "unplaced": None, "cells": cells, "balance": None}

    # -- what a seat may see -------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict:
        """Everything ``seat`` may know (``None``: a spectator).

        Keys: ``game seat players options phase finished round rounds_total
        leader leaders`` (leaders so far, current included) ``is_leader
        actors committed`` (per seat: has he committed in the current
        simultaneous phase; ``None`` for a seat not asked to, i.e. the leader,
        and all ``None`` outside those phases) ``stakes`` (per seat: revealed
        stakes, the leader's once made, one's own committed stake; else
        ``None``) ``stakes_sum`` (once revealed) ``bank`` (once the stakes are
        revealed; the leader's stake added when made) ``fields free_now``
        (fields minus the visible counts, leader only) ``counts`` (one's own
        committed count; the leader sees every committed count) ``hand_size
        jokers`` (own holding: 9 cards, the leader 9 + 2 jokers; ``None`` for
        spectators) ``stake_range leader_min_stake stop_below max_cards
        legal_actions``; results: ``rounds`` (public records of finished
        rounds) ``balance outcome forfeited``. Never the seed, never another
        player's value before it is revealed.
        """
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < PLAYERS):
            raise ValueError(f"There is no seat {seat!r} at this table.")
        phase, leader, options = state["phase"], state["leader"], state["options"]
        over = phase == Phase.OVER
        is_leader = seat == leader
        stakes: list[int | None] = [None] * PLAYERS
        for other in range(PLAYERS):
            if state["stakes_revealed"] or other == seat:
                stakes[other] = state["stakes"][other]
        counts: list[int | None] = [None] * PLAYERS
        for other in range(PLAYERS):
            if other == seat or (is_leader and phase == Phase.CARDS):
                counts[other] = state["counts"][other]
        committed: list[bool | None] = [None] * PLAYERS
        if phase in SIMULTANEOUS:
            values = state["stakes"] if phase == Phase.STAKE else state["counts"]
            committed = [None if other == leader else values[other] is not None for other in range(PLAYERS)]
        stake_range = None
        if seat is not None and not over:
            stake_range = ([LEADER_MIN_STAKE, options["max_stake"]] if is_leader
                           else [options["min_stake"], options["max_stake"]])
        free_now = None
        if is_leader and phase == Phase.CARDS:
            free_now = state["fields"] - sum(count for count in state["counts"] if count is not None)
        return {
            "game": self.slug,
            "seat": seat,
            "players": PLAYERS,
            "options": dict(options),
            "phase": phase,
            "finished": over,
            "round": state["round"],
            "rounds_total": ROUNDS,
            "leader": leader,
            "leaders": list(state["leaders"]),
            "is_leader": is_leader,
            "actors": self.actors(state),
            "committed": committed,
            "stakes": stakes,
            "stakes_sum": (sum(state["stakes"][s] for s in non_leaders(leader))
                           if state["stakes_revealed"] else None),
            "bank": state["bank"] if state["stakes_revealed"] else None,
            "fields": state["fields"],
            "free_now": free_now,
            "counts": counts,
            "hand_size": None if seat is None else CARDS_PER_PLAYER + (LEADER_JOKERS if is_leader else 0),
            "jokers": None if seat is None else (LEADER_JOKERS if is_leader else 0),
            "stake_range": stake_range,
            "leader_min_stake": LEADER_MIN_STAKE,
            "stop_below": STOP_BELOW,
            "max_cards": CARDS_PER_PLAYER,
            "legal_actions": self.legal_actions(state, seat) if seat is not None else [],
            "rounds": clone(state["history"]),
            "balance": self.totals(state),
            "forfeited": state["forfeited"],
            "outcome": self.outcome(state) if over else None,
        }
