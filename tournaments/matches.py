"""Knockout cup matches at two-player tables: one game, or several. Pure
Python, no Django.

A match of `games` games puts all of them in play at once when its round
starts (as correspondence chess plays a match's games side by side), each
on its own clock; who sits first (leads or deals first, "White" in the
Swiss pairing) alternates: the better seed sits first in games 1, 3, 5 …,
the other player in games 2, 4, 6 …

Who goes on:
1. A player withdrawn from the tournament (who left, or reached its
   number of forfeits) loses the match; if both are, neither goes on.
2. Otherwise the most points over the match's games goes on, each game
   scored as in the standings (a win 1, a draw ½, a loss 0). A forfeit (a
   game lost on time, or not begun in the start window) is a lost game,
   its opponent's win; a void game (aborted) gives neither anything.
3. Level after the match's games: a match of two games or more plays one
   decider game once its games are over, the lower seed sitting first
   (the better seed already has rule 4 if it is drawn too); its winner
   goes on. A one-game match plays no decider.
4. Still level (a one-game match drawn or void, a decider drawn or void):
   the better seed goes on.

The round is over, and the next one paired, only when every match of it is
decided: after the last of its games, or after its deciders.

Worked example (tests/tournaments/test_cup_matches.py): a match of two
games between seed 1 (A) and seed 8 (B). Game 1, A sits first, A wins;
game 2, B sits first, B wins: 1–1, a decider with B first; B wins it and
goes on. Had A forfeited game 2 (run out of time), the same 1–1 and the
same decider; had A forfeited twice (the tournament's default limit), A
would be withdrawn and B go on at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoresheets.standings import PointsRule


@dataclass(frozen=True)
class MatchGame:
    places: Mapping[int, int] | None  # entry id -> place (1 best); None: not finished, or void
    forfeits: frozenset[int] = frozenset()
    decider: bool = False


@dataclass(frozen=True)
class Decision:
    winner: int | None  # None: nobody goes on, or not decided yet
    needs_decider: bool = False


def seats_of_game(better: int, worse: int, number: int, games: int) -> list[int]:
    """Who sits where in game `number` of a match of `games` (after them, the decider)."""
    if number > games:  # the decider: the lower seed first
        return [worse, better]
    return [better, worse] if number % 2 == 1 else [worse, better]


def game_points(game: MatchGame) -> dict[int, Fraction]:
    """Each player's points in one game: a forfeiter loses it, his opponent wins it."""
    if game.places is None:
        return {}
    if game.forfeits:
        return {e: Fraction(0) if e in game.forfeits else Fraction(1) for e in game.places}
    return PointsRule().game_points(dict(game.places))


def match_points(pair: Sequence[int], games: Sequence[MatchGame]) -> dict[int, Fraction]:
    """Each player's points over the match's games (not its decider)."""
    total = {e: Fraction(0) for e in pair}
    for game in games:
        if not game.decider:
            for entry, value in game_points(game).items():
                total[entry] = total.get(entry, Fraction(0)) + value
    return total


def decide(pair: Sequence[int], games: Sequence[MatchGame], seed_of: Mapping[int, int],
           withdrawn: frozenset[int] = frozenset()) -> Decision:
    """Who goes on from a match whose games (and decider, if played) are over."""
    better, worse = sorted(pair, key=lambda e: seed_of[e])
    if better in withdrawn or worse in withdrawn:
        still_in = [e for e in (better, worse) if e not in withdrawn]
        return Decision(still_in[0] if still_in else None)
    points = match_points(pair, games)
    if points[better] != points[worse]:
        return Decision(better if points[better] > points[worse] else worse)
    regular = [g for g in games if not g.decider]
    deciders = [g for g in games if g.decider]
    if len(regular) >= 2 and not deciders:
        return Decision(None, needs_decider=True)
    for decider in deciders:
        scores = game_points(decider)
        if scores and scores[better] != scores[worse]:
            return Decision(better if scores[better] > scores[worse] else worse)
    return Decision(better)
