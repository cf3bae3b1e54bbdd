"""Per-seat fan-out after commit.

Every seat has its own channel group and receives only its own view; the
spectators share one public group. Messages may be lost (Redis is not the
truth): every message carries the game's version, and a client that sees a
gap asks for the full state again.

Called from a consumer's database work (daphne), `send_game` hands the
fan-out to the server's event loop and returns: the threads that run a
process' database calls (`gameplay.database_threads`) do not wait for Redis,
and the loop sends the fan-outs one after another in the order they were
handed over (a game's in the order of its commits: its calls run one at a time). Elsewhere (a
Celery task, a view outside daphne, a test) it sends before returning.
Either way a seat's view is built only once the channel layer has found a
member in its group (`FanOut`): a seat nobody has open costs nothing.
"""

import asyncio
import collections
import functools
import logging
import os
import weakref
from collections.abc import Callable

from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.conf import settings
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts import blocks
from accounts.models import Vacation
from gameplay import lookups
from gameplay.engine import get_engine
from gameplay.engine import orders as order_vocabulary
from gameplay.engine.core import IllegalMove
from gameplay.i18n import engine_message_text
from gameplay.models import ChatMessage, Game, StandingOrder
from gameplay.loading import seats_loaded, with_seats
from gameplay.results import game_result

log = logging.getLogger(__name__)

def seat_group(game_id: int, position: int | None) -> str:
    return f"game-{game_id}-public" if position is None else f"game-{game_id}-seat-{position}"


def game_payload(game: Game, position: int | None, seats: list | None = None, vacations: dict | None = None,
                 series: dict | None | bool = False, result: dict | None = None,
                 ratings: dict | None | bool = False, players: list | None = None) -> dict:
    """The full state message for one seat (None: a spectator). Built only
    from `engine.view`, which never holds another seat's cards or the seed.
    `seats`, `vacations` (`vacations_until`), `series` (`series_info`) and
    `result` (`game_result(...).as_json()`), `ratings` (`seat_ratings`) and
    `players` (`players_info`, the same for every seat) may be given when
    the caller has them (one fan-out builds them once)."""
    seats = seats if seats is not None else list(game.seats.select_related("user"))
    if result is None:
        result = game_result(game, seats).as_json()
    if vacations is None:
        vacations = vacations_until([s.user_id for s in seats if s.user_id])
    if players is None:
        players = players_info(seats, vacations, seat_ratings(game, seats) if ratings is False else ratings)
    shared = shared_payload(game, result, series_info(game) if series is False else series, players)
    return {**shared, **seat_payload(game.engine, game.state, game.status, position, ahead_scopes(seats)),
            **orders_part(game.state, game.status, position, seat_orders(game.pk, seats, position))}


def shared_payload(game: Game, result: dict, series: dict | None, players: list[dict]) -> dict:
    """What the state message says alike to every seat and the spectators."""
    return {
        "type": "state",
        "game": game.pk,
        "engine": game.engine,
        "version": game.version,
        "status": game.status,
        "seed_sha256": game.seed_sha256,
        "seed": game.revealed_seed,
        "abort_reason": game.abort_reason or None,
        # How the game ended and its final places (gameplay.results): the game-over box reads this.
        "result": result,
        "series": series,
        "server_time": timezone.now().isoformat(),
        "players": players,
    }


def seat_payload(engine_name: str, state: dict | None, status: str, position: int | None,
                 ahead: dict[int, int | None]) -> dict:
    """What the state message says to one seat alone (None: the spectators):
    its view, its legal moves, why its other cards cannot be played, its
    move said in advance. `ahead`: {position: the seat's `ahead_scope`}."""
    part = {"seat": position, "view": None, "legal": [], "blocked": {}}
    if state is None:
        return part
    engine = get_engine(engine_name)
    part["view"] = engine.view(state, position)
    if position is not None and status == Game.Status.ACTIVE:
        # Every engine's view of a seat holds that seat's legal actions: computed once, not twice.
        view_legal = part["view"].get("legal_actions") if isinstance(part["view"], dict) else None
        part["legal"] = view_legal if view_legal is not None else engine.legal_actions(state, position)
        part["blocked"] = blocked_reasons(engine, state, position, part["view"], part["legal"])
        if engine.ahead_action is not None:
            part["ahead"] = ahead_of(engine, state, position, ahead.get(position))
    return part


