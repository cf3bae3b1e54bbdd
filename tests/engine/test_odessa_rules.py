"""Odessa poker: bidding, following, the joker with each deck, trump, the blind deal, automatic moves.

Scripted deals with hands chosen by hand (tests/engine/odessa_helpers.py).
With the 36 and 52-card decks the 7♠ is the joker; with 53 it is X1.
"""

from __future__ import annotations

import pytest

from gameplay.engine import IllegalMove, get_engine
from gameplay.engine.core import shuffled
from gameplay.engine.odessa import odessa_joker
from gameplay.engine.odessa_setup import deal_schedule, make_odessa_deck
from gameplay.engine.tricks import GEORGIAN, Play, Trick, obligation

from .odessa_helpers import (
    ENGINE,
    advance_with_auto_actions,
    bid_all,
    card_codes_in,
    dumps,
    play,
    play_trick,
    scripted,
    started,
    winner_of,
)


def refused(state: dict, seat: int, action: dict) -> str:
    before = dumps(state)
    with pytest.raises(IllegalMove) as refusal:
        ENGINE.apply(state, seat, action)
    assert dumps(state) == before
    return refusal.value.message


def bids_allowed(state: dict) -> list[int]:
    seat = ENGINE.actors(state)[0]
    return [action["tricks"] for action in ENGINE.legal_actions(state, seat)]


THREE = [["AS", "9D", "8C"], ["KS", "6D", "7H"], ["9C", "TD", "8H"], ["QS", "JD", "6C"]]

# -- bidding -------------------------------------------------------------------------------


def test_bidding_starts_at_the_dealers_left_and_the_dealer_bids_last():
    state = scripted(THREE, phase="bid", dealer=1)
    assert ENGINE.actors(state) == [2]
    state, _ = bid_all(state, 1, 0, 1)
    assert ENGINE.actors(state) == [1]
    state, events = bid_all(state, 0)
    assert state["phase"] == "play" and ENGINE.actors(state) == [2]
    assert events[-1] == {"type": "bids_complete", "status": "under"}


@pytest.mark.parametrize(("rule", "others", "allowed"), [
    ("not_equal", (1, 1, 0), [0, 2, 3]),
    ("not_equal", (2, 2, 0), [0, 1, 2, 3]),
    ("free", (1, 1, 0), [0, 1, 2, 3]),
    ("over", (1, 1, 0), [2, 3]),
    ("over", (0, 1, 0), [3]),
    ("over", (3, 1, 0), [0, 1, 2, 3]),
    ("over", (0, 0, 0), [3]),  # everyone passed: the whole hand, though the sum then only equals it
])
def test_each_dealer_rule(rule, others, allowed):
    state = scripted(THREE, phase="bid", options={"dealer_rule": rule})
    assert bids_allowed(state) == [0, 1, 2, 3]
    state, _ = bid_all(state, *others)
    assert bids_allowed(state) == allowed
    view = ENGINE.view(state, 0)
    assert view["forbidden_bid"] == (3 - sum(others) if rule == "not_equal" and sum(others) <= 3 else None)
    assert view["dealer_min_bid"] == (allowed[0] if rule == "over" else None)


def test_the_dealers_refusals_say_why():
    state, _ = bid_all(scripted(THREE, phase="bid"), 1, 1, 0)
    assert refused(state, 3, {"type": "bid", "tricks": 1}) == (
        "As the dealer you may not bid 1: the bids would add up to 3, the number of cards each player holds.")
    state, _ = bid_all(scripted(THREE, phase="bid", options={"dealer_rule": "over"}), 1, 1, 0)
    assert refused(state, 3, {"type": "bid", "tricks": 1}) == (
        "As the dealer you must make the bids add up to more than 3: bid at least 2.")
    state, _ = bid_all(scripted(THREE, phase="bid", options={"dealer_rule": "over"}), 0, 0, 0)
    assert refused(state, 3, {"type": "bid", "tricks": 2}) == (
        "Everybody else passed: as the dealer you must bid the whole hand, 3.")
    assert refused(state, 3, {"type": "bid", "tricks": 4}) == "Bid from 0 to 3 tricks."
    assert refused(state, 3, {"type": "bid", "tricks": "2"}) == "A bid must be a whole number."
    assert refused(state, 2, {"type": "bid", "tricks": 3}) == "It is not your turn."
    assert refused(state, 3, {"type": "play", "card": "QS"}) == "It is time to bid, not to play a card."


