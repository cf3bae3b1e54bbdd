"""Random domino Poker games (Hypothesis): invariants checked after every move.

- Tiles are conserved: hands + undealt + played this deal make the whole set
  (stage 5: the row is the whole set and each player's tile comes from it).
- Only legal moves are accepted: a random move that is not in
  ``legal_actions`` is refused and changes nothing; ``apply`` never changes
  its input.
- No leaks: no view (spectator's included) holds a tile that seat may not
  know: another player's tile, an undealt tile, a face-down tile of the
  row, one's own tiles in a blind deal's bidding; nor another player's
  stage-5 choice before the reveal.
- The game ends within the schedule's number of moves, with totals equal to
  the deals' points and the places ordered by the totals; a game replays
  from its seed and its moves.
"""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import IllegalMove
from gameplay.engine.domino_poker_rules import deal_schedule
from gameplay.engine.dominoes import make_set

from .domino_poker_helpers import ENGINE, tile_codes_in

SEEDS = st.integers(min_value=0, max_value=2**62)
CHOICES = st.integers(min_value=0, max_value=2**32).map(random.Random)
OPTIONS = st.fixed_dictionaries({
    "sevens": st.integers(0, 2),
    "blind_deals": st.integers(0, 2),
    "grab_deals": st.integers(0, 2),
    "misere_deals": st.integers(0, 2),
    "final_stage": st.booleans(),
})
ALL_TILES = sorted(make_set())
AUTO_SHARE = 0.2


def dumps(data: object) -> str:
    return json.dumps(data, sort_keys=True)


def max_moves(players: int, options: dict) -> int:
    """Every bid and every tile played, and stage 5's pick and choices."""
    total = 0
    for deal in deal_schedule(players, options):
        if deal["kind"] == "final":
            total += 1 + players
        else:
            total += players * deal["tiles"] + (players if deal["bidding"] else 0)
    return total


def check_tiles_conserved(state: dict) -> None:
    if state["kind"] == "final":
        assert sorted(state["row"]) == ALL_TILES
        if state["positions"] is not None:
            assert state["hands"] == [[state["row"][position]] for position in state["positions"]]
        return
    held = [tile for hand in state["hands"] for tile in hand]
    assert sorted(held + state["rest"] + state["played"]) == ALL_TILES
    trick_size = len(state["trick"])
    played_tricks = (len(state["played"]) - trick_size) // state["players"]
    for seat, hand in enumerate(state["hands"]):
        in_trick = any(play["seat"] == seat for play in state["trick"])
        assert len(hand) == state["tiles"] - played_tricks - in_trick


def public_tiles(state: dict) -> set[str]:
    public = {item["tile"] for draw in state["draw"] for item in draw}
    for record in state["history"]:
        if record["kind"] == "final":
            public |= {record["pick"]["tile"]} | {tile for tile in record["shown"] if tile}
    if state["kind"] == "final":
        if state["pick"]:
            public.add(state["pick"]["tile"])
    else:
        public |= set(state["played"])
    if state["last_trick"]:
        public |= {play["tile"] for play in state["last_trick"]["plays"]}
    return public


def own_tiles(state: dict, seat: int | None) -> set[str]:
    if seat is None:
        return set()
    if state["kind"] == "blind" and state["phase"] == "bid":
        return set()
    return set(state["hands"][seat])


def check_no_leaks(state: dict) -> None:
    public = public_tiles(state)
    for seat in [None, *range(state["players"])]:
        view = ENGINE.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        assert "seed" not in view and "row" not in view and "rest" not in view
        seen = tile_codes_in(view)
        assert seen <= public | own_tiles(state, seat), f"seat {seat} sees {seen - public - own_tiles(state, seat)}"
        if state["phase"] == "reveal":
            assert all(choice is None for other, choice in enumerate(view["choices"]) if other != seat)
    assert tile_codes_in(ENGINE.sheet(state)) <= public


