"""The Durak bot: always legal, ends games, and plays with some sense."""

from __future__ import annotations

import random

import pytest

from gameplay.bots.durak import choose_durak_action, cover_plan

from .durak_helpers import ENGINE, act, beat, scripted, started
from .test_durak_playouts import CONFIG_IDS, CONFIGS


def bot_move(state: dict, seat: int, seed: int = 0) -> dict:
    legal = ENGINE.legal_actions(state, seat)
    action = choose_durak_action(ENGINE.view(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
def test_games_of_bots_end_and_every_bot_move_is_legal(config):
    players, teams, mode = config
    for seed in range(3):
        state = started(players, seed=seed, mode=mode, teams=teams)
        rng = random.Random(seed)
        moves = 0
        while not ENGINE.is_over(state):
            seat = rng.choice(ENGINE.actors(state))
            state, _ = ENGINE.apply(state, seat, bot_move(state, seat, seed))
            moves += 1
            assert moves < 2000
        assert ENGINE.outcome(state)["finished"]


def test_the_bot_is_the_durak_far_less_often_than_a_random_player():
    durak = 0
    games = 40
    for seed in range(games):
        state = started(2, seed=seed, mode="perevodnoy" if seed % 2 else "podkidnoy")
        rng = random.Random(seed)
        bot = seed % 2
        while not ENGINE.is_over(state):
            seat = ENGINE.actors(state)[0]
            legal = ENGINE.legal_actions(state, seat)
            if seat == bot:
                action = choose_durak_action(ENGINE.view(state, seat), legal, rng)
            else:
                action = rng.choice(legal)
            state, _ = ENGINE.apply(state, seat, action)
        durak += ENGINE.outcome(state)["durak"] == bot
    assert durak <= games // 5


def test_the_bot_attacks_with_its_lowest_non_trump_rank_all_of_it():
    state = scripted([["7H", "9S", "6C", "6D", "KC", "6H"], ["8S", "9D", "TD", "JD", "QD", "KD"]], trump="H")
    assert sorted(bot_move(state, 0)["cards"]) == ["6C", "6D"]
    trumps_only = scripted([["AH", "7H", "9H"], ["8S", "9D", "TD"]], trump="H")
    assert bot_move(trumps_only, 0)["cards"] == ["7H"]


def test_the_bot_beats_with_the_cheapest_card_that_beats():
    state = scripted([["7S", "KC"], ["KS", "8S", "6H", "9D"]], trump="H")
    state, _ = act(state, 0, "attack", "7S")
    assert bot_move(state, 1) == {"type": "beat", "attack": "7S", "card": "8S"}


def test_the_bot_keeps_the_other_cards_coverable():
    # 6H could beat 7D or 7S, but only 6H beats 7S: 7D must get 8D
    state = scripted([["7S", "7D", "KC"], ["6H", "8D", "9C"]], trump="H")
    state, _ = act(state, 0, "attack", "7S", "7D")
    assert cover_plan(["7D", "7S"], ["6H", "8D", "9C"], "H") == [("7S", "6H"), ("7D", "8D")]
    first = bot_move(state, 1)
    state, _ = beat(state, first["attack"], first["card"])
    assert bot_move(state, 1)["type"] == "beat"


def test_the_bot_takes_rather_than_spend_a_high_trump_early_but_not_late():
    early = scripted([["7S", "KC"], ["AH", "6D", "9C"]], trump="H", talon=[f"{r}C" for r in "678"] +
                     ["TC", "JC", "QC", "AC", "6S", "8S", "TH"])
    early, _ = act(early, 0, "attack", "7S")
    assert bot_move(early, 1) == {"type": "take"}
    late = scripted([["7S", "KC"], ["AH", "6D", "9C"]], trump="H", talon=["6S", "TH"])
    late, _ = act(late, 0, "attack", "7S")
    assert bot_move(late, 1) == {"type": "beat", "attack": "7S", "card": "AH"}


def test_the_bot_transfers_when_it_costs_a_non_trump():
    state = scripted([["7S", "KC"], ["7C", "8S", "AH"], ["9D", "TD", "JD"]], trump="H", mode="perevodnoy")
    state, _ = act(state, 0, "attack", "7S")
    assert bot_move(state, 1) == {"type": "transfer", "cards": ["7C"]}


def test_the_bot_throws_in_low_non_trumps_and_otherwise_presses_done():
    state = scripted([["7S", "7D", "8H", "AC"], ["8S", "TD", "JD", "QD", "KD"], ["6C", "6S"]], trump="H",
                     talon=["6D", "7H"])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    assert bot_move(state, 0) == {"type": "throw", "cards": ["7D"]}
    state, _ = act(state, 0, "throw", "7D")
    state, _ = beat(state, "7D", "TD")
    assert bot_move(state, 0) == {"type": "done"}  # only 8H (a trump) could still go


def test_the_bot_needs_a_legal_move():
    with pytest.raises(ValueError):
        choose_durak_action(ENGINE.view(started(), 0), [], random.Random(0))
