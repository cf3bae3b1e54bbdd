"""A cup's round-robin groups in the database (the rules: `tournaments.groups`):
forming them at the start, a group round's tables, the group standings, and
the end of the group stage (who goes on, with their seeds in the cup).
`tournaments.rounds` calls it while it starts and ends rounds."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments import groups, standings
from tournaments.models import Entry, Tournament


@dataclass
class Group:
    number: int
    rows: list[standings.Row]


def form(tournament: Tournament, entries: list[Entry]) -> None:
    """Deal the numbered entries (best seed first) into the groups; the group stage's rounds are set."""
    count = groups.group_count(len(entries), tournament.group_size, tournament.table_size)
    dealt = groups.deal(entries, count)
    for number, members in enumerate(dealt, start=1):
        for entry in members:
            entry.group = number
    tournament.group_rounds = max(groups.rounds_of(len(members), tournament.table_size) for members in dealt)


def in_group_stage(tournament: Tournament, number: int) -> bool:
    return tournament.has_groups and number <= tournament.group_rounds


def tables_of_round(tournament: Tournament, number: int, playing: list[Entry]) -> list[list[int]]:
    """Round `number`'s group tables: each group's schedule, without the games of players no longer
    playing (withdrawn)."""
    playing_ids = {e.pk for e in playing}
    members: dict[int, list[int]] = {}
    for entry in tournament.entries.exclude(group=None).order_by("number"):
        members.setdefault(entry.group, []).append(entry.pk)
    return [table for group in sorted(members)
            for table in groups.schedule(members[group], number, tournament.table_size)
            if all(pk in playing_ids for pk in table)]


def group_standings(tournament: Tournament, its_history) -> list[Group]:
    """Each group's standings over its games (the standings engine and the tournament's tie-breaks), from
    the tournament's history (`tournaments.pairing.history`)."""
    if not tournament.has_groups:
        return []
    entries, games, _byes, _tables = its_history
    out = []
    for number in sorted({e.group for e in entries if e.group is not None}):
        members = [e for e in entries if e.group == number]
        ids = {e.pk for e in members}
        players = [standings.Player(e.pk, str(e), e.number or 0, e.rating, bool(e.withdrawn_at)) for e in members]
        its_games = [g for g in games if g.round <= tournament.group_rounds and set(g.places) <= ids]
        rows = standings.standings(players, its_games, [], tournament.group_rounds, tournament.tiebreak_chain,
                                   tournament.table_size)
        out.append(Group(number, rows))
    return out


def close(tournament: Tournament, its_history) -> None:
    """The group stage is over: each group's top `group_advance` go on (a withdrawn player never), seeded
    in the cup by the group results; the others are out in the stage's last round."""
    numbers = dict(tournament.entries.values_list("pk", "number"))
    share, orders = {}, []
    for group in group_standings(tournament, its_history):
        orders.append([row.entry_id for row in group.rows if not row.withdrawn])
        share.update({row.entry_id: row.points / row.played if row.played else 0.0 for row in group.rows})
    seeds = groups.cup_seeding(orders, share, numbers, tournament.group_advance)
    for seed, pk in enumerate(seeds, start=1):
        Entry.objects.filter(pk=pk).update(cup_seed=seed)
    tournament.entries.filter(out_in_round=None).exclude(pk__in=seeds) \
        .update(out_in_round=tournament.group_rounds)


def places(tournament: Tournament, its_history) -> dict[int, tuple[int, float]]:
    """{entry: (place in the group, share of the points possible)}."""
    return {row.entry_id: (row.rank, row.points / row.played if row.played else 0.0)
            for group in group_standings(tournament, its_history) for row in group.rows}
