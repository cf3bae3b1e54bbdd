"""Personal access tokens: made, revoked and checked here only.

A token is `kt_` and 43 characters of `secrets.token_urlsafe(32)`: shown to
its owner once; the database keeps its SHA-256 (see api.models). Each
creation and revocation leaves a TokenEvent (the audit)."""

import hashlib
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.sockets import Credential, end_token_sockets, token_group
from accounts.standing import is_suspended, suspension_message
from api.models import ApiToken, Scope, TokenEvent
from gameplay.services import GameError
from moderation.permissions import is_moderator

TOKEN_PREFIX = "kt_"
MAX_DAYS = 365
LAST_USED_RESOLUTION = timedelta(minutes=1)  # last_used_at is written at most this often: a request is no write


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


@transaction.atomic
def create_token(user, name: str, scopes: list[str], days: int | None, *, address: str | None = None
                 ) -> tuple[ApiToken, str]:
    """A new token of `user` with these scopes, valid `days` days (None: until
    revoked). Returns the token and its secret, which is never shown again."""
    name = (name or "").strip()
    if not name or len(name) > 60:
        raise GameError(_("Give the token a name of at most 60 characters."), code="bad_request")
    known = {choice.value for choice in Scope}
    if not scopes or not set(scopes) <= known:
        raise GameError(_("Choose at least one of the scopes."), code="bad_request")
    if days is not None and not 1 <= days <= MAX_DAYS:
        raise GameError(_("A token is valid for 1 to %(n)s days.") % {"n": MAX_DAYS}, code="bad_request")
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=raw[:ApiToken.PREFIX_LENGTH], key_hash=digest(raw),
        scopes=[s for s in Scope.values if s in scopes],
        expires_at=timezone.now() + timedelta(days=days) if days else None)
    TokenEvent.objects.create(token=token, action=TokenEvent.Action.CREATED, by=user, address=address)
    return token, raw


@transaction.atomic
def revoke_token(token_id: int, by, *, address: str | None = None) -> ApiToken:
    """Its owner, or a site-wide moderator (not any staff account: README
    "API"), revokes a token: it stops working at once, and what it opened ends."""
    token = ApiToken.objects.select_for_update().filter(pk=token_id).first()
    if token is None or (token.user_id != by.pk and not is_moderator(by)):
        raise GameError(_("There is no such token."), code="not_found")
    if token.revoked_at is not None:
        raise GameError(_("This token is already revoked."), code="unchanged")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    TokenEvent.objects.create(token=token, action=TokenEvent.Action.REVOKED, by=by, address=address)
    end_token_sockets(token.pk)
    return token


def authenticate(raw: str) -> ApiToken | None:
    """The usable token with this secret, its user loaded; None for anything
    else (unknown, revoked, expired, an inactive account). Marks it used."""
    if not isinstance(raw, str) or not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    token = ApiToken.objects.select_related("user").filter(key_hash=digest(raw)).first()
    now = timezone.now()
    if token is None or not token.is_usable(now) or not token.user.is_active:
        return None
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_RESOLUTION:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


def standing_refusal(token: ApiToken) -> str | None:
    """Why the token's account may not use the site now (the site's own
    standing, accounts.standing: suspended), or None."""
    return suspension_message(token.user) if is_suspended(token.user) else None


def still_valid(token_id: int) -> bool:
    """Whether the token still holds, read afresh: not revoked or expired, its
    account active and not suspended (what ends its open sockets and streams)."""
    token = ApiToken.objects.select_related("user").filter(pk=token_id).first()
    return (token is not None and token.is_usable() and token.user.is_active
            and not is_suspended(token.user))


def credential(token: ApiToken) -> Credential:
    """What a socket or stream opened with this token ends with (accounts.sockets)."""
    return Credential(group=token_group(token.pk), expires_at=token.expires_at,
                      still_valid=lambda: still_valid(token.pk))


def user_tokens(user):
    return ApiToken.objects.filter(user=user).order_by("revoked_at", "-created_at")
