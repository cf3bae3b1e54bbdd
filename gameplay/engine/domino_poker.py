"""Domino Poker ("Покер (домино)"), as specified in rules/domino-poker.md.

2–4 players, the double-six set (``dominoes.py``), deals in up to five stages
(``domino_poker_rules.deal_schedule``): stage 1 bids on 1…6, ``sevens`` × 7,
6…1 tiles; stage 2 "Вслепую" bids before seeing the tiles; stage 3 "Хапок"
(+10 a trick) and stage 4 "Мизер" (−10 a trick) are played without bids;
the optional stage 5 deals one tile each from a row of 28 and every player
secretly shows or hides it. The rules as pure functions (strength,
following, scoring, the draw, stage 5's counting) live in
``domino_poker_rules.py``.

Phases: ``"bid"``, ``"play"`` (one player at a time), ``"pick"`` (stage 5:
the leader points at a tile of the row), ``"reveal"`` (stage 5: every player
who has not chosen yet, at the same time and in secret), ``"over"``.

Actions: ``{"type": "bid", "tricks": n}``, ``{"type": "play", "tile":
"0-5"}``, ``{"type": "pick", "index": 0..27, "direction": "right"|"left"}``,
``{"type": "reveal", "show": true|false}``; any of them may carry ``"auto":
true`` (added by the platform to a time-out's move).

Secret simultaneous choice (stage 5), as in Ipuker
--------------------------------------------------
In ``"reveal"`` every player who has not chosen yet is an actor and on the
clock. A choice is final. ``apply`` returns public events only: a choice
before the last gives ``{"type": "committed", "seat", "phase": "reveal"}``
without its value or its ``auto`` flag (a time-out always hides, so the flag
would tell the value); the last one reveals every choice at once
(``revealed``). ``view`` shows another player's choice and tile only after
the reveal (and a hidden tile never); a player always sees their own.
``accepts_stale`` is True for a reveal by a seat that has not chosen, made
(``made_at``) since the reveal phase began (``state["phase_since"]``), so
the platform may apply it although other choices came in meanwhile.

Decisions where the rules file is silent
----------------------------------------
- Clockwise is seat + 1. The draw for the first player: see
  ``domino_poker_rules.first_player_draw`` (one generator ``deal_rng(seed,
  0)``, a fresh shuffle per round, the players still drawing take the top
  tiles in seat order). ``start`` makes the draw and returns no events, so
  the draw is in ``view["draw"]`` and ``sheet()["draw"]`` from the start, and
  ``opening_events(state)`` gives it as events for the platform to send when
  the game starts: one ``{"type": "draw", "round", "draws": [{"seat",
  "tile"}]}`` per round, then ``{"type": "first_starter", "seat"}``.
- Bidding goes clockwise from the deal's starter, one bid each, 0 to the
  tiles in hand (the blind stage too), with no restriction on the sum; the
  starter then leads the first trick.
- Dealing: deal ``d`` is ``core.shuffled(make_set(), seed, d)``; the players
  take ``k`` tiles each in turn from the top, the deal's starter first, then
  clockwise; the rest stays undealt, face down. Stage 5's row is the same
  shuffle of deal ``d`` laid out from position 0.
- Blind stage: no player sees their own tiles (the view's ``hand`` is empty,
  ``hand_face_down`` true) until every bid of the deal is in, as the rules
  file says (stricter than "until one has bid").
- The leader of a trick may lead any tile (poker and trumps included).
  "Must play a trump" means any trump; after a poker lead, the single
  strongest trump. The poker may be played on a trump lead only by a player
  without trumps.
- Automatic moves: bid 0; the weakest legal tile (ordinary tiles by pips,
  then trumps from ``0-1`` up, then the poker; equal pips: the tile earlier
  in the set's order); the leader's pick at position 0 to the right; hide.
- Stage 5's leader is chosen by the totals after stage 4 (``pick`` phase,
  ``final_leader``); a forfeit ends the game at once, with the current totals;
  the forfeiting player is placed last alone. ``outcome`` before the end is
  the provisional standing; equal totals share the place (1, 1, 3).
- Stage 5 tiles that were hidden stay out of every view, event and the
  sheet, also after the end (the revealed seed shows them).
- Options (``validate_options``): ``sevens`` 0–10, ``blind_deals``,
  ``grab_deals``, ``misere_deals`` 0–4, ``final_stage`` true/false; they do
  not depend on the number of players.

Rules versions (changelog)
--------------------------
- 1: the rules as first played on the site.

State layout (a plain JSON dict; lists of ``players`` items are per seat)
-------------------------------------------------------------------------
``game rules seed options players``; ``draw`` (the draw's rounds of
``{"seat", "tile"}``), ``first_starter``; the deal in progress: ``deal``
(1…), ``stage``, ``kind``, ``tiles``, ``starter``, ``phase``, ``turn``,
``hands``, ``rest`` (undealt tiles), ``bids``, ``taken``, ``trick``
(``[{"seat", "tile"}]``), ``played`` (tiles played this deal), ``auto``;
stage 5: ``leader``, ``row`` (28 tiles), ``pick`` (``{"index", "direction",
"tile"}``), ``positions`` (per seat), ``choices`` (per seat: ``None``,
``true`` = show, ``false`` = hide); ``last_trick``; ``history`` (one record
per complete deal, see ``_finish_deal`` and ``_finish_final``); ``moves``,
``phase_since``; ``forfeited``.

View keys (``view``): see ``domino_poker_view.py``.

Events (public only; a player's own move carries ``"auto"`` but a reveal)
-------------------------------------------------------------------------
``bid {seat tricks}``, ``bids_complete {bids}``, ``played {seat tile}``,
``trick {winner plays}``, ``deal_scored {deal bids tricks points totals}``
(stage 5: ``{deal points totals}``), ``new_deal {deal stage kind tiles
starter}`` (stage 5 adds ``leader``), ``picked {seat index direction tile pips
positions}``, ``committed {seat phase}``, ``revealed {choices shown auto}``,
``game_over``; ``opening_events``: ``draw {round draws}``, ``first_starter
{seat}``.

Score sheet (``sheet``): see ``domino_poker_sheet.py``.
"""

