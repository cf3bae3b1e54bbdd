"""The game's WebSocket consumer: parse, call a service, send.

Protocol (JSON text frames; see README "WebSocket protocol"):
  client -> {"type": "move", "action": {...}, "version": 12, "move_id": "uuid"}
  client -> {"type": "sync"}
  client -> {"type": "chat", "text": "..."}   (players only; server -> {"type": "chat", "message": {...}})
  client -> {"type": "ahead", "on": true}   (Durak: "done for me in this bout", said in advance or taken
                                             back; answered by {"type": "ahead_ack", "on": true}; the new
                                             state, with its "ahead" field, goes to this seat only)
  client -> {"type": "orders", "set": {"kind": "bid", "params": {"tricks": 2}}}   (standing orders, as the page's
            and the API's endpoint: or "cancel": order id, or "dismiss": true; answered by {"type": "orders_ack"}
            ("id": the new order's, after a set) or an error; the new list, in the state message, goes to this
            seat only)
  client -> {"type": "ping"}      (every 30 s: "I am on the game page", `presence`; answered by {"type": "pong", "version": 13},
                                   the game's version in the database: a page behind it asks for the state again,
                                   so a state message Redis lost is repaired within a heartbeat)
  server -> {"type": "state", "version": 13, "view": {...}, "legal": [...], ...}
  server -> {"type": "ack", "move_id": "...", "version": 13}
  server -> {"type": "error", "code": "illegal", "message": "...", "version": 12, "move_id": "..."}
  server -> {"type": "seat_replaced", "position": 1, "reason": "...", "computer": false, "message": "..."}
            (a moderator gave this player's seat to someone else: said to his socket, which is then
            closed; his page shows the message and reconnects as a spectator, gameplay/replaced.py)

The same socket serves an open table's waiting room (static/js/waiting.js):
the table services send the same "state" after every seat taken or left and
at the start. An invitee of a private table (the session holds its invite)
follows it only until it starts; a socket whose player left his seat of an
open table is closed before the seat's next occupant's view could reach it.

Every frame passes the connection's rate limit and the gate of
`gameplay.inbound` first (size, depth, types, valid text); a refused frame is
answered with an error ("bad_request", "rate_limited") and changes nothing. A
locked or busy database is answered with the error "busy" (a move's answer
carries its move_id, so the page resends it); at connect, with close code
4503 after that error. Past saturation, a move, chat line, "ahead" or "orders" that
would wait too long for the process' database threads (`gameplay.database_threads`) is answered "busy"
too, at once or when its turn comes (`inbound.in_line`), unapplied. A flood that goes on after its refusals is closed with
4429.
"""

import time

from django.conf import settings
from django.db import OperationalError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import primary_reads
from gameplay import database_threads, inbound, presence, services
from gameplay.broadcast import chat_hidden_from, chat_history, game_payload, seat_group
from gameplay.i18n import socket_language
from gameplay.models import Game
from gameplay.replaced import replacement_of
from gameplay.views import INVITES_SESSION_KEY

CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404


