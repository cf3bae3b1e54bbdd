"""`manage.py pair_round --trf FILE`: a FIDE TRF-16 report in, the next
round's pairing out in the library's (and bbpPairings') format."""

import pytest
from django.core.management import CommandError, call_command

from tournaments import swiss

# Round 1 of six players: 1 beat 4, 5 beat 2, 3 and 6 drew.
REPORT = """012 Test open
XXR 5
XXC white1
001    1      Alpha                             2100                             1.0    1     4 w 1
001    2      Beta                              2000                             0.0    5     5 b 0
001    3      Gamma                             1900                             0.5    3     6 w =
001    4      Delta                             1800                             0.0    6     1 b 0
001    5      Epsilon                           1700                             1.0    2     2 w 1
001    6      Zeta                              1600                             0.5    4     3 b =
"""


def test_it_prints_the_next_rounds_pairing_in_the_librarys_format(tmp_path, capsys):
    path = tmp_path / "open.trf"
    path.write_text(REPORT, encoding="utf-8")
    call_command("pair_round", "--trf", str(path))
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "3"
    pairs = [tuple(map(int, line.split())) for line in out[1:]]
    assert sorted(p for pair in pairs for p in pair) == [1, 2, 3, 4, 5, 6]
    # the two winners meet; nobody meets his round-1 opponent again
    assert frozenset({1, 5}) in {frozenset(p) for p in pairs}
    assert not {frozenset(p) for p in pairs} & {frozenset({1, 4}), frozenset({2, 5}), frozenset({3, 6})}
    assert "\n".join(out) + "\n" == swiss.pairing_text(swiss.pair(swiss.read_trf(path)))


def test_a_round_with_an_odd_player_prints_his_bye_as_a_pair_with_zero(tmp_path, capsys):
    path = tmp_path / "odd.trf"
    # Player 6 gone; player 3 had the pairing-allocated bye in round 1 instead of his draw.
    text = REPORT.replace("     6 w =", "  0000 - U").replace("0.5    3", "1.0    3")
    lines = [line for line in text.splitlines() if not line.startswith("001    6")]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    call_command("pair_round", "--trf", str(path))
    pairs = [tuple(map(int, line.split())) for line in capsys.readouterr().out.splitlines()[1:]]
    byes = [a for a, b in pairs if b == 0]
    assert len(byes) == 1 and byes[0] != 3  # player 3 already had the bye


def test_a_missing_or_broken_report_is_a_clear_error(tmp_path):
    with pytest.raises(CommandError, match="No such file"):
        call_command("pair_round", "--trf", str(tmp_path / "none.trf"))
    broken = tmp_path / "broken.trf"
    broken.write_text("001    1      Alpha   nonsense\n", encoding="utf-8")
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("pair_round", "--trf", str(broken))
