import pytest
from django.test import Client

from api import tokens
from api.models import Scope
from gameplay import services
from gameplay.models import Game

ALL_SCOPES = [s.value for s in Scope]


@pytest.fixture
def players(django_user_model):
    return [django_user_model.objects.create_user(f"player{i}", password="pw-not-used-1", language="en")
            for i in range(4)]


def token_for(user, scopes=None, days=None) -> str:
    return tokens.create_token(user, "test", scopes or ALL_SCOPES, days)[1]


class ApiClient:
    """Django's test client with a bearer token on every request."""

    def __init__(self, token: str | None):
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **kwargs):
        return self.client.get(path, headers=self.headers, **kwargs)

    def post(self, path: str, body=None, raw: bytes | None = None):
        import json

        data = raw if raw is not None else json.dumps(body if body is not None else {})
        return self.client.post(path, data=data, content_type="application/json", headers=self.headers)


def api_for(user, scopes=None) -> ApiClient:
    return ApiClient(token_for(user, scopes))


def durak_game(users, **table) -> Game:
    game = services.create_game(users[0], "durak", {}, players=len(users), **table)
    for user in users[1:]:
        services.join_game(game.pk, user)
    game.refresh_from_db()
    return game
