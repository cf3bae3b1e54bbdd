"""Live events as a streamed HTTP response of newline-delimited JSON (one
object a line, as Lichess's board API), for clients that cannot hold a
WebSocket. Served by daphne (ASGI): each stream is an async generator.

A stream wakes on the channel layer's messages (the same group messages
the game's WebSocket gets) and, whatever Redis does, looks at the database
every API_STREAM_POLL_SECONDS: the database is the truth, and a lost message
costs at most that long. An empty line is sent at each quiet poll (a
keep-alive, which also finds a client that has gone). A response ends after
API_STREAM_MAX_SECONDS, when the game is over, or when the seat is no
longer the token owner's; the client connects again with the last version it
saw (`?version=`), and nothing is missed: a state is a whole snapshot.

A stream ends, too, with the token it was opened with (as a socket does,
accounts.sockets): it joins its token's and its account's groups, and when
they are told to end (the token revoked, the account suspended or
deactivated) it checks the token afresh and ends if it no longer holds; it
ends when the token expires, and checks the token at every poll, so a
message Redis lost costs at most API_STREAM_POLL_SECONDS here too.

A stream's reads run on the process' database threads (`gameplay.database_threads`),
as the sockets' do, not on a thread of its own (Django gives each request one,
kept while the stream stays open): however many streams are open, their reads
take at most DATABASE_THREADS pooled connections at once, and one slow read
takes one of those threads, not all. No order to keep (key None): a stream
makes one read at a time, in its own loop.
"""

import asyncio
import json
import time
from typing import Annotated

from channels.layers import get_channel_layer
from django.conf import settings
from django.db.models import Q
from django.http import HttpRequest, StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from ninja import Query

from accounts import sockets
from api import tokens
from api.errors import ApiError
from api.schemas import MAX_ID, Id
from correspondence.models import Challenge, Invitation
from gameplay import database_threads
from gameplay.broadcast import chat_hidden_from, game_payload, seat_group
from gameplay.models import Game, Seat
from gameplay.views import current_game_ids, my_position, visible_game

NDJSON = "application/x-ndjson"
_ERROR = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
NDJSON_RESPONSE = {"responses": {
    200: {"description": "newline-delimited JSON, one event a line", "content": {NDJSON: {"schema": {"type": "object"}}}},
    400: {"description": "a malformed `version` or `since`", **_ERROR},
    401: {"description": "no token, or an unknown, revoked or expired one", **_ERROR},
    403: {"description": "the token lacks the scope; a suspended account", **_ERROR},
    404: {"description": "no such game, or one you may not see", **_ERROR},
    429: {"description": "too many requests with this token (Retry-After)", **_ERROR},
    503: {"description": "the database was busy: connect again", **_ERROR},
}}
GAME_STREAM_DOC = (
    "One JSON object a line: `state` messages (the game page's, as your seat sees it; the first one at once "
    "unless `version` is the current version), `chat` messages; empty lines keep the connection alive. "
    "`?version=N`: resume, sending the state only once the game is past version N. Ends when the game is "
    "over (after its last state), when your seat is no longer yours, or after API_STREAM_MAX_SECONDS.")
ACCOUNT_STREAM_DOC = (
    "One JSON object a line: `{\"type\": \"game\", \"game\": id, \"status\", \"version\", \"my_turn\"}` for each "
    "of your current games at the start and whenever one changes (started, moved, your turn, finished); "
    "`{\"type\": \"challenge\", \"challenge\": id, \"by\", \"engine\", \"status\", \"incoming\", \"game\"}` for each "
    "challenge waiting for an answer (yours or others') and when it closes (`game`: the table it started); "
    "empty lines keep the connection alive. The first lines are the snapshot; `?since=12:40,17:3` resumes: "
    "it names the games you have seen and the version you saw (up to MAX_SINCE), and a game still at that "
    "version is not sent again, while one that moved on (or ended) is, and so is one at version 0 (a table "
    "starting does not move its version).")
MAX_SINCE = 500
# `since` as the schema states it: GAME:VERSION pairs (empty ones skipped), at most MAX_SINCE of them.
SINCE_PATTERN = rf"^(?:[0-9]{{1,18}}:[0-9]{{1,18}})?(?:,(?:[0-9]{{1,18}}:[0-9]{{1,18}})?){{0,{MAX_SINCE - 1}}}$"
OVER = (Game.Status.FINISHED, Game.Status.ABORTED)


