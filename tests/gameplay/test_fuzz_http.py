"""Fuzzing the HTTP ways in: the move and "ahead" endpoints and the admin's
changelist filters. Whatever arrives: no server error, a readable refusal,
and nothing changed by a refusal. (The long run: bench/fuzz.py.)"""

import json

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gameplay.engine import get_engine
from gameplay.models import Game

from .conftest import client_for, started_game
from .test_fuzz_strategies import frames, odd_text, scalars

pytestmark = pytest.mark.django_db

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
ERROR_CODES = {"bad_request", "illegal", "stale", "not_seated", "not_active", "not_found", "login_required"}


def snapshot(game_id: int) -> tuple:
    game = Game.objects.get(pk=game_id)
    seats = list(game.seats.order_by("position").values_list("user_id", "ahead_scope", "reserve_seconds_left",
                                                             "deadline"))
    return game.version, game.status, json.dumps(game.state, sort_keys=True), game.moves.count(), seats


def as_bytes(body: str | bytes) -> bytes:
    """What travels over HTTP: bytes (a raw lone surrogate becomes bytes that are not UTF-8)."""
    return body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body


def check_reply(response, before: tuple, game_id: int) -> dict:
    """No server error; an ack, or an error with a readable message that changed nothing."""
    assert response.status_code < 500, response.content[:300]
    reply = response.json()
    if reply["type"] == "error":
        assert reply["code"] in ERROR_CODES, reply
        assert isinstance(reply["message"], str) and reply["message"].strip(), reply
        assert snapshot(game_id) == before, reply
        assert response.status_code >= 400
    else:
        assert reply["type"] in ("ack", "ahead_ack") and response.status_code == 200, reply
    return reply


@pytest.fixture
def clients(players, django_user_model):
    """Each kind of caller: the players, a stranger, nobody."""
    stranger = django_user_model.objects.create_user("stranger", password="pw-not-used-1")
    return [client_for(user) for user in players] + [client_for(stranger), Client()]


def legal_move_body(game_id: int, version_offset: int, move_id) -> tuple[int, str]:
    """The acting seat's first legal move as a body, on a version off by `version_offset`."""
    game = Game.objects.get(pk=game_id)
    engine = get_engine(game.engine)
    position = engine.actors(game.state)[0]
    action = engine.legal_actions(game.state, position)[0]
    return position, json.dumps({"action": action, "version": game.version + version_offset, "move_id": move_id})


@FUZZ
@given(st.data())
def test_the_move_endpoint_survives_anything(joker_game, clients, data):
    who = data.draw(st.integers(0, len(clients) - 1), label="client")
    body = as_bytes(data.draw(frames(), label="body"))
    before = snapshot(joker_game.pk)
    response = clients[who].post(reverse("game_move", args=[joker_game.pk]), data=body,
                                 content_type="application/json")
    check_reply(response, before, joker_game.pk)


@FUZZ
@given(st.data())
def test_stale_versions_replayed_move_ids_and_other_peoples_seats_change_nothing(joker_game, clients, data):
    offset = data.draw(st.sampled_from([0, 0, -1, 1, 2, -5, 10**6]), label="version offset")
    move_id = data.draw(st.sampled_from(["r1", "r2", "r3", None]), label="move id")
    as_actor = data.draw(st.booleans(), label="as the acting seat")
    position, body = legal_move_body(joker_game.pk, offset, move_id)
    client = clients[position if as_actor else (position + 1) % 4]
    before = snapshot(joker_game.pk)
    response = client.post(reverse("game_move", args=[joker_game.pk]), data=body, content_type="application/json")
    reply = check_reply(response, before, joker_game.pk)
    if reply["type"] == "ack" and reply["duplicate"]:
        assert snapshot(joker_game.pk) == before
    elif reply["type"] == "ack":
        assert as_actor and Game.objects.get(pk=joker_game.pk).version > before[0]
    if offset > 0:  # a move made on a version the game never had applies nowhere
        assert reply["type"] == "error" or reply["duplicate"]


@FUZZ
@given(st.data())
def test_the_ahead_endpoint_survives_anything(players, clients, data):
    game = Game.objects.filter(engine="durak").first() or started_game("durak", players[:3])
    who = data.draw(st.integers(0, len(clients) - 1), label="client")
    body = as_bytes(data.draw(st.one_of(frames(), st.builds(lambda on: json.dumps({"on": on}), scalars())),
                              label="body"))
    before = snapshot(game.pk)
    response = clients[who].post(reverse("game_ahead", args=[game.pk]), data=body, content_type="application/json")
    if response.status_code == 200:
        assert response.json()["type"] == "ahead_ack"
        return
    check_reply(response, before, game.pk)


@pytest.fixture
def moderator_client(django_user_model):
    return client_for(django_user_model.objects.create_superuser("moderator", password="pw", email="m@example.com"))


DATE_PARTS = st.one_of(st.integers(-(10**20), 10**20).map(str), st.sampled_from(["9999", "10000", "0", "1", "12", "13",
                                                                                 "31", "32", "02", "x", ""]),
                       odd_text(12))


@FUZZ
@given(st.data())
def test_the_admin_lists_survive_any_filter(moderator_client, joker_game, data):
    model = data.draw(st.sampled_from(["game", "seat", "move", "chatmessage"]), label="model")
    params = data.draw(st.fixed_dictionaries({}, optional={
        "created_at__year": DATE_PARTS, "created_at__month": DATE_PARTS, "created_at__day": DATE_PARTS,
        "status__exact": odd_text(), "engine__exact": odd_text(), "is_private__exact": odd_text(),
        "q": odd_text(), "p": DATE_PARTS, "o": odd_text(), "e": odd_text(), "all": odd_text(),
        "game__engine__exact": odd_text(), "hidden__exact": odd_text(), "by__exact": odd_text(),
        "started_at__year": DATE_PARTS, "finished_at__year": DATE_PARTS, "deadline__year": DATE_PARTS,
        "id__in": odd_text(),
    }), label="query")
    params = {k: v.encode("utf-8", "replace").decode("utf-8") for k, v in params.items()}
    response = moderator_client.get(reverse(f"admin:gameplay_{model}_changelist"), params)
    assert response.status_code in (200, 302, 400), response.status_code


@pytest.mark.parametrize("model, query", [
    ("game", "created_at__year=99999999999999"), ("game", "created_at__year=9999"),
    ("game", "created_at__year=9999&created_at__month=12"),
    ("game", "created_at__year=2026&created_at__month=99999999999999999999"),
    ("game", "created_at__year=-1"), ("game", "created_at__year=0"), ("game", "created_at__year=1"),
    ("game", "started_at__year=1"), ("game", "started_at__year=99999999999999"), ("seat", "deadline__year=1"),
    ("move", "created_at__year=1"), ("chatmessage", "created_at__year=1"),
    ("game", "id__in=111111111111111111111111111111"),
])
def test_absurd_admin_dates_are_an_invalid_filter_not_a_500(moderator_client, joker_game, model, query):
    response = moderator_client.get(reverse(f"admin:gameplay_{model}_changelist") + "?" + query)
    # What a database cannot compute is Django's "invalid filter" redirect; what it can (PostgreSQL
    # takes year 1 in its stride) is an ordinary, empty list.
    redirected = response.status_code == 302 and response.url.endswith("?e=1")
    assert redirected or response.status_code == 200


def test_a_filter_that_matches_nothing_is_an_empty_list(moderator_client, joker_game):
    response = moderator_client.get(reverse("admin:gameplay_game_changelist") + "?id__in=")
    assert response.status_code in (200, 302)
