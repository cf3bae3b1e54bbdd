"""Odessa poker's options, decks, deal schedule, first dealer and dealing (rules/odessa-poker.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from gameplay.engine.core import InvalidSetup, deal_rng, shuffled
from gameplay.engine.odessa import deal_hands
from gameplay.engine.odessa_setup import DEFAULT_OPTIONS, deal_schedule, hand_limit, joker_card, make_odessa_deck

from .odessa_helpers import ENGINE, started

# The ordinary deals of every table with the longest hand the deck allows (written out by hand):
# 1 … max − 1, then `players` deals of max, then max − 1 … 1.
ORDINARY_DEALS = {
    (2, 36): "1 2 3 4 5 6 7 8 9 10 11 12 12 11 10 9 8 7 6 5 4 3 2 1",
    (3, 36): "1 2 3 4 5 6 7 8 9 10 11 12 12 12 11 10 9 8 7 6 5 4 3 2 1",
    (4, 36): "1 2 3 4 5 6 7 8 9 9 9 9 8 7 6 5 4 3 2 1",
    (5, 36): "1 2 3 4 5 6 7 7 7 7 7 6 5 4 3 2 1",
    (6, 36): "1 2 3 4 5 6 6 6 6 6 6 5 4 3 2 1",
    (2, 52): "1 2 3 4 5 6 7 8 9 10 11 12 12 11 10 9 8 7 6 5 4 3 2 1",
    (3, 52): "1 2 3 4 5 6 7 8 9 10 11 12 12 12 11 10 9 8 7 6 5 4 3 2 1",
    (4, 52): "1 2 3 4 5 6 7 8 9 10 11 12 12 12 12 11 10 9 8 7 6 5 4 3 2 1",
    (5, 52): "1 2 3 4 5 6 7 8 9 10 10 10 10 10 9 8 7 6 5 4 3 2 1",
    (6, 52): "1 2 3 4 5 6 7 8 8 8 8 8 8 7 6 5 4 3 2 1",
}
ORDINARY_DEALS.update({(players, 53): deals for (players, deck), deals in ORDINARY_DEALS.items() if deck == 52})
LIMITS = {36: {2: 12, 3: 12, 4: 9, 5: 7, 6: 6}, 52: {2: 12, 3: 12, 4: 12, 5: 10, 6: 8},
          53: {2: 12, 3: 12, 4: 12, 5: 10, 6: 8}}
SPECIALS = ["blind", "golden", "miser", "no_trump"]


@pytest.mark.parametrize(("players", "deck"), sorted(ORDINARY_DEALS))
def test_the_default_schedule_of_every_player_count_and_deck(players, deck):
    schedule = deal_schedule(players, {"deck": deck})
    top = LIMITS[deck][players]
    assert hand_limit(players, deck) == top
    ordinary = [plan for plan in schedule if plan["special"] is None]
    assert " ".join(str(plan["cards"]) for plan in ordinary) == ORDINARY_DEALS[players, deck]
    specials = schedule[len(ordinary):]
    # Each special, in the table's order, dealt once by every player ("round"), with the longest hand.
    assert [plan["special"] for plan in specials] == [name for name in SPECIALS for _ in range(players)]
    assert {plan["cards"] for plan in specials} == {top}
    assert [plan["deal"] for plan in schedule] == list(range(1, len(schedule) + 1))


def test_the_schedule_follows_max_hand_the_specials_order_and_once():
    schedule = deal_schedule(3, {"max_hand": 4, "specials": ["no_trump", "blind"], "specials_mode": "once"})
    assert [(plan["cards"], plan["special"]) for plan in schedule] == [
        (1, None), (2, None), (3, None), (4, None), (4, None), (4, None), (3, None), (2, None), (1, None),
        (4, "no_trump"), (4, "blind")]
    assert [plan["special"] for plan in deal_schedule(2, {"max_hand": 2, "specials": []})] == [None] * 4


def test_the_schedule_refuses_what_a_table_may_not_choose():
    with pytest.raises(InvalidSetup, match="at most 6 cards"):
        deal_schedule(6, {"deck": 36, "max_hand": 9})
    with pytest.raises(InvalidSetup, match="2 to 6 players"):
        deal_schedule(7, {})


def test_the_decks_and_their_jokers():
    assert len(make_odessa_deck(36)) == 36 and min(card[0] for card in make_odessa_deck(36)) == "6"
    assert len(set(make_odessa_deck(52))) == 52 and "2S" in make_odessa_deck(52)
    assert make_odessa_deck(53) == make_odessa_deck(52) + ["X1"]
    assert (joker_card(36), joker_card(52), joker_card(53)) == ("7S", "7S", "X1")


def test_the_defaults():
    assert ENGINE.validate_options({}) == DEFAULT_OPTIONS == {
        "deck": 36, "max_hand": None, "trump": "turned", "dealer_rule": "not_equal", "joker_demand": "any_trick",
        "specials": ["blind", "golden", "miser", "no_trump"], "specials_mode": "round", "special_multiplier": 2}
    state = started()
    assert state["players"] == 4 and state["max_hand"] == 9


@pytest.mark.parametrize(("options", "message"), [
    ({"deck": 54}, "The deck must have 36, 52 or 53 cards."),
    ({"deck": "36"}, "The deck must have 36, 52 or 53 cards."),
    ({"max_hand": 1}, "The longest hand must be from 2 to 12 cards."),
    ({"max_hand": 13}, "The longest hand must be from 2 to 12 cards."),
    ({"max_hand": "9"}, "The longest hand must be a whole number of cards, or empty for the most the deck allows."),
    ({"max_hand": True}, "The longest hand must be a whole number of cards, or empty for the most the deck allows."),
    ({"trump": "X"}, 'The trump must be "turned" or a suit: S, C, D or H.'),
    ({"trump": None}, 'The trump must be "turned" or a suit: S, C, D or H.'),
    ({"dealer_rule": "equal"}, 'The dealer rule must be "not_equal", "free" or "over".'),
    ({"joker_demand": "always"}, 'The joker demand rule must be "any_trick", "first_trick_only" or "off".'),
    ({"specials": "blind"}, 'The specials must be a list drawn from "blind", "golden", "miser" and "no_trump".'),
    ({"specials": ["dark"]}, 'The specials must be a list drawn from "blind", "golden", "miser" and "no_trump".'),
    ({"specials": ["miser", "golden", "miser"]}, "Each special deal may be listed once: miser is listed twice."),
    ({"specials_mode": "twice"}, 'The specials are played "round" (once per player) or "once".'),
    ({"special_multiplier": 4}, "The special deals' multiplier must be 2 or 3."),
    ({"special_multiplier": 2.0}, "The special deals' multiplier must be 2 or 3."),
    ({"colour": "red"}, "Unknown option(s): colour"),
])
def test_every_option_is_checked_when_the_table_is_created(options, message):
    with pytest.raises(InvalidSetup) as refused:
        ENGINE.validate_options(options)
    assert refused.value.message.startswith(message)
    with pytest.raises(InvalidSetup):
        ENGINE.start(4, options, 1)


@pytest.mark.parametrize(("players", "deck", "max_hand", "limit"), [
    (6, 36, 9, 6), (5, 36, 8, 7), (4, 36, 10, 9), (6, 52, 9, 8), (5, 53, 11, 10)])
def test_a_longest_hand_the_deck_cannot_deal_is_refused_for_that_many_players(players, deck, max_hand, limit):
    options = ENGINE.validate_options({"deck": deck, "max_hand": max_hand})
    with pytest.raises(InvalidSetup) as refused:
        ENGINE.check_options_for_players(options, players)
    assert refused.value.message == (f"With {players} players and a {deck}-card deck a hand holds at most {limit} "
                                     f"cards: choose a longest hand of 2 to {limit} cards.")
    assert ENGINE.check_options_for_players(ENGINE.validate_options({"deck": deck, "max_hand": limit}), players)
    with pytest.raises(InvalidSetup):
        ENGINE.start(players, options, 1)


def test_the_number_of_players_is_checked():
    for players in (1, 7, "4", True):
        with pytest.raises(InvalidSetup):
            ENGINE.start(players, {}, 1)
    assert [started(players)["players"] for players in range(2, 7)] == [2, 3, 4, 5, 6]


def test_the_first_dealer_comes_from_the_seeded_generator_and_the_deal_passes_clockwise():
    for seed in range(1, 6):
        state = started(5, seed=seed)
        assert state["first_dealer"] == deal_rng(seed, 0).randrange(5)
        assert state["dealer"] == state["first_dealer"]
        assert state["order"][-1] == state["first_dealer"]
        assert state["order"][0] == (state["first_dealer"] + 1) % 5
    sheet = ENGINE.sheet(started(5, seed=3))
    first = sheet["deals"][0]["dealer"]
    assert [row["dealer"] for row in sheet["deals"][:7]] == [(first + n) % 5 for n in range(7)]


def test_cards_are_dealt_one_at_a_time_clockwise_from_the_dealers_left():
    deck = [f"{rank}S" for rank in "23456789"]
    hands, rest = deal_hands(deck, dealer=1, players=3, cards=2)
    assert hands[2] == ["2S", "5S"] and hands[0] == ["3S", "6S"] and hands[1] == ["4S", "7S"]
    assert rest == ["8S", "9S"]


def test_each_deal_is_shuffled_from_the_seed_and_its_number():
    state = started(3, {"deck": 52}, seed=42)
    deck = shuffled(make_odessa_deck(52), 42, 1)
    dealer = state["dealer"]
    assert state["hands"][(dealer + 1) % 3] == [deck[0]]
    assert state["rest"] == deck[3:]
    assert Counter(card for hand in state["hands"] for card in hand) + Counter(state["rest"]) == Counter(deck)
