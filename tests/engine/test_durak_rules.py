"""Durak rules: options, deal, first attacker, bouts, limits, beating, transfers, drawing, leaving, teams,
results, forfeits, clocks, automatic moves and views — scripted bout by bout."""

from __future__ import annotations

import json

import pytest

from gameplay.engine.core import shuffled
from gameplay.engine.durak import (
    DurakEngine,
    beats,
    can_beat_all,
    draw_first_dealer,
    durak_deck,
    lowest_trump,
)

from .durak_helpers import (
    ENGINE,
    SEED,
    act,
    all_cards,
    close_window,
    beat,
    card_codes_in,
    dumps,
    event_types,
    refused,
    roles,
    scripted,
    started,
    table,
)

# -- engine, options, players ----------------------------------------------------------------------


def test_the_engine_names_itself_and_its_player_counts():
    assert (ENGINE.slug, ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("durak", "Durak", 2, 4)


def test_default_options_and_validation():
    assert ENGINE.default_options() == {"mode": "podkidnoy", "teams": False, "first_dealer": None,
                                        "first_attacker": None}
    assert ENGINE.validate_options({"mode": "perevodnoy"})["mode"] == "perevodnoy"
    for bad in ({"mode": "kozel"}, {"teams": "yes"}, {"first_dealer": -1}, {"first_dealer": True},
                {"first_attacker": "0"}, {"jokers": 2}):
        with pytest.raises(ValueError):
            ENGINE.validate_options(bad)


def test_teams_need_exactly_four_players_at_creation_and_at_start():
    with pytest.raises(ValueError, match="exactly 4 players"):
        ENGINE.check_options_for_players({"teams": True}, 3)
    with pytest.raises(ValueError, match="exactly 4 players"):
        ENGINE.start(players=2, options={"teams": True}, seed=1)
    assert ENGINE.check_options_for_players({"teams": True}, 4)["teams"] is True


def test_seats_named_in_options_must_exist_and_the_player_count_must_fit():
    with pytest.raises(ValueError, match="seat 3"):
        ENGINE.check_options_for_players({"first_dealer": 3}, 3)
    with pytest.raises(ValueError, match="first_attacker"):
        ENGINE.start(players=2, options={"first_attacker": 2}, seed=1)
    with pytest.raises(ValueError, match="2 to 4"):
        ENGINE.start(players=5, options={}, seed=1)
    with pytest.raises(ValueError, match="seed"):
        ENGINE.start(players=2, options={}, seed="x")


def test_accepts_stale_only_for_throw_ins():
    state = started()
    assert ENGINE.accepts_stale(state, 0, {"type": "throw", "cards": ["7S"]})
    for action in ({"type": "attack", "cards": ["7S"]}, {"type": "beat"}, {"type": "take"}, {"type": "done"},
                   {"type": "transfer"}, "throw", None):
        assert not ENGINE.accepts_stale(state, 0, action)


# -- deal, trump, first attacker -------------------------------------------------------------------


def test_the_deal_is_one_card_at_a_time_from_the_dealers_left_and_the_trump_card_lies_under_the_talon():
    state = started(4, first_dealer=1)
    deck = shuffled(durak_deck(), SEED, 1)
    assert state["dealer"] == 1
    assert state["hands"][2][:2] == [deck[0], deck[4]]
    assert state["hands"][3][0] == deck[1] and state["hands"][0][0] == deck[2] and state["hands"][1][0] == deck[3]
    assert [len(hand) for hand in state["hands"]] == [6] * 4
    assert state["trump_card"] == deck[24] and state["trump"] == deck[24][1]
    assert state["talon"] == deck[25:] + [deck[24]]
    assert sum(all_cards(state).values()) == 36 and set(all_cards(state)) == set(durak_deck())
    view = ENGINE.view(state, 0)
    assert (view["talon"], view["trump_card"], view["trump"]) == (12, deck[24], deck[24][1])


def test_the_first_dealer_is_drawn_from_the_seed_unless_given():
    dealers = {started(3, seed=seed)["dealer"] for seed in range(30)}
    assert dealers == {0, 1, 2}
    assert started(3, seed=77)["dealer"] == draw_first_dealer(77, 3)
    assert started(3, seed=77, first_dealer=2)["dealer"] == 2


def test_the_lowest_trump_attacks_first_and_is_shown_to_everybody():
    for seed in range(20):
        state = started(4, seed=seed)
        shown = lowest_trump(state["hands"], state["trump"])
        if shown is None:
            continue
        assert state["shown_trump"] == shown and shown["card"] in state["hands"][shown["seat"]]
        trumps = [card for hand in state["hands"] for card in hand if card[1] == state["trump"]]
        assert min(trumps, key=lambda card: "6789TJQKA".index(card[0])) == shown["card"]
        assert state["attacker"] == shown["seat"] and state["defender"] == (shown["seat"] + 1) % 4
        for seat in (0, 1, 2, 3, None):
            assert ENGINE.view(state, seat)["shown_trump"] == shown
        assert ENGINE.actors(state) == [shown["seat"]]
        return
    raise AssertionError("no deal with a trump in hand")


def test_without_any_trump_in_hand_the_dealers_left_attacks_first():
    for seed in range(3000):
        state = started(2, seed=seed)
        if lowest_trump(state["hands"], state["trump"]) is None:
            assert state["shown_trump"] is None
            assert state["attacker"] == (state["dealer"] + 1) % 2
            return
    raise AssertionError("no deal without trumps found")


def test_first_attacker_option_overrides_the_lowest_trump():
    state = started(4, first_attacker=2, teams=True)
    assert (state["attacker"], state["defender"], state["shown_trump"]) == (2, 3, None)


# -- beating ---------------------------------------------------------------------------------------


def test_what_beats_what():
    assert beats("9S", "7S", "H") and not beats("6S", "7S", "H")
    assert beats("6H", "AS", "H") and not beats("AD", "7S", "H")
    assert beats("7H", "6H", "H") and not beats("6H", "7H", "H") and not beats("AS", "6H", "H")


def test_the_defender_must_cover_every_unbeaten_card_with_a_different_card():
    assert can_beat_all(["7S", "8S"], ["9S", "6H"], "H")
    assert not can_beat_all(["7S", "8S"], ["9S", "6D"], "H")
    assert can_beat_all(["7S", "8D"], ["9S", "TD"], "H")
    # taking 6H (the first card that beats 7D) for 7D would leave 7S uncovered: a matching re-assigns it
    assert can_beat_all(["7D", "7S"], ["6H", "8D"], "H")
    assert not can_beat_all(["7S"], [], "H")


def test_beating_refuses_wrong_cards_with_reasons():
    state = scripted([["7S", "7H", "KC"], ["6S", "8S", "AD", "8H", "QH", "6D"]])
    state, _ = act(state, 0, "attack", "7S")
    assert "does not beat 7♠" in refused(state, 1, {"type": "beat", "attack": "7S", "card": "6S"})
    assert "does not beat 7♠" in refused(state, 1, {"type": "beat", "attack": "7S", "card": "AD"})
    assert "not on the table" in refused(state, 1, {"type": "beat", "attack": "7C", "card": "8S"})
    assert "do not hold" in refused(state, 1, {"type": "beat", "attack": "7S", "card": "9S"})
    assert "Only the defender" in refused(state, 0, {"type": "beat", "attack": "7S", "card": "8H"})
    state, events = beat(state, "7S", "8H")  # any trump beats a non-trump
    assert table(state) == [("7S", "8H")] and events[0] == {"type": "beat", "seat": 1, "attack": "7S",
                                                              "card": "8H", "auto": False}
    state, _ = act(state, 0, "throw", "7H")
    assert "only a higher trump" in refused(state, 1, {"type": "beat", "attack": "7H", "card": "AD"})
    assert "only a higher trump" in refused(state, 1, {"type": "beat", "attack": "7H", "card": "6D"})
    assert "already beaten" in refused(state, 1, {"type": "beat", "attack": "7S", "card": "QH"})
    state, events = beat(state, "7H", "QH")
    assert event_types(events) == ["beat"] and state["phase"] == "window" and ENGINE.actors(state) == [0]
    state, events = act(state, 0, "done")  # "Бито": the attacker holds KC, so the window waits for him
    assert state["last_bout"]["table"] == [{"attack": "7S", "beat": "8H"}, {"attack": "7H", "beat": "QH"}]
    assert event_types(events) == ["done", "bout_end", "bout"]


# -- a whole bout: discard -------------------------------------------------------------------------


def test_a_bout_beaten_and_discarded_with_roles_table_and_hands_after_every_move():
    hands = [["7S", "7D", "9C", "QD", "KS", "AH"],
             ["9S", "JD", "6C", "8C", "TH", "QS"],
             ["9D", "6D", "8S", "TC", "JC", "AS"]]
    state = scripted(hands, talon=["6S", "KD", "TD", "QC", "7H", "6H"])
    assert roles(state) == ["A", "D", "T"] and ENGINE.actors(state) == [0]

    state, events = act(state, 0, "attack", "7S")
    assert events[0] == {"type": "attack", "seat": 0, "cards": ["7S"], "defender": 1, "auto": False}
    assert table(state) == [("7S", None)] and state["phase"] == "defend"
    assert roles(state) == ["T", "D", "T"] and ENGINE.actors(state) == [1]
    assert ENGINE.legal_actions(state, 0) == [{"type": "throw", "cards": ["7D"]}]  # out of turn, not an actor
    assert ENGINE.legal_actions(state, 2) == []  # seat 2 holds no seven

    state, _ = beat(state, "7S", "9S")
    assert table(state) == [("7S", "9S")] and state["phase"] == "window"
    assert ENGINE.actors(state) == [0, 2]  # 7D/9C and 9D can be thrown in
    assert {"type": "done"} in ENGINE.legal_actions(state, 0)
    assert ENGINE.legal_actions(state, 1) == []

    state, _ = act(state, 2, "throw", "9D")
    assert table(state) == [("7S", "9S"), ("9D", None)] and state["phase"] == "defend"
    assert ENGINE.actors(state) == [1] and state["hands"][2] == ["6D", "8S", "TC", "JC", "AS"]

    state, _ = beat(state, "9D", "JD")
    assert state["phase"] == "window" and ENGINE.actors(state) == [0, 2]  # both hold cards, fitting or not
    assert ENGINE.view(state, None)["limits"] == {"max_attack": 6, "attack_cards": 2, "room": 4}

    state, events = act(state, 0, "done")
    assert events[0]["type"] == "done" and state["done"] == [0] and ENGINE.actors(state) == [2]
    assert "already pressed done" in refused(state, 0, {"type": "done"})

    state, events = act(state, 2, "done")
    assert event_types(events) == ["done", "bout_end", "drew", "drew", "drew", "bout"]
    assert state["discard"][-4:] == ["7S", "9S", "9D", "JD"] and state["table"] == []
    # drawing: the attacker (0) first, then counter-clockwise (2), the defender (1) last
    assert state["hands"][0][-1] == "6S" and state["hands"][2][-1] == "KD"
    assert state["hands"][1][-2:] == ["TD", "QC"]
    assert state["talon"] == ["7H", "6H"] and state["last_bout"]["result"] == "discard"
    # after a discard the defender attacks; the next player defends
    assert (state["bout"], state["attacker"], state["defender"], state["phase"]) == (3, 1, 2, "attack")
    assert roles(state) == ["T", "A", "D"]
    assert sum(all_cards(state).values()) == 36


# -- taking ----------------------------------------------------------------------------------------


def test_a_bout_taken_gives_the_table_to_the_defender_and_the_next_player_attacks():
    hands = [["7S", "7D", "QD"], ["9S", "6C", "8C"], ["TD", "6D", "8S"]]
    state = scripted(hands)
    state, _ = act(state, 0, "attack", "7S")
    state, events = act(state, 1, "take")
    assert events[0]["type"] == "take" and state["taking"] and state["phase"] == "window"
    assert roles(state) == ["T", "Z", "T"]
    assert ENGINE.actors(state) == [0, 2]  # every thrower holding cards, whether a card fits or not
    assert "decided to take" in refused(state, 1, {"type": "beat", "attack": "7S", "card": "9S"})
    state, events = act(state, 0, "throw", "7D")
    # the taker holds 3 cards and 2 lie unbeaten: one more may come, so the window waits again
    assert event_types(events) == ["throw"] and ENGINE.actors(state) == [0, 2]
    state, events = close_window(state)
    assert event_types(events) == ["done", "done", "bout_end", "bout"]
    assert sorted(state["hands"][1]) == sorted(["9S", "6C", "8C", "7S", "7D"])
    assert state["taken"][1] == ["7S", "7D"] and state["last_bout"]["result"] == "take"
    assert (state["attacker"], state["defender"]) == (2, 0)
    assert ENGINE.view(state, 2)["taken"] == [[], ["7S", "7D"], []]
    # a taken card that is played again leaves the public "taken" list
    state = scripted([["7S"], ["9S", "8S"], ["7C", "6C"]])
    state["taken"][1] = ["9S"]
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "9S")
    assert state["taken"][1] == []


