"""Random Durak games (Hypothesis) for 2, 3, 4 players and 2×2, podkidnoy and perevodnoy.

After every action: the 36 cards are all there, no more unbeaten cards than
the defender holds, at most 6 (5 in bout 1) attack cards, every beat legal,
views never show another hand or the talon, ``apply`` leaves its input alone;
every game ends, and replays exactly from its seed and moves.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalMove
from gameplay.engine.durak import beats, bout_limit, durak_deck, unbeaten_cards

from .durak_helpers import DECK, ENGINE, all_cards, card_codes_in, dumps, public_cards

SEEDS = st.integers(min_value=10**12, max_value=2**62)  # long enough never to appear by chance in a view
CHOICES = st.integers(min_value=0, max_value=2**32).map(random.Random)
CONFIGS = [(players, teams, mode) for players, teams in ((2, False), (3, False), (4, False), (4, True))
           for mode in ("podkidnoy", "perevodnoy")]
CONFIG_IDS = [f"{players}{'x2' if teams else 'p'}-{mode}" for players, teams, mode in CONFIGS]
MAX_MOVES = 2000


def start(config: tuple, seed: int) -> dict:
    players, teams, mode = config
    return ENGINE.start(players=players, options={"mode": mode, "teams": teams}, seed=seed)


# -- invariants -------------------------------------------------------------------------------


def check_cards_are_conserved(state: dict) -> None:
    assert all_cards(state) == DECK


def check_table_limits_and_beats(state: dict) -> None:
    if state["phase"] == "over":
        return
    defender = state["defender"]
    assert len(unbeaten_cards(state)) <= len(state["hands"][defender])
    assert len(state["table"]) <= bout_limit(state) <= 6
    if state["bout"] == 1:
        assert len(state["table"]) <= 5
    for pair in state["table"]:
        if pair["beat"] is not None:
            assert beats(pair["beat"], pair["attack"], state["trump"])
    assert state["attacker"] != defender
    if state["teams"]:
        assert state["attacker"] % 2 != defender % 2, "in teams the attacker and defender are opponents"


def check_seats(state: dict) -> None:
    gone = [entry["seat"] for entry in state["left"]]
    assert len(gone) == len(set(gone))
    for seat in gone:
        assert state["hands"][seat] == [] and ENGINE.legal_actions(state, seat) == []
    if gone:
        assert state["talon"] == []
    if state["phase"] == "attack" and state["talon"]:
        assert all(len(hand) >= 6 for hand in state["hands"])
    if state["phase"] != "over":
        assert state["attacker"] not in gone and state["defender"] not in gone


def check_views_hide_what_they_must(state: dict) -> None:
    public = public_cards(state)
    for seat in [*range(state["players"]), None]:
        view = ENGINE.view(state, seat)
        text = json.dumps(view)
        assert json.loads(text) == view
        assert "seed" not in view and str(state["seed"]) not in text
        mine = set(state["hands"][seat]) if seat is not None else set()
        leaked = card_codes_in(view) - mine - public
        assert not leaked, f"view of seat {seat} shows {leaked}"
        assert view["talon"] == len(state["talon"])
        if seat is None:
            assert view["hand"] is None
        else:
            assert sorted(view["hand"]) == sorted(mine)


def check_actors_and_clocks(state: dict) -> list[int]:
    """Seats with a legal move; the actors among them; timers and automatic moves agree."""
    actors = ENGINE.actors(state)
    movers = [seat for seat in range(state["players"]) if ENGINE.legal_actions(state, seat)]
    assert actors and set(actors) <= set(movers)
    for seat in set(movers) - set(actors):  # passive throwers: throw-ins only, while the defender is on the move
        assert state["phase"] == "defend"
        assert {action["type"] for action in ENGINE.legal_actions(state, seat)} == {"throw"}
    assert [timer["seat"] for timer in ENGINE.timers(state)] == actors
    for seat in actors:
        assert ENGINE.auto_action(state, seat) in ENGINE.legal_actions(state, seat)
    if state["phase"] == "window":
        assert actors == window_waits_for(ENGINE.view(state, None))
    return movers


def window_waits_for(public: dict) -> list[int]:
    """Whom the throwers' window waits for, from what a spectator sees alone (rules: nobody may learn who
    could have thrown in): every thrower still holding cards who has not pressed done."""
    throwers = [seat for seat, role in enumerate(public["roles"]) if role == "T"]
    return [seat for seat in throwers if public["hand_sizes"][seat] and seat not in public["done"]]


def canonical(action: dict) -> str:
    if "cards" in action:
        action = {**action, "cards": sorted(action["cards"])}
    return dumps(action)


def candidate_actions(state: dict, seat: int) -> list[dict]:
    """Many actions, legal or not, built from the seat's hand and the table."""
    hand = state["hands"][seat]
    sets = [[card] for card in hand] + [list(pair) for pair in combinations(hand, 2)][:30]
    candidates: list[dict] = [{"type": kind, "cards": cards} for kind in ("attack", "throw", "transfer")
                              for cards in sets]
    candidates += [{"type": "beat", "attack": pair["attack"], "card": card}
                   for pair in state["table"] for card in hand]
    candidates += [{"type": "take"}, {"type": "done"}]
    return candidates


