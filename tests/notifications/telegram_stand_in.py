"""A local stand-in for the Telegram Bot API: an aiohttp server in a thread
that answers the methods the site uses the way api.telegram.org does
(``POST /bot<token>/<method>``, form or JSON fields, ``{"ok": true, "result": ...}``
or ``{"ok": false, "error_code": ..., "description": ...}``).

- getMe; sendMessage (recorded in `messages`, its reply_markup decoded);
  setWebhook / deleteWebhook (recorded in `webhook`);
- getUpdates, long polling: serves the updates a test injects with
  `user_says(chat_id, text)`, as if a user typed them, waiting up to the
  request's `timeout` for one; an `offset` confirms the earlier ones;
- `fail_next(method, status, description)`: the next calls of a method
  answer an error (403 "Forbidden: bot was blocked by the user", 502, 429 with
  retry_after...).
Point the site at it with TELEGRAM_API_URL = `stand_in.url`.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from dataclasses import dataclass, field

from aiohttp import web

BOT_ID = 777000111
BOT_USERNAME = "kitchen_table_test_bot"
TOKEN = f"{BOT_ID}:TEST-token-for-the-local-stand-in"


@dataclass
class Failure:
    status: int
    description: str
    retry_after: int | None = None
    times: int = 1


@dataclass
class StandIn:
    token: str = TOKEN
    messages: list[dict] = field(default_factory=list)
    calls: list[str] = field(default_factory=list)
    webhook: dict = field(default_factory=dict)
    url: str = ""

    def __post_init__(self) -> None:
        self._updates: list[dict] = []
        self._update_ids = itertools.count(1)
        self._message_ids = itertools.count(1)
        self._failures: dict[str, Failure] = {}
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None

    # --- the test's side ----------------------------------------------------------------

    def user_says(self, chat_id: int, text: str, language: str = "en", chat_type: str = "private") -> dict:
        """Queue an update for getUpdates: the user of private chat `chat_id` sent `text`."""
        update = self.update(chat_id, text, language, chat_type)
        with self._lock:
            self._updates.append(update)
        return update

    def update(self, chat_id: int, text: str, language: str = "en", chat_type: str = "private") -> dict:
        """The update Telegram makes when the user of chat `chat_id` sends `text` (not queued)."""
        entities = []
        if text.startswith("/"):
            entities = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        update = {
            "update_id": next(self._update_ids),
            "message": {
                "message_id": next(self._message_ids),
                "date": int(time.time()),
                "chat": {"id": chat_id, "type": chat_type, "first_name": "Player"},
                "from": {"id": chat_id, "is_bot": False, "first_name": "Player", "language_code": language},
                "text": text,
                "entities": entities,
            },
        }
        return update

    def fail_next(self, method: str, status: int, description: str, *, retry_after: int | None = None,
                  times: int = 1) -> None:
        with self._lock:
            self._failures[method.lower()] = Failure(status, description, retry_after, times)

    def messages_to(self, chat_id: int) -> list[dict]:
        with self._lock:
            return [m for m in self.messages if m["chat_id"] == chat_id]

    def wait_for_messages(self, chat_id: int, count: int, timeout: float = 20.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.messages_to(chat_id)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"chat {chat_id} got {self.messages_to(chat_id)}, not {count} message(s)")

    def pending_updates(self) -> int:
        with self._lock:
            return len(self._updates)

    # --- the server ----------------------------------------------------------------------

    def start(self) -> StandIn:
        ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, args=(ready,), name="telegram-stand-in", daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError("the Bot API stand-in did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None:
            asyncio.run_coroutine_threadsafe(self._runner.cleanup(), self._loop).result(10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)

    def _serve(self, ready: threading.Event) -> None:
        self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self._loop)
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app)
        self._loop.run_until_complete(self._runner.setup())
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        self._loop.run_until_complete(site.start())
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        ready.set()
        self._loop.run_forever()

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return _error(401, "Unauthorized")
        method = request.match_info["method"].lower()
        params = await _params(request)
        with self._lock:
            self.calls.append(method)
            failure = self._failures.get(method)
            if failure is not None:
                failure.times -= 1
                if failure.times <= 0:
                    del self._failures[method]
        if failure is not None:
            return _error(failure.status, failure.description, failure.retry_after)
        handler = getattr(self, f"_{method}", None)
        if handler is None:
            return _error(404, "Not Found: method not found")
        return await handler(params)

    async def _getme(self, params: dict) -> web.Response:
        return _ok({"id": BOT_ID, "is_bot": True, "first_name": "Kitchen table", "username": BOT_USERNAME,
                    "can_join_groups": False, "can_read_all_group_messages": False,
                    "supports_inline_queries": False})

    async def _sendmessage(self, params: dict) -> web.Response:
        try:
            chat_id = int(params["chat_id"])
        except (KeyError, ValueError):
            return _error(400, "Bad Request: chat not found")
        text = params.get("text") or ""
        if not text:
            return _error(400, "Bad Request: message text is empty")
        markup = params.get("reply_markup")
        message = {"chat_id": chat_id, "text": text, "parse_mode": params.get("parse_mode"),
                   "reply_markup": json.loads(markup) if isinstance(markup, str) else markup}
        with self._lock:
            self.messages.append(message)
        return _ok({"message_id": next(self._message_ids), "date": int(time.time()),
                    "chat": {"id": chat_id, "type": "private"}, "text": text,
                    "from": {"id": BOT_ID, "is_bot": True, "first_name": "Kitchen table"}})

    async def _getupdates(self, params: dict) -> web.Response:
        offset = int(params.get("offset") or 0)
        deadline = time.monotonic() + min(float(params.get("timeout") or 0), 30.0)
        while True:
            with self._lock:
                self._updates = [u for u in self._updates if u["update_id"] >= offset]
                ready = list(self._updates[:100])
            if ready or time.monotonic() >= deadline:
                return _ok(ready)
            await asyncio.sleep(0.05)

    async def _setwebhook(self, params: dict) -> web.Response:
        with self._lock:
            self.webhook = {"url": params.get("url"), "secret_token": params.get("secret_token")}
        return _ok(True)

    async def _deletewebhook(self, params: dict) -> web.Response:
        with self._lock:
            self.webhook = {}
        return _ok(True)


async def _params(request: web.Request) -> dict:
    params = dict(request.query)
    if request.content_type == "application/json":
        params.update(await request.json())
    elif request.can_read_body:
        params.update({key: value for key, value in (await request.post()).items() if isinstance(value, str)})
    return params


def _ok(result) -> web.Response:
    return web.json_response({"ok": True, "result": result})


def _error(status: int, description: str, retry_after: int | None = None) -> web.Response:
    body = {"ok": False, "error_code": status, "description": description}
    if retry_after is not None:
        body["parameters"] = {"retry_after": retry_after}
    return web.json_response(body, status=status)