def test_take_is_only_possible_while_some_card_is_unbeaten():
    state = scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]])
    assert "not been opened" in refused(state, 1, {"type": "take"})
    state, _ = act(state, 0, "attack", "7S")
    assert "Only the defender" in refused(state, 2, {"type": "take"})
    state = scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "7D"]])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "9S")
    assert state["phase"] == "window"
    assert "nothing to take" in refused(state, 1, {"type": "take"})


def test_a_defender_who_cannot_beat_is_made_taking_at_once():
    state = scripted([["AS", "7C", "KC"], ["9S", "6C", "8D"], ["TD", "6D", "AC"]])
    state, events = act(state, 0, "attack", "AS")
    assert event_types(events) == ["attack", "forced_take"]
    assert events[1] == {"type": "forced_take", "seat": 1}
    assert state["taking"] and state["phase"] == "window" and roles(state) == ["T", "Z", "T"]
    assert ENGINE.actors(state) == [0, 2]  # both throwers hold cards; only seat 2 holds an ace
    assert ENGINE.legal_actions(state, 0) == [{"type": "done"}]
    assert ENGINE.legal_actions(state, 2) == [{"type": "throw", "cards": ["AC"]}, {"type": "done"}]
    assert ENGINE.legal_actions(state, 1) == []


