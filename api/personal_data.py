"""The API's part of one's own data (issue 40; pages/personal_data.py,
pages/account_deletion.py): the account's tokens by name and scopes (never
their secrets) in the export; on deletion its tokens go, with their events."""

from __future__ import annotations

from api.models import ApiToken, TokenEvent
from pages import account_deletion, personal_data


def tokens(user) -> list[dict]:
    return personal_data.rows(ApiToken.objects.filter(user=user).order_by("created_at"),
                              ["name", "scopes", "created_at", "expires_at", "last_used_at", "revoked_at"])


def erase(user) -> None:
    TokenEvent.objects.filter(by=user).delete()
    ApiToken.objects.filter(user=user).delete()


def register() -> None:
    personal_data.register_section("api_tokens", tokens)
    account_deletion.register_eraser(erase)