def orders_part(state: dict | None, status: str, position: int | None, orders: dict[int, list[dict]]) -> dict:
    """A seat's own standing orders (gameplay/engine/orders.py): the kinds it may set now and
    its orders to show (pending, and applied or lapsed ones not yet dismissed). The spectators'
    and the other seats' messages never carry them."""
    if position is None or state is None or status != Game.Status.ACTIVE:
        return {}
    return {"orders": {"kinds": order_vocabulary.kinds(state, position), "list": orders.get(position, [])}}


def seat_orders(game_id: int, seats: list, only: int | None = None) -> dict[int, list[dict]]:
    """{position: its orders to show} for the seats that have any (`Seat.has_orders`; `only`: that
    seat alone): one query, none if no such seat."""
    shown = [s.position for s in seats if s.has_orders and (only is None or s.position == only)]
    if not shown:
        return {}
    rows = StandingOrder.objects.filter(game_id=game_id, position__in=shown).filter(
        Q(status=StandingOrder.Status.PENDING) | Q(seen=False)).order_by("created_at", "id")
    found: dict[int, list[dict]] = {}
    for order in rows:
        found.setdefault(order.position, []).append(order_json(order))
    return found


def order_json(order: StandingOrder) -> dict:
    """One order as its seat's view lists it; a lapsed one says why, in the seat's language."""
    return {"id": order.pk, "kind": order.kind, "params": order.params, "status": order.status,
            "reason": gettext(order.reason) if order.reason else None, "move": order.move_seq}


def ahead_scopes(seats: list) -> dict[int, int | None]:
    return {s.position: s.ahead_scope for s in seats}


def players_info(seats: list, vacations: dict, ratings: dict | None) -> list[dict]:
    """The public facts of every seat (`seat_info`), with the seated players' ratings in the waiting room."""
    players = [seat_info(s, vacations.get(s.user_id)) for s in seats]
    for player in players:
        if ratings and player["position"] in ratings:
            player["rating"] = ratings[player["position"]]
    return players


def seat_ratings(game: Game, seats: list) -> dict[int, dict] | None:
    """{position: {"value", "provisional"}}: the seated players' ratings in
    this game, for the waiting room (one query; None once the game has
    started, so a move's messages never read them)."""
    if game.status != Game.Status.OPEN:
        return None
    people = [s for s in seats if s.user_id and not s.is_bot]
    found = lookups.player_ratings({(s.user_id, game.engine) for s in people})
    return {s.position: {"value": found[s.user_id, game.engine].value,
                         "provisional": found[s.user_id, game.engine].is_provisional}
            for s in people if (s.user_id, game.engine) in found}


def series_info(game: Game) -> dict | None:
    if game.series_length <= 1:
        return None
    next_game = game.next_in_series
    return {"number": game.series_number, "length": game.series_length,
            "next_game": next_game.pk if next_game else None}


def ahead_of(engine, state: dict, position: int, seat_scope: int | None) -> dict:
    """The seat's own move said in advance (Durak: "done for me in this bout"):
    may he say it now, has he (`seat_scope`: the seat's `ahead_scope`)."""
    scope = engine.ahead_scope(state)
    return {"available": engine.may_order_ahead(state, position),
            "on": scope is not None and seat_scope == scope}


