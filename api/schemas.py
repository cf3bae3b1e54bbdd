"""The API's request and response bodies (pydantic, through ninja): they
make the OpenAPI schema. Game views are the site's own payload
(`gameplay.broadcast.game_payload`), described here and passed on whole."""

from datetime import datetime
from typing import Annotated, Any, Literal

from ninja import Path, Schema
from pydantic import ConfigDict, Field

from correspondence.models import Invitation
from correspondence.services import MAX_EXPIRY, MIN_EXPIRY
from gameplay.clocks import PRESETS
from gameplay.inbound import MAX_INT
from gameplay.engine import ENGINES
from gameplay.models import ChatMessage, Game
from gameplay.bots import LEVELS
from gameplay.services.tables import MAX_LEVELS_GIVEN, MAX_MOVE_SECONDS, MAX_RESERVE_SECONDS, MAX_SERIES


# An id or number in a path: beyond this no row has it, and the database would refuse to compare (a 400).
MAX_ID = 2**53 - 1
Id = Annotated[int, Path(ge=0, le=MAX_ID)]

# Request bodies are taken as they are: "0" is not a version, 1 is not true,
# and a field the schema does not name is refused (a typo is not ignored).
STRICT = ConfigDict(strict=True, extra="forbid")

# The bounds the services keep (gameplay.services.tables), stated in the schema.
EngineName = Literal[tuple(ENGINES)]
PresetName = Literal[tuple(PRESETS)]
OnTimeout = Literal[tuple(Game.OnTimeout.values)]
Players = Annotated[int, Field(ge=min(e.min_players for e in ENGINES.values()),
                               le=max(e.max_players for e in ENGINES.values()))]
MoveSeconds = Annotated[int, Field(ge=1, le=MAX_MOVE_SECONDS)]
# A whole number every JSON client represents exactly (the gate's bound, gameplay/inbound.py).
Whole = Annotated[int, Field(ge=-MAX_INT, le=MAX_INT)]
# The values of a game's options and of a move's fields (README "Move format"): a
# short word, a whole number, true/false, null, or a short list of them (cards,
# Odessa's specials). Bounded so that any body the schema allows passes the gate.
Name = Annotated[str, Field(min_length=1, max_length=16)]
Scalar = Annotated[str, Field(max_length=16)] | Whole | bool | None
Value = Scalar | Annotated[list[Scalar], Field(max_length=6)]
ReserveSeconds = Annotated[int, Field(ge=0, le=MAX_RESERVE_SECONDS)]
ComputerLevel = Annotated[int, Field(ge=min(LEVELS), le=max(LEVELS), description="a computer level: 1, 2 or 3")]


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
    action: dict[Name, Value] = Field(description='e.g. {"type": "attack", "cards": ["7H"]} (README "Move format")',
                                      max_length=8, json_schema_extra={
                                          "required": ["type"],
                                          "properties": {"type": {"type": "string", "minLength": 1, "maxLength": 16}}})
    version: int = Field(ge=0, le=MAX_INT, description="the version the move was made on")
    move_id: str | None = Field(None, min_length=1, max_length=64,
                                description="your id for the move: sent again, it is applied once")


class Ack(Schema):
    type: str = "ack"
    move_id: str | None
    version: int
    duplicate: bool


class ChatIn(Schema):
    model_config = STRICT
    text: str = Field(min_length=1, max_length=ChatMessage.MAX_LENGTH, pattern=r"\S",
                      description="not blank; at most this long once trimmed")


class ChatOut(Schema):
    id: int
    author: str
    text: str
    hidden: bool
    at: str


class NewTable(Schema):
    model_config = STRICT
    engine: EngineName = Field(description="joker, durak, odessa, domino_poker, ipuker")
    players: Players | None = Field(None, description="within the game's own bounds (e.g. Durak 2 to 4)")
    options: dict[Name, Value] = Field(default_factory=dict, max_length=10,
                                       description="the engine's options, e.g. durak's mode")
    time_preset: PresetName = "correspondence"
    move_seconds: MoveSeconds | None = None
    reserve_seconds: ReserveSeconds | None = None
    is_private: bool = False
    rated: bool = True
    allow_bots: bool = Field(False, description="bot accounts may join")
    bots_rated_apart: bool = Field(True, description="a game with a bot account is rated in the bots' pool")
    computer_opponents: bool = Field(False, description="fill the other seats with the site's computer players")
    computer_levels: list[ComputerLevel] = Field(default_factory=list, max_length=MAX_LEVELS_GIVEN,
                                       description="the computer players' levels (1, 2, 3), the empty seats' in seat "
                                                   "order; a seat not given one: level 1")


class JoinIn(Schema):
    model_config = STRICT
    position: Annotated[int, Field(ge=0, le=max(e.max_players for e in ENGINES.values()) - 1)] | None = None
    invite_code: Annotated[str, Field(max_length=32)] | None = Field(None, description="needed for a private table")


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


class TimeControl(Schema):
    """A challenge's table: the new-table form's fields, with its types and values
    (a field it does not name is refused, as the service refuses it)."""

    model_config = STRICT
    time_preset: PresetName | None = None
    move_seconds: MoveSeconds | None = None
    reserve_seconds: ReserveSeconds | None = None
    on_timeout: OnTimeout | None = None
    night_pause: bool | None = None
    timer_seconds: dict[Annotated[str, Field(min_length=1, max_length=32)], Annotated[int, Field(ge=0, le=MAX_MOVE_SECONDS)]] | None = Field(
        None, description="Durak's clocks: attacker, defender, throwers (seconds)")
    is_private: bool | None = None
    series_length: Annotated[int, Field(ge=1, le=MAX_SERIES)] | None = None


class ChallengeIn(Schema):
    model_config = STRICT
    usernames: list[Annotated[str, Field(min_length=1, max_length=150, pattern=r"\S")]] = Field(
        min_length=1, max_length=max(e.max_players for e in ENGINES.values()) - 1,
        json_schema_extra={"uniqueItems": True}, description="the players challenged, in seat order")
    engine: EngineName
    options: dict[Name, Value] = Field(default_factory=dict, max_length=10, description="the engine's options")
    time_control: TimeControl | None = None
    rated: bool = False
    players: Players | None = None
    computer_opponents: bool = Field(False, description="computer players fill the seats nobody is named for")
    computer_level: ComputerLevel = Field(1, description="their level (1, 2, 3); a computer level is also challenged by "
                                               "naming its account (computer-level-1, -2, -3)")
    expires_in: Annotated[int, Field(ge=int(MIN_EXPIRY.total_seconds()), le=int(MAX_EXPIRY.total_seconds()))] | None = Field(
        None, description="seconds (1 hour to 14 days; default 3 days)")


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
    reason: str = Field("", max_length=Invitation.REASON_LENGTH, description="a decline's reason, if any")


# A standing order's parameter: a small number (tricks, cards, tokens), a suit or a tile, or none.
OrderValue = Annotated[int, Field(ge=0, le=1000)] | Annotated[str, Field(max_length=8)] | None


class OrderIn(Schema):
    model_config = STRICT
    kind: str = Field(max_length=16, description='a standing order this game has now, e.g. "forced", "bid", "take" '
                                                 '(rules page, "Standing orders"; the state\'s orders.kinds)')
    params: dict[Annotated[str, Field(max_length=16)], OrderValue] = Field(
        default_factory=dict, max_length=4, description='e.g. {"tricks": 2} for Joker\'s "bid", {"suit": "H"} for "trump"')


class OrderOut(Schema):
    type: str = "orders_ack"
    id: int | None
