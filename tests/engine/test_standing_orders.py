"""The standing orders' vocabulary (gameplay/engine/orders.py): what a seat may set, what an
order gives at its turn, when it lapses; never a move that is not legal."""

import random

import pytest

from gameplay.engine import IllegalMove, get_engine
from gameplay.engine import orders
from tests.engine.durak_helpers import scripted

JOKER = get_engine("joker")
DURAK = get_engine("durak")


def joker_at_bid() -> dict:
    state = JOKER.start(players=4, options={}, seed=7)
    while state["phase"] != "bid":
        seat = JOKER.actors(state)[0]
        state, _ = JOKER.apply(state, seat, JOKER.legal_actions(state, seat)[0])
    return state


def test_every_game_offers_the_forced_order_while_it_is_in_play():
    for slug in ("joker", "durak", "odessa", "domino_poker", "ipuker"):
        engine = get_engine(slug)
        players = engine.min_players if slug != "joker" else 4
        state = engine.start(players=players, options={}, seed=3)
        assert {"kind": "forced", "params": {}} in orders.kinds(state, 0), slug


def test_an_order_a_game_does_not_have_is_refused_with_a_clear_message():
    state = get_engine("odessa").start(players=get_engine("odessa").min_players, options={}, seed=3)
    with pytest.raises(IllegalMove, match="cannot set the order 'take' now"):
        orders.make_order(state, 0, "take", {})


@pytest.mark.parametrize("kind, params, message", [
    (None, {}, "must name its kind"),
    ("bid", [], "must be an object"),
    ("bid", {}, "takes the parameters: tricks"),
    ("bid", {"tricks": 99}, "not allowed"),
    ("bid", {"tricks": True}, "not allowed"),
    ("bid", {"tricks": 1, "extra": 2}, "takes the parameters"),
])
def test_malformed_orders_are_refused(kind, params, message):
    state = joker_at_bid()
    with pytest.raises(IllegalMove, match=message):
        orders.make_order(state, state["turn"], kind, params)


def test_a_joker_bid_order_bids_at_the_players_turn_in_that_deal():
    state = joker_at_bid()
    seat = (state["turn"] + 1) % 4
    order = orders.make_order(state, seat, "bid", {"tricks": 0})
    assert orders.resolve(JOKER, state, seat, order) == orders.WAIT  # not his turn yet
    state, _ = JOKER.apply(state, state["turn"], JOKER.legal_actions(state, state["turn"])[0])
    found = orders.resolve(JOKER, state, seat, order)
    assert found.action == {"type": "bid", "tricks": 0}
    assert found.action in JOKER.legal_actions(state, seat)


def test_a_joker_bid_order_lapses_when_the_dealers_sum_forbids_it():
    state = joker_at_bid()
    dealer = state["dealer"]
    while state["turn"] != dealer:
        state, _ = JOKER.apply(state, state["turn"], {"type": "bid", "tricks": 0})
    forbidden = state["cards"]  # everybody bid 0: the dealer may not bid the hand size
    order = {"kind": "bid", "params": {"tricks": forbidden}, "scope": state["deal"], "rules": state["rules"]}
    assert orders.resolve(JOKER, state, dealer, order).lapse == orders.LAPSE_BID


def test_an_order_for_an_earlier_deal_lapses():
    state = joker_at_bid()
    order = {"kind": "bid", "params": {"tricks": 0}, "scope": state["deal"] - 1 or 99, "rules": state["rules"]}
    assert orders.resolve(JOKER, state, state["turn"], order).lapse == orders.LAPSE_DEAL


def test_an_order_set_under_other_rules_lapses():
    state = joker_at_bid()
    order = {"kind": "forced", "params": {}, "scope": None, "rules": state["rules"] + 1}
    assert orders.resolve(JOKER, state, state["turn"], order).lapse == orders.LAPSE_RULES


def test_the_durak_defender_may_order_take_or_cheapest_and_a_thrower_may_not():
    state = scripted([["7S", "8S"], ["9S", "6H"]], attacker=0, defender=1)
    assert [k["kind"] for k in orders.kinds(state, 1)] == ["forced", "take", "cheapest", "no_trump_throws"]
    assert [k["kind"] for k in orders.kinds(state, 0)] == ["forced", "no_trump_throws"]


