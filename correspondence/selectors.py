"""What the pages (and the API) read: a player's games by deadline, the next
game waiting for him, his friends, his challenges. Plain data out; a fixed
number of queries whatever the number of games."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.core.paginator import Page, Paginator
from django.db.models import Case, DateTimeField, F, Max, OuterRef, Q, QuerySet, Subquery, Value, When
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from correspondence.models import Challenge, Follow, Invitation
from gameplay import clocks, labels
from gameplay.models import Game, Seat
from ratings.services import ratings_in_games

# Finished and aborted games stay on the list this long, at most this many.
RECENT_DAYS = 7
RECENT_LIMIT = 20
RECENT_SEATS = 200
VACATION_LOOKBACK = timedelta(days=60)

MY_MOVE, WAITING, OPEN, FINISHED = "my_move", "waiting", "open", "finished"


@dataclass(frozen=True)
class Clock:
    """A seat's clock: the move deadline (None: not on the clock), the
    reserve left, and when the time runs out altogether (move time, then
    the reserve, counted with the player's night pauses and vacations as
    the clocks count them)."""

    deadline: datetime | None
    final_deadline: datetime | None
    reserve_seconds: int
    in_reserve: bool

    def seconds_left(self, now: datetime) -> int | None:
        if self.final_deadline is None:
            return None
        return max(0, int((self.final_deadline - now).total_seconds()))


@dataclass(frozen=True)
class Player:
    position: int
    name: str
    username: str | None
    url: str | None  # the player page
    is_bot: bool
    is_me: bool
    is_partner: bool
    on_move: bool
    rating: int | None
    provisional: bool
    clock: Clock

    @property
    def rating_shown(self) -> dict | None:
        """As ratings/_rating.html shows it."""
        return None if self.rating is None else {"value": self.rating, "provisional": self.provisional}


@dataclass(frozen=True)
class MyGame:
    game_id: int
    url: str
    engine: str
    engine_name: str
    variant: str
    status: str
    group: str  # my_move | waiting | open | finished
    position: int
    me: Player
    others: list[Player]
    last_move_at: datetime | None
    started_at: datetime | None
    finished_at: datetime | None
    league: dict | None  # {"name", "season", "round", "url"}
    result: dict | None  # {"place", "points", "aborted"}
    seats_count: int
    time_control: str

    @property
    def my_move(self) -> bool:
        return self.group == MY_MOVE

    @property
    def partner(self) -> Player | None:
        return next((p for p in self.others if p.is_partner), None)

    @property
    def opponents(self) -> list[Player]:
        return [p for p in self.others if not p.is_partner]

    @property
    def on_move(self) -> list[Player]:
        return [p for p in [self.me, *self.others] if p.on_move]


RELATED = ("game", "game__fixture__division__season__league")


def current_seats(user) -> QuerySet[Seat]:
    """The user's seats at open and active tables in the list's order, from
    the seats alone (no game row read to order them): his moves first, the
    nearest move deadline on top; then the games waiting for others, the
    nearest of their deadlines first; then his open tables, the newest first."""
    current = Game.objects.filter(status__in=[Game.Status.OPEN, Game.Status.ACTIVE]).values("id")
    active = Game.objects.filter(status=Game.Status.ACTIVE).values("id")
    others_first_deadline = (Seat.objects.filter(game_id=OuterRef("game_id"), deadline__isnull=False)
                             .exclude(pk=OuterRef("pk")).order_by("deadline").values("deadline")[:1])
    return (
        # The games in play by their ids from Game's status index: the user's
        # finished games (most of his seats, after a while) are never read.
        Seat.objects.filter(user=user, game_id__in=current)
        .annotate(
            group=Case(When(Q(game_id__in=active, deadline__isnull=False), then=Value(0)),
                       When(game_id__in=active, then=Value(1)), default=Value(2)),
            urgency=Case(When(group=0, then=F("deadline")), When(group=1, then=Subquery(others_first_deadline)),
                         default=None, output_field=DateTimeField()),
        )
        .order_by("group", F("urgency").asc(nulls_last=True), "-game_id")
    )


def _load(ids: list[int]) -> list[Seat]:
    loaded = Seat.objects.select_related(*RELATED).defer("game__state", "game__history").in_bulk(ids)
    return [loaded[pk] for pk in ids if pk in loaded]


def _recently_ended(user, now: datetime) -> list[Seat]:
    """The user's games that ended within RECENT_DAYS, the latest first, at
    most RECENT_LIMIT, looked for among his RECENT_SEATS newest tables (from
    his seats' index), so that a long history is never read."""
    newest = Seat.objects.filter(user=user).order_by("-game_id").values("game_id")[:RECENT_SEATS]
    return list(Seat.objects.filter(user=user, game_id__in=Subquery(newest),
                                    game__status__in=[Game.Status.FINISHED, Game.Status.ABORTED],
                                    game__finished_at__gte=now - timedelta(days=RECENT_DAYS))
                .select_related(*RELATED).defer("game__state", "game__history").order_by("-game__finished_at")[:RECENT_LIMIT])


def _vacations(user_ids: set[int], now: datetime) -> dict[int, tuple]:
    rows = (Vacation.objects.filter(user_id__in=user_ids, ends_at__gt=now - VACATION_LOOKBACK)
            .order_by("starts_at").values_list("user_id", "starts_at", "ends_at"))
    found: dict[int, list] = {}
    for user_id, start, end in rows:
        found.setdefault(user_id, []).append((start, end))
    return {user_id: tuple(v) for user_id, v in found.items()}


def _clock(seat: Seat, game: Game, vacations: dict) -> Clock:
    deadline = seat.deadline if game.status == Game.Status.ACTIVE else None
    final = deadline
    if deadline is not None and not seat.in_reserve and seat.clock_uses_reserve and seat.reserve_seconds_left:
        user = seat.user
        pauses = clocks.NO_PAUSES
        if user is not None:
            night = (user.night_pause_start, user.night_pause_end) if game.night_pause else (None, None)
            pauses = clocks.Pauses(user.time_zone, night[0], night[1], vacations.get(user.pk, ()))
        final = clocks.advance(deadline, seat.reserve_seconds_left, pauses)
    return Clock(deadline=deadline, final_deadline=final, reserve_seconds=seat.reserve_seconds_left,
                 in_reserve=seat.in_reserve)


def _league(game: Game) -> dict | None:
    fixture = getattr(game, "fixture", None)
    if fixture is None:
        return None
    division = fixture.division
    return {"name": division.season.league.name, "season": division.season.number, "round": fixture.round,
            "url": division.get_absolute_url()}


def _group(game: Game, mine: Seat) -> str:
    if game.status == Game.Status.ACTIVE:
        return MY_MOVE if mine.deadline is not None else WAITING
    return OPEN if game.status == Game.Status.OPEN else FINISHED


def my_games(user, now: datetime | None = None, *, limit: int | None = None, offset: int = 0,
             finished: bool = True) -> list[MyGame]:
    """The games `user` sits in, in the list's order (`current_seats`):
    `limit` of them from `offset` (all by default), then, if `finished`, the
    RECENT_LIMIT games that ended last within RECENT_DAYS, the latest first.
    Plain data. A fixed number of queries (at most six), whatever the
    number of games; only the rows returned are loaded in full."""
    now = now or timezone.now()
    ids = current_seats(user).values_list("pk", flat=True)
    ids = list(ids[offset:offset + limit] if limit is not None else ids[offset:])
    seats = _load(ids) if ids else []
    if finished:
        seats += _recently_ended(user, now)
    return rows_for(seats, now)


def rows_for(my_seats: list[Seat], now: datetime) -> list[MyGame]:
    """The rows of these seats of the user (each with its game), in their
    order: three queries (every seat of those games, the ratings, the
    vacations of the players on the clock)."""
    mine = {seat.game_id: seat for seat in my_seats}
    if not mine:
        return []
    seats = list(Seat.objects.filter(game_id__in=list(mine)).select_related("user").order_by("game_id", "position"))
    by_game: dict[int, list[Seat]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    games = {game_id: seat.game for game_id, seat in mine.items()}
    ratings = ratings_in_games({(s.user_id, games[s.game_id].engine) for s in seats if s.user_id})
    on_clock = {s.user_id for s in seats if s.user_id and s.deadline is not None}
    vacations = _vacations(on_clock, now) if on_clock else {}
    return [_row(games[game_id], my_seat, by_game.get(game_id, []), ratings, vacations)
            for game_id, my_seat in mine.items()]


def _row(game: Game, my_seat: Seat, seats: list[Seat], ratings: dict, vacations: dict) -> MyGame:
    players = [_player(seat, game, my_seat, ratings, vacations) for seat in seats]
    return MyGame(
        game_id=game.pk, url=reverse("game", args=[game.pk]), engine=game.engine,
        engine_name=labels.game_name(game), variant=labels.variant_label(game), status=game.status,
        group=_group(game, my_seat), position=my_seat.position, me=next(p for p in players if p.is_me),
        others=[p for p in players if not p.is_me],
        last_move_at=game.turn_started_at if game.version else None, started_at=game.started_at,
        finished_at=game.finished_at, league=_league(game),
        result=None if not game.is_over else {"place": my_seat.place, "points": my_seat.points,
                                             "aborted": game.status == Game.Status.ABORTED},
        seats_count=game.seats_count, time_control=labels.time_control_label(game),
    )


def _player(seat: Seat, game: Game, my_seat: Seat, ratings: dict, vacations: dict) -> Player:
    rating = ratings.get((seat.user_id, game.engine)) if seat.user_id else None
    return Player(
        position=seat.position, name=str(seat.player_name), username=seat.user.username if seat.user else None,
        url=reverse("player", args=[seat.user.username]) if seat.user else None,
        is_bot=seat.is_bot, is_me=seat.pk == my_seat.pk,
        is_partner=seat.pk != my_seat.pk and seat.team is not None and seat.team == my_seat.team,
        on_move=game.status == Game.Status.ACTIVE and seat.deadline is not None,
        rating=rating.value if rating else None, provisional=bool(rating and rating.is_provisional),
        clock=_clock(seat, game, vacations),
    )


def waiting_game_ids(user, excluding: int | None = None) -> list[int]:
    """The active games waiting for `user`'s move, the most urgent (nearest
    move deadline) first; one indexed query."""
    seats = Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE, deadline__isnull=False)
    if excluding is not None:
        seats = seats.exclude(game_id=excluding)
    return list(seats.order_by("deadline", "game_id").values_list("game_id", flat=True).distinct())


def next_game_id(user, excluding: int | None = None) -> int | None:
    """The most urgent game waiting for `user`'s move (not `excluding`), or None."""
    found = waiting_game_ids(user, excluding)
    return found[0] if found else None


# --- friends and challenges ---------------------------------------------------------


@dataclass(frozen=True)
class Friend:
    username: str
    name: str
    last_seen: datetime | None  # the last login or sign of life at a game table (the day is shown)
    games: list[dict] = field(default_factory=list)  # his public games in play: {"id", "url", "engine_name"}


def friends(user) -> list[Friend]:
    """The players `user` follows, with their public games in play and when
    they were last seen (three queries)."""
    followed = list(Follow.objects.filter(follower=user).select_related("followed")
                    .order_by("followed__username"))
    ids = [f.followed_id for f in followed]
    games: dict[int, list[dict]] = {}
    if ids:
        public_in_play = Game.objects.filter(status=Game.Status.ACTIVE, is_private=False).values("id")
        seats = (Seat.objects.filter(user_id__in=ids, game_id__in=public_in_play)
                 .select_related("game").defer("game__state", "game__history").order_by("-game_id"))
        for seat in seats:
            games.setdefault(seat.user_id, []).append(
                {"id": seat.game_id, "url": reverse("game", args=[seat.game_id]),
                 "engine_name": labels.game_name(seat.game), "variant": labels.variant_label(seat.game)})
    seen = dict(Seat.objects.filter(user_id__in=ids).values("user_id").annotate(seen=Max("seen_at"))
                .values_list("user_id", "seen")) if ids else {}
    return [Friend(username=f.followed.username, name=f.followed.name,
                   last_seen=max((t for t in (f.followed.last_login, seen.get(f.followed_id)) if t), default=None),
                   games=games.get(f.followed_id, [])) for f in followed]


def challenges_for(user) -> dict[str, list]:
    """`user`'s challenges: those waiting for his answer, those he sent that
    are still waiting, and the last ones closed (sent or received)."""
    involved = Q(created_by=user) | Q(invitations__user=user)
    challenges = list(
        Challenge.objects.filter(involved).distinct().select_related("created_by", "game")
        .prefetch_related("invitations__user").order_by("-created_at")[:50])
    incoming, sent, closed = [], [], []
    for challenge in challenges:
        if not challenge.is_pending:
            closed.append(challenge)
        elif challenge.created_by_id == user.pk:
            sent.append(challenge)
        else:
            invitation = next(i for i in challenge.invitations.all() if i.user_id == user.pk)
            (incoming if invitation.answer == Invitation.Answer.WAITING else sent).append(challenge)
    return {"incoming": incoming, "sent": sent, "closed": closed[:20]}


def pending_challenge_count(user) -> int:
    return Invitation.objects.filter(user=user, answer=Invitation.Answer.WAITING,
                                     challenge__status=Challenge.Status.PENDING,
                                     challenge__expires_at__gt=timezone.now()).count()


PER_PAGE = 20


def my_games_page(user, number, per_page: int = PER_PAGE, now: datetime | None = None) -> tuple[list[MyGame], Page]:
    """One page of `my_games` (Django's Paginator over `current_seats`: a
    malformed number gives the first page, one out of range the last); the
    recently ended games come on the first page. At most seven queries."""
    now = now or timezone.now()
    page = Paginator(current_seats(user).values_list("pk", flat=True), per_page).get_page(number)
    seats = _load(list(page.object_list))
    if page.number == 1:
        seats += _recently_ended(user, now)
    return rows_for(seats, now), page