def test_a_throw_in_that_cannot_be_beaten_makes_the_defender_taking():
    state = scripted([["7S", "KC"], ["8S", "9D", "6D"], ["7C", "QC", "6C"]])
    state, events = act(state, 0, "attack", "7S")
    assert "forced_take" not in event_types(events) and state["phase"] == "defend"
    state, events = act(state, 2, "throw", "7C")
    assert event_types(events) == ["throw", "forced_take"] and state["taking"]
    state, _ = close_window(state)
    assert state["last_bout"]["result"] == "take"


def test_a_beat_that_leaves_the_rest_uncoverable_makes_the_defender_taking():
    hands = [["7S", "7D", "KC"], ["8S", "AH", "6D"], ["QC", "6C"]]
    state = scripted(hands, trump="H")
    state, _ = act(state, 0, "attack", "7S", "7D")
    taken, events = beat(state, "7S", "AH")  # only AH could beat 7D
    assert event_types(events) == ["beat", "forced_take"]
    taken, _ = close_window(taken)
    assert taken["last_bout"]["result"] == "take"
    state, _ = beat(state, "7D", "AH")
    state, events = beat(state, "7S", "8S")
    assert "forced_take" not in event_types(events)
    state, _ = close_window(state)
    assert state["last_bout"]["result"] == "discard"


# -- limits and throw-ins --------------------------------------------------------------------------


def test_an_attack_is_one_card_or_several_of_one_rank_within_the_defenders_hand():
    state = scripted([["7S", "7D", "7C", "9C"], ["9D", "8C"], ["TD", "6D"]])
    assert "one rank" in refused(state, 0, {"type": "attack", "cards": ["7S", "9C"]})
    assert "only 2 more" in refused(state, 0, {"type": "attack", "cards": ["7S", "7D", "7C"]})
    assert "twice" in refused(state, 0, {"type": "attack", "cards": ["7S", "7S"]})
    assert "do not hold" in refused(state, 0, {"type": "attack", "cards": ["8S"]})
    assert "only the attacker" in refused(state, 2, {"type": "attack", "cards": ["TD"]})
    attacks = [action["cards"] for action in ENGINE.legal_actions(state, 0)]
    assert sorted(map(sorted, attacks)) == sorted(map(sorted, [["7S"], ["7D"], ["7C"], ["9C"], ["7S", "7D"],
                                                               ["7S", "7C"], ["7D", "7C"]]))
    state, _ = act(state, 0, "attack", "7D", "7C")
    assert table(state) == [("7D", None), ("7C", None)]
    assert "already open" in refused(state, 0, {"type": "attack", "cards": ["7S"]})


