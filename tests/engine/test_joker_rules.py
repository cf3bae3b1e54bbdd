"""Joker rules: deck, тузование, trump, bidding, following, jokers, actions, views, time-outs."""

from __future__ import annotations

import json

import pytest

from gameplay.engine import ENGINES, IllegalMove, get_engine
from gameplay.engine.core import shuffled
from gameplay.engine.joker import DEAL_SIZES, joker_deck, sheet_order

from .helpers import (
    ENGINE,
    SEED,
    advance_with_auto_actions,
    card_codes_in,
    dumps,
    play,
    play_trick,
    scripted,
    started,
    winner_of,
)


def refused(state: dict, seat: int, action: object) -> str:
    """Apply an action that must be refused; return the message and check the state is untouched."""
    before = dumps(state)
    with pytest.raises(IllegalMove) as excinfo:
        ENGINE.apply(state, seat, action)
    assert dumps(state) == before
    assert isinstance(excinfo.value.message, str) and excinfo.value.message
    return excinfo.value.message


# -- registry, options, start ---------------------------------------------------


def test_the_registry_knows_joker_by_its_slug():
    engine = get_engine("joker")
    assert engine is ENGINES["joker"]
    assert (engine.slug, engine.name, engine.min_players, engine.max_players) == ("joker", "Joker", 4, 4)


def test_an_unknown_game_slug_is_refused_with_the_known_games_named():
    with pytest.raises(KeyError, match="joker"):
        get_engine("chess")


def test_joker_has_no_options_and_refuses_unknown_ones():
    assert ENGINE.default_options() == {}
    assert ENGINE.validate_options({}) == {}
    with pytest.raises(ValueError, match="Unknown option"):
        ENGINE.validate_options({"deck": 52})
    with pytest.raises(ValueError):
        ENGINE.validate_options(["not", "a", "dict"])


def test_joker_needs_exactly_four_players_and_an_integer_seed():
    with pytest.raises(ValueError, match="exactly 4"):
        ENGINE.start(players=3, options={}, seed=1)
    with pytest.raises(ValueError, match="seed"):
        ENGINE.start(players=4, options={}, seed="abc")


def test_the_deck_has_36_cards_without_the_black_sixes_and_with_two_jokers():
    deck = joker_deck()
    assert len(deck) == len(set(deck)) == 36
    assert "6S" not in deck and "6C" not in deck
    assert {"6D", "6H", "X1", "X2", "AS"} <= set(deck)


def test_the_shuffle_depends_only_on_seed_and_deal_number():
    deck = joker_deck()
    assert shuffled(deck, 42, 3) == shuffled(deck, 42, 3)
    assert shuffled(deck, 42, 3) != shuffled(deck, 42, 4)
    assert shuffled(deck, 42, 3) != shuffled(deck, 43, 3)
    assert ENGINE.start(4, {}, 42) == ENGINE.start(4, {}, 42)


def test_the_state_is_plain_json_that_round_trips():
    state = started()
    assert json.loads(json.dumps(state)) == state


# -- тузование ---------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_tuzovanie_deals_face_up_from_seat_0_until_the_first_ace_whose_receiver_deals_first(seed):
    state = started(seed)
    tuz = state["tuz"]
    assert [item["seat"] for item in tuz] == [position % 4 for position in range(len(tuz))]
    assert [item["card"] for item in tuz] == shuffled(joker_deck(), seed, 0)[:len(tuz)]
    assert tuz[-1]["card"][0] == "A"
    assert all(item["card"][0] != "A" for item in tuz[:-1])
    first_dealer = tuz[-1]["seat"]
    assert state["first_dealer"] == state["dealer"] == first_dealer
    assert state["order"] == [(first_dealer + k) % 4 for k in (1, 2, 3, 4)]
    assert state["order"][3] == first_dealer
    assert ENGINE.view(state, None)["tuz"] == tuz


