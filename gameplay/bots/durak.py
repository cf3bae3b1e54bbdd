"""The Durak computer player: a pure function of what its seat may see (no Django, no state).

``choose_durak_action(view, legal, rng)`` picks one of ``legal`` (the engine's
legal actions for the seat) using only ``engine.view(state, seat)``:

- attack: the lowest non-trump rank, with every non-trump card of that rank;
  only trumps left: the lowest trump;
- defend: transfer when it costs a non-trump card (or, with the talon empty,
  any card); take when covering the table would spend a high trump (Q, K, A)
  or two trumps while the talon is still thick; otherwise beat, always with
  the cheapest card that covers, keeping the other unbeaten cards coverable;
- throw in: low non-trumps (up to J; up to K when the defender is taking,
  anything but trumps once the talon is empty); otherwise "done".

Levels 2 and 3 (``DURAK_SEARCH``): PIMC to the end of the game, for attacks,
defence (beat, take, transfer), throw-ins and "done". Why PIMC: a Durak
game is one deal of a few dozen moves, so a rollout to the very end by the
level-1 player costs a few milliseconds and scores the real result (won or
durak); most information becomes public as the game goes (picked-up cards,
the discard pile, the trump under the talon), which is where PIMC's
strategy fusion costs least. ``determinise_durak`` keeps every card the seat
has seen where it is and deals the rest of the others' hands and the talon
afresh.
"""

from __future__ import annotations

import random
from typing import Any

from gameplay.bots.sampling import fresh_seed, shuffled_pool, take
from gameplay.bots.search import SearchGame, view_policy
from gameplay.engine.cards import rank_value, suit_of
from gameplay.engine.core import clone
from gameplay.engine.durak import beats, can_beat_all, durak_deck

Action = dict[str, Any]

HIGH_TRUMP_FROM = rank_value("Q")
THROW_UP_TO = rank_value("J")
THROW_UP_TO_WHEN_TAKING = rank_value("K")
EARLY_TALON = 8  # "early": this many cards or more still in the talon
TRUMP_PENALTY = 100


def choose_durak_action(view: dict, legal: list[Action], rng: random.Random) -> Action:
    """The Durak bot's move from the seat's view and its legal actions; ``ValueError`` if there is none."""
    if not legal:
        raise ValueError("The bot has no legal move to choose from.")
    kinds = {action["type"] for action in legal}
    if "attack" in kinds:
        return choose_attack(view, legal)
    if kinds & {"beat", "take", "transfer"}:
        return choose_defence(view, legal)
    if kinds & {"throw", "done"}:
        return choose_throw_in(view, legal)
    return rng.choice(legal)


def card_cost(card: str, trump: str) -> int:
    """How dear a card is to give away: its rank, plus a large penalty for a trump."""
    return rank_value(card) + (TRUMP_PENALTY if suit_of(card) == trump else 0)


def is_trump(card: str, trump: str) -> bool:
    return suit_of(card) == trump


def _of_type(legal: list[Action], kind: str) -> list[Action]:
    return [action for action in legal if action["type"] == kind]


# -- attacking -----------------------------------------------------------------------------


def choose_attack(view: dict, legal: list[Action]) -> Action:
    """The cheapest rank, as many of its cards as allowed, never mixing a trump in."""
    trump = view["trump"]
    attacks = _of_type(legal, "attack")

    def key(action: Action) -> tuple[int, int]:
        return max(card_cost(card, trump) for card in action["cards"]), -len(action["cards"])

    return min(attacks, key=key)


# -- defending ----------------------------------------------------------------------------


def choose_defence(view: dict, legal: list[Action]) -> Action:
    trump = view["trump"]
    take = {"type": "take"}
    transfer = cheap_transfer(view, legal)
    if transfer is not None:
        return transfer
    beat_actions = _of_type(legal, "beat")
    plan = cover_plan([pair["attack"] for pair in view["table"] if pair["beat"] is None], view["hand"], trump)
    if not beat_actions or not plan:
        return take if take in legal else legal[0]
    if take in legal and is_too_dear(plan, trump, view["talon"]):
        return take
    attack, card = plan[0]
    for action in beat_actions:
        if action["attack"] == attack and action["card"] == card:
            return action
    return min(beat_actions, key=lambda action: card_cost(action["card"], trump))


def cheap_transfer(view: dict, legal: list[Action]) -> Action | None:
    """A one-card transfer with a non-trump (with the talon empty, any card: shedding cards wins)."""
    trump = view["trump"]
    transfers = [action for action in _of_type(legal, "transfer") if len(action["cards"]) == 1]
    if view["talon"] > 0:
        transfers = [action for action in transfers if not is_trump(action["cards"][0], trump)]
    if not transfers:
        return None
    return min(transfers, key=lambda action: card_cost(action["cards"][0], trump))