# -- following ---------------------------------------------------------------------------------


def test_follow_suit_else_trump_else_anything():
    state = scripted(THREE, trump="H", bids=[1, 1, 0, 0])
    state, _ = play(state, 0, "AS")
    assert refused(state, 1, {"type": "play", "card": "6D"}) == "You must follow suit: you hold ♠."
    state, _ = play(state, 1, "KS")
    assert refused(state, 2, {"type": "play", "card": "9C"}) == (
        "You have no ♠, so you must play a trump: you hold ♥.")
    state, _ = play(state, 2, "8H")
    state, events = play(state, 3, "QS")
    assert winner_of(events) == 2
    assert ENGINE.actors(state) == [2]
    assert state["taken"] == [0, 0, 1, 0]
    assert state["last_trick"]["winner"] == 2


def test_the_7_of_spades_is_the_joker_and_no_spade_with_the_36_and_52_card_decks():
    for deck, low in ((36, "6S"), (52, "2S")):
        hands = [[low, "9D"], ["7S", "6H"] if deck == 36 else ["7S", "2H"], ["8S", "TD"], ["9S", "JD"]]
        state = scripted(hands, options={"deck": deck}, trump="H", bids=[0, 0, 0, 0])
        state, _ = play(state, 0, low)
        legal = ENGINE.legal_actions(state, 1)
        # Void in spades (the 7♠ is no spade): the trump or the joker, never the joker as a spade.
        assert {action["card"] for action in legal} == {"7S", hands[1][1]}
        assert refused(state, 1, {"type": "play", "card": "7S"}) == 'Say how the joker plays: "high", "low" or "demand".'
        state, events = play_trick(state, (1, "7S", "low"), (2, "8S"), (3, "9S"))
        assert winner_of(events) == 3  # the low joker is weaker than every card, the 6♠ or 2♠ too


def test_with_the_53_card_deck_the_7_of_spades_is_a_spade_and_x1_the_joker():
    hands = [["6S", "9D"], ["7S", "6H"], ["X1", "TD"], ["2S", "JD"]]
    state = scripted(hands, options={"deck": 53}, trump="H", bids=[0, 0, 0, 0])
    state, _ = play(state, 0, "6S")
    assert [action["card"] for action in ENGINE.legal_actions(state, 1)] == ["7S"]
    assert refused(state, 1, {"type": "play", "card": "6H"}) == "You must follow suit: you hold ♠."
    state, _ = play(state, 1, "7S")
    assert {action["card"] for action in ENGINE.legal_actions(state, 2)} == {"X1", "TD"}
    state, events = play_trick(state, (2, "X1", "low"), (3, "2S"))
    assert winner_of(events) == 1


# -- the joker -----------------------------------------------------------------------------------

JOKER_DECKS = [(36, "7S"), (52, "7S"), (53, "X1")]


@pytest.mark.parametrize(("deck", "joker"), JOKER_DECKS)
def test_a_joker_played_high_wins_over_the_trump_ace(deck, joker):
    hands = [["KS", "9D"], ["AH", "9C"], [joker, "TD"], ["AS", "JD"]]
    state = scripted(hands, options={"deck": deck}, trump="H", bids=[0, 1, 1, 0])
    state, events = play_trick(state, (0, "KS"), (1, "AH"), (2, joker, "high"), (3, "AS"))
    assert winner_of(events) == 2


@pytest.mark.parametrize(("deck", "joker"), JOKER_DECKS)
def test_a_joker_played_low_cannot_win(deck, joker):
    hands = [["8C", "9D"], ["KD", "9C"], [joker, "TD"], ["QD", "JD"]]
    state = scripted(hands, options={"deck": deck}, trump="H", bids=[0, 1, 1, 0])
    state, events = play_trick(state, (0, "8C"), (1, "9C"), (2, joker, "low"), (3, "QD"))
    assert winner_of(events) == 1


