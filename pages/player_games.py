"""The player page's lists: finished games with filters, and the head-to-head record."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery

from gameplay.models import Game, Seat
from leagues.models import League

LATEST_FIRST = F("game__finished_at").desc(nulls_last=True)


def public_finished_seats(player) -> QuerySet[Seat]:
    """The player's seats at finished public tables (invite-only tables stay private)."""
    return Seat.objects.filter(user=player, game__status=Game.Status.FINISHED, game__is_private=False)


def filtered_finished_seats(player, filters: dict, opponent=None) -> QuerySet[Seat]:
    """`public_finished_seats` narrowed by the filter form's cleaned data, the newest first."""
    seats = public_finished_seats(player)
    if filters.get("game"):
        seats = seats.filter(game__engine=filters["game"])
    if opponent is not None:
        seats = seats.filter(game__seats__user=opponent)
    if filters.get("result") == "won":
        seats = seats.filter(place=1)
    elif filters.get("result") == "not_won":
        seats = seats.filter(place__gt=1)
    if filters.get("league"):
        seats = seats.filter(game__fixture__division__season__league__slug=filters["league"])
    return seats.order_by(LATEST_FIRST, "-game_id")


@dataclass(frozen=True)
class HeadToHead:
    opponent: object
    games: int
    ahead: int  # games where the player finished above the opponent
    behind: int
    level: int


def head_to_head(player, opponent, engine: str = "") -> HeadToHead:
    """The finished public games both played, and who finished above whom (one query)."""
    theirs = Seat.objects.filter(game=OuterRef("game"), user=opponent).values("place")[:1]
    together = public_finished_seats(player).filter(game__seats__user=opponent)
    if engine:
        together = together.filter(game__engine=engine)
    counts = together.annotate(their_place=Subquery(theirs)).aggregate(
        games=Count("pk"),
        ahead=Count("pk", filter=Q(place__lt=F("their_place"))),
        behind=Count("pk", filter=Q(place__gt=F("their_place"))),
        level=Count("pk", filter=Q(place=F("their_place"))),
    )
    return HeadToHead(opponent=opponent, **counts)


def find_opponent(username: str):
    """The active user of that username, or None."""
    if not username:
        return None
    return get_user_model().objects.filter(username=username, is_active=True).first()


def leagues_of(player) -> list[tuple[str, str]]:
    """(slug, name) of the public leagues the player has played a game in (one query)."""
    return list(League.objects.filter(is_private=False, seasons__divisions__fixtures__game__seats__user=player)
                .distinct().order_by("name").values_list("slug", "name"))
