"""Helpers for the Durak engine tests: build a state in the middle of a game.

They edit a freshly started state directly (the engine has no test-only API),
so each scripted test states the hands, trump, talon and roles it needs. The
cards nobody holds and that are not in the talon go to the discard pile, so
that the 36 cards are always all there.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from gameplay.engine import IllegalMove
from gameplay.engine.durak import DurakEngine, durak_deck, next_opponent

ENGINE = DurakEngine()
SEED = 123456789
CARD_CODE = re.compile(r'"([6-9TJQKA][SCDH])"')
DECK = Counter(durak_deck())


def started(players: int = 2, seed: int = SEED, **options) -> dict:
    return ENGINE.start(players=players, options=options, seed=seed)


def scripted(
    hands: list[list[str]],
    *,
    trump: str = "H",
    talon: list[str] | None = None,
    attacker: int = 0,
    defender: int | None = None,
    bout: int = 2,
    mode: str = "podkidnoy",
    teams: bool = False,
    left: list[int] | None = None,
) -> dict:
    """A game at the start of bout ``bout`` with exactly these hands and this talon (top first).

    The talon's last card is the turned trump card (it must be of the trump
    suit); every other card is in the discard pile. ``left`` seats have left
    the game (their hands must be empty).
    """
    players = len(hands)
    state = started(players, mode=mode, teams=teams)
    talon = list(talon or [])
    held = [card for hand in hands for card in hand]
    assert len(set(held + talon)) == len(held) + len(talon), "a card is used twice"
    if talon:
        assert talon[-1][1] == trump, "the last talon card is the turned trump"
    state.update({
        "trump": trump,
        "trump_card": talon[-1] if talon else next(card for card in durak_deck() if card[1] == trump),
        "talon": talon,
        "hands": [list(hand) for hand in hands],
        "discard": [card for card in durak_deck() if card not in held and card not in talon],
        "taken": [[] for _ in range(players)],
        "shown_trump": None,
        "bout": bout,
        "bouts_played": bout - 1,
        "left": [{"seat": seat, "bout": bout - 1} for seat in (left or [])],
    })
    assert all(not hands[seat] for seat in (left or []))
    state.update({"attacker": attacker, "opener": attacker,
                  "defender": defender if defender is not None else next_opponent(state, attacker)})
    return state


def act(state: dict, seat: int, action_type: str, *cards: str, **fields) -> tuple[dict, list]:
    """Apply one action; ``cards`` fill the ``cards`` list (attack, throw, transfer)."""
    action: dict = {"type": action_type, **fields}
    if cards:
        action["cards"] = list(cards)
    before = dumps(state)
    new_state, events = ENGINE.apply(state, seat, action)
    assert dumps(state) == before, "apply changed its input state"
    return new_state, events


def beat(state: dict, attack: str, card: str) -> tuple[dict, list]:
    return act(state, state["defender"], "beat", attack=attack, card=card)


def refused(state: dict, seat: int, action: object) -> str:
    """Apply an action that must be refused; return the message and check the state is untouched."""
    before = dumps(state)
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.apply(state, seat, action)
    assert dumps(state) == before
    assert isinstance(excinfo.value.message, str) and excinfo.value.message
    return excinfo.value.message


def table(state: dict) -> list[tuple[str, str | None]]:
    return [(pair["attack"], pair["beat"]) for pair in state["table"]]


def roles(state: dict) -> list:
    return ENGINE.view(state, None)["roles"]


def event_types(events: list) -> list[str]:
    return [event["type"] for event in events]


def dumps(state: object) -> str:
    return json.dumps(state, sort_keys=True)


def card_codes_in(data: object) -> set[str]:
    return set(CARD_CODE.findall(json.dumps(data)))


def all_cards(state: dict) -> Counter:
    cards = [card for hand in state["hands"] for card in hand] + state["talon"] + state["discard"]
    cards += [card for pair in state["table"] for card in (pair["attack"], pair["beat"]) if card]
    return Counter(cards)


def public_cards(state: dict) -> set[str]:
    """Cards everybody has seen and may still be shown: table, taken cards, last bout, shown trump, trump card."""
    cards = {card for pair in state["table"] for card in (pair["attack"], pair["beat"]) if card}
    cards |= {card for taken in state["taken"] for card in taken}
    if state["last_bout"]:
        cards |= {card for pair in state["last_bout"]["table"] for card in (pair["attack"], pair["beat"]) if card}
    if state["shown_trump"]:
        cards.add(state["shown_trump"]["card"])
    if state["talon"]:
        cards.add(state["talon"][-1])
    return cards


def close_window(state: dict) -> tuple[dict, list]:
    """Every thrower the window waits for presses done, in seat order, until the bout ends; all the events."""
    events: list = []
    while state["phase"] == "window" and ENGINE.actors(state):
        state, new_events = act(state, ENGINE.actors(state)[0], "done")
        events.extend(new_events)
    return state, events