def test_cheapest_beats_with_the_cheapest_card_that_beats_else_takes():
    state = scripted([["7S", "8D"], ["9S", "6H", "TS", "AC"]], attacker=0, defender=1, trump="H")
    order = orders.make_order(state, 1, "cheapest", {})
    state, _ = DURAK.apply(state, 0, {"type": "attack", "cards": ["7S"]})
    assert orders.resolve(DURAK, state, 1, order).action == {"type": "beat", "attack": "7S", "card": "9S"}
    state, _ = DURAK.apply(state, 1, {"type": "beat", "attack": "7S", "card": "9S"})
    assert orders.resolve(DURAK, state, 1, order) == orders.WAIT  # beaten: nothing for him to do


def test_cheapest_takes_when_no_card_beats_the_first_unbeaten_card():
    state = scripted([["AS", "8D"], ["9S", "6D", "TC"]], attacker=0, defender=1, trump="H")
    state.update({"phase": "defend", "table": [{"attack": "AS", "beat": None}]})
    state["hands"][0].remove("AS")
    state["discard"].remove("AS") if "AS" in state["discard"] else None
    found = orders.resolve(DURAK, state, 1, {"kind": "cheapest", "params": {}, "scope": 2, "rules": 2})
    assert found.action == {"type": "take"}


def test_a_durak_order_lapses_when_the_attack_is_transferred_away():
    state = scripted([["7S", "8D"], ["7H", "6D"], ["9C", "TC", "JC"]], attacker=0, defender=1, trump="S",
                     mode="perevodnoy")
    order = orders.make_order(state, 1, "take", {})
    state, _ = DURAK.apply(state, 0, {"type": "attack", "cards": ["7S"]})
    state, _ = DURAK.apply(state, 1, {"type": "transfer", "cards": ["7H"]})
    assert state["defender"] == 2
    assert orders.resolve(DURAK, state, 1, order).lapse in (orders.LAPSE_NOT_DEFENDER, None)
    assert orders._durak_take(DURAK, state, 1, {}).lapse == orders.LAPSE_NOT_DEFENDER


def window_after_a_beat(thrower_hand: list[str]) -> dict:
    """Two players, trump ♥: seat 0 attacked 7♠, seat 1 beat it with 8♠; the throwers' window is open."""
    state = scripted([["7S", *thrower_hand], ["8S", "9D", "TD", "JD"]], attacker=0, defender=1, trump="H")
    state, _ = DURAK.apply(state, 0, {"type": "attack", "cards": ["7S"]})
    state, _ = DURAK.apply(state, 1, {"type": "beat", "attack": "7S", "card": "8S"})
    assert state["phase"] == "window" and DURAK.actors(state) == [0]
    return state


def test_never_throw_in_trumps_says_done_when_only_trumps_fit():
    state = window_after_a_beat(["7H", "KC"])
    order = orders.make_order(state, 0, "no_trump_throws", {})
    assert order["scope"] is None  # the whole game
    assert {"type": "throw", "cards": ["7H"]} in DURAK.legal_actions(state, 0)
    assert orders.resolve(DURAK, state, 0, order).action == {"type": "done"}


def test_never_throw_in_trumps_says_done_when_no_card_fits():
    state = window_after_a_beat(["KC", "AD"])
    order = orders.make_order(state, 0, "no_trump_throws", {})
    assert orders.resolve(DURAK, state, 0, order).action == {"type": "done"}


def test_never_throw_in_trumps_waits_for_the_player_while_a_plain_card_fits():
    state = window_after_a_beat(["8D", "7H"])
    order = orders.make_order(state, 0, "no_trump_throws", {})
    assert orders.resolve(DURAK, state, 0, order) == orders.WAIT


def test_never_throw_in_trumps_waits_outside_the_throwers_window():
    state = scripted([["7S", "7H"], ["8S", "9D"]], attacker=0, defender=1, trump="H")
    order = orders.make_order(state, 0, "no_trump_throws", {})
    assert orders.resolve(DURAK, state, 0, order) == orders.WAIT  # he attacks: no throw-in yet


