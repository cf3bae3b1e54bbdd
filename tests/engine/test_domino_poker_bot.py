"""The domino Poker computer player: legal, sensible, and blind to what its seat may not see."""

from __future__ import annotations

import random

import pytest

from gameplay.bots import choose_action
from gameplay.bots.domino_poker import expected_points, rollout_tricks, show_value

from .domino_poker_helpers import ENGINE, advance, final_state, play, scripted, started
from .test_domino_poker_deals import ROW

FULL = {"sevens": 2, "blind_deals": 1, "grab_deals": 1, "misere_deals": 1, "final_stage": True}


def bot_move(state: dict, seat: int, seed: int = 0) -> dict:
    return choose_action(ENGINE, state, seat, random.Random(seed))


def play_game(players: int, seed: int, bots: bool) -> dict:
    state = started(players, FULL, seed)
    rng = random.Random(seed)
    while not ENGINE.is_over(state):
        seat = rng.choice(ENGINE.actors(state))
        if bots:
            action = choose_action(ENGINE, state, seat, rng)
            assert action in ENGINE.legal_actions(state, seat)
        else:
            action = rng.choice(ENGINE.legal_actions(state, seat))
        state, _ = ENGINE.apply(state, seat, action)
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_game_of_bots_ends_and_every_bot_move_is_legal(players):
    state = play_game(players, players * 7, bots=True)
    assert len(state["history"]) == 18 and state["history"][-1]["kind"] == "final"


def made_bids(state: dict) -> int:
    return sum(record["bids"][seat] == record["tricks"][seat] for record in state["history"]
               if record["kind"] in ("bidding", "blind") for seat in range(state["players"]))


def test_bots_make_their_bids_far_more_often_and_score_more_than_random_players():
    bots = [play_game(4, seed, bots=True) for seed in (1, 2, 3)]
    randoms = [play_game(4, seed, bots=False) for seed in (1, 2, 3)]
    assert sum(map(made_bids, bots)) > sum(map(made_bids, randoms)) + 30
    assert sum(sum(ENGINE.totals(state)) for state in bots) > sum(sum(ENGINE.totals(state)) for state in randoms)


def test_the_bot_bids_from_the_poker_trumps_and_high_tiles():
    strong = [["1-1", "0-0", "0-6"], ["1-2", "1-3", "2-3"], ["2-2", "1-4", "2-4"], ["3-3", "1-5", "2-5"]]
    state = scripted(strong, starter=0)
    assert bot_move(state, 0) == {"type": "bid", "tricks": 3}
    state = scripted(strong[1:] + strong[:1], starter=0)
    assert bot_move(state, 0) == {"type": "bid", "tricks": 0}


def test_a_greedy_playout_leads_the_strongest_and_wins_as_cheaply_as_it_can():
    # Seat 0 leads the poker, which pulls 0-6 (the strongest trump); 0-0 then wins over 6-6.
    assert rollout_tricks([["1-1", "0-0"], ["0-6", "6-6"]], leader=0, seat=0) == 2
    # Seat 1 leads 0-6; seat 0 must trump and wins with 0-0; then 1-2 loses to 6-6.
    assert rollout_tricks([["0-0", "1-2"], ["0-6", "6-6"]], leader=1, seat=0) == 1
    assert rollout_tricks([["0-0", "1-2"], ["0-6", "6-6"]], leader=1, seat=1) == 1


def test_the_bid_with_the_best_average_score_over_the_playouts():
    assert expected_points(1, [1, 1, 1, 0]) == (10 + 10 + 10 - 10) / 4
    assert expected_points(0, [1, 1, 1, 0]) == (1 + 1 + 1 + 5) / 4


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_blind_bid_does_not_depend_on_the_unseen_tiles(players):
    state = advance(started(players, {"sevens": 0}, seed=3), lambda s: s["kind"] == "blind")
    seat = ENGINE.actors(state)[0]
    bid = bot_move(state, seat)["tricks"]
    assert 0 <= bid <= 7 // players + 1
    other = dict(state, hands=[list(reversed(hand)) for hand in state["hands"][::-1]])
    assert bot_move(other, seat) == bot_move(state, seat)


