"""Tables and reference computations shared by the standings and tie-break
tests: entries A, B, C... with ids 1, 2, 3..., games from their finishing
order, and the definitions of points and Sonneborn-Berger computed the slow
and obvious way."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from scoresheets.standings import TIEBREAKS, Entry, GameResult, PointsRule, Row

A, B, C, D, E = 1, 2, 3, 4, 5


def entries(*ids: int, **withdrawn: bool) -> list[Entry]:
    return [Entry(i, "ABCDEF"[i - 1], withdrawn=withdrawn.get("ABCDEF"[i - 1], False)) for i in ids]


def game(game_id: int, *order: int | tuple[int, ...], scores: dict | None = None, last: int | None = None) -> GameResult:
    """A game from its finishing order: a tuple of ids shares one place."""
    places = {}
    for place, group in enumerate(order, start=1):
        for entry in group if isinstance(group, tuple) else (group,):
            places[entry] = place
    return GameResult(game_id, places, scores or {}, last)


def by_id(rows: list[Row]) -> dict[int, Row]:
    return {row.entry_id: row for row in rows}


FOUR_PLAYER_GAMES = [
    game(1, A, (B, C), D),   # A 1;  B, C share 2nd-3rd: (2/3 + 1/3) / 2 = 1/2;  D 0
    game(2, D, C, B, A),     # D 1;  C 2/3;  B 1/3;  A 0
    game(3, (A, B), (C, D)),  # A, B share 1st-2nd: (1 + 2/3) / 2 = 5/6;  C, D: (1/3 + 0) / 2 = 1/6
]


CYCLE = [game(1, A, B), game(2, B, C), game(3, C, A)]  # each wins once and loses once


def reference_points(games: list[GameResult], rule: PointsRule) -> dict[int, Fraction]:
    """League points straight from the definition: each entry's place range, averaged."""
    totals: dict[int, Fraction] = {}
    for g in games:
        n = len(g.places)
        values = ([Fraction(n - 1 - i, n - 1) for i in range(n)] if rule.per_place is None
                  else [Fraction(str(v)) for v in rule.per_place[:n]])
        for entry, place in g.places.items():
            better = sum(1 for p in g.places.values() if p < place)
            level = sum(1 for p in g.places.values() if p == place)
            totals[entry] = totals.get(entry, Fraction(0)) + sum(values[better:better + level]) / level
    return totals


def reference_sonneborn_berger(games: list[GameResult], points: dict[int, Fraction]) -> dict[int, Fraction]:
    totals: dict[int, Fraction] = {}
    for g in games:
        for entry, place in g.places.items():
            for other, other_place in g.places.items():
                if other != entry:
                    result = 1 if place < other_place else Fraction(1, 2) if place == other_place else 0
                    totals[entry] = totals.get(entry, Fraction(0)) + points[other] * result
    return totals


@st.composite
def tables(draw):
    count = draw(st.integers(2, 7))
    ids = list(range(1, count + 1))
    ratings = draw(st.lists(st.sampled_from([1400.0, 1500.0]), min_size=count, max_size=count))
    withdrawn = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    table_entries = [Entry(i, f"P{i}", ratings[i - 1], withdrawn[i - 1] and i % 3 == 0) for i in ids]
    games = []
    for game_id in range(draw(st.integers(0, 14))):
        players = draw(st.lists(st.sampled_from(ids), min_size=2, max_size=min(6, count), unique=True))
        places = {p: draw(st.integers(1, len(players))) for p in players}
        scores = {p: float(draw(st.integers(-2, 3))) for p in players}
        last = draw(st.sampled_from([None, *players]))
        games.append(GameResult(game_id, places, scores, last))
    played = {i: sum(1 for g in games if i in g.places) for i in ids}
    extra = draw(st.lists(st.integers(0, 3), min_size=count, max_size=count))
    schedule = {i: played[i] + extra[i - 1] for i in ids}
    chain = draw(st.permutations(TIEBREAKS).flatmap(
        lambda keys: st.integers(0, len(keys)).map(lambda k: tuple(keys[:k]))))
    rule = draw(st.sampled_from([PointsRule(), PointsRule((3, 2, 1, 1, 0.5, 0))]))
    annul = draw(st.booleans())
    return table_entries, games, schedule, chain, rule, annul
