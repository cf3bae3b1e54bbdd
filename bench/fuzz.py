"""The long fuzz run: the strategies of tests/gameplay/test_fuzz_strategies.py,
at least 100,000 inputs by default, through every way in.

    python -m bench.fuzz                    # 100,000 inputs (about 22 minutes on two cores)
    python -m bench.fuzz --inputs 5000      # smoke run
    python -m bench.fuzz --seed 7           # another sequence of inputs

Everything is real: a throwaway SQLite database (migrated as the test runner
does), `config.asgi.application` (session auth, Origin check, routing, both
consumers) driven by Channels' communicator, and Django's test client for the
views and the admin. An input is one frame, one HTTP request, one form post
or one message given to the gate alone; the report prints how many each
target tried, the failures (the first few of each target with the input), and
the time (the token API, api/, is one target: its endpoints with each
player's token). A failure is a server error (an exception out of a view or a
consumer, a 5xx), a consumer that stops answering, an error without a
message, or a refusal that changed the game. The exit status is 1 when
anything failed. See bench/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
import traceback
import zlib
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.common import production_like_environment  # noqa: E402
from bench.move_roundtrip import create_database, destroy_database, make_players, progress  # noqa: E402

ORIGIN = (b"origin", b"http://127.0.0.1")
ERROR_CODES = {"bad_request", "illegal", "stale", "not_seated", "not_active", "not_found", "login_required",
               "rate_limited"}
SHOWN_PER_TARGET = 5

# Each target's share of the inputs.
SHARES = {
    "gate": 0.16, "http_move": 0.17, "api": 0.04, "http_ahead": 0.05, "ws_game": 0.25, "ws_badge": 0.08, "ws_moves": 0.05,
    "ws_flood": 0.02, "form_new_table": 0.05, "form_join": 0.03, "form_profile": 0.02, "chat": 0.04,
    "admin": 0.04,
}


def configure_django() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["REDIS_URL"] = ""  # in-process channel layer, eager tasks: nothing else to start
    os.environ.update(production_like_environment())  # the test client speaks plain HTTP
    os.environ.setdefault("LOG_LEVEL", "CRITICAL")  # failures are counted here, not logged
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at", module="django.core.handlers.base")
    warnings.filterwarnings("ignore", message="Generating overly large repr")  # Hypothesis, of a 40 KB input
    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()  # the test client's host, response.context, the in-memory mail box
    import config.asgi  # noqa: F401 — it sets Django up again, logging included: before quieting it

    import logging

    for name in ("django.request", "django.security", "axes"):  # every refusal is a logged 4xx
        logging.getLogger(name).setLevel(logging.CRITICAL)
    from django.conf import settings

    settings.WS_FRAME_LIMITS = "1000000/second"  # the flood target sets its own


class Run:
    """Counts inputs and keeps failures, per target."""

    def __init__(self) -> None:
        self.inputs: Counter[str] = Counter()
        self.failures: dict[str, list[str]] = defaultdict(list)
        self.failure_count: Counter[str] = Counter()
        self.seconds: Counter[str] = Counter()

    def fail(self, target: str, what: str, data) -> None:
        self.failure_count[target] += 1
        if len(self.failures[target]) < SHOWN_PER_TARGET:
            self.failures[target].append(f"{what}\n      input: {_short(data)}")


def _short(data, limit: int = 300) -> str:
    text = repr(data)
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


# ---- the world: accounts, sessions, games ----------------------------------------------------


class World:
    def __init__(self) -> None:
        from django.conf import settings
        from django.contrib.auth import get_user_model
        from django.test import Client

        self.players, cookies = make_players()
        self.headers = [[ORIGIN, (b"cookie", cookie)] for cookie in cookies]
        users = get_user_model().objects
        self.stranger = users.create_user("stranger", password=None, language="en")
        self.profiled = users.create_user("profiled", password=None, language="en")
        self.moderator = users.create_superuser("moderator", password=None, email="m@example.com")
        self.clients = []
        for cookie in cookies:
            client = Client()
            name, value = cookie.decode().split("=", 1)
            client.cookies[name] = value
            self.clients.append(client)
        for user in (self.stranger, self.profiled, self.moderator):
            client = Client()
            client.force_login(user)
            self.clients.append(client)
        self.stranger_client, self.profile_client, self.moderator_client = self.clients[4:7]
        self.anonymous = Client()
        self.visitors = self.clients[:5] + [self.anonymous]
        self.stranger_headers = [ORIGIN, (b"cookie", f"{settings.SESSION_COOKIE_NAME}="
                                          f"{self.stranger_client.cookies[settings.SESSION_COOKIE_NAME].value}".encode())]
        self.ws_visitors = self.headers + [self.stranger_headers, [ORIGIN]]
        self.joker = self.new_game("joker", 4)
        self.durak = self.new_game("durak", 3)

    def new_game(self, engine: str, players: int) -> int:
        from gameplay import services

        game = services.create_game(self.players[0], engine, players=players)
        for user in self.players[1:players]:
            services.join_game(game.pk, user)
        return game.pk

    def live_joker(self) -> int:
        """The Joker game, replaced by a new one once it is over."""
        from gameplay.models import Game

        if Game.objects.get(pk=self.joker).status != Game.Status.ACTIVE:
            self.joker = self.new_game("joker", 4)
        return self.joker


def snapshot(game_id: int) -> tuple:
    from gameplay.models import ChatMessage, Game

    game = Game.objects.values("version", "status", "state").get(pk=game_id)
    seats = list(Game.objects.get(pk=game_id).seats.order_by("position").values_list(
        "user_id", "ahead_scope", "reserve_seconds_left", "deadline"))
    return game["version"], game["status"], game["state"], seats, ChatMessage.objects.filter(game_id=game_id).count()


def admitted(frame):
    from gameplay import inbound

    try:
        return inbound.parse(frame)
    except inbound.Refused:
        return None


def as_bytes(body):
    return body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body


def judge_json_reply(status: int, reply: dict, before: tuple, after: tuple) -> str | None:
    """What is wrong with an HTTP API answer, or None."""
    if status >= 500:
        return f"HTTP {status}"
    if reply.get("type") == "error":
        if reply.get("code") not in ERROR_CODES:
            return f"unknown error code {reply.get('code')!r}"
        if not isinstance(reply.get("message"), str) or not reply["message"].strip():
            return "an error without a message"
        if after != before:
            return f"refused ({reply['code']}) but the game changed"
    elif reply.get("type") not in ("ack", "ahead_ack"):
        return f"unexpected answer {reply!r}"
    return None


def judge_frame(frame, replies: list[dict], before: tuple, after: tuple) -> str | None:
    for reply in replies:
        if reply.get("type") == "error":
            if reply.get("code") not in ERROR_CODES:
                return f"unknown error code {reply.get('code')!r}"
            if not isinstance(reply.get("message"), str) or not reply["message"].strip():
                return "an error without a message"
    if admitted(frame) is None and [(r.get("type"), r.get("code")) for r in replies] != [("error", "bad_request")]:
        return f"the gate refused it but the answer was {replies!r}"
    if not any(r.get("type") in ("ack", "ahead_ack", "chat") for r in replies) and after != before:
        return "refused but the game changed"
    return None


# ---- the targets ----------------------------------------------------------------------------------


class Enough(Exception):
    """A target has used its inputs."""


def run_target(run: Run, name: str, budget: int, per_example: int, strategy, body, seed: int) -> None:
    """Feed `body(value)` (which returns how many inputs it used) examples of
    `strategy` until `budget` inputs; `per_example` is the expected mean."""
    from hypothesis import HealthCheck, Phase, Verbosity, given, settings
    from hypothesis import seed as hypothesis_seed

    started = time.monotonic()
    done = {"inputs": 0}

    def drive(value):
        if done["inputs"] >= budget:
            raise Enough  # ends the run: no more examples are generated
        try:
            used = body(value)
        except Exception as exc:  # noqa: BLE001 — a crash is a finding
            used = 1
            run.fail(name, f"{type(exc).__name__}: {exc}\n      {_last_frame(exc)}", value)
        done["inputs"] += used
        run.inputs[name] += used

    for attempt in range(100):  # a new seed whenever Hypothesis runs out of examples first
        examples = max(10, 2 * (budget - done["inputs"]) // per_example)
        driven = hypothesis_seed(seed * 1000 + zlib.crc32(name.encode()) % 1000 + attempt)(
            settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
                     verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck), print_blob=False)(
                given(strategy)(drive)))
        try:
            driven()
        except Enough:
            break
        except Exception as exc:  # noqa: BLE001 — Hypothesis itself gave up
            run.fail(name, f"the run stopped: {type(exc).__name__}: {exc}", None)
            break
        if done["inputs"] >= budget:
            break
    run.seconds[name] += time.monotonic() - started
    progress(f"{name}: {run.inputs[name]} inputs, {run.failure_count[name]} failures, "
             f"{time.monotonic() - started:.0f} s")


def _last_frame(exc: BaseException) -> str:
    """Where it was raised, and the project's own last frame on the way."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    own = [f for f in frames if "/.venv/" not in f.filename and not f.filename.endswith("bench/fuzz.py")]
    places = [frames[-1]] + ([own[-1]] if own and own[-1] is not frames[-1] else [])
    return "at " + " via ".join(f"{'/'.join(Path(f.filename).parts[-2:])}:{f.lineno} ({f.name})" for f in places)


