"""The game events (`gameplay.events`, after the commit) turned into notices
through the dispatcher. Each reads the game and its seats once, then words
one notice per player (`notifications.notices`)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from gameplay import services
from gameplay.models import Game, Seat
from gameplay.results import ADJUDICATED, game_result
from notifications import dispatch, notices
from notifications.channels import GAME_OVER, MODERATION, ORDER_LAPSED, TIME_WARNING, YOUR_MOVE


def _game(game_id: int, status: str) -> tuple[Game | None, list[Seat]]:
    game = Game.objects.filter(pk=game_id, status=status).first()
    if game is None:
        return None, []
    return game, list(game.seats.select_related("user").order_by("position"))


def _people(seats: list[Seat], positions=None) -> dict[int, Seat]:
    """{user id: seat} of the people (not computers) in these positions (all when None)."""
    return {s.user_id: s for s in seats
            if s.user_id and not s.is_bot and (positions is None or s.position in positions)}


def turn_changed(game_id: int, version: int, positions: list[int], **_details) -> None:
    """Your move: one notice per seat whose clock just started (coalesced per player by the dispatcher)."""
    if not dispatch.has_channels():
        return
    game, seats = _game(game_id, Game.Status.ACTIVE)
    people = {user_id: s for user_id, s in _people(seats, set(positions)).items() if s.deadline is not None}
    if game is None or not people:
        return
    dispatch.notify(
        YOUR_MOVE, [s.user for s in people.values()], key=f"your_move:game={game_id}:v={version}", game_id=game_id,
        compose=lambda user: notices.your_move(game, seats, people[user.pk].position,
                                               services.runs_out_at(people[user.pk], game)))


def clock_warning(game_id: int, version: int, position: int, **_details) -> None:
    """Time running out: the same moment (and once a turn) as the email's warning."""
    if not dispatch.has_channels():
        return
    game, seats = _game(game_id, Game.Status.ACTIVE)
    people = _people(seats, {position})
    if game is None or not people:
        return
    seat = next(iter(people.values()))
    if seat.deadline is None:
        return
    dispatch.notify(
        TIME_WARNING, [seat.user], key=f"time_warning:game={game_id}:v={version}:seat={position}", game_id=game_id,
        compose=lambda user: notices.time_warning(game, seats, position, services.runs_out_at(seat, game),
                                                  services.expiry_forfeits(game, position)))


def game_finished(game_id: int, version: int | None = None, **_details) -> None:
    """Game over with its one result (`gameplay.results.game_result`); a moderator's
    adjudication is a moderator's decision (its email is the game-over email)."""
    if not dispatch.has_channels():
        return
    game, seats = _game(game_id, Game.Status.FINISHED)
    people = _people(seats)
    if game is None or not people:
        return
    result = game_result(game, seats)
    kind = MODERATION if result.ending == ADJUDICATED else GAME_OVER
    dispatch.notify(kind, [s.user for s in people.values()], key=f"game_over:game={game_id}", game_id=game_id,
                    compose=lambda user: notices.game_over(game, seats, people[user.pk].position, result))


def game_aborted(game_id: int, version: int | None = None, **_details) -> None:
    """A moderator aborted the game (a table given up before its start tells nobody). Emailed too:
    no other email says it."""
    game, seats = _game(game_id, Game.Status.ABORTED)
    people = _people(seats)
    if game is None or not people:
        return
    result = game_result(game, seats)
    if not result.by_moderator:
        return
    dispatch.notify(MODERATION, [s.user for s in people.values()], key=f"game_over:game={game_id}",
                    game_id=game_id, email=True,
                    compose=lambda user: notices.game_aborted(game, seats, people[user.pk].position, result))


def seat_replaced(game_id: int, version: int, position: int, previous_user_id: int | None = None,
                  reason: str = "", **_details) -> None:
    """A moderator gave the seat of `previous_user_id` to someone else (its email is `emails.seat_replaced`)."""
    if not dispatch.has_channels():
        return
    game = Game.objects.filter(pk=game_id).first()
    if game is None or previous_user_id is None:
        return
    seats = list(game.seats.select_related("user").order_by("position"))
    if any(s.user_id == previous_user_id for s in seats):
        return  # he holds a seat of the game again
    from_user = get_user_model().objects.filter(pk=previous_user_id).first()
    if from_user is None:
        return
    dispatch.notify(MODERATION, [from_user], key=f"moderation:game={game_id}:v={version}:seat={position}",
                    game_id=game_id, compose=lambda user: notices.seat_replaced(game, seats, reason))


def orders_lapsed(game_id: int, version: int, position: int, user_id: int | None = None,
                  reasons: list[str] | tuple = (), **_details) -> None:
    """Standing orders lapsed: told to the player who set them, if he still holds the seat, and to
    nobody else; by email and push as his preferences for this kind say."""
    if not dispatch.has_channels(True) or user_id is None or not reasons:
        return
    game, seats = _game(game_id, Game.Status.ACTIVE)
    seat = _people(seats, {position}).get(user_id)
    if game is None or seat is None:
        return
    dispatch.notify(ORDER_LAPSED, [seat.user], key=f"order_lapsed:game={game_id}:v={version}:seat={position}",
                    game_id=game_id, email=True,
                    compose=lambda user: notices.orders_lapsed(game, seats, position, list(reasons)))
