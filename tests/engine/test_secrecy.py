"""Differential secrecy: what a seat may not know changes nothing the game shows it.

Every game in ``gameplay.engine.ENGINES`` is played at random (Hypothesis
draws the seed, the table's options and the moves) to a reachable state.
A second "world" is then made from that state by changing something hidden:
two cards swapped between two hands, or between a hand and the undealt
cards, the talon's order, a secret stake or card count, the leader order
still to come, the seed. Each change names its *knowers*, the seats that may
see it (the owners of the swapped cards; in Ipuker's card phase the leader
too). For every other seat and for spectators the two worlds must look
exactly alike through the whole engine contract: ``view`` (with the seat's
``legal_actions``), ``actors``, ``timers``, ``sheet``, ``outcome`` and the
other public answers. Then every move legal in both worlds is played in both:
the events must be identical, and so must what the non-knowers see next,
unless the rules themselves show the change to everybody (the last secret
commitment reveals every value; a new deal comes from the seed; a Durak
defender who cannot beat is made to take). And whatever move such a seat
tries, he is refused in the same words in both worlds.

A new engine is covered by adding its ``HiddenPlaces`` adapter (the tables
to play, where its secrets lie, when the rules reveal them) to
``HIDDEN_PLACES``; a test fails while an engine has none.

The Durak throwers' window gets a test of its own: under rules version 1 the
window waited only for the throwers holding a card that fitted, so its
actors, its timers and every view told everybody who could throw in. The
window test swaps a card so that some thrower gains or loses a fitting card;
it passes under version 2 and, as the last test shows, the same comparison
finds the difference in a version 1 game, which proves it can see a leak.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Protocol

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from gameplay.engine import ENGINES, Engine, IllegalMove
from gameplay.engine.cards import is_joker
from gameplay.engine.core import Action, Event, State, clone
from gameplay.engine.durak import HAND_SIZE, table_ranks, throwers

Setup = tuple[int, dict]  # (players, options)
Place = tuple[str | int, ...]  # a path to a list of cards in the state: ("hands", 2), ("talon",)
Result = tuple[State, list[Event]]

SEEDS = st.integers(min_value=1, max_value=2**62)
CHOICES = st.integers(min_value=0, max_value=2**32).map(random.Random)
MISSING = object()
AUTO_SHARE = 0.15  # the share of moves made as automatic time-out moves
DRAWN_SOON = HAND_SIZE  # the talon's first cards, drawn at the end of the bout


@dataclass(frozen=True, repr=False)
class Change:
    """One change of hidden information; ``world`` makes the other world from a state."""

    what: str
    kind: str  # what is changed, e.g. "hands <-> talon", "seed", "stakes": changes are drawn kind first
    knowers: frozenset[int]
    edit: Callable[[State], None]
    cards: tuple[str, ...] = ()  # the cards moved, to follow where they go

    def world(self, state: State) -> State:
        other = clone(state)
        self.edit(other)
        return other

    def __repr__(self) -> str:  # Hypothesis prints it in a falsifying example
        return f"Change({self.what}; known to {sorted(self.knowers)})"


class HiddenPlaces(Protocol):
    """Where one game keeps what some seats may not know (one adapter per engine)."""

    setups: list[Setup]
    playout_moves: int  # a random game is cut after at most this many moves
    # Points worth stopping at (the playout goes on to the next one): states a playout cut at a
    # random move rarely reaches, such as Joker's trump choice.
    moments: dict[str, Callable[[State], bool]]

    def changes(self, state: State) -> list[Change]:
        """Every hidden change of ``state`` this adapter makes, each with its knowers."""

    def knowers_after(self, change: Change, before: State, results: tuple[Result, Result]) -> frozenset[int] | None:
        """Who may know ``change`` once the same move is played in both worlds; ``None``: by the
        rules the move shows it to everybody, so the two worlds may then differ."""


# -- changes shared by the card games ----------------------------------------------------------


def cards_at(state: State, place: Place) -> list[str]:
    target: Any = state
    for key in place:
        target = target[key]
    return target


def place_name(place: Place) -> str:
    return f"seat {place[1]}'s hand" if place[0] == "hands" else f"the {place[0]}"


def exchange(first: tuple[Place, str], second: tuple[Place, str], knowers: Iterable[int],
             after: Callable[[State], None] | None = None) -> Change:
    """Swap card ``first[1]`` at ``first[0]`` with ``second[1]`` at ``second[0]``, each keeping its position."""
    (place_a, card_a), (place_b, card_b) = first, second

    def edit(state: State) -> None:
        cards_a, cards_b = cards_at(state, place_a), cards_at(state, place_b)
        index_a, index_b = cards_a.index(card_a), cards_b.index(card_b)
        cards_a[index_a], cards_b[index_b] = card_b, card_a
        if after is not None:
            after(state)

    what = f"{card_a} of {place_name(place_a)} <-> {card_b} of {place_name(place_b)}"
    return Change(what, f"{place_a[0]} <-> {place_b[0]}", frozenset(knowers), edit, (card_a, card_b))


def exchanges(hidden: list[tuple[Place, list[str], frozenset[int]]],
              after: Callable[[State], None] | None = None) -> list[Change]:
    """Every swap of two hidden cards lying in two different places (``hidden``: place, cards, knowers)."""
    return [exchange((place_a, card_a), (place_b, card_b), knowers_a | knowers_b, after)
            for (place_a, cards_a, knowers_a), (place_b, cards_b, knowers_b) in combinations(hidden, 2)
            for card_a in cards_a for card_b in cards_b]


def reordered(place: Place, cards: list[str]) -> list[Change]:
    """Every swap of two cards inside one place nobody sees (the talon's order)."""
    return [exchange((place, first), (place, second), ()) for first, second in combinations(cards, 2)]


def other_seed() -> Change:
    def edit(state: State) -> None:
        state["seed"] = state["seed"] + 1

    return Change("the seed", "seed", frozenset(), edit)


def holders(state: State, cards: Iterable[str]) -> frozenset[int]:
    """The seats holding any of ``cards``."""
    wanted = set(cards)
    return frozenset(seat for seat, hand in enumerate(state["hands"]) if wanted & set(hand))


# -- the adapters -------------------------------------------------------------------------------


class DurakPlaces:
    """Hands (less the cards taken from the table and the shown lowest trump, which are public),
    the talon but its last card (the turned trump), the talon's order, the seed."""

    setups = [(players, {"mode": mode, "teams": teams})
              for players, teams in ((2, False), (3, False), (4, False), (4, True))
              for mode in ("podkidnoy", "perevodnoy")]
    playout_moves = 150
    moments = {"the throwers' window": lambda state: state["phase"] == "window",
               "the window's last thrower": lambda state: state["phase"] == "window"
               and len(ENGINES["durak"].actors(state)) == 1,
               "a defence with the talon still full": lambda state: state["phase"] == "defend"
               and len(state["talon"]) > 6}

    def changes(self, state: State) -> list[Change]:
        talon = state["talon"][:-1]
        hidden = [(("hands", seat), hidden_durak_cards(state, seat), frozenset([seat]))
                  for seat in range(state["players"])]
        hidden.append((("talon",), talon, frozenset()))
        changes = exchanges(hidden) + reordered(("talon",), talon) + [other_seed()]
        # The next cards drawn are the talon's first: swaps with them are a kind of their own.
        return [replace(change, kind="hands <-> top of talon")
                if change.kind == "hands <-> talon" and change.cards[1] in talon[:DRAWN_SOON] else change
                for change in changes]

    def knowers_after(self, change: Change, before: State, results: tuple[Result, Result]) -> frozenset[int] | None:
        # The rules make a defender who cannot beat take at once, which tells everybody he could not.
        forced = [any(event["type"] == "forced_take" for event in events) for _, events in results]
        if forced[0] != forced[1]:
            return None
        return change.knowers | holders(results[0][0], change.cards) | holders(results[1][0], change.cards)


def hidden_durak_cards(state: State, seat: int) -> list[str]:
    public = set(state["taken"][seat])
    shown = state["shown_trump"]
    if shown and shown["seat"] == seat:
        public.add(shown["card"])
    return [card for card in state["hands"][seat] if card not in public]


class JokerPlaces:
    """Hands (while the trump is named nobody sees his own, the chooser his first 3 only), the
    undealt cards but the turned trump card, the seed (it makes the next deals)."""

    setups = [(4, {})]
    playout_moves = 800
    moments = {"the trump choice": lambda state: state["phase"] == "trump",
               "a deal's last trick": lambda state: state["phase"] == "play" and sum(map(len, state["hands"])) <= 4,
               "the end": lambda state: state["phase"] == "over"}

    def changes(self, state: State) -> list[Change]:
        rest = state["rest"][1:] if state["trump_card"] is not None else list(state["rest"])
        hidden = [(("hands", seat), list(state["hands"][seat]), frozenset()) for seat in range(state["players"])]
        hidden.append((("rest",), rest, frozenset()))
        changes = [self._with_owners(state, change) for change in exchanges(hidden, after=recount_jokers)]
        return changes + [other_seed()]

    @staticmethod
    def _with_owners(state: State, change: Change) -> Change:
        """The change known to each owner who sees the swapped card in his hand; swaps of a joker
        (whether a seat held one is hidden until he plays it) are a kind of their own."""
        knowers = frozenset(seat for seat in holders(state, change.cards)
                            if any(joker_owner_sees(state, seat, card) for card in change.cards))
        kind = change.kind + (" (a joker)" if any(map(is_joker, change.cards)) else "")
        return replace(change, kind=kind, knowers=knowers)

    def knowers_after(self, change: Change, before: State, results: tuple[Result, Result]) -> frozenset[int] | None:
        if change.kind == "seed" and results[0][0]["deal"] != before["deal"]:
            return None  # the next deal is dealt from the seed
        return change.knowers | holders(results[0][0], change.cards) | holders(results[1][0], change.cards)


def joker_owner_sees(state: State, seat: int, card: str) -> bool:
    hand = state["hands"][seat]
    if card not in hand:
        return False
    if state["phase"] != "trump":
        return True
    return seat == state["trump_chooser"] and hand.index(card) < 3


def recount_jokers(state: State) -> None:
    """``held_joker`` (hidden) follows a swapped joker: a seat held one if he still does or has shown one."""
    state["held_joker"] = [shown or any(is_joker(card) for card in hand)
                           for shown, hand in zip(state["joker_shown"], state["hands"], strict=True)]


class IpukerPlaces:
    """Committed but unrevealed stakes and card counts (the leader sees the counts), with their
    time-out flag; the leaders still to come in ``random`` order; the seed."""

    setups = [(4, {"leader_order": order, "overflow": overflow, "min_stake": min_stake})
              for order in ("clockwise", "random") for overflow in ("basic", "kids", "cards")
              for min_stake in (9, 1)]
    playout_moves = 30
    moments = {"stakes committed": lambda state: state["phase"] == "stake" and any(state["stakes"]),
               "counts committed": lambda state: state["phase"] == "cards" and any(
                   count is not None for count in state["counts"])}

    def changes(self, state: State) -> list[Change]:
        changes = [other_seed()]
        phase, leader, options = state["phase"], state["leader"], state["options"]
        if phase == "stake":
            changes += committed_values(state, "stakes", range(options["min_stake"], options["max_stake"] + 1),
                                        options["min_stake"], frozenset())
        if phase == "cards":
            changes += committed_values(state, "counts", range(10), 0, frozenset([leader]))
        if options["leader_order"] == "random":
            changes += [swapped_leaders(first, second)
                        for first, second in combinations(range(state["round"], len(state["leader_plan"])), 2)]
        return changes

    def knowers_after(self, change: Change, before: State, results: tuple[Result, Result]) -> frozenset[int] | None:
        after = results[0][0]
        round_over = after["round"] != before["round"] or after["phase"] == "over"
        if round_over or (change.kind == "stakes" and after["stakes_revealed"]):
            return None  # the last commitment reveals every value; the next round names its leader
        return change.knowers


def committed_values(state: State, key: str, values: Iterable[int], auto_value: int,
                     also_known_to: frozenset[int]) -> list[Change]:
    """Every other value (and time-out flag) of each committed, unrevealed ``state[key]`` entry."""
    changes = []
    for seat, current in enumerate(state[key]):
        if current is None:
            continue
        for value in values:
            for auto in ((False, True) if value == auto_value else (False,)):
                if (value, auto) != (current, state["auto"][seat]):
                    changes.append(new_value(key, seat, value, auto, also_known_to))
    return changes


def new_value(key: str, seat: int, value: int, auto: bool, also_known_to: frozenset[int]) -> Change:
    def edit(state: State) -> None:
        state[key][seat] = value
        state["auto"][seat] = auto

    return Change(f"seat {seat}'s {key} = {value} (auto {auto})", key, also_known_to | {seat}, edit)


def swapped_leaders(first: int, second: int) -> Change:
    def edit(state: State) -> None:
        plan = state["leader_plan"]
        plan[first], plan[second] = plan[second], plan[first]

    return Change(f"the leaders of rounds {first + 1} and {second + 1}", "leaders", frozenset(), edit)


class OdessaPlaces:
    """Hands (in a blind deal nobody sees his own until every bid is in), the undealt cards but the
    turned trump card (which is hidden too in a blind deal's bidding), the seed."""

    setups = [(players, {"deck": deck, "max_hand": max_hand, "trump": trump, "dealer_rule": rule,
                         "joker_demand": demand, "specials_mode": "once"})
              for players, deck, max_hand, trump, rule, demand in (
                  (2, 36, 3, "turned", "not_equal", "any_trick"), (3, 53, 2, "turned", "over", "first_trick_only"),
                  (4, 52, 2, "H", "free", "any_trick"), (4, 36, 9, "turned", "not_equal", "any_trick"),
                  (5, 53, 3, "turned", "over", "off"), (6, 36, 2, "turned", "not_equal", "any_trick"))]
    playout_moves = 300
    moments = {"a blind deal's bidding": lambda state: state["special"] == "blind" and state["phase"] == "bid",
               "a deal's last trick": lambda state: state["phase"] == "play"
               and sum(map(len, state["hands"])) <= state["players"],
               "the end": lambda state: state["phase"] == "over"}

    def changes(self, state: State) -> list[Change]:
        blind = odessa_blind_bidding(state)
        shown_card = state["trump_card"] is not None and not blind
        rest = state["rest"][1:] if shown_card else list(state["rest"])
        hidden = [(("hands", seat), list(state["hands"][seat]), frozenset() if blind else frozenset([seat]))
                  for seat in range(state["players"])]
        hidden.append((("rest",), rest, frozenset()))
        return exchanges(hidden) + [other_seed()]

    def knowers_after(self, change: Change, before: State, results: tuple[Result, Result]) -> frozenset[int] | None:
        after = results[0][0]
        if change.kind == "seed" and after["deal"] != before["deal"]:
            return None  # the next deal is dealt from the seed
        if odessa_blind_bidding(before) and not odessa_blind_bidding(after):
            return None  # the last blind bid shows every hand to its owner and turns the trump card
        if odessa_blind_bidding(after):
            return change.knowers  # still nobody sees a card of the deal
        return change.knowers | holders(after, change.cards) | holders(results[1][0], change.cards)


def odessa_blind_bidding(state: State) -> bool:
    return state["special"] == "blind" and state["phase"] == "bid"


HIDDEN_PLACES: dict[str, HiddenPlaces] = {"durak": DurakPlaces(), "joker": JokerPlaces(), "ipuker": IpukerPlaces(),
                                          "odessa": OdessaPlaces()}


# -- playing and comparing ------------------------------------------------------------------------


def all_legal_moves(engine: Engine, state: State) -> list[tuple[int, Action]]:
    """Every legal move of every seat (Durak's passive throw-ins included)."""
    return [(seat, action) for seat in range(state["players"]) for action in engine.legal_actions(state, seat)]


def random_move(engine: Engine, state: State, choices: random.Random) -> tuple[int, Action]:
    """A random legal move; now and then a time-out's automatic move, as the platform makes it."""
    actors = engine.actors(state)
    if actors and choices.random() < AUTO_SHARE:
        seat = choices.choice(actors)
        return seat, {**engine.auto_action(state, seat), "auto": True}
    return choices.choice(all_legal_moves(engine, state))


def play_at_random(engine: Engine, state: State, moves: int, choices: random.Random,
                   until: Callable[[State], bool] = lambda state: False) -> State:
    """``state`` after up to ``moves`` random moves; stops early at the end or where ``until`` holds."""
    for _ in range(moves):
        if engine.is_over(state) or until(state):
            break
        state, _ = engine.apply(state, *random_move(engine, state, choices))
    return state


@st.composite
def reachable_states(draw: st.DrawFn, slug: str) -> State:
    """A random game after a random number of moves, or at the next moment of a drawn kind after them."""
    engine, places = ENGINES[slug], HIDDEN_PLACES[slug]
    players, options = draw(st.sampled_from(places.setups), label="setup")
    state = engine.start(players, options, draw(SEEDS, label="seed"))
    choices = draw(CHOICES, label="choices")
    moves = places.playout_moves
    state = play_at_random(engine, state, draw(st.integers(0, moves // 5) | st.integers(0, moves)), choices)
    moment = draw(st.sampled_from([None, *places.moments]), label="moment")
    if moment is not None:
        state = play_at_random(engine, state, moves, choices, until=places.moments[moment])
    event(f"{state['phase']} (playout: {moment or 'cut at random'})")
    return state


def draw_change(data: st.DataObject, changes: list[Change]) -> Change:
    """A change drawn kind first, so that rare kinds (a swap with the talon, the seed) come up as often as swaps
    between hands."""
    kind = data.draw(st.sampled_from(sorted({change.kind for change in changes})), label="kind")
    return data.draw(st.sampled_from([change for change in changes if change.kind == kind]), label="change")


def shown_to(engine: Engine, state: State, seat: int | None) -> dict[str, Any]:
    """Everything the engine contract tells ``seat`` (``None``: what it tells everybody)."""
    if seat is None:
        return {"view": engine.view(state, None), "actors": engine.actors(state), "timers": engine.timers(state),
                "sheet": engine.sheet(state), "outcome": engine.outcome(state), "is_over": engine.is_over(state),
                "ahead_scope": engine.ahead_scope(state), "upgrades": engine.upgrade(state) is not None}
    shown = {"view": engine.view(state, seat), "legal_actions": engine.legal_actions(state, seat),
             "may_order_ahead": engine.may_order_ahead(state, seat)}
    if seat in engine.actors(state):
        shown["auto_action"] = engine.auto_action(state, seat)
    return shown


def compared(label: str, first: Any, second: Any) -> list[str]:
    """Where two JSON values differ, one line per differing leaf of their dicts."""
    if isinstance(first, dict) and isinstance(second, dict):
        return [line for key in sorted(first.keys() | second.keys(), key=str)
                for line in compared(f"{label}.{key}", first.get(key, MISSING), second.get(key, MISSING))]
    return [] if first == second else [f"{label}: {first!r} != {second!r}"]


def observers(state: State, knowers: frozenset[int]) -> list[int | None]:
    return [None] + [seat for seat in range(state["players"]) if seat not in knowers]


def differences(engine: Engine, first: State, second: State, seats: Iterable[int | None]) -> list[str]:
    """What the engine shows ``seats`` differently in two states (empty: nothing)."""
    return [line for seat in seats
            for line in compared("everybody" if seat is None else f"seat {seat}",
                                 shown_to(engine, first, seat), shown_to(engine, second, seat))]


def common_moves(engine: Engine, first: State, second: State) -> list[tuple[int, Action]]:
    in_second = {(seat, repr(action)) for seat, action in all_legal_moves(engine, second)}
    return [(seat, action) for seat, action in all_legal_moves(engine, first) if (seat, repr(action)) in in_second]


def move_differences(engine: Engine, places: HiddenPlaces, state: State, change: Change) -> list[str]:
    """What differs, for those who may not know ``change``, after each move legal in both worlds."""
    other = change.world(state)
    found = []
    for seat, action in common_moves(engine, state, other):
        results = (engine.apply(state, seat, action), engine.apply(other, seat, action))
        knowers = places.knowers_after(change, state, results)
        if knowers is None:
            continue
        (first, first_events), (second, second_events) = results
        label = f"after seat {seat} plays {action}"
        found += compared(f"{label}: events", first_events, second_events)
        found += [f"{label}: {line}" for line in differences(engine, first, second, observers(first, knowers))]
    return found


def refusals(engine: Engine, state: State, seat: int, actions: list[Action]) -> list[str | None]:
    """What ``seat`` is told when he tries each action: the refusal, or ``None`` if it is accepted."""
    told: list[str | None] = []
    for action in actions:
        try:
            engine.apply(state, seat, action)
        except IllegalMove as refusal:
            told.append(refusal.message)
        else:
            told.append(None)
    return told


def refusal_differences(engine: Engine, state: State, change: Change) -> list[str]:
    """Where a seat that may not know ``change`` is refused differently in the two worlds, trying any
    move some seat may make in either."""
    other = change.world(state)
    tried = list({repr(action): action for world in (state, other)
                  for _, action in all_legal_moves(engine, world)}.values())
    found = []
    for seat in observers(state, change.knowers)[1:]:
        for action, first, second in zip(tried, refusals(engine, state, seat, tried),
                                         refusals(engine, other, seat, tried), strict=True):
            if first != second:
                found.append(f"seat {seat} tries {action}: {first!r} != {second!r}")
    return found


# -- the tests ---------------------------------------------------------------------------------------

GAMES = sorted(ENGINES)
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_every_registered_game_says_where_it_hides_things():
    assert sorted(HIDDEN_PLACES) == GAMES


@pytest.mark.parametrize("slug", GAMES)
@EXAMPLES
@given(data=st.data())
def test_changing_what_a_seat_may_not_know_changes_nothing_the_game_shows_it(slug: str, data: st.DataObject):
    engine = ENGINES[slug]
    state = data.draw(reachable_states(slug), label="state")
    change = draw_change(data, HIDDEN_PLACES[slug].changes(state))
    event(f"{state['phase']}: {change.kind}")
    other = change.world(state)
    assert other != state
    assert differences(engine, state, other, observers(state, change.knowers)) == []


@pytest.mark.parametrize("slug", GAMES)
@EXAMPLES
@given(data=st.data())
def test_the_same_move_in_both_worlds_tells_those_who_may_not_know_the_same(slug: str, data: st.DataObject):
    state = data.draw(reachable_states(slug), label="state")
    places = HIDDEN_PLACES[slug]
    change = draw_change(data, places.changes(state))
    event(f"{state['phase']}: {change.kind}")
    assert move_differences(ENGINES[slug], places, state, change) == []
    assert refusal_differences(ENGINES[slug], state, change) == []


# -- the Durak throwers' window ----------------------------------------------------------------------

DURAK = ENGINES["durak"]


def durak_window(setup: Setup, seed: int, moves: int, choices: random.Random,
                 rules_version: int | None = None) -> State | None:
    """The first throwers' window after ``moves`` random moves (``None`` if the game ends first)."""
    players, options = setup
    state = DURAK.start(players, options, seed, rules_version=rules_version)
    state = play_at_random(DURAK, state, moves, choices)
    state = play_at_random(DURAK, state, DurakPlaces.playout_moves, choices,
                           until=lambda state: state["phase"] == "window")
    return state if state["phase"] == "window" else None


def could_throw_in(state: State) -> set[int]:
    """The throwers holding a card of a rank on the table (what version 1 told everybody)."""
    ranks = table_ranks(state)
    return {seat for seat in throwers(state) if any(card[0] in ranks for card in state["hands"][seat])}


def telling_changes(state: State) -> list[Change]:
    """The card swaps after which another set of throwers holds a fitting card."""
    return [change for change in DurakPlaces().changes(state)
            if change.cards and could_throw_in(change.world(state)) != could_throw_in(state)]


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(setup=st.sampled_from(DurakPlaces.setups), seed=SEEDS, moves=st.integers(0, 60), choices=CHOICES,
       data=st.data())
def test_a_durak_throwers_window_tells_nobody_who_could_throw_in(setup: Setup, seed: int, moves: int,
                                                                 choices: random.Random, data: st.DataObject):
    """In the window, swap a card so that some thrower gains or loses a card that fits the table.

    Under rules version 1 this failed: the window waited only for the throwers
    with a fitting card, so ``actors``, ``timers`` and the ``actors`` of every
    view differed between the two worlds (when nobody could throw in, the
    window did not even open); see
    ``test_the_comparison_sees_the_version_1_window_leak``.
    """
    state = durak_window(setup, seed, moves, choices)
    assume(state is not None)
    changes = telling_changes(state)
    assume(changes)
    change = draw_change(data, changes)
    event(change.kind)
    assert differences(DURAK, state, change.world(state), observers(state, change.knowers)) == []
    assert move_differences(DURAK, HIDDEN_PLACES["durak"], state, change) == []
    assert refusal_differences(DURAK, state, change) == []


def version_1_window_leaks() -> list[str]:
    """What the comparison finds in the first version 1 window where a swap changes who could throw in."""
    for seed in range(1, 100):
        state = durak_window((3, {"mode": "podkidnoy", "teams": False}), seed, 0, random.Random(seed),
                             rules_version=1)
        if state is None:
            continue
        assert state["rules"] == 1
        leaks = [line for change in telling_changes(state)
                 for line in differences(DURAK, state, change.world(state), observers(state, change.knowers))]
        if leaks:
            return leaks
    return []


def test_the_comparison_sees_the_version_1_window_leak():
    """The same comparison on a game played under rules version 1 finds who could throw in."""
    leaks = version_1_window_leaks()
    assert any(line.startswith("everybody.actors") for line in leaks), leaks
    assert any(line.startswith("everybody.timers") for line in leaks), leaks
    assert any(".view.actors" in line for line in leaks), leaks
