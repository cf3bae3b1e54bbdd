"""What the pages (and the API) read: a player's games by deadline, the next
game waiting for him, his friends, his challenges. Plain data out; a fixed
number of queries whatever the number of games."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Case, DateTimeField, F, Func, Max, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone

from accounts.models import Vacation
from correspondence.models import Challenge, Follow, Invitation
from gameplay import clocks, labels
from gameplay.engine import get_engine
from gameplay.i18n import engine_name
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
    league: dict | None  # {"name", "season", "round", "url"}; a tournament's: season None
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


# A seat whose player's move the game waits for (his clock runs): the head of My games.
ON_MY_MOVE = Q(deadline__isnull=False, game__status=Game.Status.ACTIVE)


def current_seats(user) -> QuerySet[Seat]:
    """The user's seats at open and active tables in the list's order: his
    moves first, the nearest move deadline on top; then the games waiting
    for others, the nearest of their deadlines first; then his open tables,
    the newest first. Only his seats not finished are read (an index holds
    them apart: a seat gets its `finished_at` when its game ends with a
    result), each with its game row by key: neither his history nor the
    site's other games in play are read, so the cost follows his games in
    play alone."""
    active = Q(game__status=Game.Status.ACTIVE)
    others_first_deadline = (Seat.objects.filter(game_id=OuterRef("game_id"), deadline__isnull=False)
                             .exclude(pk=OuterRef("pk")).order_by("deadline").values("deadline")[:1])
    return (
        _unfinished_seats(user)
        .annotate(
            group=Case(When(ON_MY_MOVE, then=Value(0)), When(active, then=Value(1)),
                       default=Value(2)),
            urgency=Case(When(group=0, then=F("deadline")), When(group=1, then=Subquery(others_first_deadline)),
                         default=None, output_field=DateTimeField()),
        )
        .order_by("group", F("urgency").asc(nulls_last=True), "-game_id")
    )


def _current_seat_games(user) -> QuerySet:
    """`current_seats` as (seat id, game id) pairs."""
    return current_seats(user).values_list("pk", "game_id")


def _unfinished_seats(user) -> QuerySet[Seat]:
    """The user's seats at open and active tables, unordered."""
    return Seat.objects.filter(user=user, finished_at__isnull=True,
                               game__status__in=[Game.Status.OPEN, Game.Status.ACTIVE])


def _my_moves(user) -> QuerySet[Seat]:
    """The head of `current_seats`: the user's seats on the clock at games in
    play, the nearest deadline first, walked in that order from an index of
    their own (`seat_user_on_clock`), so that a slice of them reads only its
    rows, however many games he has in play."""
    return Seat.objects.filter(ON_MY_MOVE, user=user, finished_at__isnull=True).order_by("deadline", "-game_id")


class _CurrentSeatGames:
    """`current_seats` as (seat id, game id) pairs, to count and slice as
    Django's Paginator does: one query counts them, and how many of them are
    his moves; a slice within his moves (the first page of a player with as
    many of his moves waiting) is then read from those alone
    (`_my_moves`), and only a slice beyond them orders all his games in
    play, the others' first deadline worked out for each. Two queries, as
    the Paginator's count and slice of a queryset."""

    def __init__(self, user):
        self.user = user
        self.my_moves: int | None = None

    def count(self) -> int:
        # His moves counted from their index alone (a seat on the clock is one of a game in play;
        # should one not be, the slice below finds fewer rows and orders everything instead).
        on_clock = Seat.objects.filter(user=self.user, finished_at__isnull=True, deadline__isnull=False)
        # His user row only carries the two counts, so that they come in one query.
        counts = (get_user_model().objects.filter(pk=self.user.pk)
                  .values(all=_count(_unfinished_seats(self.user)), mine=_count(on_clock)).get())
        self.my_moves = counts["mine"]
        return counts["all"]

    def __getitem__(self, key: slice) -> list[tuple[int, int]]:
        if self.my_moves is not None and key.stop is not None and key.stop <= self.my_moves and not key.step:
            mine = list(_my_moves(self.user).values_list("pk", "game_id")[key])
            if len(mine) == key.stop - (key.start or 0):
                return mine
        return list(current_seats(self.user).values_list("pk", "game_id")[key])