@pytest.mark.parametrize(("deck", "joker"), JOKER_DECKS)
def test_a_joker_led_high_names_a_suit_followed_under_the_ordinary_duties_and_wins(deck, joker):
    hands = [[joker, "9D"], ["AC", "8C"], ["KD", "TH"], ["QD", "JD"]]
    state = scripted(hands, options={"deck": deck}, trump="H", bids=[1, 1, 0, 0])
    state, _ = play(state, 0, joker, "high", "C")
    # Any club, not the highest one (that is the demand's duty).
    assert [action["card"] for action in ENGINE.legal_actions(state, 1)] == ["AC", "8C"]
    state, _ = play(state, 1, "8C")
    assert [action["card"] for action in ENGINE.legal_actions(state, 2)] == ["TH"]  # void in clubs: trump
    state, events = play_trick(state, (2, "TH"), (3, "QD"))
    assert winner_of(events) == 0  # the strongest card of the deck, trumped or not


@pytest.mark.parametrize(("deck", "joker"), JOKER_DECKS)
def test_a_joker_led_low_names_a_suit_that_must_be_followed_and_is_won_by_its_highest_card(deck, joker):
    hands = [[joker, "9D"], ["AC", "8C"], ["KD", "TS"], ["QC", "JD"]]
    state = scripted(hands, options={"deck": deck}, trump="H", bids=[1, 1, 0, 0])
    state, _ = play(state, 0, joker, "low", "C")
    assert refused(state, 1, {"type": "play", "card": "AC", "joker": "low"}) == (
        'Only a joker is played "high" or "low" with a suit.')
    state, events = play_trick(state, (1, "8C"), (2, "KD"), (3, "QC"))
    assert winner_of(events) == 3


@pytest.mark.parametrize(("deck", "joker"), JOKER_DECKS)
def test_a_joker_led_low_wins_when_nobody_follows_nor_trumps(deck, joker):
    hands = [[joker, "9D"], ["AD", "8C"], ["KD", "TS"], ["QC", "JD"]]
    state = scripted(hands, options={"deck": deck}, trump="H", bids=[1, 1, 0, 0])
    state, events = play_trick(state, (0, joker, "low", "S"), (1, "AD"), (2, "TS"), (3, "QC"))
    assert winner_of(events) == 2  # the ten of spades follows the named suit
    state = scripted(hands, options={"deck": deck}, trump="H", bids=[1, 1, 0, 0])
    state, events = play_trick(state, (0, joker, "low", "H"), (1, "AD"), (2, "KD"), (3, "QC"))
    assert winner_of(events) == 0


@pytest.mark.parametrize(("deck", "joker"), JOKER_DECKS)
def test_a_joker_demand_takes_every_others_highest_card_of_the_suit_and_wins(deck, joker):
    hands = [[joker, "9D"], ["AC", "8C"], ["KD", "TH"], ["QC", "JC"]]
    state = scripted(hands, options={"deck": deck}, trump="H", bids=[1, 1, 0, 0])
    state, _ = play(state, 0, joker, "demand", "C")
    assert [action["card"] for action in ENGINE.legal_actions(state, 1)] == ["AC"]
    assert refused(state, 1, {"type": "play", "card": "8C"}) == "The joker asks for the highest ♣: you must play A♣."
    state, _ = play(state, 1, "AC")
    # Void in the demanded suit: any card, no duty to trump.
    assert {action["card"] for action in ENGINE.legal_actions(state, 2)} == {"KD", "TH"}
    state, events = play_trick(state, (2, "KD"), (3, "QC"))
    assert winner_of(events) == 0


