"""The game endpoints call the site's services and builders: the same state
message as the page, the same move service (idempotent move_id, stale
versions, illegal moves), the same table services; refusals are 4xx with a
stable code."""

import pytest

from api.models import Scope
from gameplay import services
from gameplay.broadcast import game_payload
from gameplay.engine import get_engine
from gameplay.models import Game, Move

from .conftest import api_for, durak_game

pytestmark = pytest.mark.django_db
DURAK = get_engine("durak")


def actor(game: Game, players) -> tuple[int, object]:
    position = DURAK.actors(game.state)[0]
    return position, players[position]


def without_clock(payload: dict) -> dict:
    return {k: v for k, v in payload.items() if k != "server_time"}


def test_the_state_is_the_page_s_state_message_for_my_seat(players):
    game = durak_game(players[:2])
    for position, user in enumerate(players[:2]):
        answer = api_for(user).get(f"/api/v1/games/{game.pk}")
        assert answer.status_code == 200
        assert without_clock(answer.json()) == without_clock(game_payload(game, position))


def test_legal_moves_are_the_engine_s_for_my_seat_only(players):
    game = durak_game(players[:2])
    position, user = actor(game, players)
    other = players[1 - position]
    mine = api_for(user).get(f"/api/v1/games/{game.pk}/legal").json()
    assert mine == {"version": 0, "seat": position, "legal": DURAK.legal_actions(game.state, position)}
    assert api_for(other).get(f"/api/v1/games/{game.pk}/legal").json()["legal"] == \
        DURAK.legal_actions(game.state, 1 - position)


def test_a_move_is_acknowledged_and_a_repeated_move_id_is_applied_once(players):
    game = durak_game(players[:2])
    position, user = actor(game, players)
    action = DURAK.legal_actions(game.state, position)[0]
    client = api_for(user)
    first = client.post(f"/api/v1/games/{game.pk}/move", {"action": action, "version": 0, "move_id": "m-1"})
    again = client.post(f"/api/v1/games/{game.pk}/move", {"action": action, "version": 0, "move_id": "m-1"})
    assert first.status_code == 200 and first.json() == {"type": "ack", "move_id": "m-1", "version": 1,
                                                          "duplicate": False}
    assert again.status_code == 200 and again.json()["duplicate"] is True
    assert Move.objects.filter(game=game).count() == 1


def test_a_stale_version_is_a_409_with_the_current_version(players):
    game = durak_game(players[:2])
    position, user = actor(game, players)
    services.submit_move(game.pk, user, DURAK.legal_actions(game.state, position)[0], 0)
    game.refresh_from_db()
    position, user = actor(game, players)
    answer = api_for(user).post(f"/api/v1/games/{game.pk}/move",
                                {"action": DURAK.legal_actions(game.state, position)[0], "version": 5})
    assert answer.status_code == 409 and answer.json()["code"] == "stale" and answer.json()["version"] == 1


def test_an_illegal_move_is_a_422_with_the_rules_reason(players):
    game = durak_game(players[:2])
    position, user = actor(game, players)
    answer = api_for(user).post(f"/api/v1/games/{game.pk}/move", {"action": {"type": "done"}, "version": 0})
    assert answer.status_code == 422 and answer.json()["code"] == "illegal" and answer.json()["message"]


def test_someone_without_a_seat_cannot_move(players):
    game = durak_game(players[:2])
    position, _user = actor(game, players)
    answer = api_for(players[3]).post(f"/api/v1/games/{game.pk}/move",
                                      {"action": DURAK.legal_actions(game.state, position)[0], "version": 0})
    assert answer.status_code == 403 and answer.json()["code"] == "not_seated"


@pytest.mark.parametrize("raw", [b"{", b"[]", b'{"action": {"type": "take"}}', b'{"action": 1, "version": 0}',
                                 b'{"action": {"type": "take"}, "version": "0"}', b"\xff\xfe",
                                 b'{"action": {"type": "take"}, "version": 0, "move_id": ""}',
                                 b'{"action": {"type": "take"}, "version": 1e400}', b"[" * 50])
def test_malformed_bodies_are_a_400_bad_request_that_changes_nothing(players, raw):
    game = durak_game(players[:2])
    answer = api_for(players[0]).post(f"/api/v1/games/{game.pk}/move", raw=raw)
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request" and answer.json()["message"]
    assert Game.objects.get(pk=game.pk).version == 0


def test_resign_ends_the_game(players):
    game = durak_game(players[:2])
    answer = api_for(players[0]).post(f"/api/v1/games/{game.pk}/resign")
    assert answer.status_code == 200
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_chat_goes_through_the_chat_service(players):
    game = durak_game(players[:2])
    answer = api_for(players[0]).post(f"/api/v1/games/{game.pk}/chat", {"text": " good luck "})
    assert answer.status_code == 200 and answer.json()["text"] == "good luck"
    empty = api_for(players[0]).post(f"/api/v1/games/{game.pk}/chat", {"text": "  "})
    assert empty.status_code == 400 and empty.json()["code"] == "bad_request"
    stranger = api_for(players[3]).post(f"/api/v1/games/{game.pk}/chat", {"text": "hi"})
    assert stranger.status_code == 403 and stranger.json()["code"] == "not_seated"


