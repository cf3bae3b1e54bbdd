"""The API lists, reads, joins and leaves tournaments (token scope
"tournament"), through the pages' services and with their refusals."""

import pytest

from tests.api.conftest import api_for
from tests.tournaments.conftest import entered, play_round, start, tournament_of

from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def many(django_user_model):
    return [django_user_model.objects.create_user(f"apit{i}", password="pw-not-used-1", language="en")
            for i in range(6)]


def test_the_list_filters_by_status_and_game(many):
    tournament_of(many[0], name="Durak open")
    tournament_of(many[0], name="Joker open", engine="joker", players=4)
    client = api_for(many[1])
    names = [t["name"] for t in client.get("/api/v1/tournaments").json()]
    assert names == ["Joker open", "Durak open"]
    assert [t["name"] for t in client.get("/api/v1/tournaments?game=joker").json()] == ["Joker open"]
    assert client.get("/api/v1/tournaments?status=running").json() == []
    assert client.get("/api/v1/tournaments?game=chess").status_code == 400


def test_a_player_joins_once_and_leaves_and_reads_the_tournament(many):
    tournament = tournament_of(many[0], name="Durak open")
    client = api_for(many[1])
    joined = client.post(f"/api/v1/tournaments/{tournament.slug}/join")
    assert joined.status_code == 200 and joined.json()["withdrawn"] is False
    again = client.post(f"/api/v1/tournaments/{tournament.slug}/join")
    assert again.status_code == 409 and again.json()["code"] == "duplicate"
    detail = client.get(f"/api/v1/tournaments/{tournament.slug}").json()
    assert detail["my_entry"] == joined.json()["entry"] and detail["entries"] == 1
    assert client.post(f"/api/v1/tournaments/{tournament.slug}/leave").status_code == 200
    assert not Entry.objects.exists()
    assert client.post(f"/api/v1/tournaments/{tournament.slug}/leave").json()["code"] == "not_entered"


def test_the_detail_has_the_standings_and_each_rounds_tables_and_byes(many):
    tournament = entered(tournament_of(many[0], name="Durak open"), many[1:6])
    start(tournament.pk, many[0])
    play_round(tournament, 1)
    detail = api_for(many[1]).get(f"/api/v1/tournaments/{tournament.slug}").json()
    assert detail["status"] == "running" and len(detail["standings"]) == 5
    first, second = detail["round_list"]
    assert len(first["tables"]) == 2 and len(first["byes"]) == 1 and first["finished_at"]
    assert all(t["game"] for t in second["tables"])
    assert sorted(r["points"] for r in detail["standings"]) == [0, 1, 1, 1, 1]  # round 2's bye counts at once


def test_a_started_cup_a_missing_tournament_and_a_token_without_the_scope_are_refused(many):
    cup = entered(tournament_of(many[0], name="Durak cup", format="knockout"), many[1:3])
    start(cup.pk, many[0])
    client = api_for(many[4])
    refused = client.post(f"/api/v1/tournaments/{cup.slug}/join")
    assert refused.status_code == 409 and refused.json()["code"] == "started"
    assert client.get("/api/v1/tournaments/no-such-thing").status_code == 404
    assert api_for(many[4], ["read"]).get("/api/v1/tournaments").status_code == 403


def test_a_pair_enters_through_the_api_naming_the_partner(many):
    pairs = tournament_of(many[0], name="Pairs open", players=4, options={"teams": True})
    client = api_for(many[1])
    refused = client.post(f"/api/v1/tournaments/{pairs.slug}/join", {})
    assert refused.status_code == 400 and "name your partner" in refused.json()["message"]
    assert client.post(f"/api/v1/tournaments/{pairs.slug}/join", {"partner": "nobody"}).status_code == 404
    joined = client.post(f"/api/v1/tournaments/{pairs.slug}/join", {"partner": many[2].username})
    assert joined.status_code == 200
    assert Entry.objects.get().partner == many[2]


def test_the_detail_says_a_cups_games_per_match_and_groups_and_each_tables_game_of_the_match(many):
    cup = entered(tournament_of(many[0], name="Durak cup", format="knockout", games_per_match=2), many[1:3])
    start(cup.pk, many[0])
    detail = api_for(many[1]).get(f"/api/v1/tournaments/{cup.slug}").json()
    assert (detail["games_per_match"], detail["group_size"], detail["group_advance"]) == (2, 0, 1)
    assert [t["match_game"] for t in detail["round_list"][0]["tables"]] == [1, 2]


def test_the_detail_gives_each_groups_standings_of_a_cup_with_groups(many):
    cup = entered(tournament_of(many[0], name="Durak groups", format="knockout", group_size=3, group_advance=1),
                  many[1:6])  # groups of 3 and 2
    client = api_for(many[1])
    assert client.get(f"/api/v1/tournaments/{cup.slug}").json()["groups"] == []  # not formed before the start
    start(cup.pk, many[0])
    play_round(cup, 1, loser_seat=1)
    detail = client.get(f"/api/v1/tournaments/{cup.slug}").json()
    members = {e.pk: e.group for e in Entry.objects.filter(tournament=cup)}
    assert [g["number"] for g in detail["groups"]] == [1, 2]
    for group in detail["groups"]:
        assert {r["entry"] for r in group["rows"]} == {pk for pk, g in members.items() if g == group["number"]}
        assert (group["rows"][0]["rank"], group["rows"][0]["points"], group["rows"][0]["played"]) == (1, 1, 1)
        assert set(group["rows"][0]["tiebreaks"]) == set(detail["tiebreaks"])
    pair = detail["groups"][1]["rows"]
    assert [(r["rank"], r["points"], r["played"]) for r in pair] == [(1, 1, 1), (2, 0, 1)]


def test_a_tournament_without_groups_has_an_empty_group_list(many):
    swiss = entered(tournament_of(many[0], name="Durak open"), many[1:3])
    start(swiss.pk, many[0])
    assert api_for(many[1]).get(f"/api/v1/tournaments/{swiss.slug}").json()["groups"] == []