def seat_info(seat, vacation_until=None) -> dict:
    """Public facts about a seat: who sits there and his clock."""
    return {
        "position": seat.position,
        "name": str(seat.player_name) if seat.is_taken else None,
        "is_bot": seat.is_bot,
        "bot_account": bool(seat.user_id and seat.user.is_bot),  # a program playing through the API (labelled)
        "team": seat.team,  # the pair of a game in pairs (partners share it), else None
        "place": seat.place,
        "points": seat.points,
        "clock": {
            "running": seat.deadline is not None,
            "deadline": seat.deadline.isoformat() if seat.deadline else None,
            "in_reserve": seat.in_reserve,
            "reserve_left": seat.reserve_seconds_left,
        },
        "vacation_until": vacation_until.isoformat() if vacation_until else None,
    }


def vacations_until(user_ids: list[int], known: dict | None = None) -> dict:
    """{user id: end of his current vacation} for those on vacation now.
    `known`: {user id: [(start, end), ...]} already read (a service's
    `seat_vacations`), else they are queried."""
    now = timezone.now()
    if not user_ids:
        return {}
    if known is not None:
        return {user_id: end for user_id in user_ids for start, end in known.get(user_id, ())
                if start <= now < end}
    current = Vacation.objects.filter(user_id__in=user_ids, starts_at__lte=now, ends_at__gt=now)
    return dict(current.values_list("user_id", "ends_at"))


def current_vacation(user):
    now = timezone.now()
    return user.vacations.filter(starts_at__lte=now, ends_at__gt=now).first()


def blocked_reasons(engine, state: dict, position: int, view: dict, legal: list[dict]) -> dict[str, str]:
    """For each card (or tile) in hand that cannot be played now, the engine's reason
    (shown when the player hovers the card)."""
    plays = [a for a in legal if a.get("type") == "play"]
    if not plays:
        return {}
    key = "tile" if "tile" in plays[0] else "card"  # domino Poker plays tiles
    playable = {a.get(key) for a in plays}
    cards = [card for card in view.get("hand") or [] if card not in playable]
    refusals = engine.refusals(state, position, [{"type": "play", key: card} for card in cards])
    reasons, texts = {}, {}
    for card, refusal in zip(cards, refusals, strict=True):
        if refusal is not None:
            reasons[card] = _reason_text(refusal, texts)
    return reasons


def _reason_text(refusal: IllegalMove, texts: dict[tuple[str, str], str]) -> str:
    """`engine_message_text(refusal)`, once per sentence (a hand's blocked cards mostly share
    one): the same template filled into the same English sentence translates the same."""
    key = (refusal.template, refusal.message)
    if key not in texts:
        texts[key] = engine_message_text(refusal)
    return texts[key]


def seat_event(payload: dict, position: int | None, user_id: int | None, seated: list[int] = ()) -> dict:
    """The channel-layer event carrying `payload` to a seat's group. A seat's
    event names the user sitting there now: a socket that joined the group
    as someone who has since left that seat of an open table (or lost it) must
    not receive the next occupant's view (see GameConsumer.game_update). The
    spectators' event names the seated users: one who was just given a seat
    (a moderator's substitution) reconnects as its player."""
    event = {"type": "game.update", "payload": payload}
    if position is not None:
        event["user"] = user_id
    else:
        event["seated"] = list(seated)
    return event


def send_game(game: Game | int, events: list | None = None) -> None:
    """Every seat's view, and the spectators', of the game as committed. A
    Game object (a service's, after its commit) is used as it is, with its
    loaded seats and vacations; a game id is read from the database. A
    seat's view is built only if its group has a socket to receive it
    (`FanOut`)."""
    layer = get_channel_layer()
    if layer is None:
        return
    if not isinstance(game, Game):
        game = with_seats(Game.objects.all()).filter(pk=game).first()
        if game is None:
            return
    messages = FanOut(game, events or []).messages()
    loop = _server_loop()
    if loop is not None:
        loop.call_soon_threadsafe(_send_in_order, layer, messages, game.pk)
        return
    try:
        async_to_sync(_send_all)(layer, messages)
    except Exception:  # Redis may be down: the database has the move, clients resync.
        log.exception("broadcast of game %s failed", game.pk)


