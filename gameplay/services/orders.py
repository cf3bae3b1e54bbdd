"""Standing orders: a player sets or cancels moves said in advance
(`set_order`, `cancel_order`, `dismiss_orders`), and the server carries them
out at his turn (`release_orders`). The vocabulary is the engine's
(gameplay/engine/orders.py).

Decisions
---------
- Private: an order is shown to its seat alone (its state message's
  `orders`), and setting or cancelling one sends nothing to anybody else.
- The table learns nothing from an order. A move made by an order is
  recorded as the player's own move (`Move.By.PLAYER`, his user): every
  page, event, record and export shows it exactly as the same move by hand;
  only his own move list marks it "by your order" (from the order rows,
  `StandingOrder.move_seq`). Its timing: a seat with orders has a private
  release time in each turn (`Seat.order_at`, drawn by
  `clocks.release_delay` from the server's secret, the game, the version
  and the seat only: not the cards, not the orders), when the orders are
  looked at; so an order whose applicability depends on hidden cards (the
  only card that follows suit) makes its move at a moment that depends on
  none of them. Orders whose applicability is public (the last card) are
  released the same way: an instant move would tell the table an order
  exists.
- Never a wrong move: at release, under the game row's lock, the engine's
  `resolve` gives a legal action, a wait or a lapse; a lapsed order is
  marked with its reason and shown to the player, and the event
  `orders_lapsed` lets `notifications` tell him (him alone) by email or
  push as his preferences say. A seat taken over by a
  substitute or a computer loses its orders (`drop_orders`), and a release
  looks only at orders set by the user sitting there, never at a computer's
  seat.
- Durak's older "done for me in this bout" (`Seat.ahead_scope`, set by
  `moves.order_ahead`) is released the same way: its "done" is made at the
  seat's release time in the throwers' window, never at once, so its moment
  depends neither on the cards nor on the order.
- Races: the player's own move, the deadline sweep, a moderator's action and
  the release all lock the game row; a move resets the seat's release time
  (its clock stops or starts again) and the release checks it really fell
  due, so exactly one of them moves.
"""

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from gameplay import broadcast
from gameplay import events as game_events
from gameplay.engine import get_engine
from gameplay.engine import orders as vocabulary
from gameplay.engine.core import IllegalMove
from gameplay.i18n import engine_message_text
from gameplay.models import Game, Move, Seat, StandingOrder
from gameplay.services import moves
from gameplay.services.after_commit import clocks_changed
from gameplay.services.base import GameError, locked_game, seat_of
from gameplay.services.clocks import order_release_at, said_ahead

# How many pending orders a seat may hold at once.
MAX_PENDING = 10


@transaction.atomic
def set_order(game_id: int, user, kind: Any, params: Any = None) -> StandingOrder:
    """The player sets a standing order at his seat (one of each kind: a new one replaces the
    pending one of its kind). Refused with a clear message, nothing changed, if the game does not
    have it now, the seat is not his or the order is malformed."""
    game = locked_game(game_id, seats=True)
    seat = _own_seat(game, user)
    try:
        order = vocabulary.make_order(game.state, seat.position, kind, params)
    except IllegalMove as exc:
        raise GameError(engine_message_text(exc), code="illegal", version=game.version) from None
    pending = StandingOrder.objects.filter(game=game, position=seat.position, status=StandingOrder.Status.PENDING)
    pending.filter(kind=order["kind"]).update(status=StandingOrder.Status.CANCELLED, settled_at=timezone.now())
    if pending.count() >= MAX_PENDING:
        raise GameError(_("You have as many standing orders as a seat may hold."), code="illegal",
                        version=game.version)
    created = StandingOrder.objects.create(game=game, position=seat.position, user=user, **order)
    _orders_changed(game, seat, timezone.now())
    return created


@transaction.atomic
def cancel_order(game_id: int, user, order_id: Any) -> None:
    """The player cancels one of his pending orders (one click)."""
    if isinstance(order_id, bool) or not isinstance(order_id, int):
        raise GameError(_("Say which order to cancel."), code="bad_request")
    game = locked_game(game_id, seats=True)
    seat = _own_seat(game, user)
    changed = StandingOrder.objects.filter(pk=order_id, game=game, position=seat.position, user=user,
                                           status=StandingOrder.Status.PENDING).update(
        status=StandingOrder.Status.CANCELLED, settled_at=timezone.now(), seen=True)
    if not changed:
        raise GameError(_("You have no such pending order."), code="not_found", version=game.version)
    _orders_changed(game, seat, timezone.now())