def test_throw_ins_only_match_ranks_on_the_table_and_never_exceed_the_defenders_hand():
    state = scripted([["7S", "7D", "8C", "KC"], ["9S", "JD", "6C"], ["TD", "6D", "8D", "JC"]])
    assert "wait for the attacker" in refused(state, 2, {"type": "throw", "cards": ["TD"]})
    state, _ = act(state, 0, "attack", "7S")
    assert "rank already on the table" in refused(state, 2, {"type": "throw", "cards": ["8D"]})
    assert "You are defending" in refused(state, 1, {"type": "throw", "cards": ["6C"]})
    state, _ = beat(state, "7S", "9S")
    assert "one rank" in refused(state, 0, {"type": "throw", "cards": ["7D", "8C"]})
    assert "Wait" not in refused(state, 0, {"type": "throw", "cards": ["KC"]})
    state, _ = act(state, 0, "throw", "7D")
    state, _ = beat(state, "7D", "JD")
    # the defender holds one card: one more unbeaten card at most
    assert ENGINE.view(state, None)["limits"]["room"] == 1


BOUT_FULL = "The bout is full: no more cards can be thrown in."


def test_the_first_bout_holds_at_most_five_attack_cards_and_later_bouts_six():
    hands = [["7S", "7D", "8D", "9C", "9H", "KS"],
             ["8S", "9D", "TD", "JH", "QH", "KH", "AH", "6H"],
             ["8C", "9S", "6C", "TC"]]
    state = scripted(hands, bout=1)
    state, _ = act(state, 0, "attack", "7S", "7D")
    state, _ = beat(state, "7S", "8S")
    state, _ = beat(state, "7D", "9D")
    state, _ = act(state, 0, "throw", "8D")
    state, _ = beat(state, "8D", "TD")
    state, _ = act(state, 0, "throw", "9C")
    state, _ = beat(state, "9C", "JH")
    assert ENGINE.view(state, None)["limits"] == {"max_attack": 5, "attack_cards": 4, "room": 1}
    # two throwers race for the last slot: the second one is refused with the limit
    first, _ = act(state, 0, "throw", "9H")
    assert ENGINE.accepts_stale(first, 2, {"type": "throw", "cards": ["8C"]})
    assert refused(first, 2, {"type": "throw", "cards": ["8C"]}) == BOUT_FULL
    second, _ = act(state, 2, "throw", "8C")
    assert refused(second, 0, {"type": "throw", "cards": ["9H"]}) == BOUT_FULL
    # a later bout allows 6
    state = scripted(hands, bout=2)
    assert ENGINE.view(state, None)["limits"]["max_attack"] == 6


def test_two_throw_ins_racing_for_the_defenders_last_card_the_second_is_refused():
    state = scripted([["7S", "7D", "KC"], ["8S", "9D"], ["7C", "QC"]])
    state, _ = act(state, 0, "attack", "7S")
    assert {"type": "throw", "cards": ["7D"]} in ENGINE.legal_actions(state, 0)
    assert {"type": "throw", "cards": ["7C"]} in ENGINE.legal_actions(state, 2)
    first, _ = act(state, 0, "throw", "7D")
    assert first["defender_clock_restart"] is True
    message = refused(first, 2, {"type": "throw", "cards": ["7C"]})
    assert message == "The defender cannot be given more unbeaten cards than the defender's hand holds."


def test_a_thrower_who_pressed_done_waits_until_someone_else_throws_in():
    hands = [["7S", "7D", "9C", "KS"], ["9S", "JD", "TD", "QD", "AD"], ["9D", "7C", "8S"]]
    state = scripted(hands)
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "9S")
    state, _ = act(state, 0, "done")
    assert "pressed done" in refused(state, 0, {"type": "throw", "cards": ["7D"]})
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.actors(state) == [2]
    state, _ = act(state, 2, "throw", "9D")
    assert state["done"] == [] and state["phase"] == "defend"
    assert {"type": "throw", "cards": ["7D"]} in ENGINE.legal_actions(state, 0)
    assert "once every card is beaten" in refused(state, 0, {"type": "done"})


def test_the_window_waits_for_every_thrower_with_cards_even_when_no_card_fits():
    state = scripted([["7S", "KC"], ["9S", "6C", "8C"], ["TD", "6D"]])
    state, _ = act(state, 0, "attack", "7S")
    state, events = beat(state, "7S", "9S")  # nobody holds a seven or a nine, and nobody may learn it
    assert event_types(events) == ["beat"] and state["phase"] == "window"
    assert ENGINE.actors(state) == [0, 2]
    assert [t["seat"] for t in ENGINE.timers(state)] == [0, 2]
    assert ENGINE.legal_actions(state, 0) == ENGINE.legal_actions(state, 2) == [{"type": "done"}]
    state, events = act(state, 2, "done")
    assert event_types(events) == ["done"] and ENGINE.actors(state) == [0]
    state, events = act(state, 0, "done")
    assert event_types(events) == ["done", "bout_end", "bout"]
    assert (state["attacker"], state["defender"]) == (1, 2)


def test_in_two_player_durak_the_attacker_says_bito_even_without_a_card_to_add():
    state = scripted([["7S", "KC"], ["9S", "6C", "8C"]])
    state, _ = act(state, 0, "attack", "7S")
    state, events = beat(state, "7S", "9S")
    assert state["phase"] == "window" and ENGINE.actors(state) == [0]
    assert ENGINE.auto_action(state, 0) == {"type": "done"}
    state, events = act(state, 0, "done")
    assert event_types(events) == ["done", "bout_end", "bout"] and state["last_bout"]["result"] == "discard"
    assert (state["attacker"], state["defender"]) == (1, 0)


