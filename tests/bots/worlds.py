"""Reachable states of every game, and "other worlds": the same state with
every value a seat cannot see replaced by another one consistent with its view.

``reachable_states(slug, seed)`` plays a table at random and keeps states
along the way; ``other_world(engine, state, seat, rng)`` redraws, all at
once, the other hands, the seat's own unseen cards, the undealt cards or
tiles, the talon's order, stage 5's face-down row, the secret stakes, card
counts and show-or-hide choices, the leaders still to come and the seed.
It is written independently of the bots' determinisers (it works from the
rules, not from their code), so a determiniser that forgot a hidden field
makes the decisions differ.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from gameplay.engine import get_engine
from gameplay.engine.cards import is_joker
from gameplay.engine.core import State, clone

# (players, options) per game: enough tables to meet every phase of every game soon.
SETUPS: dict[str, list[tuple[int, dict]]] = {
    "joker": [(4, {})],
    "odessa": [
        (4, {"max_hand": 2}),
        (3, {"max_hand": 2, "deck": 53, "specials_mode": "once"}),
        (2, {"max_hand": 2, "trump": "H", "specials": ["blind", "miser"], "dealer_rule": "over"}),
    ],
    "durak": [(2, {}), (2, {"mode": "perevodnoy"}), (3, {"mode": "perevodnoy"}), (4, {"teams": True})],
    "domino_poker": [
        (4, {"sevens": 0, "final_stage": True}),
        (3, {"sevens": 0, "final_stage": True, "grab_deals": 0, "misere_deals": 0}),
        (2, {"sevens": 0, "final_stage": True, "blind_deals": 2}),
    ],
    "ipuker": [(4, {}), (4, {"leader_order": "random", "overflow": "cards", "max_stake": 40})],
}

GAMES = tuple(SETUPS)
MAX_MOVES = 3000


def reachable_states(slug: str, seed: int, every: int = 7) -> Iterator[State]:
    """States of a table of ``slug`` played at random from ``seed`` (one setup per seed), every ``every``-th move."""
    engine = get_engine(slug)
    players, options = SETUPS[slug][seed % len(SETUPS[slug])]
    rng = random.Random(seed)
    state = engine.start(players=players, options=options, seed=rng.getrandbits(62))
    for move in range(MAX_MOVES):
        if engine.is_over(state):
            return
        if move % every == rng.randrange(every):
            yield state
        seat = rng.choice(engine.actors(state))
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


def seats_to_move(engine, state: State) -> list[int]:
    """Every seat with a legal move now (a Durak thrower may throw in out of turn)."""
    return [seat for seat in range(state["players"]) if engine.legal_actions(state, seat)]


def other_world(engine, state: State, seat: int, rng: random.Random) -> State:
    """``state`` with everything ``seat`` cannot see drawn again (see the module docstring)."""
    world = clone(state)
    world["seed"] = rng.getrandbits(62)
    SWAPPERS[engine.slug](engine, world, seat, rng)
    return world


def _reshuffle(world: State, places: list[tuple[list, int]], rng: random.Random) -> None:
    """Deal the cards at ``places`` (``(list, index)`` pairs) among the same places in a new order."""
    cards = [cards[index] for cards, index in places]
    rng.shuffle(cards)
    for (cards_list, index), card in zip(places, cards):
        cards_list[index] = card


def _all_of(cards: list, start: int = 0) -> list[tuple[list, int]]:
    return [(cards, index) for index in range(start, len(cards))]


def _swap_trick_game(engine, world: State, seat: int, rng: random.Random) -> None:
    """Joker and Odessa: others' hands, the seat's unseen cards, the rest behind a shown turned card."""
    view = engine.view(world, seat)
    places: list[tuple[list, int]] = []
    for player, hand in enumerate(world["hands"]):
        if player != seat:
            places += _all_of(hand)
        elif not view["hand"]:
            places += _all_of(hand)
        elif len(view["hand"]) < len(hand):  # Joker's trump chooser sees the first packet
            places += _all_of(hand, len(view["hand"]))
    places += _all_of(world["rest"], 1 if view["trump_card"] else 0)
    _reshuffle(world, places, rng)
    if engine.slug == "joker":
        world["held_joker"] = [shown or any(is_joker(card) for card in hand)
                               for shown, hand in zip(world["joker_shown"], world["hands"])]
    elif view["trump_hidden"]:
        world["trump"], world["trump_card"] = engine._trump_of(world["options"], world["special"], world["rest"])


def _swap_durak(engine, world: State, seat: int, rng: random.Random) -> None:
    """Durak: others' cards that were never shown, and the talon above the trump card."""
    shown = world["shown_trump"]
    places: list[tuple[list, int]] = []
    for player, hand in enumerate(world["hands"]):
        if player == seat:
            continue
        public = set(world["taken"][player])
        if shown and shown["seat"] == player:
            public.add(shown["card"])
        places += [(hand, index) for index, card in enumerate(hand) if card not in public]
    places += _all_of(world["talon"])[:-1]  # the trump card lies face up at the bottom
    _reshuffle(world, places, rng)


def _swap_domino_poker(engine, world: State, seat: int, rng: random.Random) -> None:
    """Domino Poker: others' tiles, one's own while face down, the undealt tiles; stage 5's
    face-down row and others' secret choices."""
    view = engine.view(world, seat)
    if world["row"] is not None:
        _swap_final_stage(view, world, seat, rng)
        return
    places: list[tuple[list, int]] = []
    for player, hand in enumerate(world["hands"]):
        if player != seat or view["hand_face_down"]:
            places += _all_of(hand)
    places += _all_of(world["rest"])
    _reshuffle(world, places, rng)


def _swap_final_stage(view: dict, world: State, seat: int, rng: random.Random) -> None:
    seen = set()
    if world["pick"] is not None:
        seen.add(world["pick"]["index"])
    if world["positions"] is not None:
        seen |= {world["positions"][player] for player, tile in enumerate(view["final_tiles"]) if tile is not None}
    _reshuffle(world, [(world["row"], index) for index in range(len(world["row"])) if index not in seen], rng)
    if world["positions"] is not None:
        world["hands"] = [[world["row"][position]] for position in world["positions"]]
    if world["phase"] == "reveal":
        for other, choice in enumerate(world["choices"]):
            if other != seat and choice is not None:
                world["choices"][other] = rng.random() < 0.5


def _swap_ipuker(engine, world: State, seat: int, rng: random.Random) -> None:
    """Ipuker: others' secret stakes and counts (kept committed), the leaders still to come."""
    view = engine.view(world, seat)
    options = world["options"]
    for other in range(world["players"]):
        if other == seat:
            continue
        if world["stakes"][other] is not None and view["stakes"][other] is None:
            world["stakes"][other] = rng.randint(options["min_stake"], options["max_stake"])
        if world["counts"][other] is not None and view["counts"][other] is None:
            world["counts"][other] = rng.randint(0, view["max_cards"])
    if options["leader_order"] == "random":
        future = world["leader_plan"][len(world["leaders"]):]
        rng.shuffle(future)
        world["leader_plan"] = [*world["leaders"], *future]


SWAPPERS = {
    "joker": _swap_trick_game,
    "odessa": _swap_trick_game,
    "durak": _swap_durak,
    "domino_poker": _swap_domino_poker,
    "ipuker": _swap_ipuker,
}