def test_sheet_order_puts_the_first_dealer_fourth_and_his_left_first():
    assert sheet_order(2) == [3, 0, 1, 2]
    assert sheet_order(3) == [0, 1, 2, 3]


def test_the_deal_passes_clockwise_and_follows_the_24_deal_schedule():
    state = started()
    seen = []
    while not ENGINE.is_over(state):
        if not seen or seen[-1][0] != state["deal"]:
            seen.append((state["deal"], state["dealer"], state["cards"]))
        seat = ENGINE.actors(state)[0]
        state, _ = ENGINE.apply(state, seat, ENGINE.auto_action(state, seat))
    first = state["first_dealer"]
    assert seen == [(deal, (first + deal - 1) % 4, DEAL_SIZES[deal - 1]) for deal in range(1, 25)]
    assert DEAL_SIZES == (1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9)


# -- trump -------------------------------------------------------------------------


def test_small_deals_turn_the_top_card_of_the_rest_for_trump():
    state = started()
    assert state["cards"] == 1
    assert state["trump_card"] == state["rest"][0]
    assert state["trump"] == state["trump_card"][1] or state["trump_card"].startswith("X")
    assert len(state["rest"]) == 32
    assert ENGINE.view(state, 0)["trump_card"] == state["trump_card"]


def test_a_joker_turned_as_trump_indicator_makes_the_deal_no_trump():
    seed = next(seed for seed in range(500) if started(seed)["rest"][0] in ("X1", "X2"))
    state = started(seed)
    view = ENGINE.view(state, 0)
    assert state["trump"] is None
    assert view["trump"] is None and view["trump_card"] in ("X1", "X2")
    assert state["phase"] == "bid"


def at_first_nine_card_deal() -> dict:
    return advance_with_auto_actions(started(), until=lambda s: s["deal"] == 9)


def test_on_a_nine_card_deal_the_dealers_left_names_trump_having_seen_only_three_cards():
    state = at_first_nine_card_deal()
    chooser = (state["dealer"] + 1) % 4
    assert state["phase"] == "trump" and state["trump"] is None and state["trump_card"] is None
    assert ENGINE.actors(state) == [chooser]
    assert ENGINE.timers(state) == [{"seat": chooser, "expiry": "auto"}]
    assert len(ENGINE.legal_actions(state, chooser)) == 5
    assert {"type": "trump", "suit": None} in ENGINE.legal_actions(state, chooser)

    chooser_view = ENGINE.view(state, chooser)
    assert sorted(chooser_view["hand"]) == sorted(state["hands"][chooser][:3])
    assert card_codes_in(chooser_view) <= set(state["hands"][chooser][:3]) | public_cards(state)
    assert chooser_view["hand_sizes"] == [9, 9, 9, 9]
    for other in range(4):
        if other != chooser:
            other_view = ENGINE.view(state, other)
            assert other_view["hand"] == []
            assert card_codes_in(other_view) <= public_cards(state)
    assert ENGINE.view(state, None)["hand"] is None


def public_cards(state: dict) -> set[str]:
    cards = {item["card"] for item in state["tuz"]}
    if state["trump_card"]:
        cards.add(state["trump_card"])
    if state["last_trick"]:
        cards |= {play["card"] for play in state["last_trick"]["plays"]}
    return cards | set(state["played"])


def test_after_the_trump_is_named_everyone_sees_all_nine_cards_and_bidding_starts():
    state = at_first_nine_card_deal()
    chooser = (state["dealer"] + 1) % 4
    state, events = ENGINE.apply(state, chooser, {"type": "trump", "suit": "H"})
    assert events == [{"type": "trump", "seat": chooser, "suit": "H", "auto": False}]
    assert state["trump"] == "H" and state["phase"] == "bid"
    assert ENGINE.actors(state) == [chooser]
    for seat in range(4):
        assert len(ENGINE.view(state, seat)["hand"]) == 9
    assert ENGINE.view(state, 0)["trump_chosen"] is True


