"""The session sockets' user, looked up on the process' database threads.

channels' `AuthMiddlewareStack` reads the session and its user (two queries:
sessions are in the database, `accounts.sessions`) with
`database_sync_to_async`, on the one thread every such call of a daphne
process shares: each socket's opening waited for every other database call
of the process. `session_auth_stack` is channels' stack with that one read on
`gameplay.database_threads` instead (key None: each opening reads its own
session, there is no order to keep); the rest is channels' own.
"""

from collections.abc import Callable

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware

from gameplay import database_threads

# channels' lookup itself (the session's user, its session hash checked), without its hop to the one thread.
read_user = get_user.__wrapped__


class SessionAuthMiddleware(AuthMiddleware):
    """channels' AuthMiddleware, its lookup run on the process' database threads."""

    async def resolve_scope(self, scope: dict) -> None:
        scope["user"]._wrapped = await database_threads.run(None, read_user, scope)


def session_auth_stack(inner: Callable) -> CookieMiddleware:
    """Cookies, the session and its user around `inner`, as channels' `AuthMiddlewareStack`."""
    return CookieMiddleware(SessionMiddleware(SessionAuthMiddleware(inner)))
