"""A knockout cup's round read from the database: who goes on from each
match (two-player tables, `tournaments.matches`) or table (3 to 6,
`tournaments.knockout.going_on`), and which matches are level and need
their decider. Queries only; `tournaments.rounds` writes."""

from __future__ import annotations

from collections import defaultdict

from tournaments import knockout, matches, pairing
from tournaments.models import Round, Tournament


def _tables(round_: Round):
    return round_.tables.select_related("game").defer(*pairing.GAME_BULK).prefetch_related("game__seats")


def seeds(tournament: Tournament) -> dict[int, int]:
    """{entry: seed in the cup}: after groups, the seed from the group results; else the starting number."""
    return {pk: cup_seed or number or 0
            for pk, number, cup_seed in tournament.entries.values_list("pk", "number", "cup_seed")}


def match_decisions(tournament: Tournament, round_: Round) -> list[tuple[list[int], matches.Decision]]:
    """Each match of a two-player cup round: [better seed, other] and its decision so far."""
    seed_of = seeds(tournament)
    withdrawn = frozenset(tournament.entries.filter(withdrawn_at__isnull=False).values_list("pk", flat=True))
    games: dict[frozenset[int], list[matches.MatchGame]] = defaultdict(list)
    for table in _tables(round_):
        decider = table.match_game > tournament.games_per_match
        games[frozenset(table.seats)].append(
            matches.MatchGame(pairing.table_places(table), frozenset(table.forfeits), decider))
    decisions = []
    for pair, its_games in games.items():
        ordered = sorted(pair, key=lambda e: seed_of[e])
        decisions.append((ordered, matches.decide(ordered, its_games, seed_of, withdrawn)))
    return decisions


def out_of(tournament: Tournament, round_: Round) -> list[int]:
    """The entries of the round's tables who do not go on (an aborted table sends on its best seeds)."""
    if tournament.table_size == 2:
        return [e for pair, decision in match_decisions(tournament, round_) for e in pair if e != decision.winner]
    seed_of = seeds(tournament)
    out = []
    for table in _tables(round_):
        places = pairing.table_places(table) or {pk: 1 for pk in table.seats}
        on = knockout.going_on(places, tournament.advance, seed_of, frozenset(table.forfeits))
        out += [pk for pk in table.seats if pk not in on]
    return out


def level_matches(tournament: Tournament, round_: Round) -> list[list[int]]:
    """The round's matches (better seed first) that are level after their games: each plays its decider."""
    if tournament.table_size != 2 or tournament.games_per_match < 2:
        return []
    return [pair for pair, decision in match_decisions(tournament, round_) if decision.needs_decider]
