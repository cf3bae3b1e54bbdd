"""The search levels' samplers deal only hands the public record allows.

A player who did not follow suit has none of it, one who did not trump when
void has no trump, one who gave a lower card to a joker's "highest" has no
higher one, and in domino Poker one who did not answer a trump or the poker
with a trump has none (``gameplay/bots/inference.py``). Over random
playouts (Hypothesis): the real hands never break these facts (they are
facts), and no sampled world does either.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.bots import SEARCHES
from gameplay.bots.inference import deal_avoiding, domino_exclusions, trick_view_exclusions, violations
from gameplay.engine import get_engine
from gameplay.engine.cards import suit_of
from gameplay.engine.dominoes import TILES
from gameplay.engine.joker import joker_deck
from gameplay.engine.odessa import odessa_joker
from gameplay.engine.odessa_setup import make_odessa_deck
from gameplay.engine.tricks import GEORGIAN

SETUPS = {
    "joker": (4, {}),
    "odessa": (4, {}),
    "domino_poker": (4, {"sevens": 0}),
}
WORLDS_PER_STATE = 4


def played_to(slug: str, seed: int, moves: int):
    """The engine and a state of ``slug`` after up to ``moves`` random legal moves from ``seed``."""
    engine = get_engine(slug)
    players, options = SETUPS[slug]
    rng = random.Random(seed)
    state = engine.start(players=players, options=options, seed=seed)
    for _ in range(moves):
        if engine.is_over(state):
            break
        seat = engine.actors(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return engine, state


def exclusions_seen_by(engine, state, seat):
    """What the public record proves, as the deciding seat's sampler reads it."""
    view = engine.view(state, seat)
    if engine.slug == "joker":
        return trick_view_exclusions(view, state["played"], joker_deck(), GEORGIAN)
    if engine.slug == "odessa":
        deck = view["options"]["deck"]
        return trick_view_exclusions(view, state["played"], make_odessa_deck(deck), odessa_joker(deck))
    return domino_exclusions(tuple(TILES), view["players"], view["starter"], tuple(view["played"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(slug=st.sampled_from(sorted(SETUPS)), seed=st.integers(0, 10**6), moves=st.integers(0, 160))
def test_neither_the_real_hands_nor_a_sampled_world_break_a_fact_of_the_record(slug, seed, moves):
    engine, state = played_to(slug, seed, moves)
    if engine.is_over(state) or state.get("row"):
        return
    seat = engine.actors(state)[0]
    excluded = exclusions_seen_by(engine, state, seat)
    assert violations(state["hands"], excluded) == []
    rng = random.Random(seed)
    for _ in range(WORLDS_PER_STATE):
        world = SEARCHES[slug].determinise(engine, state, seat, rng)
        assert violations(world["hands"], excluded) == []
        assert [len(hand) for hand in world["hands"]] == [len(hand) for hand in state["hands"]]


def test_a_joker_player_who_did_not_follow_suit_is_dealt_none_of_it_in_every_sampled_world():
    engine, state, seat, discarder, suit = first_joker_trick_with_a_discard()
    excluded = exclusions_seen_by(engine, state, seat)
    assert all(card in excluded[discarder] for card in joker_deck() if suit_of(card) == suit)
    rng = random.Random(7)
    for _ in range(20):
        world = SEARCHES["joker"].determinise(engine, state, seat, rng)
        assert not [card for card in world["hands"][discarder] if suit_of(card) == suit]


def first_joker_trick_with_a_discard():
    """(engine, state, seat to move, the seat that discarded, the suit led) of the first such trick met."""
    engine = get_engine("joker")
    for seed in range(200):
        rng = random.Random(seed)
        state = engine.start(players=4, options={}, seed=seed)
        while not engine.is_over(state) and state["deal"] <= 9:
            trick = state["trick"]
            if len(trick) >= 2 and trick[0]["card"][0] != "X":
                led = suit_of(trick[0]["card"])
                for play in trick[1:]:
                    if play["card"][0] != "X" and suit_of(play["card"]) != led:
                        return engine, state, engine.actors(state)[0], play["seat"], led
            seat = engine.actors(state)[0]
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    raise AssertionError("no discard met")


def test_dealing_around_the_facts_respects_every_place_and_its_size():
    pool = [f"{rank}S" for rank in "6789TJQKA"] + [f"{rank}H" for rank in "6789TJQKA"]
    spades = frozenset(card for card in pool if card.endswith("S"))
    excluded = [spades, spades, frozenset()]
    for seed in range(30):
        rng = random.Random(seed)
        shuffled = rng.sample(pool, len(pool))
        hands = deal_avoiding(shuffled, [5, 4, 9], excluded, rng)
        assert [len(hand) for hand in hands] == [5, 4, 9]
        assert sorted(card for hand in hands for card in hand) == sorted(pool)
        assert violations(hands, excluded) == []


def test_facts_no_deal_can_respect_are_ignored_rather_than_failing():
    pool = ["AS", "KS", "QS"]
    hands = deal_avoiding(pool, [2, 1], [frozenset(pool), frozenset(pool)], random.Random(1))
    assert hands == [["AS", "KS"], ["QS"]]
