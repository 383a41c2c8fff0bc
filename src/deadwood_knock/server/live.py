"""A match in memory: its record, the state its log replays to, its recent events."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from deadwood_knock.games.base import Event, Game, JSONDict, Observation
from deadwood_knock.server import answers

ACTIVE = "active"
FINISHED = "finished"

#: Items whose JSON a match keeps (:meth:`LiveMatch.json_of`); a round logs far fewer.
_MADE_JSON_LIMIT = 1024


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    player_id: str | None
    bot: str | None
    name: str

    def to_json(self) -> answers.SeatInfo:
        out: answers.SeatInfo = {
            "seat": self.seat,
            "name": self.name,
            "kind": "bot" if self.bot else "human",
        }
        if self.bot:
            out["bot"] = self.bot
        return out


@dataclass(eq=False)
class LiveMatch:
    """A match in memory. Mutated only while holding ``lock``.

    ``state`` is the game's own state type (``Game[S, A, O, P]`` is generic over it; a
    match of any game sits in one cache, hence ``Any``)."""

    id: str
    game_name: str
    game: Game[Any, Any]
    options: JSONDict
    seed: int
    seats: tuple[SeatInfo, ...]
    state: Any
    version: int
    status: str
    result: JSONDict | None
    table_id: str | None
    actions: list[JSONDict]
    recent: deque[tuple[int, Event]]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    #: A newer version another process announced: catch up before the next use.
    behind: int = 0
    #: client_action_id -> version, so a repeated post is recognised without a query.
    client_ids: dict[str, int] = field(default_factory=dict)
    #: (version, seat) -> the seat's observation JSON: the answer, the socket's view and
    #: a hint at one version share one observation.
    observed: dict[tuple[int, int], JSONDict] = field(default_factory=dict)
    #: (version, status, seat) -> the seat's view and its JSON text (``views.shown``).
    views: dict[tuple[int, str, int], Any] = field(default_factory=dict)
    #: (version, id(event)) -> (the event, its JSON, with its version): ``views._event_json``.
    event_json: dict[tuple[int, int], tuple[Event, JSONDict, JSONDict]] = field(
        default_factory=dict
    )
    #: id(item) -> (the item, its JSON): events and round results (immutable), whose JSON
    #: every view lists again (:meth:`json_of`).
    made_json: dict[int, tuple[Any, JSONDict]] = field(default_factory=dict)

    @property
    def owner(self) -> str:
        """Whom this match's bot moves are for (fair scheduling): its first person."""
        for info in self.seats:
            if info.player_id is not None:
                return info.player_id
        return "match:" + self.id

    def seat_owner(self, seat: int) -> str:
        """Whom a hint for ``seat`` is for (fair scheduling)."""
        info = self.seats[seat] if seat < len(self.seats) else None
        return info.player_id if info is not None and info.player_id else self.owner

    def observation(self, seat: int) -> JSONDict:
        key = (self.version, seat)
        found = self.observed.get(key)
        if found is None:
            if self.observed and next(iter(self.observed))[0] != self.version:
                self.observed.clear()
            # Any game's observation (its own type); the server only ever sends its JSON.
            seen: Observation = self.game.observe(self.state, seat)
            with_cached = getattr(seen, "to_json_with", None)
            json = seen.to_json() if with_cached is None else with_cached(self.json_of)
            found = self.observed[key] = json
        return found

    def json_of(self, item: Any) -> JSONDict:
        """An event's or round result's ``to_json()``, made once while it is in use (the
        cache holds the item, so its id is not reused meanwhile). Shared: never mutate."""
        found = self.made_json.get(id(item))
        if found is None or found[0] is not item:
            if len(self.made_json) >= _MADE_JSON_LIMIT:
                self.made_json.clear()  # rounds end: older events drop out of every view
            found = self.made_json[id(item)] = (item, item.to_json())
        return found[1]

    def seat_of(self, player_id: str) -> int | None:
        for info in self.seats:
            if info.player_id == player_id:
                return info.seat
        return None

    def record_json(self) -> JSONDict:
        # Holds the seed: for the bot worker only, never for a response or a log.
        return {
            "game": self.game_name,
            "options": self.options,
            "seed": self.seed,
            "actions": list(self.actions),
        }