def test_a_table_is_created_and_joined_through_the_api(players):
    created = api_for(players[0]).post("/api/v1/games", {"engine": "durak", "players": 2, "allow_bots": True})
    assert created.status_code == 200, created.json()
    table = created.json()
    assert table["status"] == "open" and table["seat"] == 0 and table["allow_bots"] is True
    joined = api_for(players[1]).post(f"/api/v1/games/{table['id']}/join", {})
    assert joined.status_code == 200 and joined.json()["status"] == "active" and joined.json()["seat"] == 1
    again = api_for(players[2]).post(f"/api/v1/games/{table['id']}/join", {})
    assert again.status_code == 409 and again.json()["code"] == "not_open"


def test_a_table_against_computer_players_starts_at_once(players):
    created = api_for(players[0]).post("/api/v1/games", {"engine": "durak", "players": 2,
                                                         "computer_opponents": True})
    assert created.json()["status"] == "active"


def test_unknown_games_and_bad_tables_are_refused_clearly(players):
    client = api_for(players[0])
    assert client.post("/api/v1/games", {"engine": "chess"}).json()["code"] == "bad_request"
    beyond_every_game = client.post("/api/v1/games", {"engine": "durak", "players": 9})
    assert beyond_every_game.status_code == 400 and beyond_every_game.json()["code"] == "bad_request"  # the schema's bounds
    assert client.post("/api/v1/games", {"engine": "durak", "players": 5}).status_code == 422  # Durak's own
    missing = client.get("/api/v1/games/999999")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_a_private_table_is_joined_only_with_its_invite_code(players):
    game = services.create_game(players[0], "durak", {}, players=2, is_private=True)
    assert api_for(players[1]).post(f"/api/v1/games/{game.pk}/join", {}).status_code == 404
    assert api_for(players[1]).get(f"/api/v1/games/{game.pk}").status_code == 404
    code = api_for(players[0]).get("/api/v1/games").json()[0]["invite_code"]
    joined = api_for(players[1]).post(f"/api/v1/games/{game.pk}/join", {"invite_code": code})
    assert joined.status_code == 200 and joined.json()["seat"] == 1


def test_my_games_lists_the_games_waiting_for_my_move_first(players):
    waiting = durak_game(players[:2])
    position, user = actor(waiting, players)
    services.create_game(user, "joker", {}, players=4)
    listed = api_for(user).get("/api/v1/games").json()
    assert [g["id"] for g in listed][0] == waiting.pk and listed[0]["my_turn"] is True
    assert {g["status"] for g in listed} == {"active", "open"}


def test_the_record_is_published_only_once_the_game_is_over(players):
    game = durak_game(players[:2])
    client = api_for(players[0])
    early = client.get(f"/api/v1/games/{game.pk}/record")
    assert early.status_code == 409 and early.json()["code"] == "not_over"
    services.resign(game.pk, players[0])
    record = client.get(f"/api/v1/games/{game.pk}/record").json()
    assert record["format"] == 1 and record["game"] == "durak" and record["seed"]


def test_league_standings_need_the_league_scope_and_name_the_division(players):
    from leagues import services as leagues
    from leagues.models import Division, Entry

    league = leagues.create_league(players[0], name="Friday", engine="durak", players=2)
    season = league.seasons.get()
    for user in players:
        leagues.register(season.pk, user)
    leagues.start_season(season.pk, players[0])
    division = Division.objects.filter(season=season).order_by("number").first()
    path = f"/api/v1/leagues/{league.slug}/seasons/1/divisions/{division.number}/standings"
    assert api_for(players[0], [Scope.READ]).get(path).status_code == 403
    answer = api_for(players[0], [Scope.LEAGUE]).get(path)
    assert answer.status_code == 200, answer.json()
    entries = Entry.objects.filter(division=division)
    assert sorted(row["name"] for row in answer.json()["rows"]) == sorted(str(e) for e in entries)
    assert entries.exists()
    assert api_for(players[0], [Scope.LEAGUE]).get(
        "/api/v1/leagues/nothing/seasons/1/divisions/1/standings").json()["code"] == "not_found"


@pytest.mark.parametrize("method, path", [
    ("get", "/api/v1/games/{n}"), ("get", "/api/v1/games/{n}/legal"), ("post", "/api/v1/games/{n}/move"),
    ("post", "/api/v1/games/{n}/join"), ("post", "/api/v1/games/{n}/resign"), ("get", "/api/v1/games/{n}/stream"),
    ("get", "/api/v1/leagues/any/seasons/{n}/divisions/{n}/standings")])
def test_ids_no_database_can_hold_are_a_400_not_a_server_error(players, method, path):
    client = api_for(players[0])
    url = path.format(n=10**30)
    answer = client.get(url) if method == "get" else client.post(url, {"action": {"type": "take"}, "version": 0})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request"
