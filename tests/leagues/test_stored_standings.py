"""Stored standings: a division's standings are computed once per change (in
the live push that follows a result) and stored per language; the page and
the sockets read them. Every change to what they show (a result, an
adjudication, a withdrawal, an annulment) makes the page show it, and a
page view computes nothing unless the stored standings are stale."""

import re

import pytest

from gameplay import services as game_services
from leagues import live, services, stored_standings
from leagues.models import Division, Entry, Fixture, League, StoredStandings
from moderation.services.games import adjudicate_game
from tests.gameplay.conftest import client_for
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"ss{i}", password="pw-not-used-1", language="en",
                                                  display_name=f"Stored {i}") for i in range(4)]


def running_division(people, count: int = 3, **league_settings) -> Division:
    """A started two-player Durak league, everyone meets everyone, all games at once."""
    league = services.create_league(people[0], name="Stored Durak", engine="durak", players=2, division_size=8,
                                    **league_settings)
    season = league.seasons.get()
    for user in people[:count]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    return Division.objects.get(season=season)


def rows_shown(client, division: Division) -> dict[str, list[str]]:
    """{player's name: [rank, name cell, played, left, points, ...]} as the division page shows them."""
    page = client.get(division.get_absolute_url()).content.decode()
    table = page.split('<table class="list standings">', 1)[1].split("</table>", 1)[0]
    rows = {}
    for body in re.findall(r'<tr data-entry="\d+"[^>]*>(.*?)</tr>', table, re.S):
        cells = [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", body, re.S)]
        rows[cells[1].split(" (")[0]] = cells
    return rows


def played(client, division: Division) -> dict[str, int]:
    return {name: int(cells[2]) for name, cells in rows_shown(client, division).items()}


def games_of(division: Division, user) -> list[Fixture]:
    entry = Entry.objects.get(division=division, user=user)
    return [f for f in Fixture.objects.filter(division=division).order_by("round", "pk") if entry.pk in f.seats]


def no_recomputing(monkeypatch) -> None:
    """From here on, computing standings fails the test: whatever shows them must read them."""
    def refuse(division):
        raise AssertionError("the standings were computed again")

    monkeypatch.setattr(stored_standings, "division_standings", refuse)


def test_a_page_view_reads_the_stored_standings_and_computes_nothing(people, monkeypatch):
    division = running_division(people)
    client = client_for(people[3])
    first = rows_shown(client, division)  # computed once (nothing stored since the draw) and stored
    assert set(StoredStandings.objects.filter(division=division).values_list("language", flat=True)) == {"ru", "en"}
    no_recomputing(monkeypatch)
    assert rows_shown(client, division) == first
    assert rows_shown(client_for(people[1]), division) == first


def test_the_push_after_a_result_stores_the_standings_the_page_then_shows(people, monkeypatch,
                                                                          django_capture_on_commit_callbacks):
    division = running_division(people)
    client = client_for(people[3])
    assert set(played(client, division).values()) == {0}
    fixture = games_of(division, people[1])[0]
    with django_capture_on_commit_callbacks(execute=True):  # the push runs (Celery is eager in the tests)
        game_services.resign(fixture.game_id, people[1])
    no_recomputing(monkeypatch)
    shown = played(client, division)
    assert shown["Stored 1"] == 1 and sum(shown.values()) == 2


def test_a_result_whose_push_was_lost_is_shown_all_the_same(people, monkeypatch,
                                                            django_capture_on_commit_callbacks):
    """The database is the truth: a stale stored row (its task lost with Redis) is computed again by the page."""
    division = running_division(people)
    client = client_for(people[3])
    played(client, division)
    monkeypatch.setattr("leagues.live.queue_push", lambda division_id: None)
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(games_of(division, people[1])[0].game_id, people[1])
    assert played(client, division)["Stored 1"] == 1
    version = Division.objects.get(pk=division.pk).standings_version
    assert set(StoredStandings.objects.filter(division=division).values_list("version", flat=True)) == {version}


def test_an_adjudication_changes_what_the_page_shows(people, django_user_model, django_capture_on_commit_callbacks):
    moderator = django_user_model.objects.create_superuser("ss-moderator", password="pw-not-used-1")
    division = running_division(people, count=2)
    client = client_for(people[3])
    assert played(client, division) == {"Stored 0": 0, "Stored 1": 0}
    fixture = Fixture.objects.get(division=division)
    winner = next(s.position for s in fixture.game.seats.all() if s.user_id == people[1].pk)
    with django_capture_on_commit_callbacks(execute=True):
        adjudicate_game(fixture.game_id, moderator, "Agreed", {"places": [1 if p == winner else 2 for p in range(2)]})
    rows = rows_shown(client, division)
    assert [cells[1] for cells in sorted(rows.values(), key=lambda cells: cells[0])] == ["Stored 1", "Stored 0"]
    assert {name: cells[2] for name, cells in rows.items()} == {"Stored 0": "1", "Stored 1": "1"}


def test_a_withdrawal_changes_what_the_page_shows(people, django_capture_on_commit_callbacks):
    # Not annulled: by default a player who withdraws before finishing half his games is (issue 24).
    division = running_division(people, annul_below_half=False)
    client = client_for(people[3])
    assert "(withdrew)" not in str(rows_shown(client, division))
    entry = Entry.objects.get(division=division, user=people[2])
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(entry.pk, people[2])
    rows = rows_shown(client, division)
    assert "(withdrew)" in rows["Stored 2"][1]
    assert rows["Stored 2"][2].startswith("2")  # his two games resigned: lost, played
    assert "2 lost by forfeit" in rows["Stored 2"][2]


def test_an_annulment_changes_what_the_page_shows(people, django_capture_on_commit_callbacks):
    """Withdrawing with fewer than half his games played (the rest lost by
    forfeit): his results are annulled and the page says so. (Where a computer
    finishes his games in his name nothing is annulled: issue 37.)"""
    division = running_division(people, count=4, annul_below_half=True, on_withdrawal=League.OnWithdrawal.LOSSES)
    client = client_for(people[3])
    first = games_of(division, people[2])[0]
    with django_capture_on_commit_callbacks(execute=True):
        game_services.resign(first.game_id, people[2])
    assert "annulled" not in str(rows_shown(client, division))
    entry = Entry.objects.get(division=division, user=people[2])
    with django_capture_on_commit_callbacks(execute=True):
        services.withdraw(entry.pk, people[2])
    rows = rows_shown(client, division)
    assert "(withdrew: results annulled)" in rows["Stored 2"][1]


def test_a_socket_resync_reads_the_stored_standings(people, monkeypatch):
    division = running_division(people)
    live.push_standings(division.pk)
    no_recomputing(monkeypatch)
    message = live.current(division.pk, "en")
    assert message["type"] == "standings" and "Stored 0" in message["html"]
    assert message["stamp"] == StoredStandings.objects.get(division=division, language="en").computed_at.timestamp()


def test_the_stored_standings_are_in_each_language(people):
    division = running_division(people)
    stored = stored_standings.refresh(Division.objects.select_related("season__league").get(pk=division.pk))
    assert "Played" in stored["en"].html and "Сыграно" in stored["ru"].html
