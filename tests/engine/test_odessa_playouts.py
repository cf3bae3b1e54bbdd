"""Random Odessa poker games (Hypothesis) over random tables: invariants checked after every action."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalMove
from gameplay.engine.odessa_setup import SPECIALS, deal_schedule, hand_limit, joker_card, make_odessa_deck

from .odessa_helpers import ENGINE, card_codes_in, dumps

SEEDS = st.integers(min_value=10**12, max_value=2**62)  # long enough never to appear by chance in a view
CHOICES = st.integers(min_value=0, max_value=2**32).map(random.Random)


@st.composite
def tables(draw: st.DrawFn, longest: int = 12) -> tuple[int, dict]:
    """A number of players and a random valid combination of every option."""
    players = draw(st.integers(2, 6), label="players")
    deck = draw(st.sampled_from([36, 52, 53]), label="deck")
    limit = min(longest, hand_limit(players, deck))
    specials = draw(st.permutations(SPECIALS), label="specials order")[:draw(st.integers(0, 4), label="specials")]
    options = {
        "deck": deck,
        "max_hand": draw(st.none() | st.integers(2, limit), label="max_hand") if limit == hand_limit(players, deck)
        else draw(st.integers(2, limit), label="max_hand"),
        "trump": draw(st.sampled_from(["turned", "S", "C", "D", "H"]), label="trump"),
        "dealer_rule": draw(st.sampled_from(["not_equal", "free", "over"]), label="dealer_rule"),
        "joker_demand": draw(st.sampled_from(["any_trick", "first_trick_only", "off"]), label="joker_demand"),
        "specials": list(specials),
        "specials_mode": draw(st.sampled_from(["round", "once"]), label="specials_mode"),
        "special_multiplier": draw(st.sampled_from([2, 3]), label="special_multiplier"),
    }
    return players, options


def public_cards(state: dict) -> set[str]:
    """Cards everyone has seen: the joker's name, the turned cards (this deal's once shown), this deal's plays,
    the last trick."""
    cards = {joker_card(state["options"]["deck"])} | set(state["played"])
    cards |= {record["trump_card"] for record in state["history"] if record["trump_card"]}
    blind_bidding = state["special"] == "blind" and state["phase"] == "bid"
    if state["trump_card"] and not blind_bidding:
        cards.add(state["trump_card"])
    if state["last_trick"]:
        cards |= {play["card"] for play in state["last_trick"]["plays"]}
    return cards


def visible_own_cards(state: dict, seat: int) -> set[str]:
    if state["special"] == "blind" and state["phase"] == "bid":
        return set()
    return set(state["hands"][seat])


def check_cards_are_conserved(state: dict) -> None:
    in_play = [card for hand in state["hands"] for card in hand] + state["played"] + state["rest"]
    assert Counter(in_play) == Counter(make_odessa_deck(state["options"]["deck"]))


def check_views_hide_what_they_must(state: dict) -> None:
    public = public_cards(state)
    for seat in [*range(state["players"]), None]:
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
    leaked = card_codes_in(ENGINE.sheet(state)) - public
    assert not leaked, f"the sheet shows {leaked}"


def check_illegal_moves_are_refused(state: dict, seat: int, legal: list[dict]) -> None:
    """A few moves the rules forbid are refused with IllegalMove and leave the state as it was."""
    before = dumps(state)
    players = state["players"]
    attempts: list[tuple[int, object]] = [((seat + 1) % players, legal[0]), (seat, {"type": "nonsense"})]
    if state["phase"] == "bid":
        attempts.append((seat, {"type": "bid", "tricks": state["cards"] + 1}))
        allowed = {action["tricks"] for action in legal}
        attempts += [(seat, {"type": "bid", "tricks": t}) for t in range(state["cards"] + 1) if t not in allowed]
    if state["phase"] == "play":
        hand = state["hands"][seat]
        allowed_cards = {action["card"] for action in legal}
        attempts += [(seat, {"type": "play", "card": card}) for card in hand if card not in allowed_cards][:2]
        absent = next(card for card in make_odessa_deck(state["options"]["deck"]) if card not in hand)
        attempts.append((seat, {"type": "play", "card": absent}))
        demands = [action for action in legal if action.get("joker") == "demand"]
        if state["trick"] or not ENGINE.view(state, seat)["demand_allowed"]:
            assert not demands
    for who, action in attempts:
        try:
            ENGINE.apply(state, who, action)
        except IllegalMove as refusal:
            assert refusal.message
        else:
            raise AssertionError(f"seat {who} was allowed {action}")
        assert dumps(state) == before


def check_events_are_public(events: list[dict], before: dict, after: dict) -> None:
    assert card_codes_in(events) <= public_cards(before) | public_cards(after)
    assert json.loads(json.dumps(events)) == events


def play_random_game(players: int, options: dict, seed: int, rng: random.Random, max_moves: int | None = None,
                     check_every_move: bool = True) -> tuple[dict, list[tuple[int, dict]]]:
    state = ENGINE.start(players, options, seed)
    moves: list[tuple[int, dict]] = []
    while not ENGINE.is_over(state) and (max_moves is None or len(moves) < max_moves):
        actors = ENGINE.actors(state)
        assert len(actors) == 1 and ENGINE.timers(state) == [{"seat": actors[0], "expiry": "auto"}]
        seat = actors[0]
        legal = ENGINE.legal_actions(state, seat)
        assert legal and all(ENGINE.legal_actions(state, other) == [] for other in range(players) if other != seat)
        assert ENGINE.auto_action(state, seat) in legal
        if check_every_move:
            check_cards_are_conserved(state)
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


def replay(players: int, options: dict, seed: int, moves: list[tuple[int, dict]]) -> dict:
    state = ENGINE.start(players, options, seed)
    for seat, action in moves:
        state, _ = ENGINE.apply(state, seat, action)
    return state


def check_finished_game(state: dict) -> None:
    players, options = state["players"], state["options"]
    assert ENGINE.is_over(state) and ENGINE.actors(state) == []
    schedule = deal_schedule(players, options)
    history = state["history"]
    assert [(r["deal"], r["cards"], r["special"]) for r in history] == [
        (p["deal"], p["cards"], p["special"]) for p in schedule]
    for record in history:
        assert sum(record["tricks"]) == record["cards"]
        if record["special"] in ("golden", "miser"):
            assert record["bids"] == [None] * players
            continue
        if record["special"] == "blind":
            assert min(record["bids"]) >= 1
        total = sum(record["bids"])
        if options["dealer_rule"] == "not_equal":
            assert total != record["cards"]
        if options["dealer_rule"] == "over":
            assert total > record["cards"] or total == record["cards"] == record["bids"][record["dealer"]]
    sheet = ENGINE.sheet(state)
    assert all(row["complete"] for row in sheet["deals"])
    outcome = ENGINE.outcome(state)
    assert outcome["scores"] == sheet["totals"] and outcome["places"] == sheet["places"]
    assert min(outcome["places"]) == 1 and outcome["winners"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(longest=3), seed=SEEDS, rng=CHOICES)
def test_random_full_games_keep_every_invariant_and_replay_exactly(table, seed, rng):
    players, options = table
    state, moves = play_random_game(players, options, seed, rng)
    check_finished_game(state)
    assert dumps(replay(players, options, seed, moves)) == dumps(state)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=SEEDS, rng=CHOICES)
def test_random_games_on_any_table_always_end_after_their_schedule(table, seed, rng):
    players, options = table
    state, moves = play_random_game(players, options, seed, rng, check_every_move=False)
    check_finished_game(state)
    schedule = deal_schedule(players, options)
    bids = sum(players for plan in schedule if plan["special"] not in ("golden", "miser"))
    assert len(moves) == bids + players * sum(plan["cards"] for plan in schedule)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=SEEDS, rng=CHOICES, length=st.integers(1, 150))
def test_random_game_openings_on_any_table_keep_every_invariant(table, seed, rng, length):
    players, options = table
    state, moves = play_random_game(players, options, seed, rng, max_moves=length)
    check_cards_are_conserved(state)
    check_views_hide_what_they_must(state)
    assert dumps(replay(players, options, seed, moves)) == dumps(state)
