"""Random Joker games (Hypothesis): invariants checked after every action."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalMove
from gameplay.engine.joker import DEAL_SIZES, joker_deck

from .helpers import ENGINE, card_codes_in, dumps

SEEDS = st.integers(min_value=10**12, max_value=2**62)  # long enough never to appear by chance in a view
CHOICES = st.integers(min_value=0, max_value=2**32).map(random.Random)  # which legal action to pick
DECK = Counter(joker_deck())


def public_cards(state: dict) -> set[str]:
    """Cards everyone has seen: the тузование, the turned trump card, the cards played this deal, the last trick."""
    cards = {item["card"] for item in state["tuz"]} | set(state["played"])
    if state["trump_card"]:
        cards.add(state["trump_card"])
    if state["last_trick"]:
        cards |= {play["card"] for play in state["last_trick"]["plays"]}
    return cards


def visible_own_cards(state: dict, seat: int) -> set[str]:
    hand = state["hands"][seat]
    if state["phase"] == "trump":
        return set(hand[:3]) if seat == state["trump_chooser"] else set()
    return set(hand)


def check_cards_are_conserved(state: dict) -> None:
    in_play = [card for hand in state["hands"] for card in hand] + state["played"] + state["rest"]
    assert Counter(in_play) == DECK


def check_views_hide_what_they_must(state: dict) -> None:
    public = public_cards(state)
    for seat in (0, 1, 2, 3, None):
        view = ENGINE.view(state, seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert "seed" not in view and str(state["seed"]) not in text
        mine = visible_own_cards(state, seat) if seat is not None else set()
        leaked = card_codes_in(view) - mine - public
        assert not leaked, f"view of seat {seat} shows {leaked}"
        if seat is None:
            assert view["hand"] is None
        else:
            assert sorted(view["hand"]) == sorted(mine)
    assert ENGINE.view(state, 0) == ENGINE.view(state, 0)


def check_state_is_plain_json(state: dict) -> None:
    assert json.loads(json.dumps(state)) == state


def check_illegal_moves_are_refused(state: dict, seat: int, legal: list[dict]) -> None:
    """A few moves the rules forbid are refused with IllegalMove and leave the state as it was."""
    before = dumps(state)
    attempts: list[tuple[int, object]] = [((seat + 1) % 4, legal[0]), (seat, {"type": "nonsense"})]
    if state["phase"] == "bid":
        attempts.append((seat, {"type": "bid", "tricks": state["cards"] + 1}))
        allowed = {action["tricks"] for action in legal}
        attempts += [(seat, {"type": "bid", "tricks": t}) for t in range(state["cards"] + 1) if t not in allowed]
    if state["phase"] == "play":
        hand = state["hands"][seat]
        allowed_cards = {action["card"] for action in legal}
        attempts += [(seat, {"type": "play", "card": card}) for card in hand if card not in allowed_cards][:2]
        absent = next(card for card in DECK if card not in hand and not card.startswith("X"))
        attempts.append((seat, {"type": "play", "card": absent}))
    for who, action in attempts:
        try:
            ENGINE.apply(state, who, action)
        except IllegalMove as refusal:
            assert refusal.message
        else:
            raise AssertionError(f"seat {who} was allowed {action}")
        assert dumps(state) == before


def check_events_are_public(events: list[dict], before: dict, after: dict) -> None:
    allowed = public_cards(before) | public_cards(after)
    assert card_codes_in(events) <= allowed
    assert json.loads(json.dumps(events)) == events


def play_random_game(seed: int, rng: random.Random, max_moves: int | None = None,
                     check_every_move: bool = True) -> tuple[dict, list[tuple[int, dict]]]:
    state = ENGINE.start(players=4, options={}, seed=seed)
    moves: list[tuple[int, dict]] = []
    while not ENGINE.is_over(state) and (max_moves is None or len(moves) < max_moves):
        actors = ENGINE.actors(state)
        assert len(actors) == 1 and ENGINE.timers(state) == [{"seat": actors[0], "expiry": "auto"}]
        seat = actors[0]
        legal = ENGINE.legal_actions(state, seat)
        assert legal and all(ENGINE.legal_actions(state, other) == [] for other in range(4) if other != seat)
        assert ENGINE.auto_action(state, seat) in legal
        if check_every_move:
            check_cards_are_conserved(state)
            check_state_is_plain_json(state)
            check_views_hide_what_they_must(state)
            check_illegal_moves_are_refused(state, seat, legal)
        action = dict(rng.choice(legal))
        if rng.random() < 0.05:
            action["auto"] = True
        before = dumps(state)
        new_state, events = ENGINE.apply(state, seat, action)
        assert dumps(state) == before, "apply changed its input state"
        if check_every_move:
            check_events_are_public(events, state, new_state)
        moves.append((seat, action))
        state = new_state
    return state, moves


def replay(seed: int, moves: list[tuple[int, dict]]) -> dict:
    state = ENGINE.start(players=4, options={}, seed=seed)
    for seat, action in moves:
        state, _ = ENGINE.apply(state, seat, action)
    return state


def check_finished_game(state: dict) -> None:
    assert ENGINE.is_over(state) and ENGINE.actors(state) == []
    history = state["history"]
    assert [record["deal"] for record in history] == list(range(1, 25))
    for record in history:
        assert record["cards"] == DEAL_SIZES[record["deal"] - 1]
        assert sum(record["tricks"]) == record["cards"]
        assert sum(record["bids"]) != record["cards"]
    sheet = ENGINE.sheet(state)
    assert all(pulka["complete"] for pulka in sheet["pulkas"])
    outcome = ENGINE.outcome(state)
    assert sorted(outcome["places"]) == [1, 2, 3, 4]
    assert outcome["scores"] == sheet["totals"]


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rng=CHOICES)
def test_random_full_games_keep_every_invariant_and_replay_exactly(seed, rng):
    state, moves = play_random_game(seed, rng)
    check_finished_game(state)
    assert dumps(replay(seed, moves)) == dumps(state)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rng=CHOICES)
def test_random_games_always_end_after_24_deals(seed, rng):
    state, moves = play_random_game(seed, rng, check_every_move=False)
    check_finished_game(state)
    assert len(moves) == 24 * 4 + 8 + 4 * sum(DEAL_SIZES)  # bids, trump choices, cards


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rng=CHOICES, length=st.integers(1, 120))
def test_random_game_openings_keep_every_invariant(seed, rng, length):
    state, moves = play_random_game(seed, rng, max_moves=length)
    check_cards_are_conserved(state)
    check_views_hide_what_they_must(state)
    assert dumps(replay(seed, moves)) == dumps(state)
    for record in state["history"]:
        assert sum(record["tricks"]) == record["cards"]
