"""Standing orders: moves a player says in advance, per game, pure (no Django).

A standing order is a plain dict ``{"kind", "params", "scope", "rules"}``
made by ``make_order`` from a kind a seat may set now (``kinds``). The
platform keeps it private to the seat, and at the seat's turn asks
``resolve`` what it gives: a legal action (always one of
``engine.legal_actions(state, seat)`` at that moment), nothing yet (the
order waits for a later turn), or a lapse with the sentence that tells the
player why. The platform applies the action as the player's own move.

The vocabulary (one sentence each on the game's rules page)
------------------------------------------------------------
Every game:
- ``forced``: "make my move when it is the only legal one" (the last card,
  the one card that follows suit, the only allowed bid). Holds for the
  whole game.
Joker, Odessa, domino Poker (scope: the deal, ``state["deal"]``):
- ``bid``: "bid N at this deal" (params ``tricks``); settable before his bid
  at this deal; lapses if N is not allowed when his turn comes (Joker's and
  Odessa's dealer's forbidden sum, Odessa's special deals' limits).
Joker and Odessa:
- ``duck``: "when I cannot win the trick, play my lowest card" (the
  weakest legal ordinary card, the automatic move's choice); for this deal.
  It waits while the player could win the trick now (a joker always can).
  Odessa: the same, with its joker (7♠, or the 53rd card) and its rules.
Joker alone:
- ``trump``: "call trump X at this deal" (params ``suit``: ``S C D H`` or
  ``None`` for no trump); settable by the trump chooser of a 9-card deal,
  who has seen his first three cards, before he calls.
Ipuker (scope: the round, ``state["round"]``), set while the non-leaders stake:
- ``leader_stake``: the leader's "stake N if the stakes reach 27" (params
  ``tokens``, 9 to the table's maximum); applied when he is asked for it,
  lapses if the round stops early.
- ``pass``: a non-leader's "pass N cards this round" (params ``count``,
  0 to 9), applied in the round's card phase (secret like any count).
Durak (scope: the bout, ``state["bout"]``):
- ``take``: "take the cards in this bout": the defender takes at his turn.
- ``cheapest``: "beat with the cheapest card that beats, else take": the
  defender beats the first unbeaten attack card with his cheapest card that
  beats it (non-trumps first, then the lower rank), or takes if no card
  beats it; never transfers. In this bout.
Both Durak orders are set by the defender while the bout is attacked or
defended, and lapse if the attack is transferred to another player (the
setter is no longer the defender) or the bout ends without his turn.
- ``no_trump_throws``: "never throw in trumps": in a throwers' window that
  waits for him, when every card he could throw in is a trump (or none
  fits), he says "done"; while he could throw in a non-trump it waits for
  him. Any player, for the whole game (scope None), like ``forced``.
(Durak's "done for me in this bout" for throwers is older: see ``ahead_action``
in core.py; the platform makes it at the seat's secret release time, like
these orders.)

Spent or standing
-----------------
``forced``, ``duck`` and ``cheapest`` stand until their scope ends
(``REPEATING``): each fitting turn gets its move. The others are spent by
their one move.

When an order lapses
--------------------
At the seat's turn, before anything else: the game is played under another
rules version than when the order was set (an upgrade); the scope moved on
(a new deal, a new bout); the order's own condition can no longer be met.
``resolve`` never returns an action that is not legal now: if the action it
would give is not among ``legal_actions``, the order lapses instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import SUITS
from .core import N_, Action, IllegalMove, State
from .durak import Phase as DurakPhase
from .durak import beats, card_cost, unbeaten_cards
from .joker import FULL_HAND
from .joker import Phase as JokerPhase
from .ipuker import CARDS_PER_PLAYER as IPUKER_CARDS
from .ipuker import LEADER_MIN_STAKE as IPUKER_LEADER_MIN_STAKE
from .odessa import odessa_joker
from .tricks import Play, Trick

FORCED = "forced"
# Orders that stay after making a move, for the rest of their scope (every other order is spent
# by its move): the only legal move, the lowest card while the player cannot win, the cheapest beat.
REPEATING = {FORCED, "duck", "cheapest", "no_trump_throws"}
# Orders that hold for the whole game (no scope): a standing habit rather than a plan for a stretch.
WHOLE_GAME = {FORCED, "no_trump_throws"}


@dataclass(frozen=True)
class Resolution:
    """What an order gives now: ``action`` (apply it), ``lapse`` (a message
    template: the order ends and the player is told), or neither (wait)."""

    action: Action | None = None
    lapse: str | None = None


WAIT = Resolution()

LAPSE_RULES = N_("The rules of the game were updated, so your order no longer applies.")
LAPSE_DEAL = N_("The deal ended before your order could apply.")
LAPSE_BOUT = N_("The bout ended before your order could apply.")
LAPSE_ROUND = N_("The round ended before your order could apply.")
LAPSE_BID = N_("Your ordered bid is not allowed now.")
LAPSE_NOT_DEFENDER = N_("You are no longer the defender in this bout.")
LAPSE_NOT_LEGAL = N_("Your order no longer fits the game.")


# -- what a seat may set now -------------------------------------------------------


def kinds(state: State, seat: int) -> list[dict]:
    """The orders ``seat`` may set now, each ``{"kind", "params": {name: [allowed values]}}``
    (public facts and the seat's own view only)."""
    if not _in_play(state):
        return []
    found = [{"kind": FORCED, "params": {}}]
    game = state.get("game")
    if game in BIDDING:
        found += _bid_kinds(state, seat)
    if game == "joker":
        found += _joker_kinds(state, seat)
    elif game == "odessa" and state["phase"] in ("bid", "play"):
        found.append({"kind": "duck", "params": {}})
    elif game == "durak":
        found += _durak_kinds(state, seat)
    elif game == "ipuker":
        found += _ipuker_kinds(state, seat)
    return found


def make_order(state: State, seat: int, kind: Any, params: Any) -> dict:
    """The order ``{"kind", "params", "scope", "rules"}`` of ``kind`` with ``params``,
    if ``seat`` may set it now; ``IllegalMove`` with a clear sentence otherwise."""
    if not isinstance(kind, str):
        raise IllegalMove(N_("An order must name its kind."))
    if params is None:
        params = {}
    if not isinstance(params, dict):
        raise IllegalMove(N_("The parameters of an order must be an object."))
    offered = {entry["kind"]: entry["params"] for entry in kinds(state, seat)}
    if kind not in offered:
        raise IllegalMove(N_("You cannot set the order %(kind)s now in this game."), kind=repr(kind))
    allowed = offered[kind]
    if set(params) != set(allowed):
        raise IllegalMove(N_("The order %(kind)s takes the parameters: %(names)s."), kind=kind,
                          names=", ".join(sorted(allowed)) or "-")
    for name, value in params.items():
        if isinstance(value, bool) or value not in allowed[name]:
            raise IllegalMove(N_("The value %(value)s is not allowed for %(name)s now."), value=repr(value),
                              name=name)
    return {"kind": kind, "params": dict(params), "scope": scope_of(state, kind), "rules": state["rules"]}


def scope_of(state: State, kind: str) -> int | None:
    """The stretch of the game an order of ``kind`` holds for: None (the whole game), the deal or the bout."""
    if kind in WHOLE_GAME:
        return None
    game = state.get("game")
    return state.get("bout") if game == "durak" else state.get("round") if game == "ipuker" else state.get("deal")


# -- what an order gives at the seat's turn ------------------------------------------


def resolve(engine, state: State, seat: int, order: dict) -> Resolution:
    """What ``order`` of ``seat`` gives now (see the module docstring); never an illegal action."""
    if not _in_play(state) or seat not in engine.actors(state):
        return WAIT
    if order.get("rules") != state.get("rules"):
        return Resolution(lapse=LAPSE_RULES)
    kind = order["kind"]
    if order.get("scope") is not None and scope_of(state, kind) != order["scope"]:
        return Resolution(lapse={"durak": LAPSE_BOUT, "ipuker": LAPSE_ROUND}.get(state.get("game"), LAPSE_DEAL))
    legal = engine.legal_actions(state, seat)
    if kind == FORCED:
        found = Resolution(action=legal[0]) if len(legal) == 1 else WAIT
    else:
        found = RESOLVERS[state["game"], kind](engine, state, seat, order["params"])
    if found.action is not None and _bare(found.action) not in [_bare(a) for a in legal]:
        return Resolution(lapse=LAPSE_NOT_LEGAL)
    return found


def _bare(action: Action) -> Action:
    return {key: value for key, value in action.items() if key != "auto"}


def _in_play(state: State) -> bool:
    return isinstance(state, dict) and state.get("phase") not in (None, "over")


# -- bids: Joker, Odessa, domino Poker ----------------------------------------------

# The games with a "bid N at this deal" order, and the state's key of the hand size.
BIDDING = {"joker": "cards", "odessa": "cards", "domino_poker": "tiles"}
BID_PHASES = ("trump", "bid")  # the deal's phases before and at the bids


def _bid_kinds(state: State, seat: int) -> list[dict]:
    if state["phase"] in BID_PHASES and state["bids"][seat] is None:
        return [{"kind": "bid", "params": {"tricks": list(range(state[BIDDING[state["game"]]] + 1))}}]
    return []


def _bid(engine, state: State, seat: int, params: dict) -> Resolution:
    if state["phase"] == JokerPhase.TRUMP:
        return WAIT
    if state["phase"] != JokerPhase.BID or state["bids"][seat] is not None:
        return Resolution(lapse=LAPSE_DEAL)
    action = {"type": "bid", "tricks": params["tricks"]}
    return Resolution(action=action) if action in engine.legal_actions(state, seat) else Resolution(lapse=LAPSE_BID)


# -- Joker (and Odessa's duck) ---------------------------------------------------------


def _joker_kinds(state: State, seat: int) -> list[dict]:
    found = []
    phase = state["phase"]
    if phase == JokerPhase.TRUMP and state["cards"] == FULL_HAND and state["trump_chooser"] == seat:
        found.append({"kind": "trump", "params": {"suit": [*SUITS, None]}})
    if phase in (JokerPhase.TRUMP, JokerPhase.BID, JokerPhase.PLAY):
        found.append({"kind": "duck", "params": {}})
    return found


def _joker_trump(engine, state: State, seat: int, params: dict) -> Resolution:
    if state["phase"] != JokerPhase.TRUMP:
        return Resolution(lapse=LAPSE_DEAL)
    return Resolution(action={"type": "trump", "suit": params["suit"]})


def _joker_duck(engine, state: State, seat: int, params: dict) -> Resolution:
    """The weakest ordinary card when no legal play would be winning the trick now."""
    if state["phase"] != JokerPhase.PLAY or not state["trick"]:
        return WAIT
    trick = Trick.from_dicts(state["trick"], state["trump"], *(
        [odessa_joker(state["options"]["deck"])] if state["game"] == "odessa" else []))
    for action in engine.legal_actions(state, seat):
        play = Play(seat=seat, card=action["card"], joker=action.get("joker"), suit=action.get("suit"))
        if trick.add(play).winner() == seat:
            return WAIT
    return Resolution(action=engine.auto_action(state, seat))


# -- Durak ---------------------------------------------------------------------------


def _durak_kinds(state: State, seat: int) -> list[dict]:
    found = []
    if state["phase"] in (DurakPhase.ATTACK, DurakPhase.DEFEND) and state["defender"] == seat:
        found += [{"kind": "take", "params": {}}, {"kind": "cheapest", "params": {}}]
    return found + [{"kind": "no_trump_throws", "params": {}}]


def _durak_take(engine, state: State, seat: int, params: dict) -> Resolution:
    if state["defender"] != seat:
        return Resolution(lapse=LAPSE_NOT_DEFENDER)
    return Resolution(action={"type": "take"}) if state["phase"] == DurakPhase.DEFEND else WAIT


def _durak_cheapest(engine, state: State, seat: int, params: dict) -> Resolution:
    if state["defender"] != seat:
        return Resolution(lapse=LAPSE_NOT_DEFENDER)
    if state["phase"] != DurakPhase.DEFEND:
        return WAIT
    trump = state["trump"]
    attack = unbeaten_cards(state)[0]
    beating = [card for card in state["hands"][seat] if beats(card, attack, trump)]
    if not beating:
        return Resolution(action={"type": "take"})
    card = min(beating, key=lambda c: card_cost(c, trump))
    action = {"type": "beat", "attack": attack, "card": card}
    # A beat that leaves the rest unbeatable is still legal here; if the engine's rules refuse it, take.
    return Resolution(action=action if action in engine.legal_actions(state, seat) else {"type": "take"})


def _durak_no_trump_throws(engine, state: State, seat: int, params: dict) -> Resolution:
    """In a throwers' window: "done" when no non-trump may be thrown in; else the player decides."""
    if state["phase"] != DurakPhase.WINDOW:
        return WAIT
    legal = engine.legal_actions(state, seat)
    trump = state["trump"]
    if any(a["type"] == "throw" and all(card[1] != trump for card in a["cards"]) for a in legal):
        return WAIT
    return Resolution(action={"type": "done"}) if {"type": "done"} in legal else WAIT


# -- Ipuker ----------------------------------------------------------------------------


def _ipuker_kinds(state: State, seat: int) -> list[dict]:
    """While the non-leaders stake: the leader may order his stake, a non-leader his cards to pass."""
    if state["phase"] != "stake":
        return []
    if seat == state["leader"]:
        tokens = list(range(IPUKER_LEADER_MIN_STAKE, state["options"]["max_stake"] + 1))
        return [{"kind": "leader_stake", "params": {"tokens": tokens}}]
    return [{"kind": "pass", "params": {"count": list(range(IPUKER_CARDS + 1))}}]


def _ipuker_leader_stake(engine, state: State, seat: int, params: dict) -> Resolution:
    if state["phase"] == "stake":
        return WAIT
    if state["phase"] != "leader_stake" or seat != state["leader"]:
        return Resolution(lapse=LAPSE_ROUND)
    return Resolution(action={"type": "stake", "tokens": params["tokens"]})


def _ipuker_pass(engine, state: State, seat: int, params: dict) -> Resolution:
    if state["phase"] in ("stake", "leader_stake"):
        return WAIT
    if state["phase"] != "cards":
        return Resolution(lapse=LAPSE_ROUND)
    return Resolution(action={"type": "cards", "count": params["count"]})


RESOLVERS = {
    ("joker", "bid"): _bid,
    ("odessa", "bid"): _bid,
    ("domino_poker", "bid"): _bid,
    ("odessa", "duck"): _joker_duck,
    ("joker", "trump"): _joker_trump,
    ("joker", "duck"): _joker_duck,
    ("ipuker", "leader_stake"): _ipuker_leader_stake,
    ("ipuker", "pass"): _ipuker_pass,
    ("durak", "take"): _durak_take,
    ("durak", "cheapest"): _durak_cheapest,
    ("durak", "no_trump_throws"): _durak_no_trump_throws,
}
