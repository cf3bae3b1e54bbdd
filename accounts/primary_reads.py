"""Which reads may go to a read replica, and which must see the viewer's own writes.

With read replicas configured (DATABASE_REPLICA_URLS, config/db_router.py), a
read goes to a replica only inside a page's view (`ReplicaReadsMiddleware`): a
GET or HEAD request, to a view not marked `reads_primary`, of a viewer who
changed nothing in the last READ_OWN_WRITES_SECONDS. Everything else reads the
primary: the middleware before the view (the session, the user), every other
method, the sockets' consumers (the move path), Celery's tasks, commands, and
any read inside a transaction (the router's own rule).

A viewer's change marks him in the shared cache for READ_OWN_WRITES_SECONDS:
every request of another method than GET, HEAD or OPTIONS (a form, the API's
POST), a page whose view wrote something (`note_write`, from the router; the
rest of that view reads the primary), and every change made over a socket
(`mark_changed`, called by the consumers before they answer). For so long his pages read the primary, so a
replica that lags behind does not leave his own move, chat line or form
missing from the page he opens next. The viewer is his account (a session's or
an API token's user); a request carrying an API token is also known by the
token itself, since its user is known only once the API has checked it.

Without replicas nothing here is used: no middleware, and `mark_changed` does
nothing.
"""

import hashlib
import logging
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_KEY_PREFIX = "primary-reads:"


@dataclass
class _Scope:
    replica_allowed: bool = False
    wrote: bool = False


# The scope of the request being served; shared by reference with the threads its view runs on.
_scope: ContextVar[_Scope | None] = ContextVar("replica_reads_scope", default=None)


def replica_allowed() -> bool:
    """Whether a read outside a transaction may go to a replica here and now."""
    scope = _scope.get()
    return scope is not None and scope.replica_allowed


def note_write() -> None:
    """A write is about to go to the primary (the router's `db_for_write`): the
    rest of the request reads the primary too (what it wrote is not on the
    replicas yet), and its viewer is marked as after any change."""
    scope = _scope.get()
    if scope is not None:
        scope.replica_allowed = False
        scope.wrote = True


def reads_primary(view: Callable) -> Callable:
    """Mark a view whose reads must all go to the primary (the game's live
    page and its state: what the sockets will be compared with)."""
    view.reads_primary = True
    return view


def replicas_configured() -> bool:
    return bool(getattr(settings, "DATABASE_REPLICAS", None))


def _viewer_keys(request: HttpRequest) -> list[str]:
    keys = []
    authorization = request.headers.get("Authorization", "")
    if authorization.lower().startswith("bearer "):
        keys.append("token:" + hashlib.sha256(authorization[7:].strip().encode()).hexdigest()[:32])
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        keys.append(f"user:{user.pk}")
    return keys


def _mark(keys: list[str]) -> None:
    if keys and settings.READ_OWN_WRITES_SECONDS > 0:
        try:
            cache.set_many({_KEY_PREFIX + key: 1 for key in keys}, timeout=settings.READ_OWN_WRITES_SECONDS)
        except Exception as exc:  # Redis away: the change is made; only its mark is lost
            log.warning("could not mark a viewer's change for primary reads: %s", exc)


def mark_changed(user_id: int | None) -> None:
    """The account `user_id` changed something (a move, a chat line, an order
    over a socket): its pages read the primary for READ_OWN_WRITES_SECONDS."""
    if user_id is not None and replicas_configured():
        _mark([f"user:{user_id}"])


def changed_recently(keys: list[str]) -> bool:
    """Whether any of these viewer keys changed something lately (Redis away: assumed so)."""
    if not keys:
        return False
    try:
        return bool(cache.get_many([_KEY_PREFIX + key for key in keys]))
    except Exception as exc:  # Redis away: read the primary, which is never behind
        log.warning("could not read a viewer's change marks: %s", exc)
        return True


class ReplicaReadsMiddleware:
    """Lets the view of a page read a replica (see the module's docstring);
    marks the viewer of any other request as having changed something."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        scope = _Scope()
        token = _scope.set(scope)
        try:
            response = self.get_response(request)
        finally:
            _scope.reset(token)
        if request.method not in SAFE_METHODS or scope.wrote:
            _mark(_viewer_keys(request))
        return response

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs) -> None:
        scope = _scope.get()
        if scope is None or request.method not in SAFE_METHODS or getattr(view_func, "reads_primary", False):
            return None
        scope.replica_allowed = not changed_recently(_viewer_keys(request))
        return None