def _count(queryset: QuerySet) -> Coalesce:
    """The number of the queryset's rows, as a scalar subquery."""
    return Coalesce(Subquery(queryset.order_by().annotate(n=Func("pk", function="COUNT")).values("n")[:1]), 0)


def _recently_ended(user, now: datetime) -> list[tuple[int, int]]:
    """(seat id, game id) of the user's games that ended within RECENT_DAYS,
    the latest first, at most RECENT_LIMIT, looked for among his RECENT_SEATS
    newest tables (from his seats' index), so that a long history is never read."""
    newest = Seat.objects.filter(user=user).order_by("-game_id").values("game_id")[:RECENT_SEATS]
    return list(Seat.objects.filter(user=user, game_id__in=Subquery(newest),
                                    game__status__in=[Game.Status.FINISHED, Game.Status.ABORTED],
                                    game__finished_at__gte=now - timedelta(days=RECENT_DAYS))
                .order_by("-game__finished_at").values_list("pk", "game_id")[:RECENT_LIMIT])


# What a row reads of its game (never the state) with its league, and of every seat at the table.
GAME_FIELDS = ("id", "engine", "options", "seats_count", "status", "version", "turn_started_at", "started_at",
               "finished_at", "move_seconds", "reserve_seconds", "night_pause",
               "fixture__round", "fixture__division__number", "fixture__division__season__number",
               "fixture__division__season__league__name", "fixture__division__season__league__slug",
               "tournament_table__round__number", "tournament_table__round__tournament__name",
               "tournament_table__round__tournament__slug")
SEAT_FIELDS = ("id", "game_id", "position", "user_id", "is_bot", "team", "reserve_seconds_left",
               "clock_uses_reserve", "deadline", "in_reserve", "place", "points")
USER_FIELDS = ("user__username", "user__display_name", "user__is_bot", "user__time_zone",
               "user__night_pause_start", "user__night_pause_end")
ACTIVE, OVER = Game.Status.ACTIVE, (Game.Status.FINISHED, Game.Status.ABORTED)
# A game's and a seat's fields as named tuples (values_list(..., named=True)): no model instance made.
GameRow = SeatRow = NamedTuple


def _vacations(user_ids: set[int], now: datetime) -> dict[int, tuple]:
    rows = (Vacation.objects.filter(user_id__in=user_ids, ends_at__gt=now - VACATION_LOOKBACK)
            .order_by("starts_at").values_list("user_id", "starts_at", "ends_at"))
    found: dict[int, list] = {}
    for user_id, start, end in rows:
        found.setdefault(user_id, []).append((start, end))
    return {user_id: tuple(v) for user_id, v in found.items()}


def _league(game: GameRow) -> dict | None:
    if game.tournament_table__round__number is not None:
        return {"name": game.tournament_table__round__tournament__name, "season": None,
                "round": game.tournament_table__round__number,
                "url": reverse("tournament", args=[game.tournament_table__round__tournament__slug])}
    if game.fixture__round is None:
        return None
    slug, season = game.fixture__division__season__league__slug, game.fixture__division__season__number
    return {"name": game.fixture__division__season__league__name, "season": season,
            "round": game.fixture__round,
            "url": reverse("division", args=[slug, season, game.fixture__division__number])}


def _group(game: GameRow, my_deadline: datetime | None) -> str:
    if game.status == ACTIVE:
        return MY_MOVE if my_deadline is not None else WAITING
    return OPEN if game.status == Game.Status.OPEN else FINISHED


@dataclass(frozen=True)
class _Person:
    """What the rows show of a seated user, and his clock's pauses."""

    name: str
    username: str
    url: str
    pauses: clocks.Pauses  # his night window and vacations
    day_pauses: clocks.Pauses  # his vacations alone (at a table without night pauses)