def test_the_bout_ends_without_a_window_when_the_defender_has_no_card_left_to_cover():
    state = scripted([["7S", "KC"], ["9S", "6C"], ["TD", "6D"]], talon=["8S", "6H"])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "9S")
    state, events = act(state, 0, "done")
    state, events = act(state, 2, "done")
    state = scripted([["7S", "KC"], ["9S"], ["TD", "6D"]], talon=["8S", "6H"])
    state, _ = act(state, 0, "attack", "7S")
    state, events = beat(state, "7S", "9S")  # his last card: no card can be added, a public fact
    assert event_types(events)[:2] == ["beat", "bout_end"] and state["last_bout"]["result"] == "discard"


def test_the_bout_ends_without_a_window_once_it_holds_its_five_attack_cards_in_the_first_bout():
    state = scripted([["7S", "7D", "7C", "7H", "AS", "KC"], ["9S", "9D", "9C", "AH", "KH", "QD"]],
                     trump="H", bout=1)
    state, _ = act(state, 0, "attack", "7S", "7D", "7C")
    for attack, card in (("7S", "9S"), ("7D", "9D"), ("7C", "9C")):
        state, _ = beat(state, attack, card)
    assert state["phase"] == "window" and ENGINE.actors(state) == [0]
    state, _ = act(state, 0, "throw", "7H")
    state, _ = beat(state, "7H", "AH")
    state, _ = act(state, 0, "throw", "AS")
    state, events = beat(state, "AS", "KH")  # 5 attack cards: the bout is full
    assert event_types(events)[:2] == ["beat", "bout_end"]


def test_the_taking_defender_window_waits_for_every_thrower_while_cards_may_still_be_added():
    state = scripted([["7S", "QS"], ["9S", "6C", "8C"], ["7D", "6D"]])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = act(state, 1, "take")
    assert ENGINE.actors(state) == [0, 2] and ENGINE.view(state, None)["limits"]["room"] == 2
    state, _ = act(state, 2, "throw", "7D")
    assert state["phase"] == "window" and ENGINE.actors(state) == [0, 2] and state["defender_clock_restart"]
    state, events = close_window(state)
    assert event_types(events)[:3] == ["done", "done", "bout_end"] and state["last_bout"]["result"] == "take"


# -- transfers -------------------------------------------------------------------------------------


def perevodnoy(hands: list[list[str]], **kwargs) -> dict:
    return scripted(hands, mode="perevodnoy", **kwargs)


def test_a_transfer_makes_the_defender_the_attacker_and_the_next_player_the_defender():
    state = perevodnoy([["7S", "KC"], ["7C", "9S", "6C"], ["TD", "6D", "7D", "QS", "8C"]])
    state, _ = act(state, 0, "attack", "7S")
    assert {"type": "transfer", "cards": ["7C"]} in ENGINE.legal_actions(state, 1)
    state, events = act(state, 1, "transfer", "7C")
    assert events[0] == {"type": "transfer", "seat": 1, "cards": ["7C"], "defender": 2, "auto": False}
    assert table(state) == [("7S", None), ("7C", None)]
    assert (state["attacker"], state["defender"], state["opener"]) == (1, 2, 0)
    assert roles(state) == ["T", "T", "D"] and ENGINE.actors(state) == [2]
    # chained: seat 2 transfers to seat 0, who must hold at least 3 cards — he holds 1
    message = refused(state, 2, {"type": "transfer", "cards": ["7D"]})
    assert "would get 3 unbeaten cards but holds only 1" in message


def test_transfers_chain_around_the_table():
    state = perevodnoy([["7S", "8S", "8C", "9D"], ["7C", "9S", "6C"], ["TD", "6D", "7D", "QS"]])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = act(state, 1, "transfer", "7C")
    state, _ = act(state, 2, "transfer", "7D")
    assert (state["attacker"], state["defender"]) == (2, 0) and len(state["table"]) == 3


def test_in_two_player_games_the_attack_is_transferred_back_to_the_attacker():
    state = perevodnoy([["7S", "8S", "8C"], ["7C", "9S", "6C"]])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = act(state, 1, "transfer", "7C")
    assert (state["attacker"], state["defender"]) == (1, 0) and roles(state) == ["D", "T"]


def test_each_transfer_condition_is_refused_with_its_reason():
    hands = [["7S", "7H", "KC"], ["7C", "8S", "9S", "6C", "7D", "9H"], ["TD", "6D", "QS", "QD"]]
    podkidnoy = scripted(hands)
    podkidnoy, _ = act(podkidnoy, 0, "attack", "7S")
    assert "only in perevodnoy" in refused(podkidnoy, 1, {"type": "transfer", "cards": ["7C"]})
    assert not [a for a in ENGINE.legal_actions(podkidnoy, 1) if a["type"] == "transfer"]

    state = perevodnoy(hands)
    assert "not been opened" in refused(state, 1, {"type": "transfer", "cards": ["7C"]})
    state, _ = act(state, 0, "attack", "7S")
    assert "Only the defender" in refused(state, 2, {"type": "transfer", "cards": ["TD"]})
    assert "rank on the table (7)" in refused(state, 1, {"type": "transfer", "cards": ["8S"]})
    beaten, _ = beat(state, "7S", "9S")
    beaten, _ = act(beaten, 0, "throw", "7H")
    assert "already beaten a card" in refused(beaten, 1, {"type": "transfer", "cards": ["7C"]})
    taking, _ = act(state, 1, "take")
    assert "decided to take" in refused(taking, 1, {"type": "transfer", "cards": ["7C"]})
    # the next player holds 4: one transfer card is fine, but 7C+7D with 7S make 3 ≤ 4 as well
    assert {"type": "transfer", "cards": ["7C", "7D"]} in ENGINE.legal_actions(state, 1) \
        or {"type": "transfer", "cards": ["7D", "7C"]} in ENGINE.legal_actions(state, 1)
    short = perevodnoy([["7S", "KC"], ["7C", "8S", "9S", "7D"], ["TD", "6D"]])
    short, _ = act(short, 0, "attack", "7S")
    assert [a["cards"] for a in ENGINE.legal_actions(short, 1) if a["type"] == "transfer"] == [["7C"], ["7D"]]
    assert "would get 3 unbeaten cards but holds only 2" in refused(short, 1, {"type": "transfer",
                                                                              "cards": ["7C", "7D"]})


