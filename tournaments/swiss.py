"""Swiss pairing of two-player tables through a maintained library.

The pairing is py4swiss's FIDE Dutch system (tested by its authors against
bbpPairings), fed a FIDE TRF-16 report of the tournament so far: the same
input any other pairing program reads, so a round can be checked against
them (`manage.py pair_round --trf FILE`). "White" is the player who sits
first (seat 0: he leads or deals first); a pairing-allocated bye is the
library's, so it goes by the FIDE rules to a player of the lowest score
group who has not had one (never twice: a bye already taken is in the
report as "U").

Pure Python, no Django: `tournaments.pairing` hands in the players' history.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from py4swiss.engines import DutchEngine
from py4swiss.engines.common import PairingError
from py4swiss.trf import ParsedTrf, TrfParser

# Result tokens of TRF-16 used by the tournaments.
WIN, DRAW, LOSS = "1", "=", "0"
FORFEIT_WIN, FORFEIT_LOSS = "+", "-"
PAIRING_BYE, HALF_BYE, ABSENT = "U", "H", "Z"
POINTS_TIMES_TEN = {WIN: 10, DRAW: 5, LOSS: 0, FORFEIT_WIN: 10, FORFEIT_LOSS: 0,
                    PAIRING_BYE: 10, HALF_BYE: 5, ABSENT: 0}


class SwissError(ValueError):
    """The round cannot be paired (or the report cannot be read)."""


@dataclass(frozen=True)
class RoundResult:
    """One round of a player: his opponent's starting number (None: a bye or
    no game), whether he sat first, and the TRF result token."""

    opponent: int | None
    first: bool
    result: str

    def trf(self) -> str:
        if self.opponent is None:
            return f"0000 - {self.result}"
        return f"{self.opponent:>4} {'w' if self.first else 'b'} {self.result}"


@dataclass
class Player:
    number: int  # starting number, 1..n (best rating first)
    rating: int = 0
    results: list[RoundResult] = field(default_factory=list)

    @property
    def points_times_ten(self) -> int:
        return sum(POINTS_TIMES_TEN[r.result] for r in self.results)


def trf_text(players: list[Player], rounds: int, name: str = "Tournament") -> str:
    """A TRF-16 report (with the javafo extension lines XXR and XXC) of these
    players. A player who must not be paired in the next round (withdrawn,
    or given a bye in advance) has one result more than the others."""
    lines = [f"012 {name[:60]}", f"XXR {rounds}", "XXC white1"]
    for p in sorted(players, key=lambda p: p.number):
        points = p.points_times_ten
        head = (f"001 {p.number:>4} {'':1}{'':>3} {'P' + str(p.number):<33} {max(0, min(p.rating, 9999)):>4} "
                f"{'':>3} {'':>11} {'':>10} {points // 10:>2}.{points % 10} {p.number:>4}")
        lines.append(head + "".join("  " + r.trf() for r in p.results))
    return "\n".join(lines) + "\n"


def parse_trf(text: str) -> ParsedTrf:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "tournament.trf"
        path.write_text(text, encoding="utf-8")
        return read_trf(path)


def read_trf(path: Path) -> ParsedTrf:
    try:
        return TrfParser.parse(path, strict=True)
    except Exception as exc:  # the library raises its own errors, pydantic's and ValueError
        raise SwissError(f"Cannot read the report: {exc}") from None


def pair(trf: ParsedTrf) -> list[tuple[int, int]]:
    """The next round: (first, second) starting numbers per table, best table
    first; (n, 0) is the pairing-allocated bye of player n."""
    try:
        pairings = DutchEngine.generate_pairings(trf)
    except PairingError as exc:
        raise SwissError(f"The round cannot be paired: {exc}") from None
    return [(p.white, p.black) for p in pairings]


def pairing_text(pairs: list[tuple[int, int]]) -> str:
    """The library's output format (bbpPairings' too): the number of pairs, then one pair a line."""
    return f"{len(pairs)}\n" + "".join(f"{a} {b}\n" for a, b in pairs)


def suggested_rounds(entrants: int) -> int:
    """About log2(n) + 1 rounds for n entrants at two-player tables (at least 1)."""
    rounds, size = 1, 1
    while size < entrants:
        size *= 2
        rounds += 1
    return max(1, rounds)
