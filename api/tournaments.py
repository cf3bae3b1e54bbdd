"""The tournaments' endpoints of /api/v1/ (token scope "tournament"): the list
(by status and game), one tournament (its settings, standings, a cup's group
standings and rounds with their tables' games) and joining or leaving it, through the same services
as the pages (`tournaments.services`), refused with the same messages."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from django.contrib.auth import get_user_model
from django.db.models import Count, Q
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema

from api import auth
from api.errors import ApiError
from api.schemas import STRICT, Error
from gameplay.engine import ENGINES
from gameplay.services.base import ensure_may_play
from tournaments import pairing, services
from tournaments.models import Entry, Round, Tournament
from tournaments.shown_standings import shown_groups

Slug = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[-a-zA-Z0-9_]+$")]
LIST_LIMIT = 100


class TournamentSummary(Schema):
    slug: str
    name: str
    engine: str
    players: int = Field(description="players at a table")
    format: str = Field(description="swiss or knockout")
    status: str = Field(description="open, running or finished")
    rounds: int = Field(description="0: suggested from the entrants at the start")
    entries: int
    rated: bool
    url: str


class TournamentRow(Schema):
    rank: int
    entry: int
    name: str
    points: float
    tiebreaks: dict[str, float | None]
    played: int
    byes: int
    withdrawn: bool
    computer_level: int | None = Field(None, description="a computer entrant's level (1-3); null for people")


class TournamentGroup(Schema):
    number: int
    rows: list[TournamentRow] = Field(description="the group's standings over its games, with the tournament's "
                                                  "tie-breaks")


class TournamentTable(Schema):
    board: int
    entries: list[int] = Field(description="entry ids by seat")
    game: int | None
    forfeits: list[int]
    match_game: int = Field(1, description="a cup match of several games: its game number (after them, the decider)")


class TournamentRound(Schema):
    number: int
    started_at: datetime
    deadline: datetime
    finished_at: datetime | None
    tables: list[TournamentTable]
    byes: list[int] = Field(description="entry ids with a bye this round")


class TournamentDetail(TournamentSummary):
    round_days: int
    next_round: str = Field(description="finished (when the previous is over) or scheduled (on its date)")
    start_window_hours: int
    substitute_level: int = Field(description="the level of the computer that finishes a leaver's games; "
                                              "0: a player who leaves forfeits the game in play")
    tiebreaks: list[str]
    games_per_match: int = Field(1, description="a knockout cup at two-player tables: the games of a match")
    group_size: int = Field(0, description="a knockout cup: players in each round-robin group first (0: none)")
    group_advance: int = Field(1, description="players that go on from each group to the cup")
    my_entry: int | None = Field(description="your entry's id, None if you have none")
    standings: list[TournamentRow]
    groups: list[TournamentGroup] = Field([], description="a cup with round-robin groups first: each group's "
                                                          "standings, once the cup has started (empty otherwise)")
    round_list: list[TournamentRound]


class JoinTournamentIn(Schema):
    model_config = STRICT
    partner: Annotated[str, Field(min_length=1, max_length=150)] | None = Field(
        None, description="in a tournament in pairs (Durak 2×2): your partner's user name")


class EntryOut(Schema):
    entry: int
    tournament: str
    withdrawn: bool


def _responses(ok) -> dict:
    return {200: ok, 400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 422: Error, 429: Error, 503: Error}


router = Router(tags=["tournaments"])


def _summary(tournament: Tournament, entries: int) -> dict:
    return {"slug": tournament.slug, "name": tournament.name, "engine": tournament.engine,
            "players": tournament.players, "format": tournament.format, "status": tournament.status,
            "rounds": tournament.rounds, "entries": entries, "rated": tournament.rated,
            "url": tournament.get_absolute_url()}


def _row(row, levels: dict[int, int]) -> dict:
    return {"rank": row.rank, "entry": row.entry_id, "name": row.name, "points": row.points,
            "tiebreaks": row.tiebreaks, "played": row.played, "byes": row.byes, "withdrawn": row.withdrawn,
            "computer_level": levels.get(row.entry_id)}


def _found(slug: str) -> Tournament:
    tournament = Tournament.objects.filter(slug=slug).first()
    if tournament is None:
        raise ApiError("not_found", _("There is no such tournament."))
    return tournament


@router.get("", response=_responses(list[TournamentSummary]), auth=auth.TOURNAMENT, summary="Tournaments",
            description=f"The newest first, at most {LIST_LIMIT}.")
def tournament_list(request, status: Literal["open", "running", "finished"] | None = None,
                    game: Literal[tuple(ENGINES)] | None = None):  # type: ignore[valid-type]
    found = Tournament.objects.annotate(active=Count("entries", filter=Q(entries__withdrawn_at=None)))
    if status:
        found = found.filter(status=status)
    if game:
        found = found.filter(engine=game)
    return [_summary(t, t.active) for t in found.order_by("-created_at", "-pk")[:LIST_LIMIT]]


@router.get("/{slug}", response=_responses(TournamentDetail), auth=auth.TOURNAMENT, summary="A tournament")
def tournament_detail(request, slug: Slug):
    tournament = _found(slug)
    rows = pairing.current_standings(tournament)
    rounds = Round.objects.filter(tournament=tournament).prefetch_related("tables", "byes").order_by("number")
    mine = Entry.objects.filter(tournament=tournament, user=request.user).values_list("pk", flat=True).first()
    levels = dict(Entry.objects.filter(tournament=tournament, user__computer_level__isnull=False)
                  .values_list("pk", "user__computer_level"))
    return {**_summary(tournament, sum(1 for r in rows if not r.withdrawn)),
            "round_days": tournament.round_days, "next_round": tournament.next_round,
            "start_window_hours": tournament.start_window_hours, "substitute_level": tournament.substitute_level,
            "tiebreaks": tournament.tiebreak_chain,
            "games_per_match": tournament.games_per_match, "group_size": tournament.group_size,
            "group_advance": tournament.group_advance, "my_entry": mine,
            "standings": [_row(r, levels) for r in rows],
            "groups": [{"number": g.number, "rows": [_row(r, levels) for r in g.rows]}
                       for g in shown_groups(tournament)],
            "round_list": [{"number": r.number, "started_at": r.started_at, "deadline": r.deadline,
                            "finished_at": r.finished_at,
                            "tables": [{"board": t.board, "entries": t.seats, "game": t.game_id,
                                        "forfeits": t.forfeits, "match_game": t.match_game} for t in r.tables.all()],
                            "byes": [b.entry_id for b in r.byes.all()]} for r in rounds]}


@router.post("/{slug}/join", response=_responses(EntryOut), auth=auth.TOURNAMENT, summary="Join a tournament",
             description="Until the start, or in a Swiss until half the rounds have started (with a half-point "
                         "bye); a player who left comes back with the same entry and no new bye. In pairs, "
                         "name the partner.")
def join(request, slug: Slug, body: JoinTournamentIn):
    ensure_may_play(request.user)
    partner = None
    if body.partner is not None:
        partner = get_user_model().objects.filter(username__iexact=body.partner, is_active=True).first()
        if partner is None:
            raise ApiError("not_found", _("There is no player called %(name)s.") % {"name": body.partner})
    entry = services.join(_found(slug).pk, request.user, partner)
    return {"entry": entry.pk, "tournament": slug, "withdrawn": False}


@router.post("/{slug}/leave", response=_responses(EntryOut), auth=auth.TOURNAMENT, summary="Leave a tournament",
             description="Before the start the entry is gone; after it you are withdrawn (your game in play is "
                         "forfeited).")
def leave(request, slug: Slug):
    tournament = _found(slug)
    entry = Entry.objects.filter(tournament=tournament, user=request.user).first()
    services.leave(tournament.pk, request.user)
    return {"entry": entry.pk if entry else 0, "tournament": slug, "withdrawn": True}