def test_the_trump_chooser_may_choose_no_trump():
    state = at_first_nine_card_deal()
    chooser = (state["dealer"] + 1) % 4
    state, _ = ENGINE.apply(state, chooser, {"type": "trump", "suit": None})
    assert state["trump"] is None and state["phase"] == "bid"


def test_only_the_chooser_names_trump_and_only_a_real_suit():
    state = at_first_nine_card_deal()
    chooser = (state["dealer"] + 1) % 4
    assert refused(state, (chooser + 1) % 4, {"type": "trump", "suit": "H"}) == "It is not your turn."
    assert "not a suit" in refused(state, chooser, {"type": "trump", "suit": "Z"})
    assert "Name the trump" in refused(state, chooser, {"type": "trump"})
    assert "time to choose the trump" in refused(state, chooser, {"type": "bid", "tricks": 1})


# -- bidding ----------------------------------------------------------------------

THREE_CARD_HANDS = [["AS", "7D", "7C"], ["KS", "AD", "8C"], ["QS", "KD", "AC"], ["JS", "QD", "KC"]]


def test_bidding_starts_at_the_dealers_left_and_the_dealer_bids_last():
    state = scripted(THREE_CARD_HANDS, dealer=1, phase="bid")
    assert ENGINE.actors(state) == [2]
    assert refused(state, 1, {"type": "bid", "tricks": 1}) == "It is not your turn."
    for seat in (2, 3, 0):
        state, events = ENGINE.apply(state, seat, {"type": "bid", "tricks": 0})
        assert events == [{"type": "bid", "seat": seat, "tricks": 0, "auto": False}]
    assert ENGINE.actors(state) == [1]
    state, events = ENGINE.apply(state, 1, {"type": "bid", "tricks": 2})
    assert events[-1] == {"type": "bids_complete", "status": "under"}
    assert state["phase"] == "play" and ENGINE.actors(state) == [2]


def test_dealer_may_not_bid_the_sum_that_equals_hand_size():
    state = scripted(THREE_CARD_HANDS, dealer=3, phase="bid", bids=[1, 0, 1, None], turn=3)
    assert [a["tricks"] for a in ENGINE.legal_actions(state, 3)] == [0, 2, 3]
    assert ENGINE.view(state, 0)["forbidden_bid"] == 1
    message = refused(state, 3, {"type": "bid", "tricks": 1})
    assert message == (
        "As the dealer you may not bid 1: the bids would add up to 3, the number of cards each player holds."
    )


def test_dealer_may_not_pass_when_the_others_bids_already_make_the_hand_size():
    state = scripted(THREE_CARD_HANDS, dealer=3, phase="bid", bids=[1, 1, 1, None], turn=3)
    assert [a["tricks"] for a in ENGINE.legal_actions(state, 3)] == [1, 2, 3]
    assert ENGINE.auto_action(state, 3) == {"type": "bid", "tricks": 1}


def test_dealer_may_bid_anything_when_the_others_already_bid_more_than_the_hand_size():
    state = scripted(THREE_CARD_HANDS, dealer=3, phase="bid", bids=[2, 2, 0, None], turn=3)
    assert [a["tricks"] for a in ENGINE.legal_actions(state, 3)] == [0, 1, 2, 3]
    assert ENGINE.view(state, 3)["forbidden_bid"] is None


def test_players_before_the_dealer_may_bid_any_number_up_to_the_hand_size():
    state = scripted(THREE_CARD_HANDS, dealer=3, phase="bid", bids=[2, 1, None, None], turn=2)
    assert [a["tricks"] for a in ENGINE.legal_actions(state, 2)] == [0, 1, 2, 3]


def test_bids_out_of_range_or_not_whole_numbers_are_refused():
    state = scripted(THREE_CARD_HANDS, phase="bid")
    assert refused(state, 0, {"type": "bid", "tricks": 4}) == "Bid from 0 to 3 tricks."
    assert refused(state, 0, {"type": "bid", "tricks": -1}) == "Bid from 0 to 3 tricks."
    assert "whole number" in refused(state, 0, {"type": "bid", "tricks": "2"})
    assert "whole number" in refused(state, 0, {"type": "bid", "tricks": True})
    assert "whole number" in refused(state, 0, {"type": "bid", "tricks": 1.5})
    assert "how many tricks" in refused(state, 0, {"type": "bid"})


