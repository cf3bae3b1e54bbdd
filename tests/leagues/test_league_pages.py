"""League pages: the list, creating a league, registering, the organizer's
steps, the season, the division's standings with its why-lines, cross-table
and CSV, and their query counts."""

import csv
import re
import io

import pytest
from django.test import Client

from gameplay import services as game_services
from leagues import drawing, services
from leagues.models import Division, Entry, Fixture, Invitation, League
from tests.gameplay.conftest import client_for
from tests.leagues.conftest import start

pytestmark = pytest.mark.django_db

FORM = {"name": "Friday Durak", "engine": "durak", "players": 2, "durak_mode": "podkidnoy", "time_preset": "correspondence",
        "on_timeout": "autoplay", "meetings": 1, "division_size": 8, "start": "all", "promotion": 1, "relegation": 1,
        "annul_below_half": "on", "tiebreak_1": "wins", "tiebreak_2": "sonneborn_berger", "tiebreak_3": "direct",
        "tiebreak_4": "game_score", "tiebreak_5": "lot"}


@pytest.fixture
def people(django_user_model):
    return [django_user_model.objects.create_user(f"pg{i}", password="pw-not-used-1", language="en",
                                                  display_name=f"Player {i}") for i in range(6)]


def test_a_player_creates_a_league_through_the_form(people):
    client = client_for(people[0])
    assert client.get("/leagues/new/").status_code == 200
    response = client.post("/leagues/new/", FORM)
    league = League.objects.get()
    assert response.status_code == 302 and response.url == "/leagues/friday-durak/"
    assert league.tiebreak_chain == ["wins", "sonneborn_berger", "direct", "game_score", "lot"]
    assert league.options["mode"] == "podkidnoy" and league.options["teams"] is False


def test_bad_league_settings_are_explained_on_the_form(people):
    client = client_for(people[0])
    response = client.post("/leagues/new/", {**FORM, "points_per_place": "one, zero"})
    assert response.status_code == 400 and "Write numbers separated by commas" in response.content.decode()
    response = client.post("/leagues/new/", {**FORM, "points_per_place": "0, 1"})
    assert response.status_code == 400 and "never more for a lower place" in response.content.decode()
    assert not League.objects.exists()


def test_players_register_on_the_league_page_and_the_organizer_starts_the_season(people):
    league = services.create_league(people[0], name="Durak", engine="durak", players=2)
    for user in people[:4]:
        client = client_for(user)
        assert "Register for this season" in client.get(league.get_absolute_url()).content.decode()
        client.post("/leagues/durak/1/register/")
    assert Entry.objects.count() == 4
    refused = client_for(people[1]).post("/leagues/durak/1/run/start/", follow=True)
    assert "Only the league" in refused.content.decode()
    client_for(people[0]).post("/leagues/durak/1/run/start/")
    drawing.draw_season(league.seasons.get().pk)  # its task, after the commit
    assert Fixture.objects.exclude(game=None).count() == 6
    page = client_for(people[1]).get("/").content.decode()
    assert "Durak, season 1, round" in page  # league games are marked in "my games"


def test_the_division_page_shows_standings_why_lines_a_cross_table_and_csv(people):
    league = services.create_league(people[0], name="Durak", engine="durak", players=2)
    season = league.seasons.get()
    for user in people[:3]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    users = {e.pk: e.user for e in Entry.objects.all()}
    for fixture in Fixture.objects.all():
        a, b = (users[pk] for pk in fixture.seats)
        game_services.resign(fixture.game_id, max(a, b, key=lambda u: u.pk))  # the lower id wins
    client = Client()
    page = client.get("/leagues/durak/1/1/").content.decode()
    assert page.index("Player 0") < page.index("Player 1") < page.index("Player 2")
    assert "Player 0 is above Player 1 on points: 2 against 1." in page
    assert "Cross-table" in page and "×" in page
    rows = list(csv.reader(io.StringIO(client.get("/leagues/durak/1/1/standings.csv").content.decode())))
    # Stable column keys and numbers a spreadsheet reads (the page keeps "½" and "—").
    assert rows[0] == ["rank", "entry", "player", "played", "left", "points", *league.tiebreak_chain,
                       "lost_by_forfeit", "won_by_forfeit", "left_season", "annulled"]
    assert [r[2] for r in rows[1:]] == ["Player 0", "Player 1", "Player 2"]
    assert [r[5] for r in rows[1:]] == ["2", "1", "0"]
    assert all(re.fullmatch(r"-?\d+(\.\d+)?|[0-9a-f]{64}|", cell) for r in rows[1:] for cell in r[6:]), rows
    results = list(csv.reader(io.StringIO(client.get("/leagues/durak/1/1/results.csv").content.decode())))
    assert results[0] == ["round", "game", "entry", "player", "place", "game_score"]
    assert len(results) == 1 + 3 * 2


def test_an_invite_only_league_is_hidden_from_others(people):
    services.create_league(people[0], name="Secret", engine="durak", players=2, is_private=True)
    assert client_for(people[1]).get("/leagues/secret/").status_code == 404
    assert "Secret" not in client_for(people[1]).get("/leagues/").content.decode()
    assert client_for(people[0]).get("/leagues/secret/").status_code == 200


