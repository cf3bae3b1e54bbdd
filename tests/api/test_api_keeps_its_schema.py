"""The API keeps its own OpenAPI schema (issue 38, item 8): schemathesis, the
field's tool for it, generates requests from /api/v1/openapi.json and sends
them to the app in-process (its ASGI mode, as daphne runs it: no server), with a token of every
scope, and runs all its checks on each answer: no server error, every status
and content type documented, every body as the schema says, a request the
schema allows accepted (or refused only as the game's rules refuse it: 422,
or for a reason of state: 401/403/404/409/429). Bounded and deterministic:
a fixed seed and a number of examples that keeps the run under a minute."""

import json

import pytest
import schemathesis
from django.core.serializers.json import DjangoJSONEncoder
from django.test import Client
from hypothesis import HealthCheck, Phase, seed, settings
from schemathesis import checks as schemathesis_checks
from schemathesis.config import SchemathesisConfig

from api.v1 import api
from config.asgi import application

from .conftest import token_for

pytestmark = pytest.mark.django_db(transaction=True)

EXAMPLES = 12  # per operation, besides the explicit and boundary cases: 30-45 s on this shared machine
SEED = 38


# A request the schema allows is answered 2xx, or refused for a reason of
# state (401 403 404 409 429) or by the game's own rules (422: a table a game
# does not allow, an illegal move); never 400 (that is for what the schema
# refuses), never 5xx.
# Text is UTF-8 without NUL (lone surrogates and NUL are refused at the gate,
# gameplay/inbound.py, as the README says).
CONFIG = SchemathesisConfig.from_dict({
    "checks": {"positive_data_acceptance": {"expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]}},
    "generation": {"codec": "utf-8", "allow-x00": False},
})


def served_schema():
    """The schema /api/v1/openapi.json serves, sent to the app itself (ASGI: the streams are async)."""
    loaded = schemathesis.openapi.from_dict(json.loads(json.dumps(api.get_openapi_schema(), cls=DjangoJSONEncoder)),
                                            config=CONFIG)
    loaded.app = application
    return loaded


schema = served_schema()
TOKEN = "kt_the-token-of-the-running-test"  # put in by schemathesis, replaced when the case is sent


@schema.auth(refresh_interval=None)
class Bearer:
    """The token, as schemathesis sends credentials: left off where a case tests its absence."""

    def get(self, case, context) -> str:
        return TOKEN

    def set(self, case, data: str, context) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


@pytest.fixture
def token(players) -> str:
    return token_for(players[0])


@pytest.fixture(autouse=True)
def quick_streams(settings):
    settings.API_STREAM_MAX_SECONDS = 0.2  # a stream answers, then ends at once
    settings.API_STREAM_POLL_SECONDS = 0.05
    settings.API_REQUESTS_PER_TOKEN = "100000/m"


def all_checks() -> list:
    schemathesis_checks.load_all_checks()
    return list(schemathesis_checks.CHECKS.get_all())


@schema.parametrize()
@seed(SEED)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
def test_every_answer_keeps_to_the_schema(case, token):
    if (case.headers or {}).get("Authorization") == f"Bearer {TOKEN}":
        case.headers["Authorization"] = f"Bearer {token}"
    case.call_and_validate(checks=all_checks())


def test_an_id_that_is_not_a_number_is_the_api_s_json_404_for_any_method(players):
    client = Client()
    for answer in (client.get("/api/v1/games/abc"), client.post("/api/v1/games/null,null/move", {}),
                   client.get("/api/v1/no-such-endpoint")):
        assert answer.status_code == 404 and answer["Content-Type"] == "application/json"
        assert answer.json()["code"] == "not_found"


def test_a_page_s_address_without_its_slash_is_still_sent_on(players):
    assert Client().get("/api/tokens")["Location"] == "/api/tokens/"


def test_a_server_error_under_the_api_is_json_too(players, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr("correspondence.selectors.my_games", broken)
    client = Client(raise_request_exception=False)

    answer = client.get("/api/v1/games", headers={"Authorization": f"Bearer {token_for(players[0])}"})

    assert answer.status_code == 500 and answer.json()["code"] == "server_error"


def test_the_schema_run_is_the_one_the_site_serves(players):
    served = Client().get("/api/v1/openapi.json").json()

    assert served == json.loads(json.dumps(api.get_openapi_schema(), cls=DjangoJSONEncoder))