def test_the_view_says_whether_the_deal_is_over_or_under_once_all_bids_are_in():
    under = scripted(THREE_CARD_HANDS, bids=[1, 0, 1, 0])
    over = scripted(THREE_CARD_HANDS, bids=[1, 1, 1, 1])
    unfinished = scripted(THREE_CARD_HANDS, phase="bid", bids=[1, 1, None, None], turn=2)
    assert ENGINE.view(under, None)["bids_status"] == "under"
    assert ENGINE.view(over, None)["bids_status"] == "over"
    assert ENGINE.view(unfinished, None)["bids_status"] is None
    assert ENGINE.view(unfinished, None)["bids"] == [1, 1, None, None]


# -- following ---------------------------------------------------------------------

BIDS = [0, 0, 0, 0]


def test_a_player_must_follow_the_suit_led():
    state = scripted([["7S", "8D"], ["8S", "9H"], ["9S", "TD"], ["TS", "JD"]], bids=BIDS)
    state, _ = play(state, 0, "7S")
    assert refused(state, 1, {"type": "play", "card": "9H"}) == "You must follow suit: you hold ♠."
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "card": "8S"}]


def test_a_player_void_in_the_suit_led_must_trump():
    state = scripted([["7S", "8D"], ["9H", "9D"], ["9S", "TD"], ["TS", "JD"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "7S")
    message = refused(state, 1, {"type": "play", "card": "9D"})
    assert message == "You have no ♠, so you must play a trump: you hold ♥."
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "card": "9H"}]