@transaction.atomic
def dismiss_orders(game_id: int, user) -> None:
    """The player has read the notices of his applied and lapsed orders: they leave his list."""
    game = locked_game(game_id, seats=True)
    seat = _own_seat(game, user)
    StandingOrder.objects.filter(game=game, position=seat.position).exclude(
        status=StandingOrder.Status.PENDING).update(seen=True)
    _orders_changed(game, seat, timezone.now())


def order_message(game_id: int, user, body: dict) -> dict:
    """One message about the player's orders, the same from the page, the game's socket and the
    API: ``{"set": {"kind", "params"}}``, ``{"cancel": order id}`` or ``{"dismiss": true}``
    (other keys, such as a socket frame's ``type``, are ignored). Returns the answer,
    ``{"type": "orders_ack"}`` (with the new order's ``id`` after a set); a refusal is a
    GameError with a clear message, and nothing changed."""
    if isinstance(body.get("set"), dict):
        order = set_order(game_id, user, body["set"].get("kind"), body["set"].get("params"))
        return {"type": "orders_ack", "id": order.pk}
    if "cancel" in body:
        cancel_order(game_id, user, body["cancel"])
    elif body.get("dismiss") is True:
        dismiss_orders(game_id, user)
    else:
        raise GameError(_('Send {"set": {"kind": ..., "params": {...}}}, {"cancel": id} or {"dismiss": true}.'),
                        code="bad_request")
    return {"type": "orders_ack"}


def _own_seat(game: Game, user) -> Seat:
    seat = seat_of(game, user)
    if seat is None or seat.is_bot:
        raise GameError(_("You are not playing at this table."), code="not_seated")
    if game.status != Game.Status.ACTIVE:
        raise GameError(_("This game is not in play."), code="not_active", version=game.version)
    return seat


def _orders_changed(game: Game, seat: Seat, now: datetime) -> None:
    """The seat's orders changed: its flag, its release time in a running turn (a new pending
    order in a turn without one), and its own view, sent to it alone."""
    seat.has_orders = StandingOrder.objects.filter(game=game, position=seat.position).filter(
        Q(status=StandingOrder.Status.PENDING) | Q(seen=False)).exists()
    if seat.clock_started_at is not None and seat.order_at is None:
        seat.order_at = order_release_at(seat, game, now)
        clocks_changed(game)  # the deadline task learns the release time; nothing is sent
    elif not seat.has_orders:
        seat.order_at = None
    seat.save(update_fields=["has_orders", "order_at"])
    broadcast.seat_changed_on_commit(game.pk, seat.position)


def drop_orders(game: Game, seat: Seat) -> None:
    """A substitute or a computer takes the seat over: its player's pending orders end (the
    caller holds the game's lock and saves the seat)."""
    StandingOrder.objects.filter(game=game, position=seat.position, status=StandingOrder.Status.PENDING).update(
        status=StandingOrder.Status.CANCELLED, settled_at=timezone.now())
    seat.has_orders = False
    seat.order_at = None


# -- the release -----------------------------------------------------------------------------------


def due_order_game_ids(limit: int = 500) -> list[int]:
    """Active games with a seat whose standing orders fell due (for beat's sweep)."""
    return list(Seat.objects.filter(order_at__lte=timezone.now(), game__status=Game.Status.ACTIVE)
                .order_by("order_at").values_list("game_id", flat=True).distinct()[:limit])


@transaction.atomic
def release_orders(game_id: int, now: datetime | None = None) -> int:
    """Look at the standing orders of every seat of the game whose release time has come: the
    first pending order that gives a move makes it, as the player's move; orders that no longer
    fit lapse. Returns the moves made (0 or 1: after a move the clocks, and release times, are
    new). Running it twice, or late, changes nothing more than once."""
    game = locked_game(game_id, seats=True)
    if game.status != Game.Status.ACTIVE:
        return 0
    now = now or timezone.now()
    due = sorted((s for s in game.seats.all() if s.order_at is not None and s.order_at <= now),
                 key=lambda s: (s.order_at, s.position))
    for seat in due:
        seat.order_at = None
        seat.save(update_fields=["order_at"])
        if seat.is_bot or seat.user_id is None:
            continue
        if _release_ahead(game, seat) or _release_seat(game, seat, now):
            return 1
    return 0


