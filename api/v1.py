"""Version 1 of the HTTP API: /api/v1/… (docs: /api/v1/docs, /api/docs).

Each endpoint checks its token's scope (api.auth), calls one service or
builder of the site, and answers JSON; refusals are api.errors' codes."""

from django.conf import settings
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Router, Swagger
from ninja.parser import Parser

from accounts import limits
from accounts.bots import make_bot
from api import auth, errors, streams
from api import tournaments as tournaments_api
from api.errors import ApiError
from api.schemas import (
    Account, Ack, AnswerIn, ChallengeIn, ChallengeOut, Challenges, ChatIn, ChatOut, Error, GameState, GameSummary, Id, JoinIn, Legal, MoveIn, NewTable, Standings,
)
from api.schemas import OrderIn, OrderOut
from correspondence import selectors as correspondence
from correspondence import services as challenges_service
from correspondence.limits import challenge_limits
from correspondence.models import Challenge
from correspondence.terms import challenge_terms, challenge_time_control
from gameplay import inbound, services
from gameplay.broadcast import game_payload
from gameplay.engine import get_engine
from gameplay.models import Game
from gameplay.services.base import ensure_may_play
from gameplay.views import my_position, visible_game
from leagues.models import Division
from leagues.services import visible_leagues
from leagues.standings import division_standings
from scoresheets.export import game_export


class GateParser(Parser):
    """Request bodies pass the site's one gate for inbound JSON (gameplay.inbound).
    A number written with a fraction of zero (4.0) is the integer JSON says it
    is (JSON has one kind of number; the schema's "integer" accepts it)."""

    def parse_body(self, request: HttpRequest) -> dict:
        return _whole_numbers(inbound.parse(request.body or b"{}"))


def _whole_numbers(value):
    if isinstance(value, float) and value.is_integer() and abs(value) <= inbound.MAX_INT:
        return int(value)
    if isinstance(value, dict):
        return {key: _whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_whole_numbers(item) for item in value]
    return value


class PhoneSwagger(Swagger):
    """django-ninja's Swagger UI page with a viewport, so that a phone lays it out at its own width."""

    template = "api/swagger.html"


api = NinjaAPI(
    title="Kitchen table API", version="1", urls_namespace="api-v1", parser=GateParser(), docs=PhoneSwagger(),
    description="Tokens: profile → API tokens. Send `Authorization: Bearer <token>`. Errors: "
                "`{\"code\", \"message\"}` with a stable code (see README, \"API\").",
)
errors.install(api)


def _responses(ok) -> dict:
    return {200: ok, 400: Error, 401: Error, 403: Error, 404: Error, 409: Error, 422: Error, 429: Error, 503: Error}


# ---- account -------------------------------------------------------------------------------------

account = Router(tags=["account"])


@account.get("", response=_responses(Account), auth=auth.READ, summary="My account")
def my_account(request):
    token = request.auth
    user = token.user
    return {"id": user.pk, "username": user.username, "name": user.name, "is_bot": user.is_bot,
            "language": user.language, "token": {"name": token.name, "scopes": token.scopes,
                                                 "expires_at": token.expires_at}}


@account.post("/bot", response=_responses(Account), auth=auth.PLAY,
              summary="Mark my account a bot (irreversible)")
def upgrade_to_bot(request):
    make_bot(request.user, by=request.user)
    return my_account(request)


# ---- games ---------------------------------------------------------------------------------------

games = Router(tags=["games"])


def summary(game: Game, position: int | None, user, *, my_turn: bool = False) -> dict:
    return {"id": game.pk, "engine": game.engine, "status": game.status, "version": game.version,
            "players": game.seats_count, "seat": position, "my_turn": my_turn,
            "is_private": game.is_private, "allow_bots": game.allow_bots,
            "url": settings.SITE_URL.rstrip("/") + game.get_absolute_url(),
            "invite_code": game.invite_code if game.created_by_id == user.pk and game.status == Game.Status.OPEN
            else None}


MY_GAMES_LIMIT = 100


@games.get("", response=_responses(list[GameSummary]), auth=auth.READ, summary="My games",
           description="The My games list (correspondence.selectors.my_games): your games waiting for your move "
                       "first (the nearest deadline on top), then those waiting for others, then your open tables.")
def my_games(request):
    rows = correspondence.my_games(request.user, limit=MY_GAMES_LIMIT, finished=False)
    games_by_id = Game.objects.defer("state", "history").in_bulk([row.game_id for row in rows])
    return [summary(games_by_id[row.game_id], row.position, request.user, my_turn=row.group == correspondence.MY_MOVE)
            for row in rows if row.game_id in games_by_id]