def test_a_bot_that_cannot_win_the_trick_plays_its_weakest_tile():
    for bid in (0, 2):
        state = scripted([["6-6", "5-5"], ["2-3", "1-2"]], starter=0, bids=[1, bid])
        state, _ = play(state, 0, "6-6")
        assert bot_move(state, 1) == {"type": "play", "tile": "1-2"}


def test_a_bot_that_wants_a_trick_wins_it_as_cheaply_as_it_can():
    state = scripted([["6-6", "5-5"], ["0-5", "0-1"]], starter=0, bids=[1, 1])
    state, _ = play(state, 0, "6-6")
    assert bot_move(state, 1) == {"type": "play", "tile": "0-1"}


def test_a_bot_that_has_its_tricks_plays_its_strongest_tile_that_still_loses():
    state = scripted([["6-6", "1-2", "1-3"], ["0-1", "5-5", "2-3"]], starter=0, bids=[1, 0])
    state, _ = play(state, 0, "6-6")
    assert bot_move(state, 1) == {"type": "play", "tile": "5-5"}


def test_a_bot_leads_its_strongest_tile_to_win_and_its_weakest_to_lose():
    hands = [["1-1", "2-3", "0-4"], ["1-2", "1-3", "1-4"]]
    assert bot_move(scripted(hands, starter=0, bids=[2, 0]), 0) == {"type": "play", "tile": "1-1"}
    assert bot_move(scripted(hands, starter=0, bids=[0, 0]), 0) == {"type": "play", "tile": "2-3"}


def test_in_grab_a_bot_always_takes_and_in_misere_it_always_ducks():
    hands = [["6-6", "1-3", "1-4", "1-5", "1-6", "2-2", "2-4"],
             ["0-1", "5-5", "2-5", "2-6", "3-3", "3-4", "3-5"]]
    grab = scripted(hands, kind="grab", starter=0)
    grab, _ = play(grab, 0, "6-6")
    assert bot_move(grab, 1) == {"type": "play", "tile": "0-1"}
    misere = scripted(hands, kind="misere", starter=0)
    misere, _ = play(misere, 0, "6-6")
    assert bot_move(misere, 1) == {"type": "play", "tile": "5-5"}


def test_the_bot_shows_a_high_tile_and_hides_a_low_one():
    state = final_state(4, ROW, totals=[0, 0, 0, 0])
    state, _ = ENGINE.apply(state, 0, {"type": "pick", "index": 1, "direction": "left"})  # 6-6 5-6 5-5 4-6
    assert bot_move(state, 0) == {"type": "reveal", "show": True}
    assert show_value("6-6", {"6-6", "0-1"}, 3) == 30
    assert show_value("0-1", {"0-1", "0-2"}, 3) < 0
    state = final_state(4, ROW)
    state, _ = ENGINE.apply(state, 0, {"type": "pick", "index": 17, "direction": "right"})  # 2-6: 8 pips
    low = next(seat for seat in range(4) if state["hands"][seat][0] in ("0-0", "0-1", "0-2", "0-3"))
    assert bot_move(state, low) == {"type": "reveal", "show": False}


def test_the_bot_points_at_a_legal_position():
    state = final_state(3, ROW, totals=[3, 0, 0])
    action = bot_move(state, 0)
    assert action in ENGINE.legal_actions(state, 0)


def test_the_bot_decides_only_from_what_its_seat_may_see():
    state = advance(started(3, {"sevens": 1}, seed=5), lambda s: s["tiles"] == 6 and s["phase"] == "play")
    seat = ENGINE.actors(state)[0]
    others = [other for other in range(3) if other != seat]
    hidden = [tile for other in others for tile in state["hands"][other]] + state["rest"]
    for shuffle_seed in range(5):
        random.Random(shuffle_seed).shuffle(hidden)
        altered = dict(state, hands=[list(hand) for hand in state["hands"]])
        position = 0
        for other in others:
            size = len(state["hands"][other])
            altered["hands"][other] = hidden[position:position + size]
            position += size
        altered["rest"] = hidden[position:]
        assert ENGINE.view(altered, seat) == ENGINE.view(state, seat)
        assert bot_move(altered, seat, seed=9) == bot_move(state, seat, seed=9)
