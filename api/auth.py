"""The bearer-token check of every endpoint: `Authorization: Bearer kt_…`.

`TokenAuth(scope)` admits a usable token (api.tokens.authenticate) that has
the scope, of an account in good standing (a suspended one is refused with
403 "suspended", as the site refuses its login); the request then acts as the token's owner (`request.user`, in
his language) and counts against the token's rate limit
(API_REQUESTS_PER_TOKEN, the accounts.limits machinery: django-ratelimit's
counters in the shared cache)."""

from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _, gettext_lazy
from ninja.security import HttpBearer

from accounts import limits
from api import tokens
from api.errors import ApiError
from api.models import ApiToken

PER_TOKEN = limits.Limit("api.requests.token", "API_REQUESTS_PER_TOKEN",
                         gettext_lazy("Too many requests with this token; wait a moment."))


def token_key(token: ApiToken) -> limits.Key:
    return lambda group, request: str(token.pk)


class TokenAuth(HttpBearer):
    def __init__(self, scope: str):
        super().__init__()
        self.scope = scope

    def authenticate(self, request: HttpRequest, token: str) -> ApiToken | None:
        found = tokens.authenticate(token)
        if found is None:
            return None
        if self.scope not in found.scopes:
            raise ApiError("forbidden_scope", _("This token lacks the scope \"%(scope)s\".") % {"scope": self.scope})
        request.user = found.user
        request.api_token = found
        translation.activate(found.user.language)
        suspended = tokens.standing_refusal(found)
        if suspended:
            raise ApiError("suspended", suspended)
        refusal = limits.count(request, [(PER_TOKEN, token_key(found))])
        if refusal:
            raise ApiError("rate_limited", PER_TOKEN.reason, headers={"Retry-After": str(refusal.seconds_left)})
        return found


READ = TokenAuth("read")
PLAY = TokenAuth("play")
CHALLENGE = TokenAuth("challenge")
LEAGUE = TokenAuth("league")
TOURNAMENT = TokenAuth("tournament")
