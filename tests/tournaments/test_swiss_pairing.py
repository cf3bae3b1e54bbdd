"""The two-player Swiss pairing through the library (tournaments/swiss.py),
over many random events: never the same opponents twice, never a second
bye, everyone present paired once; the TRF report it reads."""

import random

from hypothesis import given, settings, strategies as st

from tournaments import swiss


def _play(entrants: int, rounds: int, seed: int) -> list[swiss.Player]:
    rng = random.Random(seed)
    players = [swiss.Player(n, 2000 - 10 * n) for n in range(1, entrants + 1)]
    for number in range(1, rounds + 1):
        try:
            pairs = swiss.pair(swiss.parse_trf(swiss.trf_text(players, rounds)))
        except swiss.SwissError:
            # Everyone left has met everyone he could: the service ends the tournament here.
            assert number > 2
            break
        assert sorted(p for pair in pairs for p in pair if p) == list(range(1, entrants + 1))
        for first, second in pairs:
            if not second:
                players[first - 1].results.append(swiss.RoundResult(None, False, swiss.PAIRING_BYE))
                continue
            a, b = rng.choice([(swiss.WIN, swiss.LOSS), (swiss.DRAW, swiss.DRAW), (swiss.LOSS, swiss.WIN)])
            players[first - 1].results.append(swiss.RoundResult(second, True, a))
            players[second - 1].results.append(swiss.RoundResult(first, False, b))
    return players


@settings(max_examples=25, deadline=None)
@given(st.integers(4, 14), st.integers(0, 10**6))
def test_random_events_never_repeat_a_pairing_nor_a_bye(entrants, seed):
    players = _play(entrants, min(swiss.suggested_rounds(entrants), entrants - 1), seed)
    for player in players:
        opponents = [r.opponent for r in player.results if r.opponent is not None]
        assert len(opponents) == len(set(opponents))
        assert sum(r.result == swiss.PAIRING_BYE for r in player.results) <= 1


def test_the_report_is_trf16_with_the_round_count_and_first_colour():
    players = _play(4, 1, seed=1)
    text = swiss.trf_text(players, 3, name="Autumn")
    lines = text.splitlines()
    assert lines[:3] == ["012 Autumn", "XXR 3", "XXC white1"]
    assert all(line.startswith("001 ") and len(line) == 99 for line in lines[3:])


def test_the_suggested_rounds_are_about_log2_plus_one():
    assert [swiss.suggested_rounds(n) for n in (2, 4, 5, 8, 9, 16, 100)] == [2, 3, 4, 4, 5, 5, 8]