def test_the_demand_is_only_led_and_follows_the_tables_rule():
    hands = [["7S", "9D"], ["AC", "8C"], ["KD", "TH"], ["QC", "JC"]]
    modes = {rule: {action.get("joker") for action in
                    ENGINE.legal_actions(scripted(hands, options={"joker_demand": rule}, bids=[1, 1, 0, 0]), 0)}
             for rule in ("any_trick", "first_trick_only", "off")}
    assert modes == {"any_trick": {None, "high", "low", "demand"}, "first_trick_only": {None, "high", "low", "demand"},
                     "off": {None, "high", "low"}}
    state = scripted(hands, options={"joker_demand": "off"}, bids=[1, 1, 0, 0])
    assert refused(state, 0, {"type": "play", "card": "7S", "joker": "demand", "suit": "C"}) == (
        "At this table the joker may not demand.")
    # After the first trick, "first_trick_only" refuses the demand; "any_trick" allows it.
    second = [["9D", "7S"], ["8C", "AC"], ["KD", "TH"], ["JC", "QC"]]
    for rule, allowed in (("first_trick_only", False), ("any_trick", True)):
        state = scripted(second, options={"joker_demand": rule}, bids=[1, 1, 0, 0], turn=0)
        state, _ = play_trick(state, (0, "9D"), (1, "8C"), (2, "KD"), (3, "JC"))
        assert ENGINE.actors(state) == [2]
        state = dict(state, hands=[state["hands"][2], state["hands"][1], state["hands"][0], state["hands"][3]])
        assert ENGINE.view(state, 2)["demand_allowed"] is allowed
        demands = [action for action in ENGINE.legal_actions(state, 2) if action.get("joker") == "demand"]
        assert bool(demands) is allowed
        if not allowed:
            assert refused(state, 2, {"type": "play", "card": "7S", "joker": "demand", "suit": "C"}) == (
                "At this table the joker may demand only on the first trick of a deal.")
    state = scripted(hands, bids=[1, 1, 0, 0], turn=0)
    state, _ = play(state, 0, "9D")
    state = dict(state, hands=[state["hands"][0], ["7S", "8C"], state["hands"][2], state["hands"][3]])
    assert refused(state, 1, {"type": "play", "card": "7S", "joker": "demand"}) == (
        "Only the player who leads may demand with the joker.")


def test_joker_plays_need_their_suit_exactly_when_leading():
    hands = [["7S", "9D"], ["AC", "8C"], ["KD", "TH"], ["QC", "JC"]]
    state = scripted(hands, bids=[1, 1, 0, 0])
    assert refused(state, 0, {"type": "play", "card": "7S", "joker": "high"}) == (
        "Leading the joker, name its suit: S, C, D or H.")
    assert refused(state, 0, {"type": "play", "card": "X1", "joker": "high", "suit": "S"}) == (
        "You do not hold the joker.")
    assert refused(state, 0, {"type": "play", "card": "AD"}) == "You do not hold A♦."
    state, _ = play(state, 0, "9D")
    state = dict(state, hands=[state["hands"][0], ["7S", "8C"], state["hands"][2], state["hands"][3]])
    assert refused(state, 1, {"type": "play", "card": "7S", "joker": "high", "suit": "C"}) == (
        "Only the player who leads names a suit for the joker.")


# -- trump ------------------------------------------------------------------------------------------


def seed_turning(card: str, deck: int, players: int, deal_no: int = 1) -> int:
    """A seed whose deal ``deal_no`` turns ``card`` for trump."""
    cards = deal_schedule(players, {"deck": deck})[deal_no - 1]["cards"]
    return next(seed for seed in range(1, 10_000)
                if shuffled(make_odessa_deck(deck), seed, deal_no)[cards * players] == card)


def test_the_turned_card_sets_the_trump():
    state = started(4, {"deck": 52}, seed=seed_turning("QD", 52, 4))
    assert (state["trump"], state["trump_card"]) == ("D", "QD")
    view = ENGINE.view(state, None)
    assert (view["trump"], view["trump_card"], view["no_trump"]) == ("D", "QD", False)


@pytest.mark.parametrize(("deck", "joker"), JOKER_DECKS)
def test_a_turned_joker_makes_the_deal_no_trump(deck, joker):
    state = started(3, {"deck": deck}, seed=seed_turning(joker, deck, 3))
    assert (state["trump"], state["trump_card"]) == (None, joker)
    view = ENGINE.view(state, 0)
    assert view["no_trump"] is True and view["trump_card"] == joker
    assert joker not in [card for hand in state["hands"] for card in hand]


def test_with_no_card_left_to_turn_the_deal_has_no_trump():
    # 4 players, 36 cards, hands of 9: every card is dealt.
    state = advance_with_auto_actions(started(4), until=lambda s: s["cards"] == 9)
    assert state["rest"] == [] and (state["trump"], state["trump_card"]) == (None, None)
    assert ENGINE.view(state, 1)["no_trump"] is True