def test_a_defender_who_cannot_beat_but_can_transfer_is_not_forced_to_take():
    state = perevodnoy([["AS", "KC"], ["AC", "6C", "8D"], ["TD", "6D", "QS"]])
    state, events = act(state, 0, "attack", "AS")
    assert "forced_take" not in event_types(events) and state["phase"] == "defend"
    assert ENGINE.legal_actions(state, 1) == [{"type": "transfer", "cards": ["AC"]}, {"type": "take"}]


def test_after_transfers_the_last_transferrer_draws_first_and_the_defender_last():
    hands = [["7S", "KC", "8C", "9C", "TC"], ["7C", "9S", "6C", "8D", "9D"],
             ["TD", "6D", "QS", "QD", "KD"], ["JD", "JS", "JC", "AD", "AC"]]
    talon = ["6S", "8S", "TS", "QH", "6H"]
    state = perevodnoy(hands, talon=talon)
    state, _ = act(state, 0, "attack", "7S")
    state, events = act(state, 1, "transfer", "7C")
    # seat 2 cannot beat 7♣ nor transfer: he takes at once; the throwers say done
    assert event_types(events) == ["transfer", "forced_take"]
    state, events = close_window(state)
    assert event_types(events)[:4] == ["done", "done", "done", "bout_end"]
    drew = [(event["seat"], event["count"]) for event in events if event["type"] == "drew"]
    assert drew == [(1, 2), (0, 2), (3, 1)]  # attacker 1, then counter-clockwise 0, 3; defender 2 (7 cards) last
    assert state["hands"][1][-2:] == ["6S", "8S"] and state["hands"][0][-2:] == ["TS", "QH"]
    assert state["hands"][3][-1] == "6H"
    assert (state["attacker"], state["defender"]) == (3, 0)


# -- drawing, leaving, the end ---------------------------------------------------------------------


def test_drawing_goes_from_the_attacker_counter_clockwise_with_the_trump_card_last():
    hands = [["7S", "KC", "9C", "TC", "QC", "6C"], ["8S", "8D", "9D", "JD", "7D"],
             ["TD", "6D", "QS", "QD", "KD"], ["JS", "JC", "AD", "AC", "AS"]]
    state = scripted(hands, talon=["6S", "TS", "6H"])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    state, events = close_window(state)
    drew = [(event["seat"], event["count"]) for event in events if event["type"] == "drew"]
    assert drew == [(0, 1), (3, 1), (2, 1)]
    assert state["hands"][0][-1] == "6S" and state["hands"][3][-1] == "TS" and state["hands"][2][-1] == "6H"
    assert state["talon"] == [] and len(state["hands"][1]) == 4
    view = ENGINE.view(state, 1)
    assert view["trump_card"] is None and view["trump"] == "H" and view["talon"] == 0


def test_a_player_without_cards_once_the_talon_is_empty_leaves_and_the_last_holder_is_the_durak():
    state = scripted([["7S"], ["8S", "6D"]])
    state, events = act(state, 0, "attack", "7S")
    state, events = beat(state, "7S", "8S")
    assert event_types(events)[-2:] == ["left", "game_over"]
    assert ENGINE.is_over(state) and ENGINE.actors(state) == [] and ENGINE.timers(state) == []
    outcome = ENGINE.outcome(state)
    assert outcome["scores"] == [1.0, 0.0] and outcome["places"] == [1, 2] and outcome["winners"] == [0]
    assert (outcome["durak"], outcome["draw"], outcome["teams"], outcome["forfeited"]) == (1, False, None, None)
    assert roles(state) == ["won", "durak"]
    assert "game is over" in refused(state, 1, {"type": "attack", "cards": ["6D"]})
    sheet = ENGINE.sheet(state)
    assert sheet["kind"] == "durak" and sheet["result"] == outcome and sheet["bouts"] == 2  # bout 2 was scripted
    assert (sheet["players"], sheet["mode"], sheet["teams"]) == (2, "podkidnoy", None)


def test_the_last_players_running_out_in_the_same_bout_draw():
    state = scripted([["7S"], ["8S"]])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    outcome = ENGINE.outcome(state)
    assert outcome["draw"] and outcome["drawn"] == [0, 1] and outcome["durak"] is None
    assert outcome["scores"] == [0.5, 0.5] and outcome["places"] == [1, 1] and outcome["winners"] == []

    state = scripted([["7S"], ["8S"], []], left=[2])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    outcome = ENGINE.outcome(state)
    assert outcome["winners"] == [2] and outcome["drawn"] == [0, 1]
    assert outcome["scores"] == [0.5, 0.5, 1.0] and outcome["places"] == [2, 2, 1]


def test_a_player_who_left_never_acts_again_and_the_game_goes_on_without_him():
    state = scripted([["7S"], ["8S", "9D"], ["6C", "TC"]])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    assert ENGINE.actors(state) == [2]  # seat 0 holds no card: the window does not wait for him
    assert "no cards left" in refused(state, 0, {"type": "done"})
    state, events = act(state, 2, "done")
    assert {"type": "left", "seat": 0, "bout": 2} in events and not ENGINE.is_over(state)
    assert (state["attacker"], state["defender"]) == (1, 2) and roles(state) == ["won", "A", "D"]
    assert "left the game" in refused(state, 0, {"type": "done"})
    assert ENGINE.legal_actions(state, 0) == []


