"""What a moderator reads about players next to a report: the reports about
them and by them, their games lost on time and resigned, their automatic
moves on timeout (Move rows by TIMEOUT), and the chat around a message.

A fixed number of queries for any number of players: each count is one
grouped query over all of them."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, F, Q

from moderation.models import Report
from gameplay.models import ChatMessage, Move
from gameplay.records import RESIGN, TIMEOUT

RECENT = 5  # the latest games of each kind listed by id
CHAT_AROUND = 5  # messages shown before and after a reported one


@dataclass
class PlayerHistory:
    user: object
    reports_against: int = 0
    reports_against_upheld: int = 0
    reports_made: int = 0
    reports_made_dismissed: int = 0
    timeouts: int = 0  # automatic moves made for the player when the time ran out
    lost_on_time: list[int] = field(default_factory=list)  # game ids, the newest first
    resigned: list[int] = field(default_factory=list)
    lost_on_time_count: int = 0
    resigned_count: int = 0


def _by_user(queryset, key: str) -> dict[int, dict]:
    return {row[key]: row for row in queryset}


def player_histories(users) -> list[PlayerHistory]:
    users = [u for u in users if u is not None]
    ids = [u.pk for u in users]
    if not ids:
        return []
    against = _by_user(Report.objects.filter(target_user_id__in=ids).values("target_user_id").annotate(
        n=Count("pk"), upheld=Count("pk", filter=Q(status=Report.Status.RESOLVED))), "target_user_id")
    made = _by_user(Report.objects.filter(reporter_id__in=ids).values("reporter_id").annotate(
        n=Count("pk"), dismissed=Count("pk", filter=Q(status=Report.Status.DISMISSED))), "reporter_id")
    # A seat's moves: the move's position is the seat's, in the same game (one join).
    seat_moves = Move.objects.filter(game__seats__user_id__in=ids, game__seats__position=F("position"))
    timeouts = _by_user(seat_moves.filter(by=Move.By.TIMEOUT).exclude(action__type=TIMEOUT)
                        .values("game__seats__user_id").annotate(n=Count("pk")), "game__seats__user_id")
    endings: dict[tuple[int, str], list[int]] = {}
    for user_id, kind, game_id in (seat_moves.filter(action__type__in=[RESIGN, TIMEOUT])
                                   .values_list("game__seats__user_id", "action__type", "game_id")
                                   .order_by("-game_id")):
        endings.setdefault((user_id, kind), []).append(game_id)
    histories = []
    for user in users:
        a, m = against.get(user.pk, {}), made.get(user.pk, {})
        lost, resigned = endings.get((user.pk, TIMEOUT), []), endings.get((user.pk, RESIGN), [])
        histories.append(PlayerHistory(
            user=user, reports_against=a.get("n", 0), reports_against_upheld=a.get("upheld", 0),
            reports_made=m.get("n", 0), reports_made_dismissed=m.get("dismissed", 0),
            timeouts=timeouts.get(user.pk, {}).get("n", 0), lost_on_time=lost[:RECENT], resigned=resigned[:RECENT],
            lost_on_time_count=len(lost), resigned_count=len(resigned)))
    return histories


def chat_around(message: ChatMessage) -> list[ChatMessage]:
    """The reported message with the few before and after it in its game's chat (hidden ones too)."""
    rows = ChatMessage.objects.filter(game_id=message.game_id).select_related("user")
    before = list(rows.filter(Q(created_at__lt=message.created_at) | Q(created_at=message.created_at, pk__lt=message.pk))
                  .order_by("-created_at", "-pk")[:CHAT_AROUND])
    after = list(rows.filter(Q(created_at__gt=message.created_at) | Q(created_at=message.created_at, pk__gt=message.pk))
                 .order_by("created_at", "pk")[:CHAT_AROUND])
    return before[::-1] + [message] + after