@games.post("", response=_responses(GameSummary), auth=auth.PLAY, summary="Create a table")
def create_table(request, body: NewTable):
    ensure_may_play(request.user)
    levels = services.checked_levels(body.computer_levels)  # before the table: a level that does not exist makes none
    game = services.create_game(
        request.user, body.engine, body.options, players=body.players, time_preset=body.time_preset,
        move_seconds=body.move_seconds, reserve_seconds=body.reserve_seconds, is_private=body.is_private,
        rated=body.rated, allow_bots=body.allow_bots, bots_rated_apart=body.bots_rated_apart)
    if body.computer_opponents:
        services.fill_with_bots(game.pk, request.user, levels)
        game.refresh_from_db()
    return summary(game, my_position(request, game), request.user)


def _visible(request, game_id: int) -> Game:
    return visible_game(request, game_id)


@games.get("/{int:game_id}", response=_responses(GameState), auth=auth.READ, summary="A game as my seat sees it",
           description="The state message the game page gets (engine.view for your seat; a spectator's "
                       "view at a public table where you have no seat).")
def game_state(request, game_id: Id):
    game = _visible(request, game_id)
    # Passed on whole, as the page gets it (the schema documents its main fields).
    return api.create_response(request, game_payload(game, my_position(request, game)), status=200)


@games.get("/{int:game_id}/legal", response=_responses(Legal), auth=auth.READ, summary="My legal moves")
def legal_moves(request, game_id: Id):
    game = _visible(request, game_id)
    position = my_position(request, game)
    legal = []
    if position is not None and game.status == Game.Status.ACTIVE:
        legal = get_engine(game.engine).legal_actions(game.state, position)
    return {"version": game.version, "seat": position, "legal": legal}


@games.post("/{int:game_id}/move", response=_responses(Ack), auth=auth.PLAY, summary="Make a move",
            description="The same service as the page: a repeated move_id answers the first result "
                        "(duplicate: true); a stale version is refused with the current one.")
def move(request, game_id: Id, body: MoveIn):
    result = services.submit_move(game_id, request.user, body.action, body.version, body.move_id)
    return {"type": "ack", "move_id": body.move_id, "version": result.version, "duplicate": result.duplicate}


@games.post("/{int:game_id}/orders", response=_responses(OrderOut), auth=auth.PLAY, summary="Set a standing order",
            description="A move said in advance, carried out by the server at your turn as your move "
                        "(the same service as the page; only your seat sees it, in the state's orders).")
def set_order(request, game_id: Id, body: OrderIn):
    return {"type": "orders_ack", "id": services.set_order(game_id, request.user, body.kind, body.params).pk}


@games.delete("/{int:game_id}/orders/{int:order_id}", response=_responses(OrderOut), auth=auth.PLAY,
              summary="Cancel a standing order")
def cancel_order(request, game_id: Id, order_id: Id):
    services.cancel_order(game_id, request.user, order_id)
    return {"type": "orders_ack", "id": order_id}


@games.post("/{int:game_id}/resign", response=_responses(Ack), auth=auth.PLAY, summary="Resign")
def resign(request, game_id: Id):
    result = services.resign(game_id, request.user)
    return {"type": "ack", "move_id": None, "version": result.version, "duplicate": False}


@games.post("/{int:game_id}/chat", response=_responses(ChatOut), auth=auth.PLAY, summary="Write in the table's chat")
def chat(request, game_id: Id, body: ChatIn):
    return services.post_chat(game_id, request.user, body.text).as_json()


@games.post("/{int:game_id}/join", response=_responses(GameSummary), auth=auth.PLAY, summary="Take a seat")
def join(request, game_id: Id, body: JoinIn):
    game = Game.objects.filter(pk=game_id).only("id", "is_private", "invite_code").first()
    if game is None or (game.is_private and body.invite_code != game.invite_code
                        and my_position(request, game) is None):
        raise ApiError("not_found", _("There is no such game."))
    ensure_may_play(request.user)
    game = services.join_game(game_id, request.user, body.position)
    game.refresh_from_db()
    return summary(game, my_position(request, game), request.user)


@games.post("/{int:game_id}/leave", response=_responses(GameSummary), auth=auth.PLAY,
            summary="Leave a table that has not started")
def leave(request, game_id: Id):
    game = services.leave_game(game_id, request.user)
    game.refresh_from_db()
    return summary(game, None, request.user)


@games.get("/{int:game_id}/record", response=_responses(dict), auth=auth.READ, summary="A finished game's record",
           description="The published record (README \"Game records\"); 409 not_over while the game is in play.")
def record(request, game_id: Id):
    game = _visible(request, game_id)
    if not game.is_over:
        raise ApiError("not_over", _("The record is published when the game is over: until then its seed "
                                     "is secret."))
    return api.create_response(request, game_export(game), status=200)