def _release_ahead(game: Game, seat: Seat) -> bool:
    """Durak's "done for me in this bout", said in advance: made now if the window waits for the
    seat and "done" is legal for it; recorded as the player's move, like any order's."""
    engine = get_engine(game.engine)
    if not said_ahead(seat, game) or seat.position not in engine.actors(game.state):
        return False
    action = dict(engine.ahead_action)
    if action not in engine.legal_actions(game.state, seat.position):
        return False
    _record_ahead(game, seat)
    moves.apply_move(game, seat.position, action, by=Move.By.PLAYER, user=seat.user)
    return True


AHEAD_KIND = "ahead"  # the applied row of a move said in advance (Seat.ahead_scope, not an order row)


def _record_ahead(game: Game, seat: Seat) -> None:
    """The move said in advance is about to be made: an applied order row marks it "by your order"
    in the player's own move list, as any order's move; already read (seen), so it adds no notice."""
    StandingOrder.objects.create(game=game, position=seat.position, user_id=seat.user_id, kind=AHEAD_KIND,
                                 scope=seat.ahead_scope, rules=game.state.get("rules", 1),
                                 status=StandingOrder.Status.APPLIED, move_seq=game.version + 1,
                                 settled_at=timezone.now(), seen=True)
    if not seat.used_orders:
        seat.used_orders = True
        seat.save(update_fields=["used_orders"])


def _release_seat(game: Game, seat: Seat, now: datetime) -> bool:
    engine = get_engine(game.engine)
    pending = list(StandingOrder.objects.filter(game=game, position=seat.position, user_id=seat.user_id,
                                                status=StandingOrder.Status.PENDING))
    lapsed = []
    for order in pending:
        found = vocabulary.resolve(engine, game.state, seat.position, order.as_order())
        if found.lapse is not None:
            order.status, order.reason, order.settled_at = StandingOrder.Status.LAPSED, found.lapse, now
            lapsed.append(order)
            continue
        if found.action is None:
            continue
        _record_lapses(game, seat, lapsed)
        _mark_applied(order, game.version + 1, now)
        _after_order(seat)
        moves.apply_move(game, seat.position, dict(found.action), by=Move.By.PLAYER, user=seat.user)
        return True
    if lapsed:
        _record_lapses(game, seat, lapsed)
        seat.save(update_fields=["has_orders"])
        broadcast.seat_changed_on_commit(game.pk, seat.position)
    return False


def _record_lapses(game: Game, seat: Seat, lapsed: list[StandingOrder]) -> None:
    """These orders of the seat lapsed: marked with their reasons (the page shows them), and told to
    the player who set them alone, by email or push as he chose (`orders_lapsed`, for notifications)."""
    if not lapsed:
        return
    StandingOrder.objects.bulk_update(lapsed, ["status", "reason", "settled_at"])
    game_events.publish(game_events.ORDERS_LAPSED, game, position=seat.position, user_id=seat.user_id,
                        reasons=list(dict.fromkeys(order.reason for order in lapsed)))


def _mark_applied(order: StandingOrder, seq: int, now: datetime) -> None:
    """The order made move `seq`: a spent order is marked applied; a standing one
    (`vocabulary.REPEATING`) stays pending, and a copy marked applied records the move."""
    if order.kind in vocabulary.REPEATING:
        StandingOrder.objects.create(game_id=order.game_id, position=order.position, user_id=order.user_id,
                                     kind=order.kind, params=order.params, scope=order.scope, rules=order.rules,
                                     status=StandingOrder.Status.APPLIED, move_seq=seq, settled_at=now)
        return
    order.status, order.settled_at, order.move_seq = StandingOrder.Status.APPLIED, now, seq
    order.save(update_fields=["status", "settled_at", "move_seq"])


def _after_order(seat: Seat) -> None:
    """An order made a move: the seat's list shows it (has_orders), its move list marks it."""
    seat.has_orders = True
    seat.used_orders = True
    seat.save(update_fields=["has_orders", "used_orders"])