class _Rows:
    """What the rows of one list share, each made once whatever the number
    of rows: a person per seated user, the words of a kind of table and of a
    time control, the address of a game."""

    def __init__(self, vacations: dict[int, tuple]) -> None:
        self.vacations = vacations
        self.people: dict[int, _Person] = {}
        self.time_controls: dict[tuple[int, int], str] = {}
        self.kinds: dict[tuple, tuple[str, str]] = {}
        # The game page's address with a number that no prefix holds, once: then one replace per row.
        self.game_url = reverse("game", args=[GAME_URL_MARK])

    def person(self, seat: SeatRow) -> _Person:
        person = self.people.get(seat.user_id)
        if person is None:
            person = self.people[seat.user_id] = self._person(seat)
        return person

    def _person(self, seat: SeatRow) -> _Person:
        user = get_user_model()(pk=seat.user_id, username=seat.user__username,
                                display_name=seat.user__display_name, is_bot=seat.user__is_bot)
        vacations, zone = self.vacations.get(user.pk, ()), seat.user__time_zone
        return _Person(name=user.name, username=user.username, url=reverse("player", args=[user.username]),
                       pauses=clocks.Pauses(zone, seat.user__night_pause_start, seat.user__night_pause_end,
                                            vacations),
                       day_pauses=clocks.Pauses(zone, None, None, vacations))

    def time_control(self, game: GameRow) -> str:
        key = (game.move_seconds, game.reserve_seconds)
        if key not in self.time_controls:
            self.time_controls[key] = labels.time_control_words(*key)
        return self.time_controls[key]

    def kind(self, game: GameRow) -> tuple[str, str]:
        """The game's name and its table's variant in words (once per kind of table)."""
        key = (game.engine, game.seats_count, repr(game.options))
        if key not in self.kinds:
            self.kinds[key] = (engine_name(get_engine(game.engine)),
                               labels.variant_words(game.engine, game.options, game.seats_count))
        return self.kinds[key]

    def url_of_game(self, game_id: int) -> str:
        return self.game_url.replace(str(GAME_URL_MARK), str(game_id), 1)


GAME_URL_MARK = 9_876_543_210


def _clock(seat: SeatRow, game: GameRow, person: _Person | None) -> Clock:
    deadline = seat.deadline if game.status == ACTIVE else None
    final = deadline
    reserve = seat.reserve_seconds_left
    if deadline is not None and not seat.in_reserve and seat.clock_uses_reserve and reserve:
        pauses = clocks.NO_PAUSES
        if person is not None:
            pauses = person.pauses if game.night_pause else person.day_pauses
        final = clocks.advance(deadline, reserve, pauses)
    return Clock(deadline=deadline, final_deadline=final, reserve_seconds=reserve, in_reserve=seat.in_reserve)


def my_games(user, now: datetime | None = None, *, limit: int | None = None, offset: int = 0,
             finished: bool = True) -> list[MyGame]:
    """The games `user` sits in, in the list's order (`current_seats`):
    `limit` of them from `offset` (all by default), then, if `finished`, the
    RECENT_LIMIT games that ended last within RECENT_DAYS, the latest first.
    Plain data. A fixed number of queries (at most six), whatever the
    number of games; only the rows returned are loaded in full."""
    now = now or timezone.now()
    pairs = _current_seat_games(user)
    pairs = list(pairs[offset:offset + limit] if limit is not None else pairs[offset:])
    if finished:
        pairs += _recently_ended(user, now)
    return rows_for(pairs, now)


