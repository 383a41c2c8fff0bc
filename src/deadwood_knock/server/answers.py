"""The shapes of the server's success answers, written once: the routes and views are typed
with them (mypy checks every key they build) and :mod:`.openapi` documents them as they are.

They are ``TypedDict``\\ s, not pydantic models, because the answers are built as plain
dicts and sent as they are: a route annotated with a model would have FastAPI validate
and convert every answer (``scores`` of ints would become floats), so the routes that
return these say ``response_model=None`` and the document is made from these types by
pydantic (``extra="allow"``: answers may grow new fields; the document lists the ones a
client can rely on). ``observation``, ``legal_actions``, ``hint`` and the like stay JSON
objects: their shape is each game's own (``Game.observe(...).to_json()``).
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

from pydantic import ConfigDict, Field, with_config
from typing_extensions import TypedDict

__all__ = [
    "CodeSent",
    "Device",
    "DeviceList",
    "Health",
    "HintAnswer",
    "MatchCreated",
    "MatchList",
    "MatchSummary",
    "MatchView",
    "NewPlayerAnswer",
    "Profile",
    "Revoked",
    "SeatInfo",
]

JSONObject = dict[str, Any]

_OPEN = ConfigDict(extra="allow")


@with_config(_OPEN)
class Health(TypedDict):
    status: str
    version: str


@with_config(_OPEN)
class NewPlayerAnswer(TypedDict):
    player_id: str
    token: str


@with_config(_OPEN)
class Profile(TypedDict):
    player_id: str
    name: str
    likeness: str
    card_back: str
    large_print: bool
    sleight_of_hand: bool
    email: str | None
    stats: JSONObject
    progress: JSONObject


@with_config(_OPEN)
class CodeSent(TypedDict):
    sent: bool
    expires_in: int
    #: Send it back with the code (required when restoring).
    request_id: str


@with_config(_OPEN)
class SeatInfo(TypedDict):
    seat: int
    name: str
    kind: str
    #: A bot's seat: which bot.
    bot: NotRequired[str]


@with_config(_OPEN)
class MatchView(TypedDict):
    """A seat's view of a match: built from its observation only."""

    match_id: str
    game: str
    status: str
    version: int
    seat: int
    players: list[SeatInfo]
    to_act: int | None
    your_turn: bool
    legal_actions: list[JSONObject]
    scores: list[float]
    round: int | None
    rounds: int | None
    round_label: str | None
    final_turn: bool
    #: The seat's observation as its game writes it (``observe(state, seat).to_json()``).
    observation: JSONObject
    recent_events: list[JSONObject]
    result: JSONObject | None
    table_id: str | None


@with_config(_OPEN)
class MatchCreated(TypedDict):
    match_id: str
    view: MatchView


@with_config(_OPEN)
class MatchSummary(TypedDict):
    match_id: str
    game: str
    status: str
    version: int
    seat: int


@with_config(_OPEN)
class MatchList(TypedDict):
    matches: list[MatchSummary]


@with_config(_OPEN)
class HintAnswer(TypedDict):
    match_id: str
    seat: int
    version: int
    your_turn: bool
    #: ``Hint.to_json()`` on the seat's turn, else null.
    hint: JSONObject | None


@with_config(_OPEN)
class Device(TypedDict):
    id: str
    label: str
    created_at: str | None
    last_used_at: str | None
    current: bool


@with_config(_OPEN)
class DeviceList(TypedDict):
    devices: list[Device]


@with_config(_OPEN)
class Revoked(TypedDict):
    revoked: Annotated[int, Field(ge=0)]