def test_the_division_page_reads_a_constant_number_of_queries(people, django_user_model,
                                                              django_assert_max_num_queries):
    league = services.create_league(people[0], name="Durak", engine="durak", players=2, division_size=20)
    season = league.seasons.get()
    for user in people[:3]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    client = Client()
    with django_assert_max_num_queries(20) as small:
        client.get("/leagues/durak/1/1/")
    url = Division.objects.get().get_absolute_url()
    users = {e.pk: e.user for e in Entry.objects.all()}
    for fixture in Fixture.objects.all():
        game_services.resign(fixture.game_id, users[fixture.seats[0]])
    with django_assert_max_num_queries(len(small.captured_queries) + 1):  # + the finished games' seats
        client.get(url)


def test_the_organizer_invites_a_player_on_the_season_page_who_is_entered_once_he_accepts(people):
    league = services.create_league(people[0], name="Durak", engine="durak", players=2)
    organizer = client_for(people[0])
    assert "Invite to the season" in organizer.get("/leagues/durak/1/").content.decode()
    assert "Invite to the season" not in client_for(people[1]).get("/leagues/durak/1/").content.decode()
    organizer.post("/leagues/durak/1/add/", {"player": "pg3"})
    page = organizer.post("/leagues/durak/1/add/", {"player": "nobody"}, follow=True).content.decode()
    assert "There is no player with that username." in page
    refused = client_for(people[1]).post("/leagues/durak/1/add/", {"player": "pg4"}, follow=True).content.decode()
    assert "Only the league" in refused
    assert not Entry.objects.filter(season__league=league).exists()
    assert "waiting for an answer" in organizer.get("/leagues/durak/1/").content.decode()
    invited = client_for(people[3])
    invitation = Invitation.objects.get()
    assert "Accept" in invited.get("/leagues/invitations/").content.decode()
    invited.post(f"/leagues/invitations/{invitation.pk}/accept/")
    assert [e.user.username for e in Entry.objects.filter(season__league=league)] == ["pg3"]


def test_the_schedule_shows_one_round_at_a_time_the_first_not_over_by_default(people):
    league = services.create_league(people[0], name="Durak", engine="durak", players=2, division_size=4,
                                    start=League.Start.ROUNDS)
    season = league.seasons.get()
    for user in people[:4]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    client = Client()
    page = client.get("/leagues/durak/1/1/").content.decode()
    assert "<h3>Round 1</h3>" in page and page.count('class="fixture"') == 2 and "3 rounds" in page
    users = {e.pk: e.user for e in Entry.objects.all()}
    for fixture in Fixture.objects.filter(round=1):
        game_services.resign(fixture.game_id, users[fixture.seats[1]])
    page = client.get("/leagues/durak/1/1/").content.decode()
    assert "<h3>Round 2</h3>" in page and 'rel="prev"' in page and 'rel="next"' in page
    page = client.get("/leagues/durak/1/1/?round=3").content.decode()
    assert "<h3>Round 3</h3>" in page and "not started" in page and 'rel="next"' not in page
    assert "<h3>Round 2</h3>" in client.get("/leagues/durak/1/1/?round=99").content.decode()  # unknown: the default
    assert "<h3>Round 2</h3>" in client.get("/leagues/durak/1/1/?round=x").content.decode()


def test_a_big_division_offers_its_cross_table_as_csv_instead(people, django_user_model, monkeypatch):
    monkeypatch.setattr("scoresheets.standings_view.CROSS_TABLE_MAX_PLAYERS", 2)
    league = services.create_league(people[0], name="Durak", engine="durak", players=2)
    season = league.seasons.get()
    for user in people[:3]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    users = {e.pk: e.user for e in Entry.objects.all()}
    for fixture in Fixture.objects.all():
        a, b = (users[pk] for pk in fixture.seats)
        game_services.resign(fixture.game_id, max(a, b, key=lambda u: u.pk))  # the lower id wins
    client = Client()
    page = client.get("/leagues/durak/1/1/").content.decode()
    assert "too big for the page" in page and "cross-table.csv" in page and "×" not in page
    rows = list(csv.reader(io.StringIO(client.get("/leagues/durak/1/1/cross-table.csv").content.decode())))
    assert rows == [["player", "Player 0", "Player 1", "Player 2"], ["Player 0", "×", "1", "1"],
                    ["Player 1", "0", "×", "1"], ["Player 2", "0", "0", "×"]]


def test_the_cross_table_csv_of_a_league_of_tables_of_more_lists_each_players_games(people):
    league = services.create_league(people[0], name="Joker", engine="joker", players=4, division_size=4,
                                    games_per_player=1)
    season = league.seasons.get()
    for user in people[:4]:
        services.register(season.pk, user)
    start(season.pk, people[0])
    fixture = Fixture.objects.get()
    game_services.resign(fixture.game_id, fixture.game.seats.get(position=1).user)  # a resignation ends it
    rows = list(csv.reader(io.StringIO(Client().get("/leagues/joker/1/1/cross-table.csv").content.decode())))
    assert rows[0] == ["player", "games"] and len(rows) == 5
    assert all(len(row) == 2 and row[1].startswith(f"round 1, game #{fixture.game_id}: ") for row in rows[1:])