def _position_for(game_id: int, user, session) -> tuple[bool, int | None, bool]:
    """(may connect, seat position or None for a spectator, until the start
    only). Whoever may see a table's page may follow it: its players, anyone
    at a public table, and at a private table that has not started, whoever
    opened its invite link (this session), to see its seats fill up."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return False, None, False
    if user.is_authenticated:
        seat = game.seats.filter(user=user).first()
        if seat is not None:
            return True, seat.position, False
    if not game.is_private:
        return True, None, False
    invited = session is not None and game.pk in session.get(INVITES_SESSION_KEY, [])
    invited = invited and game.status == Game.Status.OPEN
    return invited, None, invited


def _heartbeat(game_id: int, position: int | None, user_id: int, last_seen: bool) -> tuple[int | None, bool]:
    """A ping: the player is still on the page (`presence.mark`). The game's
    version now (None: the game is gone), and whether `seen_at` was written."""
    written = position is not None and presence.mark(game_id, position, user_id, last_seen=last_seen)
    return Game.objects.filter(pk=game_id).values_list("version", flat=True).first(), written


def _chat_history(game_id: int, viewer_id: int | None) -> list[dict]:
    return chat_history(Game.objects.get(pk=game_id), viewer_id)


def _payload(game_id: int, position: int | None) -> dict:
    return game_payload(Game.objects.get(pk=game_id), position)


def _replacement_json(game_id: int, user) -> dict | None:
    replacement = replacement_of(game_id, user)
    return replacement.as_json() if replacement else None


def _in_language(language: str, func, *args):
    with translation.override(language):
        return func(*args)


def _change_in_language(language: str, func, game_id: int, user, *args):
    """`func(game_id, user, *args)`, a change the user makes, in his language; then his
    pages read the primary for a while (with read replicas: accounts.primary_reads)."""
    result = _in_language(language, func, game_id, user, *args)
    primary_reads.mark_changed(user.pk)
    return result


class GameConsumer(inbound.GatedConsumer):
    language: str | None = None  # set at connect (socket_language); None: the site's default
    until_start = False  # an invitee at a private table's waiting room: closed when the game starts
    seen_written_at = 0.0  # time.monotonic() when this socket last wrote its seat's `seen_at`

    async def open(self) -> None:
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.user = self.scope["user"]
        self.language = socket_language(self.scope)
        allowed, self.position, self.until_start = await database_threads.run(
            None, _position_for, self.game_id, self.user, self.scope.get("session"))
        if not allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.group = seat_group(self.game_id, self.position)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        if self.position is not None:  # on the game page: no "your turn" email while he is
            await database_threads.run(None, presence.mark, self.game_id, self.position, self.user.pk, last_seen=True)
        self.seen_written_at = time.monotonic()
        await self.send_state()
        history = await database_threads.run(None, _chat_history, self.game_id, getattr(self.user, "pk", None))
        await self.send_json({"type": "chat_history", "messages": history})

    async def send_busy(self, content: dict) -> None:
        move_id = content.get("move_id") if content.get("type") == "move" else None
        await self.send_error("busy", inbound.BUSY, move_id=move_id)


    async def receive_json(self, content, **kwargs):
        kind = content.get("type")
        if kind == "sync":
            await self.send_state()
        elif kind == "ping":
            version = None
            last_seen = time.monotonic() - self.seen_written_at >= settings.SEEN_AT_WRITE_SECONDS
            try:
                version, written = await database_threads.run(
                    None, _heartbeat, self.game_id, self.position, self.user.pk, last_seen)
            except OperationalError as exc:  # busy: the next ping, 30 s later, marks the heartbeat
                if not inbound.database_busy(exc):
                    raise
            else:
                if written:
                    self.seen_written_at = time.monotonic()
            await self.send_json({"type": "pong", "version": version})
        elif kind == "move":
            await self.receive_move(content)
        elif kind == "chat":
            await self.receive_chat(content)
        elif kind == "ahead":
            await self.receive_ahead(content)
        elif kind == "orders":
            await self.receive_orders(content)
        else:
            await self.send_error("bad_request", _("Unknown message type."))

    async def receive_move(self, content: dict) -> None:
        move_id = content.get("move_id")
        try:
            result = await inbound.in_line(
                _change_in_language, self.language, services.submit_move, self.game_id, self.user,
                content.get("action"), content.get("version"), move_id, key=self.game_id,
            )
        except services.GameError as exc:
            await self.send_error(exc.code, exc.message, exc.version, move_id)
            return
        await self.send_json({"type": "ack", "move_id": move_id, "version": result.version,
                              "duplicate": result.duplicate})

    async def receive_ahead(self, content: dict) -> None:
        on = content.get("on")
        try:
            await inbound.in_line(_change_in_language, self.language, services.order_ahead, self.game_id, self.user, on,
                                 key=self.game_id)
        except services.GameError as exc:
            await self.send_error(exc.code, exc.message, exc.version)
            return
        await self.send_json({"type": "ahead_ack", "on": on})

    async def receive_orders(self, content: dict) -> None:
        try:
            answer = await inbound.in_line(_in_language, self.language, services.order_message, self.game_id,
                                           self.user, content, key=self.game_id)
        except services.GameError as exc:
            await self.send_error(exc.code, exc.message, exc.version)
            return
        await self.send_json(answer)

    async def receive_chat(self, content: dict) -> None:
        try:
            await inbound.in_line(
                _change_in_language, self.language, services.post_chat, self.game_id, self.user, content.get("text"),
                key=self.game_id,
            )
        except services.GameError as exc:
            await self.send_error(exc.code, exc.message)

    async def send_state(self) -> None:
        payload = await database_threads.run(None, _in_language, self.language, _payload, self.game_id, self.position)
        await self.send_payload(payload)

    async def send_payload(self, payload: dict) -> None:
        """A state message to this socket; an invitee of a private table
        learns that it started (his page reloads) and sees no more of it."""
        if self.until_start and payload.get("type") == "state" and payload.get("status") != Game.Status.OPEN:
            await self.send_json({"type": "state", "game": payload.get("game"), "status": payload.get("status"),
                                  "version": payload.get("version"), "seat": None, "players": [], "view": None,
                                  "legal": [], "events": []})
            self.closing = True
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.send_json(payload)

    async def send_error(self, code: str, message, version: int | None = None, move_id=None) -> None:
        message = _in_language(self.language, str, message)
        await self.send_json({"type": "error", "code": code, "message": message, "version": version,
                              "move_id": move_id})

    async def game_update(self, event):
        if self.closing:
            return
        if self.position is not None and "user" in event and event["user"] != self.user.pk:
            # He left this seat (or never had it again): its views are another's now.
            # Closed, his page reconnects as who he is now; told why first if a moderator took it.
            self.closing = True
            replaced = await database_threads.run(
                None, _in_language, self.language, _replacement_json, self.game_id, self.user)
            if replaced is not None:
                await self.send_json(replaced)
            await self.close(code=CLOSE_FORBIDDEN)
            return
        if (self.position is None and self.user.is_authenticated and self.user.pk in event.get("seated", ())
                and event["payload"].get("status") == Game.Status.ACTIVE):
            # A moderator gave this user a seat of this game: the page reconnects as its player.
            self.closing = True
            await self.close(code=CLOSE_FORBIDDEN)
            return
        hidden = "author" in event and await database_threads.run(
            None, chat_hidden_from, event, getattr(self.user, "pk", None))
        if hidden:
            return  # a chat line of a player this viewer blocks or is blocked by
        await self.send_payload(event["payload"])