def targets(world: World, run: Run, budget: dict[str, int], seed: int) -> None:
    from asgiref.sync import async_to_sync
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.urls import reverse
    from hypothesis import strategies as st

    from config.asgi import application
    from gameplay import inbound, services
    from gameplay.engine import get_engine
    from gameplay.models import ChatMessage, Game
    from tests.gameplay.test_fuzz_forms import NEW_TABLE_FIELDS, PROFILE_FIELDS
    from tests.gameplay.test_fuzz_strategies import (
        _form_safe, flood, form_data, frames, game_messages, huge_text, odd_text, scalars)

    any_frame = st.one_of(frames(), st.builds(json.dumps, game_messages()))

    # -- the gate alone
    def gate(frame):
        try:
            content = inbound.parse(frame)
        except inbound.Refused as refused:
            if not refused.text().strip():
                run.fail("gate", "a refusal without a message", frame)
        else:
            json.dumps(content, allow_nan=False).encode("utf-8")
        return 1

    run_target(run, "gate", budget["gate"], 1, any_frame, gate, seed)

    # -- HTTP: the move and "ahead" endpoints
    def http(name: str, game_id: int, visitor: int, body) -> int:
        before = snapshot(game_id)
        response = world.visitors[visitor].post(reverse(name, args=[game_id]), data=as_bytes(body),
                                                content_type="application/json")
        try:
            reply = response.json()
        except ValueError:
            reply = {"type": "not JSON"}
        problem = judge_json_reply(response.status_code, reply, before, snapshot(game_id))
        if problem:
            run.fail(f"http_{name[5:]}", problem, body)
        return 1

    visitor = st.integers(0, len(world.visitors) - 1)
    run_target(run, "http_move", budget["http_move"], 1, st.tuples(visitor, any_frame),
               lambda v: http("game_move", world.live_joker(), *v), seed)
    on_bodies = st.one_of(any_frame, st.builds(lambda on: json.dumps({"on": on}), scalars()))
    run_target(run, "http_ahead", budget["http_ahead"], 1, st.tuples(visitor, on_bodies),
               lambda v: http("game_ahead", world.durak, *v), seed)

    # -- the token API (api/): its move, chat, join, resign endpoints, with each player's token or none
    from api.errors import STATUS
    from api.tokens import create_token

    api_headers = [{"Authorization": f"Bearer {create_token(user, 'fuzz', ['read', 'play'], None)[1]}"}
                   for user in world.players] + [{}]

    def api(value) -> int:
        who, endpoint, body = value
        game_id = world.live_joker()
        before = snapshot(game_id)
        response = world.anonymous.post(f"/api/v1/games/{game_id}/{endpoint}", data=as_bytes(body),
                                        content_type="application/json", headers=api_headers[who])
        reply = response.json() if response.headers.get("Content-Type", "").startswith("application/json") else {}
        if response.status_code >= 500 and reply.get("code") != "busy":
            run.fail("api", f"HTTP {response.status_code}", body)
        elif response.status_code >= 400 and (STATUS.get(reply.get("code")) != response.status_code
                                              or not str(reply.get("message", "")).strip()):
            run.fail("api", f"a refusal without a known code or a message: {reply!r}", body)
        elif response.status_code >= 400 and snapshot(game_id) != before:
            run.fail("api", f"refused ({reply.get('code')}) but the game changed", body)
        return 1

    run_target(run, "api", budget["api"], 1, st.tuples(st.integers(0, len(api_headers) - 1),
                                                       st.sampled_from(["move", "chat", "join", "resign"]), any_frame),
               api, seed)

    # -- WebSocket: the game consumer, the badge consumer
    async def exchange(ws, frame, barrier: dict, answer: str) -> list[dict]:
        await ws.send_input({"type": "websocket.receive", "bytes" if isinstance(frame, bytes) else "text": frame})
        await ws.send_json_to(barrier)
        content = admitted(frame)
        waiting = 2 if content is not None and content.get("type") == barrier["type"] else 1
        replies = []
        while waiting:
            message = await ws.receive_json_from(timeout=10)
            if message.get("type") == answer:
                waiting -= 1
            replies.append(message)
        return replies[:-1]

    async def opened(headers, game_id: int):
        ws = WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)
        connected, _ = await ws.connect(timeout=10)
        assert connected, "the game socket refused a public game's visitor"
        await ws.receive_json_from(timeout=10)
        await ws.receive_json_from(timeout=10)
        return ws

    from channels.db import database_sync_to_async

    def ws_game(value) -> int:
        who, batch = value
        game_id = world.live_joker()

        async def scenario():
            ws = await opened(world.ws_visitors[who], game_id)
            for frame in batch:
                before = await database_sync_to_async(snapshot)(game_id)
                try:
                    replies = await exchange(ws, frame, {"type": "ping"}, "pong")
                except Exception as exc:  # noqa: BLE001
                    run.fail("ws_game", f"the consumer stopped answering: {type(exc).__name__}: {exc}", frame)
                    return
                problem = judge_frame(frame, replies, before, await database_sync_to_async(snapshot)(game_id))
                if problem:
                    run.fail("ws_game", problem, frame)
            await ws.disconnect()

        async_to_sync(scenario)()
        return len(batch) + 1  # the frames and the connection

    run_target(run, "ws_game", budget["ws_game"], 21,
               st.tuples(st.integers(0, len(world.ws_visitors) - 1), st.lists(any_frame, min_size=1, max_size=40)),
               ws_game, seed)

    def ws_badge(batch) -> int:
        async def scenario():
            ws = WebsocketCommunicator(application, "/ws/me/", headers=world.headers[0])
            assert (await ws.connect(timeout=10))[0]
            await ws.receive_json_from(timeout=10)
            for frame in batch:
                try:
                    replies = await exchange(ws, frame, {"type": "sync"}, "badge")
                except Exception as exc:  # noqa: BLE001
                    run.fail("ws_badge", f"the consumer stopped answering: {type(exc).__name__}: {exc}", frame)
                    return
                problem = judge_frame(frame, replies, (), ())
                if problem:
                    run.fail("ws_badge", problem, frame)
            await ws.disconnect()

        async_to_sync(scenario)()
        return len(batch) + 1

    run_target(run, "ws_badge", budget["ws_badge"], 21, st.lists(any_frame, min_size=1, max_size=40), ws_badge, seed)

    # -- WebSocket: stale versions and replayed move ids, the four players at once
    def current_move(game_id: int, offset: int, move_id):
        game = Game.objects.get(pk=game_id)
        engine = get_engine(game.engine)
        position = engine.actors(game.state)[0]
        legal = engine.legal_actions(game.state, position)
        action = legal[(offset * 7 + len(move_id or "")) % len(legal)]
        return position, json.dumps({"type": "move", "action": action, "version": game.version + offset,
                                     "move_id": move_id})

    def ws_moves(plan) -> int:
        game_id = world.live_joker()

        async def scenario():
            sockets = [await opened(world.headers[p], game_id) for p in range(4)]
            for offset, move_id, shift in plan:
                status = (await database_sync_to_async(snapshot)(game_id))[1]
                if status != Game.Status.ACTIVE:
                    break
                position, frame = await database_sync_to_async(current_move)(game_id, offset, move_id)
                before = await database_sync_to_async(snapshot)(game_id)
                replies = [r for r in await exchange(sockets[(position + shift) % 4], frame, {"type": "ping"}, "pong")
                           if r.get("type") != "state"]
                after = await database_sync_to_async(snapshot)(game_id)
                problem = judge_frame(frame, replies, before, after)
                if not problem and len(replies) != 1:
                    problem = f"expected one answer, got {replies!r}"
                elif not problem and replies[0]["type"] == "ack" and (after == before) != replies[0]["duplicate"]:
                    problem = f"an ack that does not match the game: {replies[0]!r}"
                elif not problem and offset > 0 and replies[0]["type"] == "ack" and not replies[0]["duplicate"]:
                    problem = "a move made on a future version was applied"
                if problem:
                    run.fail("ws_moves", problem, (offset, move_id, shift))
            for ws in sockets:
                await ws.disconnect()

        async_to_sync(scenario)()
        return len(plan)

    pool = [f"id{i}" for i in range(40)] + [None]
    run_target(run, "ws_moves", budget["ws_moves"], 15,
               st.lists(st.tuples(st.sampled_from([0, 0, 0, 0, -1, 1, -3, 5]), st.sampled_from(pool),
                                  st.integers(0, 3)), min_size=1, max_size=30), ws_moves, seed)

    # -- WebSocket floods, with any limits
    def ws_flood(value) -> int:
        frames_allowed, refusals_allowed, burst, frame = value
        settings.WS_FRAME_LIMITS = f"{frames_allowed}/minute"
        settings.WS_REFUSAL_LIMIT = f"{refusals_allowed}/minute"
        game_id = world.live_joker()
        before = snapshot(game_id)[:4]  # not the chat

        async def scenario():
            return await flood(await opened(world.headers[0], game_id), frame, burst, quiet_seconds=0.2)

        try:
            replies, closed = async_to_sync(scenario)()
        finally:
            settings.WS_FRAME_LIMITS = "1000000/second"
            settings.WS_REFUSAL_LIMIT = inbound.DEFAULT_REFUSAL_LIMIT
        refused = [r for r in replies if r.get("code") == "rate_limited"]  # the players read Russian
        over = max(0, burst - frames_allowed)
        expected_close = inbound.CLOSE_TOO_MANY if over > refusals_allowed else None
        if len(refused) != min(over, refusals_allowed + 1) or closed != expected_close:
            run.fail("ws_flood", f"{len(refused)} refusals and close {closed}", value)
        if frame["type"] != "chat" and snapshot(game_id)[:4] != before:
            run.fail("ws_flood", "a flood changed the game", value)
        return burst

    run_target(run, "ws_flood", budget["ws_flood"], 40,
               st.tuples(st.integers(1, 30), st.integers(1, 20), st.integers(1, 80),
                         st.sampled_from([{"type": "ping"}, {"type": "sync"}, {"type": "chat", "text": "spam"},
                                          {"type": "move", "action": {"type": "bid", "tricks": 0}, "version": 10**6}])),
               ws_flood, seed)

    # -- forms
    from gameplay.services.tables import MAX_MOVE_SECONDS, MAX_RESERVE_SECONDS

    def new_table(data) -> int:
        before = set(Game.objects.values_list("pk", flat=True))
        response = world.clients[0].post(reverse("new_game"), data)
        created = list(Game.objects.exclude(pk__in=before))
        if response.status_code == 302:
            game = created[0] if len(created) == 1 else None
            if game is None:
                run.fail("form_new_table", f"{len(created)} games created", data)
            elif not (0 < game.move_seconds <= MAX_MOVE_SECONDS and 0 <= game.reserve_seconds <= MAX_RESERVE_SECONDS
                      and all(0 < s <= MAX_MOVE_SECONDS for s in game.timer_seconds.values())):
                run.fail("form_new_table", "a table with unbounded clocks", data)
            elif data.get("fill_with_bots") == "on" and game.status != Game.Status.ACTIVE:
                run.fail("form_new_table", "a full table that did not start", data)
            Game.objects.filter(pk__in=[g.pk for g in created]).delete()
        elif response.status_code != 200 or created:
            run.fail("form_new_table", f"HTTP {response.status_code}, {len(created)} games created", data)
        elif data and not response.context["form"].errors:
            run.fail("form_new_table", "refused without saying why", data)
        return 1

    run_target(run, "form_new_table", budget["form_new_table"], 1, form_data(NEW_TABLE_FIELDS), new_table, seed)

    def join(position) -> int:
        position = _form_safe(position)
        game = services.create_game(world.players[0], "joker")
        response = world.clients[1].post(reverse("join_game", args=[game.pk]), {"position": position})
        if response.status_code != 302:
            run.fail("form_join", f"HTTP {response.status_code}", position)
        game.delete()
        return 1

    run_target(run, "form_join", budget["form_join"], 1,
               st.one_of(odd_text(), st.integers(-5, 10**25).map(str), st.sampled_from(["²", "٣", "１", " 1 ", "1.0"])),
               join, seed)

    def profile(data) -> int:
        response = world.profile_client.post(reverse("profile_edit"), data)
        if response.status_code not in (200, 302):
            run.fail("form_profile", f"HTTP {response.status_code}", data)
        return 1

    run_target(run, "form_profile", budget["form_profile"], 1, form_data(PROFILE_FIELDS), profile, seed)

    def chat(value) -> int:
        who, text = value
        ChatMessage.objects.all().delete()  # the chat's own rate limit would refuse nearly everything
        game_id = world.live_joker()
        try:
            services.post_chat(game_id, world.players[who] if who < 4 else world.stranger, text)
        except services.GameError as refused:
            if not refused.message.strip() or ChatMessage.objects.exists():
                run.fail("chat", "a refusal without a message, or one that stored something", text)
        else:
            if ChatMessage.objects.get().text != text.strip():
                run.fail("chat", "stored text differs from what was written", text)
        return 1

    run_target(run, "chat", budget["chat"], 1,
               st.tuples(st.integers(0, 4), st.one_of(odd_text(600), huge_text(), st.none(), st.integers())),
               chat, seed)

    date_parts = st.one_of(st.integers(-(10**20), 10**20).map(str),
                           st.sampled_from(["9999", "10000", "0", "1", "12", "13", "31", "32", "x", ""]), odd_text(12))

    def admin(value) -> int:
        model, params = value
        params = {k: _form_safe(v) for k, v in params.items()}
        response = world.moderator_client.get(reverse(f"admin:gameplay_{model}_changelist"), params)
        if response.status_code not in (200, 302, 400):
            run.fail("admin", f"HTTP {response.status_code}", params)
        return 1

    run_target(run, "admin", budget["admin"], 1, st.tuples(
        st.sampled_from(["game", "seat", "move", "chatmessage"]),
        st.fixed_dictionaries({}, optional={
            "created_at__year": date_parts, "created_at__month": date_parts, "created_at__day": date_parts,
            "status__exact": odd_text(), "engine__exact": odd_text(), "q": odd_text(), "p": date_parts,
            "o": odd_text(), "e": odd_text(), "all": odd_text(), "hidden__exact": odd_text(),
            "started_at__year": date_parts, "deadline__year": date_parts, "id__in": odd_text()})), admin, seed)


