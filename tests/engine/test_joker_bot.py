"""Computer players: legal, sensible, and blind to what their seat may not see."""

from __future__ import annotations

import random

import pytest

from gameplay.bots import choose_action
from gameplay.bots.joker import choose_trump, estimate_tricks

from .helpers import ENGINE, advance_with_auto_actions, play_trick, scripted, started


def bot_move(state: dict, seat: int, seed: int = 0) -> dict:
    return choose_action(ENGINE, state, seat, random.Random(seed))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_of_four_bots_ends_and_every_bot_move_is_legal(seed):
    state = started(seed)
    rng = random.Random(seed)
    moves = 0
    while not ENGINE.is_over(state):
        seat = ENGINE.actors(state)[0]
        action = choose_action(ENGINE, state, seat, rng)
        assert action in ENGINE.legal_actions(state, seat)
        state, _ = ENGINE.apply(state, seat, action)
        moves += 1
    assert moves == 680
    assert all(pulka["complete"] for pulka in ENGINE.sheet(state)["pulkas"])


def test_bots_make_their_bids_far_more_often_than_random_players():
    made = {"bot": 0, "random": 0}
    for player in made:
        state = started(7)
        rng = random.Random(7)
        while not ENGINE.is_over(state):
            seat = ENGINE.actors(state)[0]
            if player == "bot":
                action = choose_action(ENGINE, state, seat, rng)
            else:
                action = rng.choice(ENGINE.legal_actions(state, seat))
            state, _ = ENGINE.apply(state, seat, action)
        made[player] = sum(r["bids"][s] == r["tricks"][s] for r in state["history"] for s in range(4))
    assert made["bot"] > made["random"] + 10


def test_the_bots_bid_respects_the_dealers_restriction():
    # The dealer's hand is worth about one trick (the trump ace), but 1 would make the sum 3.
    hands = [["7S", "8S", "9S"], ["7D", "8D", "9D"], ["7C", "8C", "9C"], ["AH", "TS", "TD"]]
    state = scripted(hands, trump="H", dealer=3, phase="bid", bids=[1, 1, 0, None], turn=3)
    assert round(estimate_tricks(hands[3], "H")) == 1
    action = bot_move(state, 3)
    assert action in ENGINE.legal_actions(state, 3)
    assert action["tricks"] != 1


def test_the_bot_bids_from_hand_strength():
    hands = [["X1", "X2", "AH", "KH"], ["7D", "8D", "9D", "TD"], ["7C", "8C", "9C", "TC"], ["7S", "8S", "9S", "TS"]]
    state = scripted(hands, trump="H", dealer=3, phase="bid")
    assert bot_move(state, 0)["tricks"] == 4
    state = scripted(hands[::-1], trump="H", dealer=3, phase="bid")
    assert bot_move(state, 0)["tricks"] == 0


def test_a_bot_that_cannot_win_the_trick_plays_its_lowest_card():
    hands = [["AS", "7D", "8D"], ["KS", "9S", "7S"], ["8S", "9D", "TD"], ["TS", "JD", "QD"]]
    for bid in (0, 2):  # whether it wants tricks or not
        state = scripted(hands, trump="H", dealer=3, bids=[1, bid, 0, 1])
        state, _ = play_trick(state, (0, "AS"))
        assert bot_move(state, 1) == {"type": "play", "card": "7S"}


def test_a_bot_that_wants_a_trick_wins_it_as_cheaply_as_it_can():
    hands = [["9S", "7D"], ["TS", "8D"], ["8S", "9D"], ["AS", "JS"]]
    state = scripted(hands, trump="H", dealer=3, bids=[0, 0, 0, 1])
    state, _ = play_trick(state, (0, "9S"), (1, "TS"), (2, "8S"))
    assert bot_move(state, 3) == {"type": "play", "card": "JS"}


def test_a_bot_that_has_its_tricks_plays_its_highest_card_that_still_loses():
    hands = [["TS", "7D", "8D"], ["8S", "9D", "TD"], ["JD", "QD", "KD"], ["AS", "9S", "7S"]]
    state = scripted(hands, trump="H", dealer=3, bids=[1, 1, 0, 0])
    state, _ = play_trick(state, (0, "TS"), (1, "8S"), (2, "JD"))
    assert bot_move(state, 3) == {"type": "play", "card": "9S"}


def test_a_bot_wins_cheaply_with_a_trump_rather_than_its_joker():
    hands = [["AS", "7D"], ["8S", "8D"], ["9S", "9D"], ["X1", "7H"]]
    state = scripted(hands, trump="H", dealer=3, bids=[0, 0, 0, 1])
    state, _ = play_trick(state, (0, "AS"), (1, "8S"), (2, "9S"))
    assert bot_move(state, 3) == {"type": "play", "card": "7H"}


def test_the_bot_names_trump_from_its_longest_and_strongest_suit_among_the_three_cards_seen():
    assert choose_trump(["AH", "9H", "7S"]) == "H"
    assert choose_trump(["9C", "KD", "QD"]) == "D"
    assert choose_trump(["7S", "8D", "9C"]) is None
    assert choose_trump(["X1", "7S", "AC"]) == "C"
    assert choose_trump(["X1", "X2", "7D"]) is None


def test_the_bot_chooses_trump_on_a_nine_card_deal_from_the_three_cards_it_sees():
    state = advance_with_auto_actions(started(), until=lambda s: s["deal"] == 9)
    chooser = ENGINE.actors(state)[0]
    action = bot_move(state, chooser)
    assert action == {"type": "trump", "suit": choose_trump(state["hands"][chooser][:3])}


def test_the_bot_decides_only_from_what_its_seat_may_see():
    state = advance_with_auto_actions(started(5), until=lambda s: s["deal"] == 6 and s["phase"] == "play")
    seat = ENGINE.actors(state)[0]
    others = [s for s in range(4) if s != seat]
    hidden = [card for s in others for card in state["hands"][s]] + state["rest"]
    for shuffle_seed in range(5):
        random.Random(shuffle_seed).shuffle(hidden)
        altered = dict(state, hands=[list(hand) for hand in state["hands"]], rest=list(state["rest"]))
        position = 0
        for other in others:
            size = len(state["hands"][other])
            altered["hands"][other] = hidden[position:position + size]
            position += size
        altered["rest"] = hidden[position:]
        assert ENGINE.view(altered, seat) == ENGINE.view(state, seat)
        assert bot_move(altered, seat, seed=9) == bot_move(state, seat, seed=9)


class OtherGame:
    """A stand-in for an engine the bot has no strategy for."""

    slug = "another-game"

    def legal_actions(self, state, seat):
        return [{"type": "take"}, {"type": "done"}] if seat == 0 else []

    def view(self, state, seat):
        raise AssertionError("the generic bot needs no view")


def test_for_other_games_the_bot_returns_a_legal_action():
    assert choose_action(OtherGame(), {}, 0, random.Random(1)) in [{"type": "take"}, {"type": "done"}]


def test_a_bot_asked_to_move_out_of_turn_says_so():
    with pytest.raises(ValueError, match="no move"):
        choose_action(OtherGame(), {}, 1, random.Random(1))
