"""What a late move's views and refusals need, computed without copying the state or
summing the history again, gives the same answers as before (issue 28, point 3)."""

from __future__ import annotations

import random

from gameplay.engine import get_engine
from gameplay.engine.cards import is_joker
from gameplay.engine.joker import game_totals

from .helpers import record


def playout(slug: str, seed: int, every: int):
    """Every `every`-th state of a random game of `slug`, with the seat the game waits for."""
    engine, rng = get_engine(slug), random.Random(seed)
    state = engine.start(players=4, options={}, seed=seed)
    moves = 0
    while not engine.is_over(state):
        seat = engine.actors(state)[0]
        if moves % every == 0:
            yield engine, state, seat
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
        moves += 1


def card_plays(state: dict, seat: int) -> list[dict]:
    plays = [{"type": "play", "card": card} for card in state["hands"][seat]]
    plays += [{"type": "play", "card": card, "joker": "high", "suit": "S"}
              for card in state["hands"][seat] if is_joker(card)]
    return plays


def answer_of_apply(engine, state: dict, seat: int, action: dict) -> str | None:
    try:
        engine.apply(state, seat, action)
    except Exception as exc:  # noqa: BLE001 - the message is what is compared
        return getattr(exc, "message", repr(exc))
    return None


def test_a_joker_refusal_is_the_message_apply_gives_for_every_card_at_every_stage():
    compared = 0
    for engine, state, seat in playout("joker", seed=2811, every=7):
        for action in card_plays(state, seat) + [{"type": "bid", "tricks": 1}, {"type": "dance"}]:
            refusal = engine.refusal(state, seat, action)
            assert (refusal.message if refusal else None) == answer_of_apply(engine, state, seat, action)
            compared += 1
        assert engine.refusal(state, (seat + 1) % 4, {"type": "play", "card": "AS"}).message == "It is not your turn."
    assert compared > 300


def test_an_engine_without_its_own_refusal_asks_apply():
    for engine, state, seat in playout("odessa", seed=2812, every=5):
        for action in card_plays(state, seat):
            refusal = engine.refusal(state, seat, action)
            assert (refusal.message if refusal else None) == answer_of_apply(engine, state, seat, action)


def test_joker_totals_follow_a_history_that_grows_after_they_were_summed():
    history = [record(deal, [1, 0, 0, 0], [1, 0, 0, 0]) for deal in range(1, 8)]
    order = [0, 1, 2, 3]
    before = game_totals(history, order)
    assert game_totals(history, order) == before
    history.append(record(8, [1, 0, 0, 0], [1, 0, 0, 0]))  # the same list, one record longer
    assert game_totals(history, order) == game_totals(list(history), order) != before
    assert game_totals(history, [1, 2, 3, 0]) == game_totals(list(history), [1, 2, 3, 0])


def test_a_whole_hands_refusals_at_once_are_each_cards_refusal_in_order():
    """`refusals` works out the trick and what the hand must play once; its answers are those
    of `refusal` one action at a time (Joker's own; Odessa's, the engine's default)."""
    compared = 0
    for slug, seed in (("joker", 2813), ("odessa", 2814)):
        for engine, state, seat in playout(slug, seed=seed, every=3):
            actions = card_plays(state, seat) + [{"type": "bid", "tricks": 1}, {"type": "play"}]
            for position in (seat, (seat + 1) % 4):
                at_once = engine.refusals(state, position, actions)
                one_by_one = [engine.refusal(state, position, action) for action in actions]
                assert [(r.template, r.message) if r else None for r in at_once] == \
                    [(r.template, r.message) if r else None for r in one_by_one]
                compared += len(actions)
    assert compared > 1000