class FanOut:
    """The views of one committed change of a game, one per group (its seats'
    and the spectators'). What every view shares is taken from the game, its
    seats and their users when the fan-out is made (on the thread that
    committed, without a query); each seat's own part is built from the
    committed state when the message for its group is wanted, which the
    channel layer asks for only for a group with a member (most seats of a
    correspondence game have no page open). So the fan-out may be sent
    later, from the event loop, while the game object changes on."""

    def __init__(self, game: Game, events: list):
        seats = list(game.seats.all() if seats_loaded(game) else game.seats.select_related("user"))
        # Only the players who may be on vacation: those `locked_game` found with none, recent or
        # coming, are not (so a change that started or stopped no clock reads none).
        vacations = vacations_until([s.user_id for s in seats if s.user_id and getattr(s, "has_vacations", True)],
                                    game.__dict__.get("_vacations"))
        players = players_info(seats, vacations, seat_ratings(game, seats))
        self.game_id, self.engine, self.state, self.status = game.pk, game.engine, game.state, game.status
        self.shared = shared_payload(game, game_result(game, seats).as_json(), series_info(game), players)
        self.events = events
        self.positions = [s.position for s in seats]
        self.ahead = ahead_scopes(seats)
        self.orders = seat_orders(game.pk, seats)
        self.languages = {s.position: s.user.language for s in seats if s.user_id}
        self.occupants = {s.position: s.user_id for s in seats}

    def messages(self) -> list[tuple[str, Callable[[], dict]]]:
        """(group, a function building its message): the spectators' group first, then each seat's."""
        return [(seat_group(self.game_id, position), functools.partial(self.message, position))
                for position in [None] + self.positions]

    def message(self, position: int | None) -> dict:
        # Each seat reads its messages (the reasons on disabled cards) in its own language.
        with translation.override(self.languages.get(position) or settings.LANGUAGE_CODE):
            payload = {**self.shared, **seat_payload(self.engine, self.state, self.status, position, self.ahead),
                       **orders_part(self.state, self.status, position, self.orders)}
        payload["events"] = self.events
        return seat_event(payload, position, self.occupants.get(position),
                          [u for u in self.occupants.values() if u])


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the server this thread works for, if it is a
    `database_sync_to_async` call of a consumer, on channels' thread or
    `gameplay.database_threads` (asgiref records the loop
    it was called from, as `async_to_sync` reads it), and that loop runs."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    loop = getattr(SyncToAsync.threadlocal, "main_event_loop", None)
    return loop if loop is not None and loop.is_running() else None


# {event loop: the fan-outs its sender has still to send}; a sender ends when it has sent them all.
_pending: "weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, collections.deque]" = weakref.WeakKeyDictionary()
_senders: set[asyncio.Task] = set()


def _send_in_order(layer, messages: list[tuple[str, Callable[[], dict]]], game_id: int) -> None:
    """On the server's event loop: hand a fan-out to the loop's sender, which
    sends them one after another in the order of their commits. The thread
    that committed (one of the process' database threads) does not wait for
    Redis: it serves the next socket's call meanwhile."""
    loop = asyncio.get_running_loop()
    pending = _pending.get(loop)
    if pending is None:
        pending = _pending[loop] = collections.deque()
        sender = loop.create_task(_sender(loop, pending))
        _senders.add(sender)  # the loop keeps only a weak reference to its tasks
        sender.add_done_callback(_senders.discard)
    pending.append((layer, messages, game_id))


async def _sender(loop: asyncio.AbstractEventLoop, pending: collections.deque) -> None:
    while pending:
        layer, messages, game_id = pending.popleft()
        try:
            await _send_all(layer, messages)
        except Exception:  # Redis may be down: the database has the move, clients resync.
            log.exception("broadcast of game %s failed", game_id)
    del _pending[loop]


