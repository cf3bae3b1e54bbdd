"""domino Poker's search levels stay within their time by counting, never by the clock.

The greedy playout behind every bid plays exactly as the rules' own functions say, and a decision's
rollouts are capped by what they cost from the seat's position (``MAX_TILE_PLAYS``), so a larger
budget than the cap decides exactly as the cap does, from the same seed.
"""

from __future__ import annotations

import random

from gameplay.bots import choose_action
from gameplay.bots import domino_poker as bot
from gameplay.engine import get_engine
from gameplay.engine.dominoes import TILES
from gameplay.engine.domino_poker_rules import allowed_tiles, trick_winner, weakness


def tricks_by_the_rules(hands: list[list[str]], leader: int, seat: int) -> int:
    """The greedy playout written with the rules' functions: lead the strongest, win cheaply, else throw the weakest."""
    hands = [list(hand) for hand in hands]
    taken = 0
    while hands[leader]:
        plays: list[str] = []
        for offset in range(len(hands)):
            hand = hands[(leader + offset) % len(hands)]
            allowed = allowed_tiles(hand, plays[0] if plays else None)
            if not plays:
                tile = max(allowed, key=weakness)
            else:
                winning = [code for code in allowed if trick_winner([*plays, code]) == len(plays)]
                tile = min(winning or allowed, key=weakness)
            hand.remove(tile)
            plays.append(tile)
        leader = (leader + trick_winner(plays)) % len(hands)
        taken += leader == seat
    return taken


def opening_bid(players: int = 4, seed: int = 11) -> tuple[object, dict]:
    engine = get_engine("domino_poker")
    state = engine.start(players=players, options={"sevens": 1}, seed=seed)
    rng = random.Random(seed)
    while True:
        view = engine.view(state, engine.actors(state)[0])
        if view["phase"] == "bid" and view["tiles"] == 7 and all(bid is None for bid in view["bids"]):
            return engine, state
        seat = engine.actors(state)[0]
        state, _ = engine.apply(state, seat, choose_action(engine, state, seat, rng, 1))


def test_the_fast_greedy_playout_plays_exactly_as_the_rules_say():
    rng = random.Random(43)
    for _ in range(300):
        players = rng.choice((2, 3, 4))
        size = rng.randint(1, 7)
        pool = rng.sample(TILES, players * size)
        hands = [pool[index * size:(index + 1) * size] for index in range(players)]
        leader, seat = rng.randrange(players), rng.randrange(players)
        assert bot.rollout_tricks(hands, leader, seat) == tricks_by_the_rules(hands, leader, seat)


def test_an_opening_bid_of_a_seven_tile_deal_gets_level_threes_rollouts_and_no_more():
    engine, state = opening_bid()
    view = engine.view(state, engine.actors(state)[0])
    assert bot.rollout_cost(view) == 28 * bot.ENGINE_PLAY_COST + 3 * bot.ROLLOUT_BID_SAMPLES * 28
    assert bot.max_search_rollouts(view) == 128


def test_positions_with_fewer_tiles_or_bids_to_come_may_spend_more_rollouts():
    engine, state = opening_bid()
    seat = engine.actors(state)[0]
    opening = bot.max_search_rollouts(engine.view(state, seat))
    state, _ = engine.apply(state, seat, choose_action(engine, state, seat, random.Random(1), 1))
    assert bot.max_search_rollouts(engine.view(state, engine.actors(state)[0])) > opening


def test_a_budget_above_the_cap_decides_exactly_as_the_cap(monkeypatch):
    monkeypatch.setattr(bot, "MAX_TILE_PLAYS", 6 * (28 * bot.ENGINE_PLAY_COST + 3 * bot.ROLLOUT_BID_SAMPLES * 28))
    engine, state = opening_bid()
    seat = engine.actors(state)[0]
    capped = choose_action(engine, state, seat, random.Random(5), 3, budget=6)
    assert choose_action(engine, state, seat, random.Random(5), 3, budget=10**6) == capped