def _line(obj: dict) -> bytes:
    return (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode()


async def game_stream(request: HttpRequest, game_id: Id, version: Annotated[int, Query(ge=0, le=MAX_ID)] | None = None):
    """The game's events for the token's owner (his seat's, or a spectator's at a public table)."""
    language = translation.get_language()
    game, position = await database_threads.run(None, _game_and_seat, request, game_id)
    response = StreamingHttpResponse(
        _game_lines(game.pk, position, request.user.pk, version, language, tokens.credential(request.auth)),
        content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each line at once
    return response


def _game_and_seat(request, game_id: int) -> tuple[Game, int | None]:
    game = visible_game(request, game_id)
    return game, my_position(request, game)


def _state_if_changed(game_id: int, position: int | None, user_id: int, seen: tuple | None, language: str):
    """(fingerprint, state message or None, still his seat): the state only if the
    game's version, status or seats changed since `seen`."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return seen, None, False
    seats = list(game.seats.select_related("user").order_by("position"))
    mine = position is None or any(s.position == position and s.user_id == user_id for s in seats)
    fingerprint = (game.version, game.status, tuple((s.user_id, s.is_bot) for s in seats))
    if fingerprint == seen or not mine:
        return fingerprint, None, mine
    with translation.override(language):
        payload = game_payload(game, position, seats)
    payload["events"] = []
    return fingerprint, payload, mine


class Listening:
    """A stream's channel on the channel layer (None without one): the groups
    it joined, and the end it must keep (API_STREAM_MAX_SECONDS, the token's
    expiry, the token no longer holding)."""

    def __init__(self, credential: sockets.Credential, user_id: int):
        self.credential = credential
        self.groups = [credential.group, sockets.account_group(user_id)]
        self.layer = get_channel_layer()
        self.channel = None
        self.ends_at = time.monotonic() + settings.API_STREAM_MAX_SECONDS
        if credential.expires_at is not None:
            left = (credential.expires_at - timezone.now()).total_seconds()
            self.ends_at = min(self.ends_at, time.monotonic() + left)

    async def join(self, *groups: str) -> None:
        self.groups.extend(groups)
        if self.layer:
            self.channel = await self.layer.new_channel()
            for group in self.groups:
                await self.layer.group_add(group, self.channel)

    async def leave(self) -> None:
        if self.layer and self.channel:
            for group in self.groups:
                await self.layer.group_discard(group, self.channel)

    def open(self) -> bool:
        return time.monotonic() < self.ends_at

    async def holds(self) -> bool:
        """Whether the token still holds (read afresh) and its time is not up."""
        return self.open() and await database_threads.run(None, self.credential.still_valid)

    async def wait(self, seconds: float) -> dict | None:
        """The next message to the channel within `seconds` (never past the end), or None."""
        seconds = max(0.0, min(seconds, self.ends_at - time.monotonic()))
        if self.layer is None:
            await asyncio.sleep(seconds)
            return None
        try:
            return await asyncio.wait_for(self.layer.receive(self.channel), timeout=seconds)
        except asyncio.TimeoutError:
            return None


async def _game_lines(game_id: int, position: int | None, user_id: int, since: int | None, language: str,
                      credential: sockets.Credential):
    listening = Listening(credential, user_id)
    await listening.join(seat_group(game_id, position))
    seen = None
    first = True
    try:
        while await listening.holds():
            seen, payload, mine = await database_threads.run(
                None, _state_if_changed, game_id, position, user_id, seen, language)
            if not mine:
                return
            if payload is not None and not (first and since is not None and payload["version"] <= since
                                            and payload["status"] not in OVER):
                yield _line(payload)
                if payload["status"] in OVER:
                    return
            first = False
            event = await listening.wait(settings.API_STREAM_POLL_SECONDS)
            if event is None:
                yield b"\n"
            elif event.get("type") == sockets.ENDED:
                continue  # checked at the top of the loop
            elif (event.get("payload") or {}).get("type") == "chat":
                if not await database_threads.run(None, chat_hidden_from, event, user_id):
                    yield _line(event["payload"])
    finally:
        await listening.leave()


def seen_versions(since: str) -> dict[int, int]:
    """`12:40,17:3` as {game id: version}; ApiError("bad_request") for anything else."""
    seen: dict[int, int] = {}
    for part in filter(None, since.split(",")):
        game, _sep, version = part.partition(":")
        if not (game.isascii() and game.isdigit() and version.isascii() and version.isdigit()
                and len(game) < 19 and len(version) < 19):
            raise ApiError("bad_request", _("`since` lists games as GAME:VERSION, separated by commas."))
        seen[int(game)] = int(version)
    if len(seen) > MAX_SINCE:
        raise ApiError("bad_request", _("`since` may name at most %(n)s games.") % {"n": MAX_SINCE})
    return seen


async def account_stream(request: HttpRequest, since: Annotated[str, Query(pattern=SINCE_PATTERN)] = ""):
    """The token owner's games as they change (`since`: what the client has seen, to resume)."""
    seen = seen_versions(since)
    response = StreamingHttpResponse(_account_lines(request.user.pk, tokens.credential(request.auth), seen),
                                     content_type=NDJSON)
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _my_games_now(user_id: int, known: set[int]) -> dict[int, dict]:
    """{game id: its line} for the user's current games and those he was told about before."""
    seats = (Seat.objects.filter(user_id=user_id).filter(game_id__in=current_game_ids())
             | Seat.objects.filter(user_id=user_id, game_id__in=known))
    rows = seats.select_related("game").values_list("game_id", "game__status", "game__version", "game__engine",
                                                    "deadline")
    return {game_id: {"type": "game", "game": game_id, "engine": engine, "status": status, "version": version,
                      "my_turn": status == Game.Status.ACTIVE and deadline is not None}
            for game_id, status, version, engine, deadline in rows}


def _my_challenges_now(user_id: int, known: set[int]) -> dict[int, dict]:
    """{challenge id: its line} for the challenges to or from the user still waiting, and those he was told of."""
    mine = Q(created_by_id=user_id) | Q(pk__in=Invitation.objects.filter(user_id=user_id).values("challenge_id"))
    found = (Challenge.objects.filter(mine).filter(Q(status=Challenge.Status.PENDING) | Q(pk__in=known))
             .values_list("pk", "created_by_id", "created_by__username", "engine", "status", "game_id"))
    return {pk: {"type": "challenge", "challenge": pk, "by": by_name, "engine": engine, "status": status,
                 "incoming": by_id != user_id, "game": game_id}
            for pk, by_id, by_name, engine, status, game_id in found}


def _account_now(user_id: int, games: set[int], challenges: set[int]) -> dict[tuple[str, int], dict]:
    now = {("game", pk): line for pk, line in _my_games_now(user_id, games).items()}
    now.update({("challenge", pk): line for pk, line in _my_challenges_now(user_id, challenges).items()})
    return now


def _still_open(line: dict) -> bool:
    return line["status"] not in OVER if line["type"] == "game" else line["status"] == Challenge.Status.PENDING


async def _account_lines(user_id: int, credential: sockets.Credential, seen: dict[int, int] | None = None):
    listening = Listening(credential, user_id)
    await listening.join()
    told: dict[tuple[str, int], dict] = {}
    if seen:  # resumed: the games the client saw, at the versions it saw (a game that moved on differs)
        known = await database_threads.run(None, _my_games_now, user_id, set(seen))
        # A game at version 0 is sent anyway: its start does not move its version.
        told = {("game", pk): line for pk, line in known.items() if 0 < line["version"] == seen.get(pk)}
        told.update({("game", pk): {"version": version} for pk, version in seen.items() if ("game", pk) not in told})
    try:
        while await listening.holds():
            now = await database_threads.run(
                None, _account_now, user_id,
                {pk for kind, pk in told if kind == "game"}, {pk for kind, pk in told if kind == "challenge"})
            changed = [line for key, line in sorted(now.items()) if told.get(key) != line]
            for line in changed:
                yield _line(line)
            told = {key: line for key, line in now.items() if _still_open(line)}
            if not changed:
                yield b"\n"
            # Only the ending messages come to this channel: each is checked at the top of the loop.
            await listening.wait(settings.API_STREAM_POLL_SECONDS)
    finally:
        await listening.leave()