games.add_api_operation("/{int:game_id}/stream", ["GET"], streams.game_stream, auth=auth.READ,
                        summary="The game's live events (NDJSON)", description=streams.GAME_STREAM_DOC,
                        openapi_extra=streams.NDJSON_RESPONSE)

# ---- leagues -------------------------------------------------------------------------------------

leagues = Router(tags=["leagues"])


@leagues.get("/{slug}/seasons/{int:season}/divisions/{int:division}/standings", response=_responses(Standings),
             auth=auth.LEAGUE, summary="A division's standings")
def standings(request, slug: str, season: Id, division: Id):
    league = visible_leagues(request.user).filter(slug=slug).first()
    if league is None:
        raise ApiError("not_found", _("There is no such league."))
    found = get_object_or_404(Division.objects.select_related("season__league"), season__league=league,
                              season__number=season, number=division)
    rows = division_standings(found).rows
    return {"league": league.slug, "season": season, "division": division,
            "rows": [{"rank": r.rank, "name": r.name, "played": r.played, "left": r.left, "points": r.points,
                      "tiebreaks": r.tiebreaks, "withdrawn": r.withdrawn, "annulled": r.annulled} for r in rows]}


# ---- challenges ----------------------------------------------------------------------------------

challenges = Router(tags=["challenges"])


def challenge_json(challenge: Challenge) -> dict:
    return {"id": challenge.pk, "by": challenge.created_by.username, "by_name": challenge.created_by.name,
            "engine": challenge.engine, "players": challenge.seats_count, "options": challenge.options,
            "rated": challenge.rated, "status": challenge.status, "created_at": challenge.created_at,
            "expires_at": challenge.expires_at, "game": challenge.game_id,
            "time_control": challenge_time_control(challenge), "computer_opponents": challenge.fill_with_bots,
            "terms": challenge_terms(challenge),
            "invited": [{"username": i.user.username, "name": i.user.name, "position": i.position,
                         "answer": i.answer} for i in sorted(challenge.invitations.all(), key=lambda i: i.position)]}


def _challenge(challenge_id: int) -> dict:
    found = (Challenge.objects.select_related("created_by").prefetch_related("invitations__user")
             .get(pk=challenge_id))
    return challenge_json(found)


@challenges.get("", response=_responses(Challenges), auth=auth.CHALLENGE, summary="My challenges")
def my_challenges(request):
    found = correspondence.challenges_for(request.user)
    return {key: [challenge_json(c) for c in found[key]] for key in ("incoming", "sent", "closed")}


@challenges.post("", response=_responses(ChallengeOut), auth=auth.CHALLENGE, summary="Challenge players",
                 description="The table starts when every player named accepted (rate-limited: CHALLENGES_PER_USER).")
def challenge(request, body: ChallengeIn):
    refusal = limits.check(request, challenge_limits(request.user))
    if refusal:
        raise ApiError("rate_limited", refusal.limit.reason, headers={"Retry-After": str(refusal.seconds_left)})
    ensure_may_play(request.user)
    made = challenges_service.create_challenge(
        request.user, body.usernames, body.engine, body.options,
        body.time_control.dict(exclude_none=True) if body.time_control else None, rated=body.rated,
        fill_with_bots=body.computer_opponents, expires_in=body.expires_in, players=body.players,
        computer_level=body.computer_level)
    limits.count(request, challenge_limits(request.user))
    return _challenge(made.pk)


@challenges.post("/{int:challenge_id}/accept", response=_responses(ChallengeOut), auth=auth.CHALLENGE,
                 summary="Accept a challenge", description="The last acceptance starts the table (`game`).")
def accept(request, challenge_id: Id):
    ensure_may_play(request.user)
    return _challenge(challenges_service.answer_challenge(challenge_id, request.user, True).pk)


@challenges.post("/{int:challenge_id}/decline", response=_responses(ChallengeOut), auth=auth.CHALLENGE,
                 summary="Decline a challenge")
def decline(request, challenge_id: Id, body: AnswerIn):
    return _challenge(challenges_service.answer_challenge(challenge_id, request.user, False, body.reason).pk)


@challenges.post("/{int:challenge_id}/withdraw", response=_responses(ChallengeOut), auth=auth.CHALLENGE,
                 summary="Withdraw my challenge")
def withdraw(request, challenge_id: Id):
    return _challenge(challenges_service.withdraw_challenge(challenge_id, request.user).pk)


# ---- the account's stream ------------------------------------------------------------------------

account.add_api_operation("/stream", ["GET"], streams.account_stream, auth=auth.READ,
                          summary="My account's live events (NDJSON)", description=streams.ACCOUNT_STREAM_DOC,
                          openapi_extra=streams.NDJSON_RESPONSE)

api.add_router("/account", account)
api.add_router("/games", games)
api.add_router("/leagues", leagues)
api.add_router("/challenges", challenges)
api.add_router("/tournaments", tournaments_api.router)