def test_a_player_void_in_the_suit_led_and_in_trumps_may_play_any_card():
    state = scripted([["7S", "8D"], ["9C", "9D"], ["9S", "TD"], ["TS", "JD"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "7S")
    assert {a["card"] for a in ENGINE.legal_actions(state, 1)} == {"9C", "9D"}


def test_when_trump_is_led_players_must_follow_with_trumps():
    state = scripted([["7H", "8D"], ["8H", "9D"], ["9S", "TD"], ["TS", "JD"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "7H")
    assert refused(state, 1, {"type": "play", "card": "9D"}) == "You must follow suit: you hold ♥."
    state, _ = play(state, 1, "8H")
    assert {a["card"] for a in ENGINE.legal_actions(state, 2)} == {"9S", "TD"}


def test_in_a_no_trump_deal_a_void_player_may_play_any_card():
    state = scripted([["7S", "8D"], ["9H", "9D"], ["9S", "TD"], ["TS", "JD"]], trump=None, bids=BIDS)
    state, _ = play(state, 0, "7S")
    assert {a["card"] for a in ENGINE.legal_actions(state, 1)} == {"9H", "9D"}


def test_a_joker_may_be_played_even_when_the_player_could_follow_suit():
    state = scripted([["7S", "8D"], ["X1", "8S"], ["9S", "TD"], ["TS", "JD"]], bids=BIDS)
    state, _ = play(state, 0, "7S")
    legal = ENGINE.legal_actions(state, 1)
    assert {"type": "play", "card": "X1", "joker": "low"} in legal
    assert {"type": "play", "card": "X1", "joker": "high"} in legal
    state, events = play(state, 1, "X1", "low")
    assert events[0] == {"type": "played", "seat": 1, "card": "X1", "joker": "low", "suit": None, "auto": False}


def test_without_jokers_the_highest_trump_wins_else_the_highest_card_of_the_suit_led():
    hands = [["7S", "8D"], ["AS", "9D"], ["7H", "TD"], ["9H", "JD"]]
    state = scripted(hands, trump="H", bids=BIDS)
    state, events = play_trick(state, (0, "7S"), (1, "AS"), (2, "7H"), (3, "9H"))
    assert winner_of(events) == 3
    assert state["taken"] == [0, 0, 0, 1] and ENGINE.actors(state) == [3]
    state = scripted(hands, trump="C", bids=BIDS)
    state, events = play_trick(state, (0, "7S"), (1, "AS"), (2, "7H"), (3, "9H"))
    assert winner_of(events) == 1


def test_the_trick_winner_leads_the_next_trick():
    state = scripted([["7S", "8D"], ["AS", "9D"], ["8S", "TD"], ["9S", "JD"]], trump="H", bids=BIDS)
    state, _ = play_trick(state, (0, "7S"), (1, "AS"), (2, "8S"), (3, "9S"))
    assert ENGINE.actors(state) == [1]
    assert ENGINE.view(state, 0)["last_trick"]["winner"] == 1
    assert ENGINE.view(state, 0)["trick"] == []
    assert refused(state, 0, {"type": "play", "card": "8D"}) == "It is not your turn."


def test_the_leader_may_lead_any_card_including_a_trump():
    state = scripted([["7H", "8D"], ["AS", "9D"], ["8S", "TD"], ["9S", "JD"]], trump="H", bids=BIDS)
    assert {a["card"] for a in ENGINE.legal_actions(state, 0)} == {"7H", "8D"}


# -- jokers ------------------------------------------------------------------------


def test_a_second_joker_played_high_beats_a_joker_led_high():
    state = scripted([["X1", "7D"], ["8S", "9S"], ["X2", "TS"], ["JS", "QS"]], bids=BIDS)
    state, events = play_trick(state, (0, "X1", "high", "S"), (1, "9S"), (2, "X2", "high"), (3, "QS"))
    assert winner_of(events) == 2


def test_a_trump_beats_a_joker_led_high_in_a_non_trump_suit_and_the_highest_trump_wins():
    state = scripted([["X1", "7S"], ["7H", "8D"], ["9H", "9D"], ["JS", "QS"]], trump="H", bids=BIDS)
    state, events = play_trick(state, (0, "X1", "high", "S"), (1, "7H"), (2, "9H"), (3, "QS"))
    assert winner_of(events) == 2


def test_trumps_do_not_beat_a_joker_led_high_in_the_trump_suit():
    state = scripted([["X1", "7S"], ["7H", "8D"], ["9H", "9D"], ["JS", "QS"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "X1", "high", "H")
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "card": "7H"}]
    state, events = play_trick(state, (1, "7H"), (2, "9H"), (3, "QS"))
    assert winner_of(events) == 0


def test_a_joker_led_high_forces_the_highest_card_of_the_named_suit():
    state = scripted([["X1", "7D"], ["KS", "7S"], ["8D", "9D"], ["JS", "QS"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "X1", "high", "S")
    assert refused(state, 1, {"type": "play", "card": "7S"}) == "The joker asks for the highest ♠: you must play K♠."
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "card": "KS"}]
    state, events = play_trick(state, (1, "KS"), (2, "8D"), (3, "QS"))
    assert winner_of(events) == 0


def test_a_joker_led_high_makes_a_player_void_in_the_suit_play_a_trump():
    state = scripted([["X1", "7D"], ["7H", "8D"], ["9C", "9D"], ["JS", "QS"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "X1", "high", "S")
    assert refused(state, 1, {"type": "play", "card": "8D"}) == "You have no ♠, so you must play a trump: you hold ♥."


def test_a_joker_led_low_wins_when_nobody_follows_the_named_suit_nor_trumps():
    state = scripted([["X1", "7S"], ["8D", "9D"], ["7C", "8C"], ["TD", "JD"]], trump="H", bids=BIDS)
    state, events = play_trick(state, (0, "X1", "low", "S"), (1, "8D"), (2, "7C"), (3, "TD"))
    assert winner_of(events) == 0


def test_a_joker_led_low_loses_to_any_card_of_the_named_suit():
    state = scripted([["X1", "8D"], ["7S", "9D"], ["7C", "8C"], ["TD", "JD"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "X1", "low", "S")
    assert refused(state, 1, {"type": "play", "card": "9D"}) == "You must follow suit: you hold ♠."
    assert ENGINE.legal_actions(state, 1) == [{"type": "play", "card": "7S"}]
    state, events = play_trick(state, (1, "7S"), (2, "7C"), (3, "TD"))
    assert winner_of(events) == 1


def test_a_joker_led_low_loses_to_a_trump():
    state = scripted([["X1", "8D"], ["8S", "9D"], ["7H", "8C"], ["TD", "JD"]], trump="H", bids=BIDS)
    state, events = play_trick(state, (0, "X1", "low", "S"), (1, "8S"), (2, "7H"), (3, "TD"))
    assert winner_of(events) == 2


def test_a_joker_led_low_loses_to_a_joker_played_high():
    state = scripted([["X1", "8D"], ["8S", "9D"], ["X2", "8C"], ["TD", "JD"]], trump="H", bids=BIDS)
    state, events = play_trick(state, (0, "X1", "low", "S"), (1, "8S"), (2, "X2", "high"), (3, "TD"))
    assert winner_of(events) == 2


def test_a_joker_not_led_played_high_beats_everything_including_a_later_trump():
    state = scripted([["AS", "7S"], ["X1", "8S"], ["7H", "9D"], ["KS", "9S"]], trump="H", bids=BIDS)
    state, events = play_trick(state, (0, "AS"), (1, "X1", "high"), (2, "7H"), (3, "KS"))
    assert winner_of(events) == 1


def test_a_joker_not_led_played_low_cannot_win():
    state = scripted([["7S", "8S"], ["X1", "9D"], ["7C", "8C"], ["TD", "JD"]], trump=None, bids=BIDS)
    state, events = play_trick(state, (0, "7S"), (1, "X1", "low"), (2, "7C"), (3, "TD"))
    assert winner_of(events) == 0


def test_a_joker_played_low_not_led_does_not_change_the_suit_to_follow():
    state = scripted([["7S", "8S"], ["X1", "9D"], ["9S", "8C"], ["TD", "JD"]], trump=None, bids=BIDS)
    state, _ = play_trick(state, (0, "7S"), (1, "X1", "low"))
    assert ENGINE.legal_actions(state, 2) == [{"type": "play", "card": "9S"}]


def test_legal_actions_list_every_joker_variant():
    state = scripted([["X1", "7D"], ["X2", "8S"], ["8D", "9D"], ["JS", "QS"]], trump="H", bids=BIDS)
    leading = [a for a in ENGINE.legal_actions(state, 0) if a["card"] == "X1"]
    assert len(leading) == 8
    assert {(a["joker"], a["suit"]) for a in leading} == {(m, s) for m in ("high", "low") for s in "SCDH"}
    state, _ = play(state, 0, "7D")
    following = [a for a in ENGINE.legal_actions(state, 1) if a["card"] == "X2"]
    assert following == [{"type": "play", "card": "X2", "joker": "high"},
                         {"type": "play", "card": "X2", "joker": "low"}]


def test_a_joker_must_be_played_with_a_mode_and_a_suit_only_when_leading():
    state = scripted([["X1", "7D"], ["X2", "8S"], ["8D", "9D"], ["JS", "QS"]], trump="H", bids=BIDS)
    assert "high" in refused(state, 0, {"type": "play", "card": "X1"})
    assert "high" in refused(state, 0, {"type": "play", "card": "X1", "joker": "sideways", "suit": "S"})
    assert "name its suit" in refused(state, 0, {"type": "play", "card": "X1", "joker": "high"})
    assert "name its suit" in refused(state, 0, {"type": "play", "card": "X1", "joker": "high", "suit": "Z"})
    assert "Only a joker" in refused(state, 0, {"type": "play", "card": "7D", "joker": "high"})
    state, _ = play(state, 0, "7D")
    assert "Only the player who leads" in refused(
        state, 1, {"type": "play", "card": "X2", "joker": "high", "suit": "S"})


# -- malformed actions ---------------------------------------------------------------


@pytest.mark.parametrize("action", [
    None,
    "play QS",
    ["play"],
    {},
    {"type": "pass"},
    {"type": ["play"]},
    {"type": "play"},
    {"type": "play", "card": 7},
    {"type": "play", "card": "ZZ"},
    {"type": "play", "card": "QS"},
    {"type": "play", "card": "7D", "extra": 1},
    {"type": "play", "card": "7D", "auto": "yes"},
    {"type": "bid", "tricks": 1},
    {"type": "trump", "suit": "H"},
])
def test_malformed_or_out_of_phase_actions_are_refused_with_a_message_and_change_nothing(action):
    state = scripted([["7S", "7D"], ["8S", "8D"], ["9S", "9D"], ["TS", "TD"]], bids=BIDS)
    refused(state, 0, action)


@pytest.mark.parametrize("seat", [-1, 4, "0", None, True, 1])
def test_actions_from_unknown_seats_or_out_of_turn_are_refused(seat):
    state = scripted([["7S", "7D"], ["8S", "8D"], ["9S", "9D"], ["TS", "TD"]], bids=BIDS)
    refused(state, seat, {"type": "play", "card": "7S"})


def test_a_card_not_in_hand_is_refused_by_name():
    state = scripted([["7S", "7D"], ["8S", "8D"], ["9S", "9D"], ["TS", "TD"]], bids=BIDS)
    assert refused(state, 0, {"type": "play", "card": "AS"}) == "You do not hold A♠."
    assert refused(state, 0, {"type": "play", "card": "TD"}) == "You do not hold 10♦."


def test_legal_actions_are_empty_for_a_seat_that_may_not_act():
    state = scripted([["7S", "7D"], ["8S", "8D"], ["9S", "9D"], ["TS", "TD"]], bids=BIDS)
    assert ENGINE.legal_actions(state, 1) == []
    assert ENGINE.actors(state) == [0]


def test_apply_never_changes_the_state_it_is_given():
    state = scripted([["7S", "7D"], ["8S", "8D"], ["9S", "9D"], ["TS", "TD"]], bids=BIDS)
    before = dumps(state)
    new_state, _ = play(state, 0, "7S")
    assert dumps(state) == before
    assert new_state["hands"][0] == ["7D"]


# -- views -----------------------------------------------------------------------------


def test_the_view_shows_my_hand_sorted_and_no_other_hand():
    state = scripted([["7D", "AS", "X1", "9H"], ["8S", "8D", "8C", "8H"], ["9S", "9D", "9C", "QH"],
                      ["TS", "TD", "TC", "TH"]], trump="D", bids=[None] * 4, phase="bid")
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["X1", "7D", "AS", "9H"]
    assert view["seat"] == 0 and view["hand_sizes"] == [4, 4, 4, 4]
    assert card_codes_in(view) <= set(state["hands"][0]) | public_cards(state)
    assert "seed" not in view and str(SEED) not in json.dumps(view)
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert card_codes_in(spectator) <= public_cards(state)


def test_the_view_has_the_keys_the_game_page_needs():
    view = ENGINE.view(started(), 1)
    assert set(view) == {
        "game", "seat", "players", "phase", "finished", "deal", "deals_total", "pulka", "cards", "dealer",
        "first_dealer", "order", "tuz", "trump", "trump_card", "trump_chooser", "trump_chosen", "actors",
        "turn", "bids", "bids_sum", "bids_status", "forbidden_bid", "taken", "trick", "leader", "last_trick",
        "hand_sizes", "hand", "legal_actions", "totals", "forfeited", "outcome",
    }
    assert json.loads(json.dumps(view)) == view


def test_the_view_shows_the_current_trick_with_joker_modes():
    state = scripted([["X1", "7D"], ["8S", "9S"], ["X2", "TS"], ["JS", "QS"]], bids=BIDS)
    state, _ = play_trick(state, (0, "X1", "high", "S"), (1, "9S"))
    assert ENGINE.view(state, 3)["trick"] == [
        {"seat": 0, "card": "X1", "joker": "high", "suit": "S"},
        {"seat": 1, "card": "9S", "joker": None, "suit": None},
    ]
    assert ENGINE.view(state, 3)["leader"] == 0


# -- time-outs -------------------------------------------------------------------------


def test_the_automatic_trump_choice_is_no_trump():
    state = at_first_nine_card_deal()
    chooser = ENGINE.actors(state)[0]
    assert ENGINE.auto_action(state, chooser) == {"type": "trump", "suit": None}


def test_the_automatic_bid_is_the_lowest_allowed():
    state = scripted(THREE_CARD_HANDS, phase="bid")
    assert ENGINE.auto_action(state, 0) == {"type": "bid", "tricks": 0}


def test_the_automatic_card_is_the_lowest_legal_one():
    state = scripted([["7S", "8D"], ["9S", "AS"], ["9H", "7H"], ["7C", "TD"]], trump="H", bids=BIDS)
    # leading: a non-trump before any trump
    assert ENGINE.auto_action(state, 0) == {"type": "play", "card": "7S"}
    state, _ = play(state, 0, "8D")
    assert ENGINE.auto_action(state, 1) == {"type": "play", "card": "9S"}  # void in ♦, no trump: lowest
    state, _ = play(state, 1, "AS")
    assert ENGINE.auto_action(state, 2) == {"type": "play", "card": "7H"}  # void in ♦: lowest trump
    state, _ = play(state, 2, "9H")
    assert ENGINE.auto_action(state, 3) == {"type": "play", "card": "TD"}  # must follow ♦


def test_the_automatic_card_prefers_a_low_non_trump_to_a_lower_trump_when_free():
    state = scripted([["7H", "8D"], ["AS", "9S"], ["8H", "8C"], ["TD", "JD"]], trump="H", bids=BIDS)
    assert ENGINE.auto_action(state, 0) == {"type": "play", "card": "8D"}


def test_the_automatic_card_is_a_joker_played_low_when_only_jokers_are_left():
    state = scripted([["7S"], ["X1"], ["8S"], ["9S"]], trump="H", bids=BIDS)
    state, _ = play(state, 0, "7S")
    assert ENGINE.auto_action(state, 1) == {"type": "play", "card": "X1", "joker": "low"}


def test_a_leader_holding_only_jokers_automatically_leads_one_low_naming_a_non_trump_suit():
    state = scripted([["X1", "X2"], ["7S", "8S"], ["7D", "8D"], ["7C", "8C"]], trump="S", bids=BIDS)
    assert ENGINE.auto_action(state, 0) == {"type": "play", "card": "X1", "joker": "low", "suit": "C"}
    state = scripted([["X1", "X2"], ["7S", "8S"], ["7D", "8D"], ["7C", "8C"]], trump="H", bids=BIDS)
    assert ENGINE.auto_action(state, 0) == {"type": "play", "card": "X1", "joker": "low", "suit": "S"}


def test_automatic_actions_are_legal_and_only_for_the_seat_on_the_clock():
    state = scripted(THREE_CARD_HANDS, phase="bid")
    assert ENGINE.auto_action(state, 0) in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalMove):
        ENGINE.auto_action(state, 2)


def test_an_action_marked_auto_is_accepted_and_recorded():
    state = scripted(THREE_CARD_HANDS, phase="bid")
    state, events = ENGINE.apply(state, 0, {"type": "bid", "tricks": 0, "auto": True})
    assert events[0]["auto"] is True
    assert state["auto"] == [True, False, False, False]
    assert ENGINE.sheet(state)["pulkas"][0]["deals"][2]["cells"][0]["auto"] is True