from __future__ import annotations

from .core import N_, Action, Engine, Event, IllegalMove, State, clone, clone_for_move, forfeited, made_in_phase, parse_envelope, require_int, shuffled
from .domino_poker_rules import (
    DIRECTIONS,
    FINAL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RIGHT,
    SET_SIZE,
    allowed_tiles,
    competition_places,
    deal_points,
    deal_schedule,
    display_order,
    final_leader,
    final_points,
    final_positions,
    first_player_draw,
    is_poker,
    is_trump,
    strongest_trump,
    trick_winner,
    validate_options,
    weakest,
)
from .domino_poker_sheet import score_sheet
from .domino_poker_view import seat_view
from .dominoes import is_tile, make_set, pips

ACTION_KEYS = {
    "bid": {"type", "tricks"},
    "play": {"type", "tile"},
    "pick": {"type", "index", "direction"},
    "reveal": {"type", "show"},
}


class Phase:
    BID = "bid"
    PLAY = "play"
    PICK = "pick"
    REVEAL = "reveal"
    OVER = "over"


WRONG_PHASE = {
    Phase.BID: N_("It is time to bid."),
    Phase.PLAY: N_("It is time to play a tile."),
    Phase.PICK: N_("It is time for the leader to point at a tile of the row."),
    Phase.REVEAL: N_("It is time to show or hide your tile."),
}

UNEXPECTED_FIELDS = {
    "bid": N_("Unexpected field(s) in a bid move: %(fields)s."),
    "play": N_("Unexpected field(s) in a move with a tile: %(fields)s."),
    "pick": N_("Unexpected field(s) in a pick move: %(fields)s."),
    "reveal": N_("Unexpected field(s) in a reveal move: %(fields)s."),
}