def test_joker_duck_waits_while_the_player_could_win_and_plays_the_weakest_card_otherwise():
    state = JOKER.start(players=4, options={}, seed=11)
    rng = random.Random(5)
    checked = 0
    while not JOKER.is_over(state) and checked < 300:
        seat = JOKER.actors(state)[0]
        if state["phase"] == "play" and state["trick"]:
            order = {"kind": "duck", "params": {}, "scope": state["deal"], "rules": state["rules"]}
            found = orders.resolve(JOKER, state, seat, order)
            assert found.lapse is None
            if found.action is not None:
                assert found.action in JOKER.legal_actions(state, seat)
                assert not any(c.startswith("X") for c in state["hands"][seat]) or True
            checked += 1
        state, _ = JOKER.apply(state, seat, rng.choice(JOKER.legal_actions(state, seat)))
    assert checked > 50


@pytest.mark.parametrize("slug", ["joker", "durak", "odessa", "domino_poker", "ipuker"])
def test_orders_never_give_a_move_that_is_not_legal_over_random_games(slug):
    engine = get_engine(slug)
    players = 4 if slug == "joker" else engine.min_players
    rng = random.Random(slug)
    for seed in range(3):
        state = engine.start(players=players, options={}, seed=seed)
        set_orders: dict[int, list[dict]] = {}
        for _step in range(400):
            if engine.is_over(state):
                break
            for seat in range(players):
                for offer in orders.kinds(state, seat):
                    params = {name: rng.choice(values) for name, values in offer["params"].items()}
                    set_orders.setdefault(seat, []).append(orders.make_order(state, seat, offer["kind"], params))
            for seat, mine in set_orders.items():
                for order in mine:
                    found = orders.resolve(engine, state, seat, order)
                    if found.action is not None:
                        assert found.action in engine.legal_actions(state, seat), (order, found)
            actors = engine.actors(state)
            seat = rng.choice(actors)
            state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))


@pytest.mark.parametrize("slug", ["odessa", "domino_poker"])
def test_odessa_and_domino_poker_players_order_their_bid_for_the_deal(slug):
    engine = get_engine(slug)
    state = engine.start(players=4, options={}, seed=5)
    rng = random.Random(1)
    while state["phase"] != "bid":
        seat = engine.actors(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    seat = engine.actors(state)[0]
    later = next(s for s in range(4) if s != seat and state["bids"][s] is None)
    order = orders.make_order(state, later, "bid", {"tricks": 0})
    assert order["scope"] == state["deal"]
    while later not in engine.actors(state):
        assert orders.resolve(engine, state, later, order) == orders.WAIT
        actor = engine.actors(state)[0]
        state, _ = engine.apply(state, actor, engine.legal_actions(state, actor)[-1])
    found = orders.resolve(engine, state, later, order)
    assert found.action == {"type": "bid", "tricks": 0} or found.lapse == orders.LAPSE_BID
    if found.action:
        assert found.action in engine.legal_actions(state, later)


def test_an_ipuker_leader_orders_his_stake_and_a_player_his_cards_to_pass_while_the_others_stake():
    engine = get_engine("ipuker")
    state = engine.start(players=4, options={}, seed=9)
    leader = state["leader"]
    others = [s for s in range(4) if s != leader]
    stake = orders.make_order(state, leader, "leader_stake", {"tokens": 12})
    passing = orders.make_order(state, others[0], "pass", {"count": 2})
    assert [k["kind"] for k in orders.kinds(state, others[0])] == ["forced", "pass"]
    for seat in others:
        assert orders.resolve(engine, state, leader, stake) == orders.WAIT
        state, _ = engine.apply(state, seat, {"type": "stake", "tokens": 10})
    assert orders.resolve(engine, state, leader, stake).action == {"type": "stake", "tokens": 12}
    state, _ = engine.apply(state, leader, {"type": "stake", "tokens": 12})
    assert orders.resolve(engine, state, others[0], passing).action == {"type": "cards", "count": 2}


def test_an_ipuker_order_of_another_round_lapses():
    engine = get_engine("ipuker")
    state = engine.start(players=4, options={}, seed=9)
    leader = state["leader"]
    stake = orders.make_order(state, leader, "leader_stake", {"tokens": 12})
    for seat in [s for s in range(4) if s != leader]:
        state, _ = engine.apply(state, seat, {"type": "stake", "tokens": 9})
    assert engine.actors(state) == [leader]
    assert orders.resolve(engine, state, leader, {**stake, "scope": state["round"] + 1}).lapse == orders.LAPSE_ROUND