def test_when_the_defender_leaves_after_a_discard_the_next_player_in_the_game_attacks():
    state = scripted([["7S", "6C"], ["8S"], ["9D", "TD"]])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    assert state["left"] == [{"seat": 1, "bout": 2}]
    assert (state["attacker"], state["defender"]) == (2, 0)


def test_after_a_take_the_next_player_still_in_the_game_attacks():
    state = scripted([["7S", "6C"], ["8C", "9D"], []], left=[2])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = close_window(state)  # forced take: no spade, no trump
    assert state["last_bout"]["result"] == "take"
    assert (state["attacker"], state["defender"]) == (0, 1)  # seat 2 has left: back to seat 0


# -- teams -----------------------------------------------------------------------------------------


def teams_game(hands: list[list[str]], **kwargs) -> dict:
    return scripted(hands, teams=True, **kwargs)


def test_in_teams_the_partner_never_throws_in_to_his_partner():
    hands = [["7S", "KC"], ["9S", "8C", "AD"], ["7C", "6D"], ["7D", "TS"]]
    state = teams_game(hands)
    assert state["teams"] == [[0, 2], [1, 3]] and state["defender"] == 1
    state, _ = act(state, 0, "attack", "7S")
    assert roles(state) == ["T", "D", "T", None]
    assert ENGINE.legal_actions(state, 2) == [{"type": "throw", "cards": ["7C"]}]
    assert ENGINE.legal_actions(state, 3) == []
    assert "your partner" in refused(state, 3, {"type": "throw", "cards": ["7D"]})
    state, _ = act(state, 2, "throw", "7C")
    assert len(state["table"]) == 2


def test_in_teams_the_defender_is_the_next_opponent_still_in_the_game():
    state = teams_game([["7S", "KC"], [], ["8C", "6D"], ["9S", "TS"]], left=[1])
    assert state["defender"] == 3  # seat 2 is a partner
    state, _ = act(state, 0, "attack", "7S")
    assert roles(state) == ["T", "won", "T", "D"]  # seat 2 throws: he is an opponent of seat 3
    state = teams_game([["7S", "KC"], ["9S", "TS"], ["8C", "6D"], []], left=[3])
    state, _ = act(state, 0, "attack", "7S")
    assert roles(state) == ["T", "D", "T", "won"]


def test_in_teams_after_a_take_the_next_opponent_attacks():
    state = teams_game([["7S", "KC"], ["8C", "9D"], [], ["9S", "TS"]], left=[2])
    state, _ = act(state, 0, "attack", "7S")  # forced take
    assert (state["attacker"], state["defender"]) == (0, 1)  # seat 3 is seat 1's partner


def test_in_teams_a_pair_wins_when_both_partners_are_out():
    state = teams_game([["7S", "KC"], [], ["8C", "6D"], ["8S"]], left=[1])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    assert ENGINE.is_over(state)
    outcome = ENGINE.outcome(state)
    assert outcome["winners"] == [1, 3] and outcome["scores"] == [0.0, 0.5, 0.0, 0.5]
    assert outcome["places"] == [3, 1, 3, 1] and outcome["teams"] == [[0, 2], [1, 3]]
    assert roles(state) == ["lost", "won", "lost", "won"]


def test_in_teams_both_pairs_out_in_the_same_bout_is_a_draw():
    state = teams_game([[], [], ["7S"], ["8S"]], left=[0, 1], attacker=2)
    state, _ = act(state, 2, "attack", "7S")
    state, _ = beat(state, "7S", "8S")
    outcome = ENGINE.outcome(state)
    assert outcome["draw"] and outcome["scores"] == [0.25] * 4 and outcome["places"] == [1] * 4


def test_in_teams_a_transfer_goes_to_the_next_opponent():
    state = scripted([["7S", "KC", "8C"], ["7C", "9D"], [], ["9S", "TS"]], teams=True, mode="perevodnoy",
                     left=[2])
    state, _ = act(state, 0, "attack", "7S")
    state, _ = act(state, 1, "transfer", "7C")
    assert (state["attacker"], state["defender"]) == (1, 0)


# -- forfeits --------------------------------------------------------------------------------------


def test_forfeit_makes_that_player_the_durak_and_everybody_else_a_winner():
    state = started(3)
    before = dumps(state)
    over = ENGINE.forfeit(state, 1)
    assert dumps(state) == before and ENGINE.is_over(over)
    outcome = ENGINE.outcome(over)
    assert outcome["scores"] == [1.0, 0.0, 1.0] and outcome["places"] == [1, 3, 1]
    assert (outcome["durak"], outcome["forfeited"], outcome["winners"]) == (1, 1, [0, 2])
    with pytest.raises(Exception, match="already over"):
        ENGINE.forfeit(over, 0)


def test_in_teams_a_forfeit_loses_the_game_for_the_pair():
    outcome = ENGINE.outcome(ENGINE.forfeit(started(4, teams=True), 3))
    assert outcome["scores"] == [0.5, 0.0, 0.5, 0.0] and outcome["winners"] == [0, 2] and outcome["durak"] == 3


def test_a_player_who_has_left_cannot_forfeit_without_teams():
    state = scripted([[], ["8S"], ["9D", "TD"]], left=[0], attacker=1)
    with pytest.raises(Exception, match="already left"):
        ENGINE.forfeit(state, 0)


# -- clocks and automatic moves --------------------------------------------------------------------