def rows_for(my_seats: list[tuple[int, int]], now: datetime) -> list[MyGame]:
    """The rows of these seats of the user, (seat id, game id) each, in
    their order: four queries (the games with their leagues, every seat of
    those games with its player, the ratings, the vacations of the players
    on the clock), as named tuples: no model instance made."""
    if not my_seats:
        return []
    game_ids = [game_id for _seat, game_id in my_seats]
    games = {game.id: game for game in Game.objects.filter(pk__in=game_ids).values_list(*GAME_FIELDS, named=True)}
    seats = list(Seat.objects.filter(game_id__in=game_ids).order_by("game_id", "position")
                 .values_list(*SEAT_FIELDS, *USER_FIELDS, named=True))
    by_game: dict[int, list[SeatRow]] = {}
    for seat in seats:
        by_game.setdefault(seat.game_id, []).append(seat)
    ratings = ratings_in_games({(s.user_id, games[s.game_id].engine) for s in seats
                                if s.user_id and s.game_id in games})
    on_clock = {s.user_id for s in seats if s.user_id and s.deadline is not None}
    shared = _Rows(_vacations(on_clock, now) if on_clock else {})
    return [_row(games[game_id], seat_id, by_game.get(game_id, []), ratings, shared)
            for seat_id, game_id in my_seats if game_id in games]


def _row(game: GameRow, my_seat_id: int, seats: list[SeatRow], ratings: dict, shared: _Rows) -> MyGame:
    my_seat = next(s for s in seats if s.id == my_seat_id)
    players = [_player(seat, game, my_seat, ratings, shared) for seat in seats]
    name, variant = shared.kind(game)
    return MyGame(
        game_id=game.id, url=shared.url_of_game(game.id), engine=game.engine, engine_name=name,
        variant=variant, status=game.status, group=_group(game, my_seat.deadline), position=my_seat.position,
        me=next(p for p in players if p.is_me), others=[p for p in players if not p.is_me],
        last_move_at=game.turn_started_at if game.version else None, started_at=game.started_at,
        finished_at=game.finished_at, league=_league(game),
        result=None if game.status not in OVER else {"place": my_seat.place, "points": my_seat.points,
                                                        "aborted": game.status == Game.Status.ABORTED},
        seats_count=game.seats_count, time_control=shared.time_control(game),
    )


def _player(seat: SeatRow, game: GameRow, my_seat: SeatRow, ratings: dict, shared: _Rows) -> Player:
    person = shared.person(seat) if seat.user_id else None
    rating = ratings.get((seat.user_id, game.engine)) if person else None
    is_me = seat.id == my_seat.id
    return Player(
        position=seat.position, name=_seat_name(seat, person),
        username=person.username if person else None, url=person.url if person else None,
        is_bot=seat.is_bot, is_me=is_me,
        is_partner=not is_me and seat.team is not None and seat.team == my_seat.team,
        on_move=game.status == ACTIVE and seat.deadline is not None,
        rating=rating.value if rating else None, provisional=bool(rating and rating.is_provisional),
        clock=_clock(seat, game, person),
    )


def _seat_name(seat: SeatRow, person: _Person | None) -> str:
    """As Seat.player_name says it."""
    if seat.is_bot:
        return str(Seat(position=seat.position, is_bot=True).player_name)
    return person.name if person else "—"


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
    """How many challenges wait for `user`'s answer (a User or a user id): one indexed count."""
    return Invitation.objects.filter(user=user, answer=Invitation.Answer.WAITING,
                                     challenge__status=Challenge.Status.PENDING,
                                     challenge__expires_at__gt=timezone.now()).count()


PER_PAGE = 20


def my_games_page(user, number, per_page: int = PER_PAGE, now: datetime | None = None, *,
                  finished: bool = True) -> tuple[list[MyGame], Page]:
    """One page of `my_games` (Django's Paginator over `current_seats`: a
    malformed number gives the first page, one out of range the last); the
    recently ended games come on the first page if `finished`. At most
    seven queries."""
    now = now or timezone.now()
    page = Paginator(_CurrentSeatGames(user), per_page).get_page(number)
    pairs = list(page.object_list)
    if finished and page.number == 1:
        pairs += _recently_ended(user, now)
    return rows_for(pairs, now), page
