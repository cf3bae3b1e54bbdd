"""The player page's lists: finished games with filters, and the head-to-head record."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery

from gameplay.models import Seat
from leagues.models import League

# The newest first along the index seat_user_finished (Seat.finished_at: the game's, once it finished).
LATEST_FIRST = ("-finished_at", "-game_id")


def public_finished_seats(player) -> QuerySet[Seat]:
    """The player's seats at finished public tables (invite-only tables stay private)."""
    return Seat.objects.filter(user=player, finished_at__isnull=False, game__is_private=False)


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
    return seats.order_by(*LATEST_FIRST)


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
    """(slug, name) of the public leagues the player has played a game in
    (one query, looking into each public league's games: not into the
    player's every seat)."""
    played = Seat.objects.filter(user=player, game__fixture__division__season__league=OuterRef("pk"))
    return list(League.objects.filter(is_private=False).filter(Exists(played))
                .order_by("name").values_list("slug", "name"))