class DominoPokerEngine(Engine):
    """The domino Poker engine (see the module docstring)."""

    slug = "domino_poker"
    name = N_("Domino Poker")
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    table_chooses_on_timeout = True  # rules: "an automatic move ... or the loss of the game"

    # -- options -------------------------------------------------------------

    def default_options(self) -> dict:
        return validate_options({})

    def validate_options(self, options: dict) -> dict:
        return validate_options(options)

    # -- setting up ------------------------------------------------------------

    def start(self, players: int = 4, options: dict | None = None, seed: int = 0,
              rules_version: int | None = None) -> State:
        """A new game: the draw for the first player, then deal 1 dealt."""
        self.check_players(players)
        options = self.validate_options(options or {})
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError("The seed must be an integer.")
        rules = self.check_rules_version(rules_version)
        draw = first_player_draw(seed, players)
        state: State = {
            "game": self.slug,
            "rules": rules,
            "seed": seed,
            "options": options,
            "players": players,
            "draw": draw,
            "first_starter": self._draw_winner(draw),
            "last_trick": None,
            "history": [],
            "moves": 0,
            "phase_since": 0,
            "forfeited": None,
        }
        self._deal_into(state, 1)
        return state

    @staticmethod
    def _draw_winner(draw: list[list[dict]]) -> int:
        last = draw[-1]
        return max(last, key=lambda item: pips(item["tile"]))["seat"]

    @staticmethod
    def schedule(state: State) -> list[dict]:
        """Every deal of this game (``domino_poker_rules.deal_schedule``)."""
        return deal_schedule(state["players"], state["options"])

    @staticmethod
    def opening_events(state: State) -> list[Event]:
        """The draw for the first player as public events (``start`` itself returns none)."""
        events: list[Event] = [{"type": "draw", "round": number, "draws": clone(draws)}
                               for number, draws in enumerate(state["draw"], start=1)]
        return events + [{"type": "first_starter", "seat": state["first_starter"]}]

    def _deal_into(self, state: State, deal_no: int) -> None:
        """Shuffle and deal ``deal_no`` into ``state`` (a working copy)."""
        players = state["players"]
        plan = self.schedule(state)[deal_no - 1]
        starter = (state["first_starter"] + deal_no - 1) % players
        tiles = plan["tiles"]
        deck = shuffled(make_set(), state["seed"], deal_no)
        state.update({
            "deal": deal_no,
            "stage": plan["stage"],
            "kind": plan["kind"],
            "tiles": tiles,
            "starter": starter,
            "bids": [None] * players,
            "taken": [0] * players,
            "trick": [],
            "played": [],
            "auto": [False] * players,
            "turn": starter,
            "leader": None,
            "row": None,
            "pick": None,
            "positions": None,
            "choices": None,
            "phase_since": state["moves"],
        })
        if plan["kind"] == FINAL:
            leader = final_leader(self.totals(state), starter)
            state.update({"phase": Phase.PICK, "turn": leader, "leader": leader, "row": deck,
                          "hands": [[] for _ in range(players)], "rest": [],
                          "choices": [None] * players})
            return
        hands = [[] for _ in range(players)]
        for offset in range(players):
            seat = (starter + offset) % players
            hands[seat] = deck[offset * tiles:(offset + 1) * tiles]
        state.update({"hands": hands, "rest": deck[players * tiles:],
                      "phase": Phase.BID if plan["bidding"] else Phase.PLAY})

    # -- whose turn --------------------------------------------------------------

    def actors(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == Phase.OVER:
            return []
        if phase == Phase.REVEAL:
            return [seat for seat in range(state["players"]) if state["choices"][seat] is None]
        return [state["turn"]]

    def is_over(self, state: State) -> bool:
        return state["phase"] == Phase.OVER

    def timers(self, state: State) -> list[dict]:
        """Every actor is on the clock (in the reveal only those who have not chosen); expiry: ``auto_action``."""
        return [{"seat": seat, "expiry": "auto"} for seat in self.actors(state)]

    def accepts_stale(self, state: State, seat: int, action: Action, made_at: int | None = None) -> bool:
        """True for a reveal by a seat yet to choose, made since the reveal phase began."""
        if not isinstance(action, dict) or state["phase"] != Phase.REVEAL or action.get("type") != "reveal":
            return False
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
            return False
        if state["choices"][seat] is not None:
            return False
        return made_in_phase(made_at, state["phase_since"])

    # -- legal actions -------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if seat not in self.actors(state):
            return []
        phase = state["phase"]
        if phase == Phase.BID:
            return [{"type": "bid", "tricks": tricks} for tricks in range(state["tiles"] + 1)]
        if phase == Phase.PLAY:
            return [{"type": "play", "tile": code} for code in display_order(self._allowed(state, seat))]
        if phase == Phase.PICK:
            return [{"type": "pick", "index": index, "direction": direction}
                    for index in range(SET_SIZE) for direction in DIRECTIONS]
        return [{"type": "reveal", "show": True}, {"type": "reveal", "show": False}]

    @staticmethod
    def _allowed(state: State, seat: int) -> list[str]:
        led = state["trick"][0]["tile"] if state["trick"] else None
        return allowed_tiles(state["hands"][seat], led)

    # -- applying a move -----------------------------------------------------

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The state after ``seat`` makes ``action``, and the public events; ``state`` is untouched."""
        if state["phase"] == Phase.OVER:
            raise IllegalMove(N_("The game is over."))
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state["players"]:
            raise IllegalMove(N_("There is no seat %(seat)s at this table."), seat=repr(seat))
        action_type, is_auto = parse_envelope(
            action, ACTION_KEYS, N_("Unknown kind of move %(kind)s: expected bid, play, pick or reveal."),
            UNEXPECTED_FIELDS)
        self._check_turn(state, seat, action_type)
        new_state = clone_for_move(state)
        new_state["moves"] += 1
        if is_auto:
            new_state["auto"][seat] = True
        phase = state["phase"]
        if phase == Phase.REVEAL:
            return new_state, self._apply_reveal(new_state, seat, action)
        handler = {Phase.BID: self._apply_bid, Phase.PLAY: self._apply_play, Phase.PICK: self._apply_pick}[phase]
        events = handler(new_state, seat, action)
        events[0]["auto"] = is_auto
        return new_state, events

    def _check_turn(self, state: State, seat: int, action_type: str) -> None:
        phase = state["phase"]
        if phase == Phase.REVEAL:
            if state["choices"][seat] is not None:
                raise IllegalMove(N_("You have already chosen; the choice is final."))
        elif seat != state["turn"]:
            if phase == Phase.PICK:
                raise IllegalMove(N_("The leader points at a tile of the row; wait for it."))
            raise IllegalMove(N_("It is not your turn."))
        if action_type != phase:
            raise IllegalMove(WRONG_PHASE[phase])

    def _apply_bid(self, state: State, seat: int, action: Action) -> list[Event]:
        tiles = state["tiles"]
        if "tricks" not in action:
            raise IllegalMove(N_('Say how many tricks you bid: "tricks".'))
        tricks = require_int(action["tricks"], N_("A bid must be a whole number."))
        if not 0 <= tricks <= tiles:
            raise IllegalMove(N_("Bid from 0 to %(tiles)s tricks."), tiles=tiles)
        state["bids"][seat] = tricks
        events: list[Event] = [{"type": "bid", "seat": seat, "tricks": tricks}]
        if any(bid is None for bid in state["bids"]):
            state["turn"] = self._next(state, seat)
            return events
        state["phase"] = Phase.PLAY
        state["turn"] = state["starter"]
        events.append({"type": "bids_complete", "bids": list(state["bids"])})
        return events

    @staticmethod
    def _next(state: State, seat: int) -> int:
        return (seat + 1) % state["players"]

    def _apply_play(self, state: State, seat: int, action: Action) -> list[Event]:
        code = action.get("tile")
        if not is_tile(code):
            raise IllegalMove(N_('Name a tile to play, such as "0-5"; %(tile)s is not a tile.'), tile=repr(code))
        hand = state["hands"][seat]
        if code not in hand:
            raise IllegalMove(N_("You do not hold %(tile)s."), tile=code)
        if code not in self._allowed(state, seat):
            raise self._refusal(state, seat)
        hand.remove(code)
        state["played"].append(code)
        state["trick"].append({"seat": seat, "tile": code})
        events: list[Event] = [{"type": "played", "seat": seat, "tile": code}]
        if len(state["trick"]) < state["players"]:
            state["turn"] = self._next(state, seat)
            return events
        events.append(self._finish_trick(state))
        if not any(state["hands"]):
            events.extend(self._finish_deal(state))
        return events

    @staticmethod
    def _refusal(state: State, seat: int) -> IllegalMove:
        led = state["trick"][0]["tile"]
        hand = state["hands"][seat]
        if is_poker(led):
            return IllegalMove(N_("The poker was led: you must play your strongest trump, %(tile)s."),
                               tile=strongest_trump(hand))
        trumps = ", ".join(display_order([code for code in hand if is_trump(code)]))
        return IllegalMove(N_("A trump was led: you must play a trump (you hold %(trumps)s)."), trumps=trumps)

    def _finish_trick(self, state: State) -> Event:
        plays = state["trick"]
        winner = plays[trick_winner([play["tile"] for play in plays])]["seat"]
        state["taken"][winner] += 1
        state["last_trick"] = {"deal": state["deal"], "plays": clone(plays), "winner": winner}
        state["trick"] = []
        state["turn"] = winner
        return {"type": "trick", "winner": winner, "plays": clone(plays)}

    def _finish_deal(self, state: State) -> list[Event]:
        players, kind = state["players"], state["kind"]
        bids = list(state["bids"])  # all None on deals without bidding
        points = [deal_points(kind, bids[seat], state["taken"][seat]) for seat in range(players)]
        record = {"deal": state["deal"], "stage": state["stage"], "kind": kind, "tiles": state["tiles"],
                  "starter": state["starter"], "bids": bids, "tricks": list(state["taken"]),
                  "points": points, "auto": list(state["auto"])}
        state["history"].append(record)
        events: list[Event] = [{"type": "deal_scored", "deal": state["deal"], "bids": bids,
                                "tricks": list(state["taken"]), "points": points, "totals": self.totals(state)}]
        return events + self._next_deal(state)

    def _next_deal(self, state: State) -> list[Event]:
        if state["deal"] == len(self.schedule(state)):
            state.update({"phase": Phase.OVER, "turn": None})
            return [{"type": "game_over"}]
        self._deal_into(state, state["deal"] + 1)
        event: Event = {"type": "new_deal", "deal": state["deal"], "stage": state["stage"], "kind": state["kind"],
                        "tiles": state["tiles"], "starter": state["starter"]}
        if state["phase"] == Phase.PICK:
            event["leader"] = state["leader"]
        return [event]

    # -- stage 5 -------------------------------------------------------------------

    def _apply_pick(self, state: State, seat: int, action: Action) -> list[Event]:
        if "index" not in action or "direction" not in action:
            raise IllegalMove(N_('Point at a tile: "index" from 0 to 27 and "direction" "left" or "right".'))
        index = require_int(action["index"], N_("The position must be a whole number from 0 to 27."))
        if not 0 <= index < SET_SIZE:
            raise IllegalMove(N_("The position must be a whole number from 0 to 27."))
        direction = action["direction"]
        if direction not in DIRECTIONS:
            raise IllegalMove(N_('The direction must be "left" or "right".'))
        turned = state["row"][index]
        positions_in_order = final_positions(index, direction, pips(turned), state["players"])
        positions = [0] * state["players"]
        for offset, position in enumerate(positions_in_order):
            positions[(seat + offset) % state["players"]] = position
        state["pick"] = {"index": index, "direction": direction, "tile": turned}
        state["positions"] = positions
        for player, position in enumerate(positions):
            state["hands"][player] = [state["row"][position]]
        state["phase"] = Phase.REVEAL
        state["turn"] = None
        state["phase_since"] = state["moves"]
        return [{"type": "picked", "seat": seat, "index": index, "direction": direction, "tile": turned,
                 "pips": pips(turned), "positions": list(positions)}]

    def _apply_reveal(self, state: State, seat: int, action: Action) -> list[Event]:
        show = action.get("show")
        if not isinstance(show, bool):
            raise IllegalMove(N_('Say "show": true to show your tile, or false to hide it.'))
        state["choices"][seat] = show
        events: list[Event] = [{"type": "committed", "seat": seat, "phase": Phase.REVEAL}]
        if self.actors(state):
            return events
        return events + self._finish_final(state)

    def _finish_final(self, state: State) -> list[Event]:
        players = state["players"]
        shown = [state["hands"][seat][0] if state["choices"][seat] else None for seat in range(players)]
        points = final_points(shown)
        record = {"deal": state["deal"], "stage": state["stage"], "kind": FINAL, "tiles": 1,
                  "starter": state["starter"], "leader": state["leader"], "pick": dict(state["pick"]),
                  "positions": list(state["positions"]), "choices": list(state["choices"]), "shown": shown,
                  "points": points, "auto": list(state["auto"])}
        state["history"].append(record)
        choices = ["show" if choice else "hide" for choice in state["choices"]]
        events: list[Event] = [{"type": "revealed", "choices": choices, "shown": shown, "auto": list(state["auto"])},
                               {"type": "deal_scored", "deal": state["deal"], "points": points,
                                "totals": self.totals(state)}]
        return events + self._next_deal(state)

    # -- automatic moves, forfeits --------------------------------------------

    def auto_action(self, state: State, seat: int) -> Action:
        """The move made for a player out of time: bid 0, the weakest legal tile, position 0 to the right, hide."""
        if seat not in self.actors(state):
            raise IllegalMove(N_("It is not your turn."))
        phase = state["phase"]
        if phase == Phase.BID:
            return {"type": "bid", "tricks": 0}
        if phase == Phase.PLAY:
            return {"type": "play", "tile": weakest(self._allowed(state, seat))}
        if phase == Phase.PICK:
            return {"type": "pick", "index": 0, "direction": RIGHT}
        return {"type": "reveal", "show": False}

    def forfeit(self, state: State, seat: int) -> State:
        """A new state: the game ends now, ``seat`` is placed last (time-out forfeit or resignation)."""
        return forfeited(state, seat, state["players"])

    # -- results -----------------------------------------------------------------

    @staticmethod
    def totals(state: State) -> list[int]:
        """Totals per seat over the complete deals."""
        return [sum(record["points"][seat] for record in state["history"]) for seat in range(state["players"])]

    @staticmethod
    def ranking(totals: list[int], forfeited: int | None = None) -> list[int]:
        """Seats best first: highest total, ties by seat number; a forfeiting seat last."""
        ranked = sorted(range(len(totals)), key=lambda seat: (-totals[seat], seat))
        if forfeited is not None:
            ranked.remove(forfeited)
            ranked.append(forfeited)
        return ranked

    def outcome(self, state: State) -> dict:
        """Scores (totals), places (1 = best; equal totals share), winners; provisional while the game runs."""
        scores = self.totals(state)
        places = competition_places(scores, state["forfeited"])
        return {"scores": scores, "places": places,
                "winners": [seat for seat in range(state["players"]) if places[seat] == 1],
                "teams": None, "forfeited": state["forfeited"]}

    # -- the score sheet -----------------------------------------------------------

    def sheet(self, state: State) -> dict:
        """One row per deal under stage headings, running totals per player (see ``domino_poker_sheet``)."""
        return score_sheet(state, self.schedule(state), self.ranking)

    # -- what a seat may see -------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict:
        """Everything ``seat`` may know (``None``: a spectator); see ``domino_poker_view``."""
        return seat_view(self, state, seat)
