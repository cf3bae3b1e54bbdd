"""Fuzzing the API's ways in (the fuzz suite's strategies): whatever body
arrives at the move, chat, join and new-table endpoints, and whatever token
or path: no server error, a 4xx with a stable code and a readable message,
and nothing changed by a refusal."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.errors import STATUS
from gameplay.models import Game
from tests.gameplay.test_fuzz_http import as_bytes, snapshot
from tests.gameplay.test_fuzz_strategies import frames, json_values, odd_text

from .conftest import ApiClient, durak_game, token_for

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
ENDPOINTS = ["move", "chat", "join", "resign", "leave"]


@pytest.fixture
def clients(players, settings):
    settings.API_REQUESTS_PER_TOKEN = "100000/m"
    return [ApiClient(token_for(user)) for user in players] + [ApiClient(None), ApiClient("kt_nothing")]


def check(response, before: tuple, game_id: int) -> None:
    assert response.status_code < 500 or response.json()["code"] == "busy", response.content[:300]
    body = response.json()
    if response.status_code >= 400:
        assert body["code"] in STATUS and STATUS[body["code"]] == response.status_code, body
        assert isinstance(body["message"], str) and body["message"].strip(), body
        assert snapshot(game_id) == before, body


@FUZZ
@given(st.data())
def test_the_game_endpoints_survive_any_body(players, clients, data):
    game = Game.objects.filter(engine="durak").first() or durak_game(players[:2])
    who = data.draw(st.integers(0, len(clients) - 1), label="client")
    endpoint = data.draw(st.sampled_from(ENDPOINTS), label="endpoint")
    body = as_bytes(data.draw(frames(), label="body"))
    before = snapshot(game.pk)
    check(clients[who].post(f"/api/v1/games/{game.pk}/{endpoint}", raw=body), before, game.pk)


@FUZZ
@given(st.data())
def test_the_new_table_endpoint_survives_any_fields(players, clients, data):
    game = Game.objects.filter(engine="durak").first() or durak_game(players[:2])
    fields = data.draw(st.fixed_dictionaries({}, optional={
        "engine": st.one_of(st.sampled_from(["durak", "joker", "ipuker"]), odd_text()),
        "players": json_values(2), "options": json_values(4), "time_preset": json_values(2),
        "move_seconds": json_values(2), "reserve_seconds": json_values(2), "is_private": json_values(1),
        "allow_bots": json_values(1), "computer_opponents": json_values(1)}), label="fields")
    games_before = Game.objects.count()
    response = clients[0].post("/api/v1/games", fields)
    check(response, snapshot(game.pk), game.pk)
    assert Game.objects.count() == games_before + (response.status_code == 200)


@FUZZ
@given(path=odd_text(30), header=odd_text(60))
def test_any_path_and_any_authorization_header_is_answered_without_a_server_error(client, path, header):
    header = header.encode("latin-1", "replace").decode("latin-1").replace("\n", " ").replace("\r", " ")
    response = client.get(f"/api/v1/games/{path.encode('utf-8', 'replace').hex()}",
                          headers={"Authorization": f"Bearer {header}"})
    assert response.status_code in (401, 404)
