"""The Odessa poker computer player: legal, sensible, and blind to what its seat may not see."""

from __future__ import annotations

import random

import pytest

from gameplay.bots import choose_action
from gameplay.bots.odessa import estimated_bid

from .odessa_helpers import ENGINE, advance_with_auto_actions, play_trick, scripted, started


def bot_move(state: dict, seat: int, seed: int = 0) -> dict:
    return choose_action(ENGINE, state, seat, random.Random(seed))


def bot_game(players: int, options: dict, seed: int, bots: bool = True) -> dict:
    state = started(players, options, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = ENGINE.actors(state)[0]
        legal = ENGINE.legal_actions(state, seat)
        action = choose_action(ENGINE, state, seat, rng) if bots else rng.choice(legal)
        assert action in legal
        state, _ = ENGINE.apply(state, seat, action)
    return state


@pytest.mark.parametrize(("players", "options"), [
    (2, {"deck": 36}), (3, {"deck": 53, "dealer_rule": "over"}), (4, {}),
    (5, {"deck": 52, "joker_demand": "first_trick_only", "trump": "S"}), (6, {"deck": 36, "specials_mode": "once"})])
def test_a_game_of_bots_ends_and_every_bot_move_is_legal(players, options):
    state = bot_game(players, options, seed=players)
    assert all(row["complete"] for row in ENGINE.sheet(state)["deals"])


def made_bids(state: dict) -> int:
    return sum(record["bids"][seat] == record["tricks"][seat] for record in state["history"]
               if record["special"] not in ("golden", "miser") for seat in range(state["players"]))


@pytest.mark.parametrize("players", [3, 4])
def test_bots_make_their_bids_far_more_often_and_score_far_more_than_random_players(players):
    bots, randoms = bot_game(players, {}, seed=7), bot_game(players, {}, seed=7, bots=False)
    assert made_bids(bots) > made_bids(randoms) + 10
    assert sum(ENGINE.outcome(bots)["scores"]) > sum(ENGINE.outcome(randoms)["scores"]) + 500


def test_the_bot_bids_from_hand_strength_and_counts_the_7_of_spades_as_the_joker():
    hands = [["7S", "AH", "KH", "AD"], ["6D", "8D", "9D", "TD"], ["6C", "8C", "9C", "TC"], ["6S", "8S", "9S", "TS"]]
    state = scripted(hands, trump="H", phase="bid")
    assert bot_move(state, 0)["tricks"] == 4
    state = scripted(hands[::-1], trump="H", phase="bid")
    assert bot_move(state, 0)["tricks"] == 0


def test_the_bots_bid_respects_the_dealer_rule():
    hands = [["6S", "8S", "9S"], ["6D", "8D", "9D"], ["6C", "8C", "9C"], ["AH", "TS", "TD"]]
    for rule, bids, allowed in (("not_equal", [1, 1, 0], {0, 2, 3}), ("over", [1, 1, 0], {2, 3})):
        state = scripted(hands, trump="H", phase="bid", options={"dealer_rule": rule}, bids=[*bids, None], turn=3)
        action = bot_move(state, 3)
        assert action["tricks"] in allowed


def test_a_blind_bid_is_the_average_share_of_the_tricks():
    state = advance_with_auto_actions(started(3, {"max_hand": 6, "specials": ["blind"]}),
                                      until=lambda s: s["special"] == "blind")
    seat = ENGINE.actors(state)[0]
    view = ENGINE.view(state, seat)
    assert view["hand"] == [] and estimated_bid(view) == 2
    assert bot_move(state, seat) == {"type": "bid", "tricks": 2}


def test_a_bot_that_wants_a_trick_wins_it_with_a_trump_rather_than_its_joker():
    hands = [["AS", "6D"], ["8S", "8D"], ["9S", "9D"], ["7S", "7H"]]
    state = scripted(hands, trump="H", bids=[0, 0, 0, 1])
    state, _ = play_trick(state, (0, "AS"), (1, "8S"), (2, "9S"))
    assert bot_move(state, 3) == {"type": "play", "card": "7H"}


def test_a_bot_that_has_its_tricks_plays_its_joker_low_rather_than_win():
    hands = [["TS", "6D"], ["8S", "9D"], ["JD", "QD"], ["7S", "AS"]]
    state = scripted(hands, trump="H", bids=[1, 1, 0, 0])
    state, _ = play_trick(state, (0, "TS"), (1, "8S"), (2, "JD"))
    assert bot_move(state, 3) == {"type": "play", "card": "7S", "joker": "low"}


def test_a_bot_wanting_tricks_leads_the_joker_demanding_trumps_where_the_table_allows_it():
    hands = [["7S", "KD"], ["8S", "9D"], ["JD", "QH"], ["6S", "AH"]]
    state = scripted(hands, trump="H", bids=[2, 0, 0, 1])
    assert bot_move(state, 0) == {"type": "play", "card": "7S", "joker": "demand", "suit": "H"}
    state = scripted(hands, trump="H", bids=[2, 0, 0, 1], options={"joker_demand": "off"})
    assert bot_move(state, 0) == {"type": "play", "card": "7S", "joker": "high", "suit": "H"}


def test_golden_bots_take_tricks_and_miser_bots_avoid_them():
    hands = [["TS", "6D"], ["8S", "9D"], ["JD", "QD"], ["KS", "6S"]]
    for special, card in (("golden", "KS"), ("miser", "6S")):
        state = scripted(hands, options={"max_hand": 2}, special=special, trump="H")
        state, _ = play_trick(state, (0, "TS"), (1, "8S"), (2, "JD"))
        assert bot_move(state, 3) == {"type": "play", "card": card}


def test_the_bot_decides_only_from_what_its_seat_may_see():
    state = advance_with_auto_actions(started(4, seed=5), until=lambda s: s["deal"] == 6 and s["phase"] == "play")
    seat = ENGINE.actors(state)[0]
    others = [s for s in range(4) if s != seat]
    hidden = [card for s in others for card in state["hands"][s]] + state["rest"][1:]
    for shuffle_seed in range(5):
        random.Random(shuffle_seed).shuffle(hidden)
        altered = dict(state, hands=[list(hand) for hand in state["hands"]])
        position = 0
        for other in others:
            size = len(state["hands"][other])
            altered["hands"][other] = hidden[position:position + size]
            position += size
        altered["rest"] = state["rest"][:1] + hidden[position:]
        assert ENGINE.view(altered, seat) == ENGINE.view(state, seat)
        assert bot_move(altered, seat, seed=9) == bot_move(state, seat, seed=9)
