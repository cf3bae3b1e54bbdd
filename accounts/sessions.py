"""The session engine (SESSION_ENGINE): Django's database sessions, whose
end also closes the WebSockets opened with them (`accounts.sockets`).

Every way a session ends goes through `delete`: logout (`flush`), a login
or a password change rotating the key (`cycle_key`), and an explicit
deletion."""

from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore

from accounts.sockets import end_session_sockets


class SessionStore(DatabaseSessionStore):
    def delete(self, session_key: str | None = None) -> None:
        key = session_key if session_key is not None else self.session_key
        super().delete(session_key)
        end_session_sockets(key)