def test_the_53_card_deck_turns_the_first_leftover_card_and_hides_the_others():
    # 4 players, 53 cards, hands of 12 (deal 12): 5 cards left over, the first one turned.
    seed = seed_turning("X1", 53, 4, deal_no=12)
    state = advance_with_auto_actions(started(4, {"deck": 53}, seed=seed), until=lambda s: s["deal"] == 12)
    assert state["cards"] == 12 and len(state["rest"]) == 5
    assert (state["trump"], state["trump_card"]) == (None, "X1")
    hidden = set(state["rest"][1:])
    for seat in (0, 1, 2, 3, None):
        assert not card_codes_in(ENGINE.view(state, seat)) & hidden
    seed = seed_turning("AC", 53, 4, deal_no=12)
    state = advance_with_auto_actions(started(4, {"deck": 53}, seed=seed), until=lambda s: s["deal"] == 12)
    assert (state["trump"], state["trump_card"]) == ("C", "AC")


def test_a_fixed_trump_holds_for_every_deal_but_the_no_trump_special():
    options = {"trump": "D", "max_hand": 2, "specials_mode": "once"}
    state = started(2, options)
    seen = {}
    while not ENGINE.is_over(state):
        seen[state["deal"]] = (state["special"], state["trump"], state["trump_card"])
        seat = ENGINE.actors(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    assert seen == {1: (None, "D", None), 2: (None, "D", None), 3: (None, "D", None), 4: (None, "D", None),
                    5: ("blind", "D", None), 6: ("golden", "D", None), 7: ("miser", "D", None),
                    8: ("no_trump", None, None)}


def test_the_no_trump_special_turns_no_card():
    state = advance_with_auto_actions(started(4, {"specials": ["no_trump"]}), until=lambda s: s["special"])
    assert (state["trump"], state["trump_card"], state["phase"]) == (None, None, "bid")
    assert ENGINE.view(state, 0)["no_trump"] is True


# -- the specials -------------------------------------------------------------------------------------


def blind_deal(options: dict | None = None, seed: int = 5, players: int = 4) -> dict:
    options = {"max_hand": 3, "specials": ["blind"], **(options or {})}
    return advance_with_auto_actions(started(players, options, seed=seed), until=lambda s: s["special"] == "blind")


def test_in_the_blind_deal_nobody_sees_a_card_until_every_bid_is_in():
    state = blind_deal()
    assert state["phase"] == "bid" and state["trump_card"] is not None
    dealt = {card for hand in state["hands"] for card in hand} | {state["trump_card"]}
    for seat in (0, 1, 2, 3, None):
        view = ENGINE.view(state, seat)
        assert view["blind"] is True and view["hand_hidden"] is True and view["trump_hidden"] is True
        assert view["trump"] is None and view["trump_card"] is None and view["no_trump"] is False
        assert view["hand"] == ([] if seat is not None else None)
        assert not card_codes_in(view) & dealt
        assert not card_codes_in(ENGINE.sheet(state)["deals"][state["deal"] - 1]) & dealt
    events = []
    for _ in range(4):
        seat = ENGINE.actors(state)[0]
        assert [a["tricks"] for a in ENGINE.legal_actions(state, seat)][0] == 1
        if seat != state["dealer"]:
            assert refused(state, seat, {"type": "bid", "tricks": 0}) == (
                "In the blind deal bid from 1 to 3 tricks: there is no pass.")
        state, events = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    assert events[-1] == {"type": "trump_turned", "trump": state["trump"], "trump_card": state["trump_card"]}
    view = ENGINE.view(state, 0)
    assert view["hand_hidden"] is False and sorted(view["hand"]) == sorted(state["hands"][0])
    assert view["trump_card"] == state["trump_card"]


def test_the_blind_deal_is_announced_without_its_turned_card():
    state = advance_with_auto_actions(started(4, {"max_hand": 3, "specials": ["blind"]}, seed=5),
                                      until=lambda s: s["special"] is None and s["deal"] == 8
                                      and sum(map(len, s["hands"])) == 1)
    seat = ENGINE.actors(state)[0]
    state, events = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    new_deal = events[-1]
    assert new_deal["type"] == "new_deal" and new_deal["special"] == "blind"
    assert new_deal["trump"] is None and new_deal["trump_card"] is None
    assert state["trump_card"] is not None


@pytest.mark.parametrize(("rule", "others", "allowed"), [
    ("not_equal", (1, 1), [2, 3]), ("not_equal", (2, 1), [1, 2, 3]),
    ("over", (1, 1), [2, 3]), ("over", (2, 1), [1, 2, 3]), ("free", (1, 1), [1, 2, 3])])
def test_the_blind_deal_keeps_the_dealer_rule(rule, others, allowed):
    state = blind_deal({"dealer_rule": rule}, players=3)
    state, _ = bid_all(state, *others)
    assert ENGINE.actors(state) == [state["dealer"]]
    assert bids_allowed(state) == allowed


def test_golden_and_miser_deals_have_no_bidding():
    for special in ("golden", "miser"):
        state = advance_with_auto_actions(started(3, {"max_hand": 3, "specials": [special]}),
                                          until=lambda s: s["special"] is not None)
        assert state["phase"] == "play" and state["bids"] == [None] * 3
        assert ENGINE.actors(state) == [(state["dealer"] + 1) % 3]
        view = ENGINE.view(state, 0)
        assert view["bidding"] is False and view["special"] == special and view["multiplier"] == 2
        assert refused(state, ENGINE.actors(state)[0], {"type": "bid", "tricks": 1}) == (
            "It is time to play a card, not to bid.")


# -- automatic moves, forfeits, the end ------------------------------------------------------------


def test_the_automatic_bid_is_the_smallest_allowed():
    state = scripted(THREE, phase="bid")
    assert ENGINE.auto_action(state, 0) == {"type": "bid", "tricks": 0}
    state, _ = bid_all(state, 0, 0, 0)
    assert ENGINE.auto_action(state, 3) == {"type": "bid", "tricks": 0}
    state = scripted(THREE, phase="bid", options={"dealer_rule": "over"})
    state, _ = bid_all(state, 0, 0, 0)
    assert ENGINE.auto_action(state, 3) == {"type": "bid", "tricks": 3}
    assert ENGINE.auto_action(blind_deal(), ENGINE.actors(blind_deal())[0]) == {"type": "bid", "tricks": 1}


def test_the_automatic_card_is_the_weakest_legal_one_and_the_joker_goes_low_last():
    hands = [["9S", "6H", "7S", "AD"], ["KS", "8S", "6D", "TH"], ["9C", "TD", "8H", "QH"], ["QS", "JD", "6C", "JH"]]
    state = scripted(hands, trump="H", bids=[1, 1, 0, 0])
    assert ENGINE.auto_action(state, 0) == {"type": "play", "card": "9S"}  # non-trumps first, then rank
    state, _ = play(state, 0, "AD")
    assert ENGINE.auto_action(state, 1) == {"type": "play", "card": "6D"}
    state, _ = play(state, 1, "6D")
    assert ENGINE.auto_action(state, 2) == {"type": "play", "card": "TD"}
    alone = scripted([["7S"], ["AS"], ["KS"], ["QS"]], trump="H", bids=[0, 0, 0, 0])
    assert ENGINE.auto_action(alone, 0) == {"type": "play", "card": "7S", "joker": "low", "suit": "S"}
    alone = scripted([["AS"], ["7S"], ["KS"], ["QS"]], trump="H", bids=[0, 0, 0, 0])
    alone, _ = play(alone, 0, "AS")
    assert ENGINE.auto_action(alone, 1) == {"type": "play", "card": "7S", "joker": "low"}
    with pytest.raises(IllegalMove):
        ENGINE.auto_action(alone, 2)


def test_an_automatic_move_is_marked_on_the_sheet():
    state = scripted(THREE, phase="bid")
    state, events = ENGINE.apply(state, 0, {**ENGINE.auto_action(state, 0), "auto": True})
    assert events[0]["auto"] is True
    assert ENGINE.sheet(state)["deals"][state["deal"] - 1]["cells"][0]["auto"] is True


def test_timers_put_the_player_to_move_on_the_clock_with_an_automatic_move():
    state = scripted(THREE, phase="bid", dealer=1)
    assert ENGINE.timers(state) == [{"seat": 2, "expiry": "auto"}]
    assert ENGINE.table_chooses_on_timeout is True


def test_a_forfeit_ends_the_game_with_that_seat_last():
    state = advance_with_auto_actions(started(3), until=lambda s: s["deal"] == 4)
    ended = ENGINE.forfeit(state, 1)
    assert ENGINE.is_over(ended) and not ENGINE.is_over(state)
    outcome = ENGINE.outcome(ended)
    assert outcome["places"][1] == 3 and outcome["forfeited"] == 1 and 1 not in outcome["winners"]
    assert ENGINE.actors(ended) == [] and ENGINE.timers(ended) == []
    with pytest.raises(IllegalMove):
        ENGINE.forfeit(ended, 0)
    with pytest.raises(IllegalMove):
        ENGINE.forfeit(state, 3)


def test_a_short_game_runs_its_whole_schedule_and_ends():
    state = started(2, {"max_hand": 2, "specials": ["golden"], "specials_mode": "once"})
    all_events = []
    while not ENGINE.is_over(state):
        seat = ENGINE.actors(state)[0]
        state, events = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
        all_events += events
    assert [record["cards"] for record in state["history"]] == [1, 2, 2, 1, 2]
    assert [event["deal"] for event in all_events if event["type"] == "new_deal"] == [2, 3, 4, 5]
    assert all_events[-1] == {"type": "game_over"}
    assert refused(state, 0, {"type": "bid", "tricks": 0}) == "The game is over."
    view = ENGINE.view(state, 0)
    assert view["finished"] is True and view["outcome"] == ENGINE.outcome(state)
    assert ENGINE.legal_actions(state, 0) == []


def test_malformed_moves_are_refused_with_a_sentence():
    state = scripted(THREE)
    assert refused(state, 0, "QS") == 'A move must be an object with a "type".'
    assert refused(state, 0, {"type": "trump", "suit": "H"}) == (
        "Unknown kind of move 'trump': expected bid or play.")
    assert refused(state, 0, {"type": "play", "card": "AS", "extra": 1}) == (
        "Unexpected field(s) in a play move: extra.")
    assert refused(state, 0, {"type": "play", "card": "ZZ"}) == (
        'Name a card to play, such as "QS"; \'ZZ\' is not a card.')
    assert refused(state, 7, {"type": "play", "card": "AS"}) == "There is no seat 7 at this table."
    assert refused(state, 0, {"type": "play", "card": "AS", "auto": "yes"}) == '"auto" must be true or false.'


# -- what Odessa shares with Joker ---------------------------------------------------------------------


def test_the_shared_trick_core_differs_between_the_games_only_by_its_joker_rules():
    led_high = [Play(0, "X1", "high", "C"), Play(1, "8C"), Play(2, "9H")]
    # Joker: a joker led high naming a plain suit loses to a trump, and asks for the highest club.
    assert Trick(trump="H", plays=tuple(led_high), rules=GEORGIAN).winner() == 2
    assert obligation(["AC", "8C"], Trick("H", tuple(led_high[:1]), GEORGIAN)).cards == ("AC",)
    # Odessa (53 cards, X1 the joker): it wins, and any club follows.
    odessa = odessa_joker(53)
    assert Trick(trump="H", plays=tuple(led_high), rules=odessa).winner() == 0
    assert obligation(["AC", "8C"], Trick("H", tuple(led_high[:1]), odessa)).cards == ("AC", "8C")
    # With 36 cards the 7♠ is Odessa's joker and no spade; in Joker it is a spade like any other.
    spades = (Play(0, "6S"), Play(1, "7S", "low"))
    assert Trick("H", spades, odessa_joker(36)).winner() == 0
    assert Trick("H", (Play(0, "6S"), Play(1, "7S")), GEORGIAN).winner() == 1


def test_the_view_has_every_key_of_jokers_view_that_means_the_same():
    joker_only = {"pulka", "tuz", "trump_chooser", "trump_chosen"}  # Joker's pulkas, тузование, trump choice
    joker_keys = set(get_engine("joker").view(get_engine("joker").start(4, {}, 1), 0)) - joker_only
    assert joker_keys <= set(ENGINE.view(started(), 0))
    joker_sheet = get_engine("joker").sheet(get_engine("joker").start(4, {}, 1))
    assert {"kind", "order", "totals", "ranking"} <= set(ENGINE.sheet(started())) and "pulkas" in joker_sheet