def test_timers_for_the_attacker_the_defender_and_the_throwers():
    state = scripted([["7S", "7D", "KC"], ["9S", "JD", "TD", "8C"], ["9D", "7C", "8S"]])
    assert ENGINE.timers(state) == [{"seat": 0, "clock": "attacker", "expiry": "forfeit", "reserve": True,
                                     "restart": False}]
    state, _ = act(state, 0, "attack", "7S")
    assert ENGINE.timers(state) == [{"seat": 1, "clock": "defender", "expiry": "forfeit", "reserve": True,
                                     "restart": False}]
    state, _ = act(state, 2, "throw", "7C")
    assert ENGINE.timers(state)[0]["restart"] is True and ENGINE.timers(state)[0]["seat"] == 1
    state, _ = beat(state, "7S", "9S")
    assert ENGINE.timers(state)[0]["restart"] is False
    state, _ = act(state, 1, "take")
    assert ENGINE.timers(state) == [{"seat": seat, "clock": "throwers", "expiry": "auto", "reserve": False,
                                     "restart": False} for seat in (0, 2)]
    state, _ = act(state, 0, "throw", "7D")  # the defender is taking: the throwers' clocks restart
    assert [(t["seat"], t["restart"]) for t in ENGINE.timers(state)] == [(0, True), (2, True)]


def test_automatic_moves():
    state = scripted([["7H", "KC", "6H", "9S"], ["TS", "JD"], ["8S", "9C"]], trump="H")
    assert ENGINE.auto_action(state, 0) == {"type": "attack", "cards": ["9S"]}
    with pytest.raises(Exception, match="not your turn"):
        ENGINE.auto_action(state, 1)
    trumps_only = scripted([["7H", "6H"], ["9D", "JD"]], trump="H")
    assert ENGINE.auto_action(trumps_only, 0) == {"type": "attack", "cards": ["6H"]}
    state, _ = act(state, 0, "attack", "9S")
    assert ENGINE.auto_action(state, 1) == {"type": "take"}
    state, _ = act(state, 1, "take", auto=True)
    assert ENGINE.actors(state) == [0, 2] and ENGINE.auto_action(state, 2) == {"type": "done"}
    state, events = ENGINE.apply(state, 2, {"type": "done", "auto": True})
    assert events[0]["auto"] is True and ENGINE.actors(state) == [0]
    state, events = ENGINE.apply(state, 0, {"type": "done", "auto": True})
    assert events[0]["auto"] is True and event_types(events)[1] == "bout_end"


# -- malformed moves -------------------------------------------------------------------------------


@pytest.mark.parametrize("action, fragment", [
    ("attack", "object"),
    ({"cards": ["7S"]}, "Unknown kind"),
    ({"type": "play", "card": "7S"}, "Unknown kind"),
    ({"type": "attack"}, '"cards"'),
    ({"type": "attack", "cards": "7S"}, '"cards"'),
    ({"type": "attack", "cards": []}, '"cards"'),
    ({"type": "attack", "cards": ["2S"]}, "not a card of this game"),
    ({"type": "attack", "cards": [7]}, "not a card of this game"),
    ({"type": "attack", "cards": ["7S"], "extra": 1}, "Unexpected field"),
    ({"type": "take", "cards": ["7S"]}, "Unexpected field"),
    ({"type": "attack", "cards": ["7S"], "auto": "yes"}, '"auto"'),
])
def test_malformed_moves_are_refused_with_a_message(action, fragment):
    state = scripted([["7S", "KC"], ["9S", "6C"]])
    assert fragment in refused(state, 0, action)


def test_moves_from_unknown_seats_are_refused():
    state = scripted([["7S", "KC"], ["9S", "6C"]])
    for seat in (2, -1, "0", None, True):
        assert "no seat" in refused(state, seat, {"type": "attack", "cards": ["7S"]})


def test_beat_needs_both_cards_named():
    state = scripted([["7S", "KC"], ["9S", "6C"]])
    state, _ = act(state, 0, "attack", "7S")
    assert '"attack"' in refused(state, 1, {"type": "beat", "card": "9S"})
    assert '"card"' in refused(state, 1, {"type": "beat", "attack": "7S", "card": "X1"})


# -- views -----------------------------------------------------------------------------------------


def test_the_view_shows_the_own_hand_sorted_trumps_last_and_no_other_hand():
    state = scripted([["AH", "7S", "6H", "KD", "9C"], ["8D", "TC", "QS"]], trump="H", talon=["6S", "7H"])
    view = ENGINE.view(state, 0)
    assert view["hand"] == ["7S", "9C", "KD", "6H", "AH"]
    assert not card_codes_in(view) & set(state["hands"][1])
    assert card_codes_in(view) == set(state["hands"][0]) | {"7H"}  # own cards and the trump card
    spectator = ENGINE.view(state, None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert card_codes_in(spectator) == {"7H"}
    assert "6S" not in json.dumps(view) and str(state["seed"]) not in json.dumps(view)
    assert view["hand_sizes"] == [5, 3] and view["talon"] == 2 and view["discard"] == 36 - 10
    for key in ("trump", "trump_card", "talon", "discard", "roles", "table", "shown_trump", "taken", "actors",
                "bout", "limits", "mode", "teams", "finished", "outcome", "legal_actions"):
        assert key in view
    assert "can_throw" not in view  # what another seat could do is not a seat's to know
    with pytest.raises(ValueError):
        ENGINE.view(state, 5)


def test_the_state_and_the_view_are_plain_json():
    state = started(4, teams=True, mode="perevodnoy")
    assert json.loads(json.dumps(state)) == state
    view = ENGINE.view(state, 2)
    assert json.loads(json.dumps(view)) == view


def test_a_fresh_engine_instance_plays_the_same_game():
    assert DurakEngine().start(3, {}, 99) == ENGINE.start(3, {}, 99)
