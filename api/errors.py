"""Every refusal of the API: HTTP 4xx (503 for a busy database) with a JSON
body {"code": "...", "message": "..."} (and "version" where the game's
current version helps the client resync). The codes are stable: clients
branch on them; the messages are for people, in the token owner's language.

| code | status | meaning |
|---|---|---|
| bad_request | 400 | malformed JSON, a wrong or unknown field, a value out of the schema's bounds (nothing changed) |
| unauthorized | 401 | no token, an unknown, revoked or expired one |
| forbidden_scope | 403 | the token lacks the scope this endpoint needs |
| not_seated, suspended, bots_not_allowed, not_invited, not_yours, forbidden | 403 | not your seat; a suspended account; a bot at a table that allows none; not your challenge; a player who takes challenges from friends only |
| not_found | 404 | no such game (or one you may not see), token, league |
| stale | 409 | the game has moved on: `version` is the current one; fetch the state again |
| not_active, not_open, already_seated, seat_taken, unchanged, not_over, closed, answered, ... | 409 | the game or table is not in the state this needs |
| illegal | 422 | the rules refuse the move, or the table (its players, its options): the message says why |
| rate_limited | 429 | too many requests for this token (Retry-After) |
| busy | 503 | the database was busy; send the same request again (same move_id) |
| server_error | 500 | a bug: the site's handler500 answers it as JSON under /api/ (api.views.server_error) |
"""

from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from ninja.errors import AuthenticationError, HttpError, ValidationError

from accounts.bots import BotRefused
from correspondence.services import CorrespondenceError
from gameplay import inbound
from gameplay.services import GameError

STATUS = {
    "bad_request": 400, "unauthorized": 401, "forbidden_scope": 403, "not_seated": 403, "suspended": 403,
    "muted": 403, "bots_not_allowed": 403, "forbidden": 403, "not_found": 404, "stale": 409, "not_active": 409,
    "not_open": 409, "already_seated": 409, "seat_taken": 409, "unchanged": 409, "not_over": 409,
    "closed": 409, "started": 409, "duplicate": 409, "answered": 409, "not_invited": 403, "not_yours": 403, "illegal": 422, "refused": 422, "rate_limited": 429,
    "busy": 503,
}


class ApiError(Exception):
    """A refusal raised by the API's own code (the services raise GameError)."""

    def __init__(self, code: str, message, *, version: int | None = None, headers: dict | None = None):
        super().__init__(str(message))
        self.code, self.message, self.version, self.headers = code, message, version, headers or {}


def error_response(api, request: HttpRequest, code: str, message, *, version: int | None = None,
                   headers: dict | None = None) -> HttpResponse:
    body = {"code": code, "message": str(message)}
    if version is not None:
        body["version"] = version
    response = api.create_response(request, body, status=STATUS.get(code, 422))
    for name, value in (headers or {}).items():
        response[name] = value
    if code == "busy":
        response["Retry-After"] = str(inbound.RETRY_AFTER_SECONDS)
    return response


def _validation_message(exc: ValidationError) -> str:
    parts = []
    for error in exc.errors[:3]:
        where = ".".join(str(p) for p in error.get("loc", ())[1:]) or _("the request")
        parts.append(f"{where}: {error.get('msg', '')}")
    return "; ".join(parts) or _("The request is not valid.")


def install(api) -> None:
    """Register the handlers on a NinjaAPI."""
    api.add_exception_handler(ApiError, lambda request, exc: error_response(
        api, request, exc.code, exc.message, version=exc.version, headers=exc.headers))
    api.add_exception_handler(GameError, lambda request, exc: error_response(
        api, request, exc.code, exc.message, version=exc.version))
    api.add_exception_handler(BotRefused, lambda request, exc: error_response(
        api, request, exc.code, exc.message))
    api.add_exception_handler(CorrespondenceError, lambda request, exc: error_response(
        api, request, "forbidden" if exc.code == "refused" else exc.code, exc.message))  # "refused": friends only
    api.add_exception_handler(inbound.Refused, lambda request, exc: error_response(
        api, request, "bad_request", exc.text()))
    api.add_exception_handler(ValidationError, lambda request, exc: error_response(
        api, request, "bad_request", _validation_message(exc)))
    api.add_exception_handler(AuthenticationError, lambda request, exc: error_response(
        api, request, "unauthorized", _("Send a valid API token: Authorization: Bearer <token>."),
        headers={"WWW-Authenticate": "Bearer"}))
    api.add_exception_handler(Http404, lambda request, exc: error_response(
        api, request, "not_found", _("Not found.")))
    api.add_exception_handler(HttpError, lambda request, exc: error_response(
        api, request, "bad_request", _http_error_message(exc)))
    api.add_exception_handler(OperationalError, lambda request, exc: _operational(api, request, exc))


def _http_error_message(exc: HttpError) -> str:
    """ninja wraps the body parser's refusal ("Cannot parse request body"): the gate's own words are clearer."""
    cause = exc.__cause__
    return cause.text() if isinstance(cause, inbound.Refused) else str(exc)


def _operational(api, request: HttpRequest, exc: OperationalError) -> HttpResponse:
    if not inbound.database_busy(exc):
        raise exc
    return error_response(api, request, "busy", inbound.BUSY)