def check_legal_actions_are_exactly_what_apply_accepts(state: dict, seat: int) -> None:
    legal = {canonical(action) for action in ENGINE.legal_actions(state, seat)}
    before = dumps(state)
    for action in candidate_actions(state, seat):
        try:
            ENGINE.apply(state, seat, action)
        except IllegalMove as refusal:
            assert refusal.message
            assert canonical(action) not in legal, f"{action} is listed as legal but refused: {refusal.message}"
        else:
            assert canonical(action) in legal, f"{action} was accepted but is not listed as legal"
    assert dumps(state) == before


def check_events_are_public(events: list[dict], before: dict, after: dict) -> None:
    assert card_codes_in(events) <= public_cards(before) | public_cards(after)
    assert json.loads(json.dumps(events)) == events


def check_finished_game(state: dict) -> None:
    assert ENGINE.is_over(state) and ENGINE.actors(state) == [] and ENGINE.timers(state) == []
    outcome = ENGINE.outcome(state)
    players, teams = state["players"], state["teams"]
    assert len(outcome["scores"]) == len(outcome["places"]) == players
    if teams:
        assert outcome["durak"] is None
        assert sum(outcome["scores"]) == pytest.approx(1.0)
        if not outcome["draw"]:
            assert sorted(outcome["winners"]) in ([0, 2], [1, 3])
    elif outcome["draw"]:
        assert outcome["durak"] is None and len(outcome["drawn"]) >= 2
        assert sum(outcome["scores"]) == pytest.approx(len(outcome["winners"]) + 0.5 * len(outcome["drawn"]))
    else:
        durak = outcome["durak"]
        assert outcome["scores"][durak] == 0.0 and outcome["places"][durak] == players
        assert sorted(outcome["winners"] + [durak]) == list(range(players))
        assert state["hands"][durak]
    assert ENGINE.sheet(state)["result"] == outcome


# -- playing -----------------------------------------------------------------------------------


def play_random_game(config: tuple, seed: int, rng: random.Random, max_moves: int | None = None,
                     check_every_move: bool = True, check_acceptance: bool = False
                     ) -> tuple[dict, list[tuple[int, dict]]]:
    state = start(config, seed)
    moves: list[tuple[int, dict]] = []
    while not ENGINE.is_over(state) and (max_moves is None or len(moves) < max_moves):
        assert len(moves) < MAX_MOVES, "the game does not end"
        movers = check_actors_and_clocks(state)
        seat = rng.choice(movers)
        legal = ENGINE.legal_actions(state, seat)
        if check_every_move:
            check_cards_are_conserved(state)
            check_table_limits_and_beats(state)
            check_seats(state)
            check_views_hide_what_they_must(state)
        if check_acceptance:
            check_legal_actions_are_exactly_what_apply_accepts(state, seat)
        action = dict(rng.choice(legal))
        before = dumps(state)
        new_state, events = ENGINE.apply(state, seat, action)
        assert dumps(state) == before, "apply changed its input state"
        if check_every_move:
            check_events_are_public(events, state, new_state)
        moves.append((seat, action))
        state = new_state
    check_cards_are_conserved(state)
    return state, moves


def replay(config: tuple, seed: int, moves: list[tuple[int, dict]]) -> dict:
    state = start(config, seed)
    for seat, action in moves:
        state, _ = ENGINE.apply(state, seat, action)
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rng=CHOICES)
def test_random_games_keep_every_invariant_end_and_replay_exactly(config, seed, rng):
    state, moves = play_random_game(config, seed, rng)
    check_finished_game(state)
    assert json.loads(json.dumps(state)) == state
    assert dumps(replay(config, seed, moves)) == dumps(state)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rng=CHOICES)
def test_random_games_always_end(config, seed, rng):
    state, _ = play_random_game(config, seed, rng, check_every_move=False)
    check_finished_game(state)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rng=CHOICES, length=st.integers(1, 60))
def test_legal_actions_list_exactly_the_moves_apply_accepts(config, seed, rng, length):
    state, _ = play_random_game(config, seed, rng, max_moves=length, check_every_move=False,
                                check_acceptance=True)
    check_cards_are_conserved(state)


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, rng=CHOICES, length=st.integers(0, 80))
def test_a_forfeit_at_any_moment_ends_the_game_with_that_player_losing(config, seed, rng, length):
    state, _ = play_random_game(config, seed, rng, max_moves=length, check_every_move=False)
    if ENGINE.is_over(state):
        return
    seat = rng.choice([seat for seat in range(state["players"])
                       if state["teams"] or seat not in [entry["seat"] for entry in state["left"]]])
    over = ENGINE.forfeit(state, seat)
    outcome = ENGINE.outcome(over)
    assert ENGINE.is_over(over) and outcome["forfeited"] == seat and outcome["durak"] == seat
    assert outcome["scores"][seat] == 0.0 and seat not in outcome["winners"]
    if state["teams"]:
        assert outcome["scores"][(seat + 2) % 4] == 0.0 and sum(outcome["scores"]) == pytest.approx(1.0)
    else:
        assert sorted(outcome["winners"]) == [other for other in range(state["players"]) if other != seat]


def test_the_deck_has_36_cards():
    assert len(durak_deck()) == len(set(durak_deck())) == 36 and Counter(durak_deck()) == DECK