def check_illegal_refused(state: dict, choices: random.Random) -> None:
    seat = choices.randrange(state["players"])
    legal = ENGINE.legal_actions(state, seat)
    candidates = [{"type": "play", "tile": choices.choice(ALL_TILES)},
                  {"type": "bid", "tricks": choices.randrange(-1, 9)},
                  {"type": "pick", "index": choices.randrange(-1, 29), "direction": choices.choice(["left", "right"])},
                  {"type": "reveal", "show": choices.choice([True, False])}]
    action = choices.choice(candidates)
    if action in legal:
        return
    before = dumps(state)
    try:
        ENGINE.apply(state, seat, action)
    except IllegalMove:
        assert dumps(state) == before
    else:
        raise AssertionError(f"seat {seat} made an illegal move {action}")


def play_out(players: int, options: dict, seed: int, choices: random.Random) -> tuple[dict, list]:
    state = ENGINE.start(players, options, seed)
    start, moves = state, []
    limit = max_moves(players, options)
    while not ENGINE.is_over(state):
        assert len(moves) < limit
        check_tiles_conserved(state)
        check_no_leaks(state)
        check_illegal_refused(state, choices)
        actors = ENGINE.actors(state)
        assert actors and [timer["seat"] for timer in ENGINE.timers(state)] == actors
        seat = choices.choice(actors)
        if choices.random() < AUTO_SHARE:
            action = {**ENGINE.auto_action(state, seat), "auto": True}
        else:
            action = choices.choice(ENGINE.legal_actions(state, seat))
        assert {key: value for key, value in action.items() if key != "auto"} in ENGINE.legal_actions(state, seat)
        before = dumps(state)
        state, events = ENGINE.apply(state, seat, action)
        assert dumps(state) != before and json.loads(json.dumps(events)) == events
        if action["type"] == "reveal":
            assert events[0] == {"type": "committed", "seat": seat, "phase": "reveal"}
        moves.append((seat, action))
    return start, moves, state


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), options=OPTIONS, seed=SEEDS, choices=CHOICES)
def test_random_games_keep_every_invariant_and_end(players, options, seed, choices):
    start, moves, state = play_out(players, options, seed, choices)
    schedule = deal_schedule(players, options)
    assert len(state["history"]) == len(schedule)
    assert len(moves) == max_moves(players, options)
    outcome = ENGINE.outcome(state)
    assert outcome["scores"] == [sum(record["points"][seat] for record in state["history"]) for seat in range(players)]
    for a in range(players):
        for b in range(players):
            if outcome["scores"][a] > outcome["scores"][b]:
                assert outcome["places"][a] < outcome["places"][b]
    sheet = ENGINE.sheet(state)
    assert sheet["totals"] == outcome["scores"]
    assert [row["deal"] for stage in sheet["stages"] for row in stage["rows"]] == [d["deal"] for d in schedule]
    replayed = ENGINE.start(players, options, seed)
    for seat, action in moves:
        replayed, _ = ENGINE.apply(replayed, seat, action)
    assert dumps(replayed) == dumps(state)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=SEEDS, choices=CHOICES, cut=st.integers(0, 200))
def test_a_forfeit_at_any_point_ends_the_game_with_the_player_last(players, seed, choices, cut):
    options = {"sevens": 0, "final_stage": True}
    state = ENGINE.start(players, options, seed)
    for _ in range(cut):
        if ENGINE.is_over(state):
            break
        seat = choices.choice(ENGINE.actors(state))
        state, _ = ENGINE.apply(state, seat, choices.choice(ENGINE.legal_actions(state, seat)))
    loser = choices.randrange(players)
    if ENGINE.is_over(state):  # the game ended on its own first (at the cut or before): too late to forfeit
        try:
            ENGINE.forfeit(state, loser)
        except IllegalMove:
            return
        raise AssertionError("a game that is over was forfeited")
    ended = ENGINE.forfeit(state, loser)
    assert ENGINE.is_over(ended) and ENGINE.actors(ended) == [] and ENGINE.timers(ended) == []
    outcome = ENGINE.outcome(ended)
    assert outcome["places"][loser] == players and outcome["forfeited"] == loser
    check_no_leaks(ended)
