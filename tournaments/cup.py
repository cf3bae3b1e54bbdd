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


def match_decisions(tournament: Tournament, round_: Round) -> list[tuple[list[int], matches.Decision]]:
    """Each match of a two-player cup round: [better seed, other] and its decision so far."""
    seeds = dict(tournament.entries.values_list("pk", "number"))
    withdrawn = frozenset(tournament.entries.filter(withdrawn_at__isnull=False).values_list("pk", flat=True))
    games: dict[frozenset[int], list[matches.MatchGame]] = defaultdict(list)
    for table in _tables(round_):
        decider = table.match_game > tournament.games_per_match
        games[frozenset(table.seats)].append(
            matches.MatchGame(pairing.table_places(table), frozenset(table.forfeits), decider))
    decisions = []
    for pair, its_games in games.items():
        ordered = sorted(pair, key=lambda e: seeds[e] or 0)
        decisions.append((ordered, matches.decide(ordered, its_games, seeds, withdrawn)))
    return decisions


def out_of(tournament: Tournament, round_: Round) -> list[int]:
    """The entries of the round's tables who do not go on (an aborted table sends on its best seeds)."""
    if tournament.table_size == 2:
        return [e for pair, decision in match_decisions(tournament, round_) for e in pair if e != decision.winner]
    seeds = dict(tournament.entries.values_list("pk", "number"))
    out = []
    for table in _tables(round_):
        places = pairing.table_places(table) or {pk: 1 for pk in table.seats}
        on = knockout.going_on(places, tournament.advance, seeds, frozenset(table.forfeits))
        out += [pk for pk in table.seats if pk not in on]
    return out


def level_matches(tournament: Tournament, round_: Round) -> list[list[int]]:
    """The round's matches (better seed first) that are level after their games: each plays its decider."""
    if tournament.table_size != 2 or tournament.games_per_match < 2:
        return []
    return [pair for pair, decision in match_decisions(tournament, round_) if decision.needs_decider]
