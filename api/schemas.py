"""The API's request and response bodies (pydantic, through ninja): they
make the OpenAPI schema. Game views are the site's own payload
(`gameplay.broadcast.game_payload`), described here and passed on whole."""

from datetime import datetime
from typing import Any

from typing import Annotated

from ninja import Path, Schema
from pydantic import ConfigDict, Field


# An id or number in a path: beyond this no row has it, and the database would refuse to compare (a 400).
MAX_ID = 2**53 - 1
Id = Annotated[int, Path(ge=0, le=MAX_ID)]

# Request bodies are taken as they are: "0" is not a version, 1 is not true.
STRICT = ConfigDict(strict=True)


class Error(Schema):
    code: str = Field(description="stable: bad_request, unauthorized, forbidden_scope, not_seated, not_found, "
                                  "stale, illegal, rate_limited, busy, … (api/errors.py)")
    message: str = Field(description="for people, in the token owner's language")
    version: int | None = Field(None, description="the game's current version, on stale and illegal")


class TokenInfo(Schema):
    name: str
    scopes: list[str]
    expires_at: datetime | None


class Account(Schema):
    id: int
    username: str
    name: str
    is_bot: bool
    language: str
    token: TokenInfo


class GameSummary(Schema):
    id: int
    engine: str
    status: str
    version: int
    players: int
    seat: int | None = Field(description="your seat, None if you have none")
    my_turn: bool
    is_private: bool
    allow_bots: bool
    url: str
    invite_code: str | None = Field(None, description="only to the table's creator, while it is open")


class GameState(Schema):
    """The state message of the WebSocket protocol (README), as your seat sees it."""

    model_config = ConfigDict(extra="allow")
    type: str = "state"
    game: int
    engine: str
    version: int
    status: str
    seat: int | None
    view: dict[str, Any] | None = Field(description="engine.view(state, seat): what this seat may know")
    legal: list[dict[str, Any]] = Field(description="every legal action of your seat, ready to send")
    players: list[dict[str, Any]]
    result: dict[str, Any] | None


class Legal(Schema):
    version: int
    seat: int | None
    legal: list[dict[str, Any]]


class MoveIn(Schema):
    model_config = STRICT
    action: dict[str, Any] = Field(description='e.g. {"type": "attack", "cards": ["7H"]} (README "Move format")')
    version: int = Field(description="the version the move was made on")
    move_id: str | None = Field(None, min_length=1, max_length=64,
                                description="your id for the move: sent again, it is applied once")


class Ack(Schema):
    type: str = "ack"
    move_id: str | None
    version: int
    duplicate: bool


class ChatIn(Schema):
    model_config = STRICT
    text: str


class ChatOut(Schema):
    id: int
    author: str
    text: str
    hidden: bool
    at: str


class NewTable(Schema):
    model_config = STRICT
    engine: str = Field(description="joker, durak, odessa, domino_poker, ipuker")
    players: int | None = None
    options: dict[str, Any] = Field(default_factory=dict, description="the engine's options, e.g. durak's mode")
    time_preset: str = "correspondence"
    move_seconds: int | None = None
    reserve_seconds: int | None = None
    is_private: bool = False
    rated: bool = True
    allow_bots: bool = Field(False, description="bot accounts may join")
    bots_rated_apart: bool = Field(True, description="a game with a bot account is rated in the bots' pool")
    computer_opponents: bool = Field(False, description="fill the other seats with the site's computer players")


class JoinIn(Schema):
    model_config = STRICT
    position: int | None = None
    invite_code: str | None = Field(None, description="needed for a private table")


class StandingsRow(Schema):
    rank: int | None
    name: str
    played: int
    left: int
    points: float
    tiebreaks: dict[str, Any]
    withdrawn: bool
    annulled: bool


class Standings(Schema):
    league: str
    season: int
    division: int
    rows: list[StandingsRow]


class ChallengeIn(Schema):
    model_config = STRICT
    usernames: list[str] = Field(description="the players challenged, in seat order")
    engine: str
    options: dict[str, Any] = Field(default_factory=dict)
    time_control: dict[str, Any] | None = Field(None, description="time_preset, move_seconds, reserve_seconds, …")
    rated: bool = False
    players: int | None = None
    computer_opponents: bool = Field(False, description="computer players fill the seats nobody is named for")
    expires_in: int | None = Field(None, description="seconds (1 hour to 14 days; default 3 days)")


class Invited(Schema):
    username: str
    name: str
    position: int
    answer: str


class ChallengeTimeControl(Schema):
    time_preset: str
    move_seconds: int
    reserve_seconds: int
    timer_seconds: dict[str, int] = Field(description="Durak's own clocks (attacker, defender, throwers), seconds")
    on_timeout: str = Field(description="autoplay or forfeit")
    night_pause: bool
    is_private: bool
    series_length: int


class ChallengeOut(Schema):
    id: int
    by: str = Field(description="the challenger's username")
    by_name: str
    engine: str
    players: int
    options: dict[str, Any]
    rated: bool
    status: str = Field(description="pending, started, declined, expired, withdrawn, failed")
    created_at: datetime
    expires_at: datetime
    game: int | None = Field(description="the table, once every player accepted")
    time_control: ChallengeTimeControl = Field(description="the table's time control, completed from its preset")
    computer_opponents: bool = Field(description="computer players fill the seats nobody is named for")
    terms: list[str] = Field(description="every term of the table in words, in the account's language")
    invited: list[Invited]


class Challenges(Schema):
    incoming: list[ChallengeOut] = Field(description="waiting for your answer")
    sent: list[ChallengeOut] = Field(description="yours, or answered by you, still waiting for others")
    closed: list[ChallengeOut]


class AnswerIn(Schema):
    model_config = STRICT
    reason: str = ""
