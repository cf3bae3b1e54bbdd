"""Ratings: openskill's Plackett–Luce model over each rated game's finishing order.

Decisions (issue 12):
- One rating per player per game kind. It changes only when a rated game
  finishes, in the transaction that finishes it (`rate_game`, called by the
  move service when the game ends), so a result and its ratings are written
  together or not at all.
- The order is the seats' places, which the move service has just set from
  `engine.outcome` (a resignation or a loss on time ranks as the outcome
  says). Shared places are ties. Partners (`Seat.team`, Durak 2×2) are
  rated as one team at their pair's place.
- A table is rated or casual (`Game.rated`, chosen when it is created). A
  game with a computer player from the start is not rated.
- Substitutes (issue 14, `moderation.services.games.substitute_seat`):
  a player a moderator replaced, by a computer or by another person, is
  rated as the one who left: last, below every other seat (leavers of one
  game share that place); in pairs the leaver is rated alone, the partner
  keeps the pair's place. So a computer that replaced a leaver keeps the
  game rated. A substitute who joined a game in play is not rated for it
  (part of a game is no measure of a player); the other players are rated
  on their places as usual.
- The model works on openskill's default scale times 60 (mu 1500, sigma
  500): players see the conservative estimate mu - 3 sigma, rounded, which
  starts at 0 (see `ratings.models.shown`).
- Bot accounts (issue 29): a game where a bot account holds a seat is
  rated in the bots' own pool, a separate key per game kind
  (`durak:bots`: `rating_pool`), unless its table says otherwise
  (`Game.bots_rated_apart` off): people's leaderboards and ratings are not
  moved by programs.
- Computer levels (issue 43): a rated game where every seat is a computer
  (the duplicate-deal matches of `play_computer_matches`) rates the levels'
  accounts (accounts/computers.py) in the computers' pool, a key per game
  kind (`durak:computers`). A level holding several seats of one game is
  rated once, at the rank of its seats' mean place. A game with people and
  computers from the start is still not rated, for anybody.
- `recompute` replays every finished rated game in the order they finished
  and gives the same numbers as the live updates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models.functions import Coalesce
from openskill.models import PlackettLuce

from accounts import computers
from gameplay.engine import ENGINES
from gameplay.models import Game, Seat
from gameplay.results import replaced_players
from ratings.models import PROVISIONAL_GAMES, Rating, RatingChange, shown

SCALE = 60.0
MODEL = PlackettLuce(mu=25.0 * SCALE, sigma=25.0 / 3 * SCALE, beta=25.0 / 6 * SCALE, tau=25.0 / 300 * SCALE)


@dataclass(frozen=True)
class RatingValue:
    """A player's rating in one game kind at some moment."""

    mu: float
    sigma: float
    games: int

    @property
    def value(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def is_provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


INITIAL = RatingValue(mu=MODEL.mu, sigma=MODEL.sigma, games=0)


@dataclass(frozen=True)
class Rated:
    """Who a seat's result is rated for, and at which rank."""

    user_id: int
    rank: int
    team: tuple


def rated_players(game: Game, seats: list[Seat]) -> list[Rated]:
    """The people this game rates (none: the game is not rated): every
    seat's player, or the player a moderator replaced in it, ranked last."""
    if not game.rated or not seats:
        return []
    if is_computers_only(seats):
        return _computer_levels_rated(seats)
    replaced = replaced_players(game)
    last = max((s.place or 0) for s in seats) + 1
    rated = []
    for seat in sorted(seats, key=lambda s: s.position):
        if seat.position in replaced:
            rated.append(Rated(replaced[seat.position], last, ("left", seat.position)))
        else:
            team = ("team", seat.team) if seat.team is not None else ("seat", seat.position)
            rated.append(Rated(seat.user_id if not seat.is_bot else None, seat.place, team))
    users = [r.user_id for r in rated]
    if None in users or len(set(users)) != len(users) or any(r.rank is None for r in rated):
        return []
    return rated


def is_rated(game: Game, seats: list[Seat]) -> bool:
    """Whether this game changes ratings: a rated table where every seat is a
    person, or a computer or another person who replaced one."""
    return bool(rated_players(game, seats))


BOT_POOL = "bots"
COMPUTER_POOL = "computers"


def is_computers_only(seats: list[Seat]) -> bool:
    return bool(seats) and all(s.is_bot and s.user_id is None for s in seats)


def _computer_levels_rated(seats: list[Seat]) -> list[Rated]:
    """The levels of a computers-only game, each once, ranked by the mean place of its seats
    (equal means share a rank); none if a seat has no place or a level has no account."""
    if any(s.place is None for s in seats):
        return []
    places: dict[int, list[int]] = {}
    for seat in seats:
        places.setdefault(seat.computer_level, []).append(seat.place)
    accounts = computers.computer_accounts()
    if not set(places) <= set(accounts) or len(places) < 2:
        return []
    means = {level: sum(found) / len(found) for level, found in places.items()}
    return [Rated(accounts[level].pk, 1 + sum(other < mean for other in means.values()), ("level", level))
            for level, mean in sorted(means.items())]


def rating_pool(game: Game, seats: list[Seat]) -> str:
    """The key a game's ratings are kept under: its game kind, or the bots'
    pool of it when a bot account sits at a table that rates bots apart."""
    if is_computers_only(seats):
        return f"{game.engine}:{COMPUTER_POOL}"
    if game.bots_rated_apart and any(s.user_id and s.user.is_bot for s in seats):
        return f"{game.engine}:{BOT_POOL}"
    return game.engine


def split_pool(key: str) -> tuple[str, str]:
    """(game kind, pool: "" for people's, BOT_POOL, COMPUTER_POOL) of a rating's key."""
    engine, _sep, pool = key.partition(":")
    return engine, pool
def rate_finished_game(game: Game, **_details) -> None:
    """The `game_finished` event (in its transaction; the seats are loaded and hold their places)."""
    rate_game(game, list(game.seats.all()), game.finished_at)


def rate_game(game: Game, seats: list[Seat], when: datetime) -> list[RatingChange]:
    """Update the ratings of a game that has just finished (its seats' places
    set), inside the caller's transaction. Nothing for an unrated game."""
    rated = rated_players(game, seats)
    if not rated:
        return []
    pool = rating_pool(game, seats)
    ratings = {r.user_id: r for r in Rating.objects.select_for_update()
               .filter(engine=pool, user_id__in=[r.user_id for r in rated])}
    teams = _teams(rated)
    before = [[_value(ratings.get(player.user_id)) for player in team] for team in teams]
    after = MODEL.rate([[MODEL.rating(mu=v.mu, sigma=v.sigma) for v in team] for team in before],
                       ranks=[min(player.rank for player in team) for team in teams])
    changes = []
    for team, old_team, new_team in zip(teams, before, after):
        for player, old, new in zip(team, old_team, new_team):
            rating = ratings.get(player.user_id) or Rating(user_id=player.user_id, engine=pool)
            rating.mu, rating.sigma, rating.games, rating.updated_at = new.mu, new.sigma, old.games + 1, when
            rating.save()
            changes.append(RatingChange(game=game, user_id=player.user_id, engine=pool,
                                        mu_before=old.mu, sigma_before=old.sigma, mu=new.mu, sigma=new.sigma,
                                        games=rating.games, at=when))
    RatingChange.objects.bulk_create(changes)
    return changes


def _teams(rated: list[Rated]) -> list[list[Rated]]:
    """The players grouped as they are rated: partners together, everyone else alone."""
    groups: dict = {}
    for player in rated:
        groups.setdefault(player.team, []).append(player)
    return list(groups.values())


def _value(rating: Rating | None) -> RatingValue:
    return INITIAL if rating is None else RatingValue(rating.mu, rating.sigma, rating.games)


def rating_of(user, engine: str) -> RatingValue:
    """A player's current rating in a game kind (the initial one before his first rated game)."""
    return _value(Rating.objects.filter(user=user, engine=engine).first())


def rating_at(user, engine: str, when: datetime) -> RatingValue:
    """A player's rating in a game kind as it stood at `when` (after every
    rated game that finished by then): what leagues use as "rating at the
    start of the season"."""
    change = (RatingChange.objects.filter(user=user, engine=engine, at__lte=when)
              .order_by("-at", "-pk").first())
    return INITIAL if change is None else RatingValue(change.mu, change.sigma, change.games)


@transaction.atomic
def recompute() -> int:
    """Rebuild every rating and its history from the finished rated games, in
    the order they finished. Returns the number of games rated."""
    RatingChange.objects.all().delete()
    Rating.objects.all().delete()
    rated = 0
    games = (Game.objects.filter(status=Game.Status.FINISHED, rated=True).exclude(finished_at=None)
             .order_by("finished_at", "pk"))
    for game in games.iterator(chunk_size=200):
        seats = list(game.seats.select_related("user"))
        if rate_game(game, seats, game.finished_at):
            rated += 1
    return rated


@transaction.atomic
def unrate_games(game_ids: list[int]) -> list[int]:
    """Take finished games out of the ratings, their results kept (a
    moderator's annulment: `moderation.fairplay.reviews`): they are marked
    unrated, and each rating pool they were rated in is rebuilt from the
    first of them on, game by game in the order they finished, since every
    later change there started from the ratings they had changed. Returns
    the ids of the games whose ratings were annulled."""
    changed = list(RatingChange.objects.filter(game_id__in=game_ids).values_list("game_id", "engine", "at"))
    since: dict[str, datetime] = {}
    for _game, pool, at in changed:
        since[pool] = min(at, since.get(pool, at))
    Game.objects.filter(pk__in=game_ids).update(rated=False)
    for pool, start in since.items():
        _rebuild_pool(pool, start)
    return sorted({game for game, _pool, _at in changed})


def _rebuild_pool(pool: str, since: datetime) -> None:
    later = RatingChange.objects.filter(engine=pool, at__gte=since)
    games = list(dict.fromkeys(later.order_by("at", "game_id").values_list("game_id", flat=True)))
    users = set(later.values_list("user_id", flat=True))
    later.delete()
    for user_id in users:
        last = RatingChange.objects.filter(engine=pool, user_id=user_id).order_by("-at", "-pk").first()
        if last is None:
            Rating.objects.filter(engine=pool, user_id=user_id).delete()
        else:
            Rating.objects.filter(engine=pool, user_id=user_id).update(
                mu=last.mu, sigma=last.sigma, games=last.games, updated_at=last.at)
    for game in Game.objects.filter(pk__in=games, rated=True).order_by("finished_at", "pk"):
        rate_game(game, list(game.seats.select_related("user")), game.finished_at)


# -- what the pages show -------------------------------------------------------

HISTORY_POINTS = 200  # the newest rated games drawn per game kind
LEADERBOARD_ACTIVE_DAYS = 90


@dataclass(frozen=True)
class PlayerRating:
    engine: str
    rating: RatingValue
    history: list[int]  # the shown value after each of the newest rated games, oldest first
    dates: list = field(default_factory=list)  # when each of those games was rated (datetimes), oldest first


def player_ratings(user) -> list[PlayerRating]:
    """A player's rating in each game kind he has played rated, with its
    recent history (two queries, whatever the number of games)."""
    from django.db.models import F, Window
    from django.db.models.functions import RowNumber

    newest_first = Window(RowNumber(), partition_by=[F("engine")], order_by=[F("at").desc(), F("pk").desc()])
    changes = (RatingChange.objects.filter(user=user).annotate(row=newest_first).filter(row__lte=HISTORY_POINTS)
               .order_by("engine", "at", "pk").values_list("engine", "mu", "sigma", "at"))
    history: dict[str, list[int]] = {}
    dates: dict[str, list] = {}
    for engine, mu, sigma, at in changes:
        history.setdefault(engine, []).append(shown(mu, sigma))
        dates.setdefault(engine, []).append(at)
    return [PlayerRating(r.engine, _value(r), history.get(r.engine, []), dates.get(r.engine, []))
            for r in Rating.objects.filter(user=user).order_by("engine")]


def leaderboard(engine: str, now: datetime):
    """The players of a game kind ranked by their shown rating (equal ones
    in the order they joined): those with enough rated games to be out of
    the provisional mark, who played rated in the last
    LEADERBOARD_ACTIVE_DAYS days. Read along the index rating_leaderboard,
    best first, whatever the number of players; the page is not counted
    (`gameplay.paging.OpenEndedPaginator`).

    The activity test is written so that no index serves it (COALESCE of the
    column with itself): SQLite, which keeps no statistics, otherwise reads
    every active player by an index of the dates, if there is one, and sorts them all."""
    return (Rating.objects.filter(engine=engine, games__gte=PROVISIONAL_GAMES)
            .alias(active_at=Coalesce("updated_at", "updated_at")).filter(active_at__gte=_active_since(now))
            .select_related("user").order_by("-ordinal", "user_id"))


def _active_since(now: datetime) -> datetime:
    return now - timedelta(days=LEADERBOARD_ACTIVE_DAYS)


def provisional_players(engine: str, now: datetime):
    """The players of a game kind not on its leaderboard yet for too few rated games (fewer than
    PROVISIONAL_GAMES), active in the same last days, best first by their provisional rating
    (equal ones in the order they joined, as on the leaderboard). Read along the index
    rating_provisional, as `leaderboard` reads its own (and for the same reason its activity
    test is written so that no index serves it): ordering by username made PostgreSQL read
    every user and sort the active provisional players, 11 ms at 10,000 players."""
    return (Rating.objects.filter(engine=engine, games__gt=0, games__lt=PROVISIONAL_GAMES)
            .alias(active_at=Coalesce("updated_at", "updated_at")).filter(active_at__gte=_active_since(now))
            .select_related("user").order_by("-ordinal", "user_id"))


def ratings_in_games(pairs: set[tuple[int, str]]) -> dict[tuple[int, str], RatingValue]:
    """{(user id, game kind): rating} for these pairs, the initial rating for
    those not rated yet (one query, whatever the number of pairs)."""
    if not pairs:
        return {}
    users, engines = {u for u, _e in pairs}, {e for _u, e in pairs}
    found = {(r.user_id, r.engine): _value(r) for r in Rating.objects.filter(user_id__in=users, engine__in=engines)}
    return {pair: found.get(pair, INITIAL) for pair in pairs}


@dataclass(frozen=True)
class LevelStanding:
    """A computer level's place among the levels in one game kind (the computers' pool)."""

    level: int
    user: object  # the level's account
    rating: RatingValue | None  # None: no rated game between levels yet


def computer_levels_ranked() -> dict[str, list[LevelStanding]]:
    """{game kind: its levels, best first by their rating in the computers' pool (those not rated
    yet last, by level)}, for every game kind of the site (two queries)."""
    accounts = computers.computer_accounts()
    found = {(r.user_id, r.engine): _value(r) for r in Rating.objects.filter(
        user_id__in=[a.pk for a in accounts.values()], engine__endswith=f":{COMPUTER_POOL}")}
    ranked = {}
    for engine in ENGINES:
        standings = [LevelStanding(level, account, found.get((account.pk, f"{engine}:{COMPUTER_POOL}")))
                     for level, account in sorted(accounts.items())]
        ranked[engine] = sorted(standings, key=lambda s: (s.rating is None, -(s.rating.mu - 3 * s.rating.sigma)
                                                          if s.rating else 0, s.level))
    return ranked