# ---- main ---------------------------------------------------------------------------------------


def report(run: Run, elapsed: float, seed: int, environment: str) -> None:
    print(f"bench.fuzz — {environment}, seed {seed}")
    print(f"{'target':<16}{'inputs':>10}{'failures':>10}{'seconds':>10}")
    for name in SHARES:
        print(f"{name:<16}{run.inputs[name]:>10}{run.failure_count[name]:>10}{run.seconds[name]:>10.0f}")
    total, failures = sum(run.inputs.values()), sum(run.failure_count.values())
    print(f"{'total':<16}{total:>10}{failures:>10}{elapsed:>10.0f}")
    print(f"{total / elapsed:.0f} inputs a second")
    for name, shown in run.failures.items():
        print(f"\n{name}: {run.failure_count[name]} failures, the first {len(shown)}:")
        for failure in shown:
            print(f"  - {failure}")


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="inputs in all (default 100,000)")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis' seed (default 0)")
    args = parser.parse_args(argv)
    if args.inputs < len(SHARES):
        parser.error(f"--inputs must be at least {len(SHARES)}")
    return args


def main(argv=None) -> int:
    args = parse_args(argv)
    tmpdir = Path(tempfile.mkdtemp(prefix="bench-fuzz-"))
    old_db_name = None
    try:
        configure_django()
        progress("creating and migrating the throwaway database")
        old_db_name = create_database(tmpdir)
        import platform

        import django
        import hypothesis
        from django.db import connection

        environment = (f"Python {platform.python_version()}, Django {django.get_version()}, Hypothesis "
                       f"{hypothesis.__version__}, {connection.vendor}, {os.cpu_count()} CPUs")
        world = World()
        run = Run()
        budget = {name: max(1, round(args.inputs * share)) for name, share in SHARES.items()}
        started = time.monotonic()
        targets(world, run, budget, args.seed)
        report(run, time.monotonic() - started, args.seed, environment)
        return 1 if run.failure_count else 0
    finally:
        if old_db_name is not None:
            destroy_database(old_db_name)
        shutil.rmtree(tmpdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