def cover_plan(unbeaten: list[str], hand: list[str], trump: str) -> list[tuple[str, str]] | None:
    """(attack, card) pairs covering every unbeaten card cheaply, or ``None`` if they cannot all be covered.

    The card with the fewest answers is covered first, each time with the
    cheapest card that still leaves the rest coverable (a matching check, so
    this is polynomial and never misses a cover that exists).
    """
    if not can_beat_all(unbeaten, hand, trump):
        return None
    plan: list[tuple[str, str]] = []
    unbeaten, hand = list(unbeaten), list(hand)
    while unbeaten:
        answers = {attack: sorted((card for card in hand if beats(card, attack, trump)),
                                  key=lambda card: card_cost(card, trump)) for attack in unbeaten}
        attack = min(unbeaten, key=lambda a: (len(answers[a]), -card_cost(a, trump)))
        unbeaten.remove(attack)
        card = next(card for card in answers[attack]
                    if can_beat_all(unbeaten, [other for other in hand if other != card], trump))
        hand.remove(card)
        plan.append((attack, card))
    return plan


def is_too_dear(plan: list[tuple[str, str]], trump: str, talon: int) -> bool:
    """True early in the game if covering spends a high trump or two trumps."""
    if talon < EARLY_TALON:
        return False
    trumps = [card for _, card in plan if is_trump(card, trump)]
    return len(trumps) >= 2 or any(rank_value(card) >= HIGH_TRUMP_FROM for card in trumps)


# -- throwing in -------------------------------------------------------------------------------


def choose_throw_in(view: dict, legal: list[Action]) -> Action:
    """Throw in the cheapest low non-trump cards; otherwise press done."""
    trump = view["trump"]
    limit = THROW_UP_TO_WHEN_TAKING if view["taking"] else THROW_UP_TO
    if view["talon"] == 0:
        limit = rank_value("A")
    good = [action for action in _of_type(legal, "throw")
            if all(not is_trump(card, trump) and rank_value(card) <= limit for card in action["cards"])]
    if good:
        return min(good, key=lambda action: (max(card_cost(card, trump) for card in action["cards"]),
                                             -len(action["cards"])))
    done = {"type": "done"}
    if done in legal:
        return done
    return min(_of_type(legal, "throw") or legal,
               key=lambda action: max((card_cost(card, trump) for card in action.get("cards", [])), default=0))


# -- the search levels' world sampler ------------------------------------------------


def determinise_durak(engine: Any, state: dict, seat: int, rng: random.Random) -> dict:
    """A world agreeing with what ``seat`` knows: its own hand, the table, the
    discard pile (every card in it was seen on the table), the cards each
    player picked up and still holds, the shown lowest trump while its holder
    must still hold it, and the trump card under the talon; every other card
    (the rest of the others' hands, the talon's order) dealt afresh, and a
    fresh seed."""
    view = engine.view(state, seat)
    trump_card = view["trump_card"]
    table = [card for pair in view["table"] for card in (pair["attack"], pair["beat"]) if card]
    held = [list(cards) for cards in view["taken"]]
    shown = still_shown_trump(view, public_discard(state), table)
    if shown is not None:
        held[shown["seat"]].append(shown["card"])
    known = [*view["hand"], *table, *public_discard(state), *(card for cards in held for card in cards)]
    pool = shuffled_pool(durak_deck(), [*known, *([trump_card] if trump_card else [])], rng)
    world = clone(state)
    hands = []
    for player, size in enumerate(view["hand_sizes"]):
        if player == seat:
            hands.append(list(view["hand"]))
        else:
            hands.append([*held[player], *take(pool, size - len(held[player]))])
    world["hands"] = hands
    world["talon"] = [*take(pool, view["talon"] - 1), trump_card] if view["talon"] else []
    world["seed"] = fresh_seed(rng)
    return world


def public_discard(state: dict) -> list[str]:
    """The discard pile ("отбой"): every card in it lay face up on the table first."""
    return list(state["discard"])


def still_shown_trump(view: dict, discard: list[str], table: list[str]) -> dict | None:
    """The lowest trump shown at the start (``{"seat", "card"}``) if its holder
    must still hold it: it has not been seen since on the table, in the
    discard pile, in a picked-up pile or in the seat's own hand."""
    shown = view["shown_trump"]
    if not shown or shown["seat"] == view["seat"]:
        return None
    card = shown["card"]
    elsewhere = [*discard, *table, *view["hand"], *(c for cards in view["taken"] for c in cards)]
    return None if card in elsewhere else shown


def durak_value(engine: Any, state: dict, seat: int) -> float:
    """The seat's points once the game is over (1 won, ½ drawn, 0 the durak); ½ if a rollout was cut."""
    if not engine.is_over(state):
        return 0.5
    return float(engine.outcome(state)["scores"][seat])


DURAK_SEARCH = SearchGame(
    determinise=determinise_durak,
    rollout_policy=view_policy(choose_durak_action),
    horizon_key=lambda state: None,
    value=durak_value,
)
