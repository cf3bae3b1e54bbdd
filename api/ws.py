"""Token authentication for the WebSockets (README "WebSocket protocol").

A client that sends `Authorization: Bearer <token>` with the upgrade is
the token's owner on every socket (`/ws/games/<id>/`, `/ws/me/`), the same
protocol as the page's. The token needs the "play" scope (the socket can
move and chat). A bearer token is not sent by browsers on their own, so the
Origin check, which protects the session cookie from other sites, does not
apply to it (bots send no Origin). A bad token, or one of a suspended
account, is refused: close 4401. The socket carries the token's credential
(`accounts.sockets.Credential`): it ends when the token is revoked, expires,
or its account is suspended or deactivated.
Requests without the header go the session's way (Origin check, cookie)."""

from api import tokens
from api.models import Scope
from gameplay import database_threads

CLOSE_UNAUTHORIZED = 4401


def bearer(scope: dict) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == b"authorization":
            kind, _sep, token = value.decode("latin1").partition(" ")
            return token.strip() if kind.lower() == "bearer" else None
    return None


class TokenOrSession:
    """ASGI: WebSockets with a bearer token go to `with_token`, the others to `with_session`."""

    def __init__(self, with_token, with_session):
        self.with_token, self.with_session = with_token, with_session

    async def __call__(self, scope, receive, send):
        raw = bearer(scope)
        if raw is None:
            return await self.with_session(scope, receive, send)
        # On the process' database threads, as the sockets' own work (no order to keep: key None).
        token = await database_threads.run(None, tokens.authenticate, raw)
        if token is None or Scope.PLAY not in token.scopes or tokens.standing_refusal(token):
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": CLOSE_UNAUTHORIZED})
            return None
        return await self.with_token({**scope, "user": token.user, "api_token": token,
                                      "credential": tokens.credential(token)}, receive, send)