async def _send_all(layer, messages: list[tuple[str, Callable[[], dict]]]) -> None:
    """The group sends of one fan-out, in one trip to the event loop: at once
    where the layer can (`config.channel_layer`'s `group_send_many`, which
    builds only the messages of groups with a member), else concurrently."""
    if hasattr(layer, "group_send_many"):
        await layer.group_send_many(messages)
        return
    results = await asyncio.gather(*(layer.group_send(group, build()) for group, build in messages),
                                   return_exceptions=True)
    failed = next((r for r in results if isinstance(r, BaseException)), None)
    if failed is not None:
        raise failed


def send_seat(game_id: int, position: int) -> None:
    """The state again to one seat only (a private setting of his changed)."""
    layer = get_channel_layer()
    if layer is None:
        return
    game = Game.objects.get(pk=game_id)
    seats = list(game.seats.select_related("user"))
    seat = next(s for s in seats if s.position == position)
    with translation.override((seat.user.language if seat.user_id else None) or settings.LANGUAGE_CODE):
        payload = game_payload(game, position, seats)
    payload["events"] = []
    try:
        async_to_sync(layer.group_send)(seat_group(game_id, position), seat_event(payload, position, seat.user_id))
    except Exception:  # Redis may be down: the database has the setting, the client resyncs.
        log.exception("broadcast to a seat of game %s failed", game_id)


def seat_changed_on_commit(game_id: int, position: int) -> None:
    transaction.on_commit(lambda: send_seat(game_id, position))


CHAT_HISTORY = 50


def chat_history(game: Game, viewer_id: int | None = None) -> list[dict]:
    """The table's last chat lines, without those of the players the viewer
    blocks or is blocked by (accounts/blocks.py)."""
    messages = game.chat.select_related("user").filter(hidden=False)
    hidden_authors = blocks.blocked_either_way(viewer_id)
    if hidden_authors:
        messages = messages.exclude(user_id__in=hidden_authors)
    return [m.as_json() for m in reversed(messages.order_by("-created_at")[:CHAT_HISTORY])]


def send_chat(message_id: int) -> None:
    """A new (or newly hidden) chat message to the players, and to the
    spectators of a public table."""
    layer = get_channel_layer()
    message = ChatMessage.objects.select_related("user", "game").filter(pk=message_id).first()
    if layer is None or message is None:
        return
    game = message.game
    # Not to the seats of the players who block the author or whom he blocks.
    hidden_from = blocks.blocked_either_way(message.user_id)
    if hidden_from:
        kept = set(game.seats.exclude(user_id__in=hidden_from).values_list("position", flat=True))
    else:
        kept = set(range(game.seats_count))
    groups = [seat_group(game.pk, p) for p in range(game.seats_count) if p in kept]
    if not game.is_private:
        groups.append(seat_group(game.pk, None))
    # The author goes with the line: each spectator's socket (the public group is one for all) drops the
    # lines of a player it blocks or is blocked by (`chat_hidden_from`).
    event = {"type": "game.update", "payload": {"type": "chat", "message": message.as_json()},
             "author": message.user_id}
    try:
        for group in groups:
            async_to_sync(layer.group_send)(group, event)
    except Exception:
        log.exception("chat broadcast of game %s failed", game.pk)


def chat_hidden_from(event: dict, viewer_id: int | None) -> bool:
    """Whether a chat event (`send_chat`) is one the viewer does not see: its author and the viewer
    block each other, either way (accounts/blocks.py). One query for a signed-in viewer's chat line."""
    author = event.get("author")
    return bool(author and viewer_id) and author != viewer_id and blocks.any_block(viewer_id, [author])


def chat_on_commit(message_id: int) -> None:
    transaction.on_commit(lambda: send_chat(message_id))
