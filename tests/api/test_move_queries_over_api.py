"""The move path's query count is unchanged over the API: the same service
transaction as the page's move (tests/gameplay/test_move_queries.py), plus
one query to find the token (its last-used date is written at most once a
minute, not on every request)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gameplay.engine import get_engine
from tests.gameplay.test_move_queries import queued, request_queries  # noqa: F401 (a fixture)

from .conftest import ApiClient, durak_game, token_for

pytestmark = pytest.mark.django_db
DURAK = get_engine("durak")
TOKEN_LOOKUP = 1


def test_a_move_over_the_api_costs_the_service_s_queries_and_one_token_lookup(players, queued):  # noqa: F811
    game = durak_game(players[:2])
    position = DURAK.actors(game.state)[0]
    client = ApiClient(token_for(players[position]))
    assert client.get("/api/v1/account").status_code == 200  # the token's last-used date is fresh now
    action = DURAK.legal_actions(game.state, position)[0]
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(f"/api/v1/games/{game.pk}/move", {"action": action, "version": 0, "move_id": "q-1"})
    assert answer.status_code == 200, answer.json()
    assert len(queries) == request_queries() + TOKEN_LOOKUP, [q["sql"][:80] for q in queries]
