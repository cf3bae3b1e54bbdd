"""Personal access tokens: made on the profile's API page, shown once, kept
hashed, with scopes, an expiry, a last-used date, a rate limit, and an audit
of their creation and revocation."""

import hashlib
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from api import tokens
from api.models import ApiToken, TokenEvent

from .conftest import ApiClient, token_for

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_token_made_on_the_page_is_shown_once_and_stored_only_as_its_hash(players):
    page = signed_in(players[0]).post("/api/tokens/", {"name": "my bot", "scopes": ["read", "play"], "days": "30"})
    assert page.status_code == 200
    secret = page.context["created"]["secret"]
    assert secret.startswith("kt_") and secret in page.content.decode()
    token = ApiToken.objects.get()
    assert token.key_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {token.prefix, token.key_hash, token.name}
    assert token.scopes == ["read", "play"] and token.expires_at > timezone.now() + timedelta(days=29)
    again = signed_in(players[0]).get("/api/tokens/")
    assert secret not in again.content.decode() and token.prefix in again.content.decode()


def test_the_token_works_and_records_when_it_was_last_used(players):
    secret = token_for(players[0])
    assert ApiToken.objects.get().last_used_at is None
    answer = ApiClient(secret).get("/api/v1/account")
    assert answer.status_code == 200 and answer.json()["username"] == "player0"
    assert ApiToken.objects.get().last_used_at is not None


def test_a_revoked_token_stops_working_at_once_and_both_steps_are_audited(players):
    secret = token_for(players[0])
    token = ApiToken.objects.get()
    signed_in(players[0]).post(f"/api/tokens/{token.pk}/revoke/")
    answer = ApiClient(secret).get("/api/v1/account")
    assert answer.status_code == 401 and answer.json()["code"] == "unauthorized"
    assert list(TokenEvent.objects.order_by("pk").values_list("action", "by")) == [
        ("created", players[0].pk), ("revoked", players[0].pk)]


def test_nobody_else_can_revoke_a_token(players):
    token_for(players[0])
    token = ApiToken.objects.get()
    signed_in(players[1]).post(f"/api/tokens/{token.pk}/revoke/")
    assert ApiToken.objects.get().revoked_at is None


def test_an_expired_token_is_refused(players):
    secret = token_for(players[0], days=1)
    with time_machine.travel(timezone.now() + timedelta(days=2)):
        assert ApiClient(secret).get("/api/v1/account").status_code == 401


@pytest.mark.parametrize("header", ["", "Bearer", "Bearer nonsense", "Basic abc", "Bearer kt_" + "x" * 43])
def test_a_missing_or_unknown_token_is_a_clear_401(client, header):
    answer = client.get("/api/v1/account", headers={"Authorization": header} if header else {})
    assert answer.status_code == 401
    assert answer.json()["code"] == "unauthorized" and answer.json()["message"]


def test_a_token_without_the_scope_is_refused_with_forbidden_scope(players):
    answer = ApiClient(token_for(players[0], ["read"])).post("/api/v1/games", {"engine": "durak"})
    assert answer.status_code == 403 and answer.json()["code"] == "forbidden_scope"


def test_each_token_has_its_own_rate_limit(players, settings):
    settings.API_REQUESTS_PER_TOKEN = "3/h"  # an hour's window: a slow machine does not cross into the next one
    first, second = ApiClient(token_for(players[0])), ApiClient(token_for(players[0]))
    assert [first.get("/api/v1/account").status_code for _ in range(3)] == [200, 200, 200]
    refused = first.get("/api/v1/account")
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    assert int(refused["Retry-After"]) >= 1
    assert second.get("/api/v1/account").status_code == 200


@pytest.mark.parametrize("name, scopes, days", [("", ["read"], None), ("x" * 61, ["read"], None),
                                                ("ok", [], None), ("ok", ["root"], None), ("ok", ["read"], 0),
                                                ("ok", ["read"], 366)])
def test_a_bad_token_request_is_refused_and_makes_nothing(players, name, scopes, days):
    with pytest.raises(tokens.GameError):
        tokens.create_token(players[0], name, scopes, days)
    assert not ApiToken.objects.exists() and not TokenEvent.objects.exists()


def test_the_page_limits_how_many_tokens_an_account_makes(players, settings):
    settings.API_TOKENS_PER_USER = "2/d"
    client = signed_in(players[0])
    statuses = [client.post("/api/tokens/", {"name": f"t{i}", "scopes": ["read"]}).status_code for i in range(3)]
    assert statuses == [200, 200, 429] and ApiToken.objects.count() == 2


def test_the_page_that_shows_a_new_token_s_secret_is_kept_by_no_cache(players):
    page = signed_in(players[0]).post("/api/tokens/", {"name": "my bot", "scopes": ["read"], "days": "30"})

    assert page.context["created"]["secret"] in page.content.decode()
    assert "no-store" in page["Cache-Control"]


def test_a_staff_account_that_is_no_moderator_cannot_revoke_a_player_s_token(players, django_user_model):
    token_for(players[0])
    token = ApiToken.objects.get()
    staff = django_user_model.objects.create_user("clerk", password="pw-not-used-1", is_staff=True)

    signed_in(staff).post(f"/api/tokens/{token.pk}/revoke/")

    assert ApiToken.objects.get().revoked_at is None


def test_a_moderator_revokes_a_player_s_token_from_the_admin_and_it_is_audited(players, django_user_model):
    token_for(players[0])
    token = ApiToken.objects.get()
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw")

    signed_in(root).post("/admin/api/apitoken/", {"action": "revoke", "_selected_action": [token.pk]})

    assert ApiToken.objects.get().revoked_at is not None
    assert TokenEvent.objects.filter(token=token, action="revoked", by=root).exists()
