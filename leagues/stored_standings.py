"""A division's standings computed once per change, not once per page view.

Every change to what a division's standings show (a league game's result,
an adjudication, an abort, a withdrawal and with it an annulment, a
substitution crediting another entry, a schedule drawn) calls `changed` in
its own transaction: it raises `Division.standings_version`. After the
commit the live push (`leagues.live.push_standings`, a Celery task) calls
`refresh`: it reads the standings once, renders the standings part of the
page once per language and stores each as a `StoredStandings` row of the
version it read, before it sends them to the open pages.

A page view (and a socket's resync) calls `read`: one query for its
language's row. A row of an older version (the push not run yet, its task
lost with Redis, a race between two pushes) is stale: `read` then computes
and stores the standings itself, so the page never shows standings older
than the database's, whatever happened to the task.

Why the version is read before the standings: a change committed between
the two reads makes the stored row look older than its data, which costs a
recomputation; the other order could label old data with the new version.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone, translation

from leagues.models import Division, Entry, Fixture, StoredStandings
from leagues.standings import DivisionStandings, division_standings
from scoresheets.standings_view import standings_table


def changed(division_id: int) -> None:
    """Inside the transaction that changes what the division's standings show."""
    Division.objects.filter(pk=division_id).update(standings_version=F("standings_version") + 1)


def refresh(division: Division) -> dict[str, StoredStandings]:
    """Compute the division's standings once, render them in every language
    and store them: {language: row}. `division` with its season and league."""
    version = Division.objects.filter(pk=division.pk).values_list("standings_version", flat=True).first()
    if version is None:
        return {}
    standings = division_standings(division)
    rounds = sorted({f.round for f in standings.fixtures})
    current_round = _first_round_not_over(standings, rounds)
    now = timezone.now()
    stored = [StoredStandings(division=division, language=language, version=version, html=render(standings, language),
                              rounds=rounds, current_round=current_round, computed_at=now)
              for language, _name in settings.LANGUAGES]
    StoredStandings.objects.bulk_create(stored, update_conflicts=True, unique_fields=["division", "language"],
                                        update_fields=["version", "html", "rounds", "current_round", "computed_at"])
    return {row.language: row for row in stored}


def read(division: Division, language: str) -> StoredStandings:
    """The division's standings in `language` (one of settings.LANGUAGES) as
    stored, or computed and stored now if they are missing or stale.
    `division` with its season and league, read in this request."""
    row = StoredStandings.objects.filter(division=division, language=language).first()
    if row is not None and row.version == division.standings_version:
        return row
    fresh = refresh(division)
    return fresh.get(language) or next(iter(fresh.values()))


def render(standings: DivisionStandings, language: str) -> str:
    """The standings part of the division's page, in `language`."""
    with translation.override(language):
        return render_to_string("leagues/_standings.html", {
            "division": standings.division, "season": standings.division.season,
            "league": standings.division.season.league, "table": standings_table(standings)})


def round_fixtures(division: Division, round_number: int | None) -> list[Fixture]:
    """One round of the division's schedule, each fixture with its game's
    status and `names` (its entries', in seat order): two queries, whatever
    the number of rounds."""
    if round_number is None:
        return []
    fixtures = list(Fixture.objects.filter(division=division, round=round_number).select_related("game")
                    .only("id", "division_id", "round", "seats", "credits", "game_id", "game__id", "game__status")
                    .order_by("pk"))
    wanted = {pk for fixture in fixtures for pk in fixture.seats}
    entries = {e.pk: str(e) for e in Entry.objects.filter(pk__in=wanted).select_related("user", "partner")}
    for fixture in fixtures:
        fixture.names = [entries.get(pk, "?") for pk in fixture.seats]
    return fixtures


def _first_round_not_over(standings: DivisionStandings, rounds: list[int]) -> int | None:
    """The first round with a table still to play: a table never started
    because a player at it has left is settled, not waiting."""
    for fixture in standings.fixtures:  # in round order
        if fixture.game is not None and fixture.game.is_over:
            continue
        if fixture.game is None and any(standings.entries[pk].withdrawn_at for pk in fixture.seats
                                        if pk in standings.entries):
            continue
        return fixture.round
    return rounds[-1] if rounds else None
