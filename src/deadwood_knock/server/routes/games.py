"""``GET /api/games``: every registered game's rule facts and words, for the clients.

The web client shows titles, the poker categories in words, hand points, card points and
the knock limit from this answer and copies none of them (the terminal client reads the
same ``Game.facts`` in-process). The answer changes only with the server's code, so it
carries an ETag and is revalidated (``Cache-Control: no-cache``): a client asking again
gets a body-less 304 when nothing changed, and never a stale table after an upgrade.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from deadwood_knock.bots.base import bot_names
from deadwood_knock.games import game_names, get_game
from deadwood_knock.games.base import Game, GameError

games_router = APIRouter(prefix="/api")


class GameFacts(BaseModel):
    """One game: its public name, table size and default options, and ``RuleFacts``."""

    model_config = ConfigDict(extra="allow")  # RuleFacts may grow fields

    name: str = Field(description="the public name (`game` in a new match)")
    title: str = Field(description="the game's title, as every client writes it")
    min_players: int
    max_players: int
    options: dict[str, Any] = Field(description="the default table options")
    poker_split: bool = Field(description="hands split into a poker hand and deadwood")
    rummy: bool = Field(description="the rummy action exists")
    hand_size: int | None = Field(description="cards dealt (null: by the number of players)")
    knock_limit: int | None = Field(description="the fixed knock limit (null: a table option)")
    card_points: list[int] = Field(description="deadwood points of each card index")
    category_words: dict[str, str] = Field(description="poker categories in words")
    hand_points: dict[str, int] = Field(description="hand points of each poker category")
    unit: str = Field(description="what one deal is called: `round` or `hand`")
    jokers: bool
    layoffs: bool = Field(description="the defender lays off on the knocker's melds")
    figures: dict[str, int] = Field(
        default_factory=dict,
        description="other rule figures by name: pot_ante, suspicion, knock_penalty, ...",
    )


class GamesCatalogue(BaseModel):
    model_config = ConfigDict(extra="allow")

    games: list[GameFacts]
    bots: list[str]


def game_facts(game: Game[Any, Any]) -> dict[str, Any]:
    """A game's entry in the catalogue: ``Game`` fields, default options and facts."""
    try:
        defaults = game.options_from_json({})
        options = defaults.to_json() if hasattr(defaults, "to_json") else {}
    except GameError:
        options = {}  # a game whose options have no defaults
    facts = game.facts.to_json()
    return {
        "name": game.name,
        "min_players": game.min_players,
        "max_players": game.max_players,
        "options": options,
        **facts,
        "title": facts["title"] or game.title,
    }


def catalogue() -> dict[str, Any]:
    """Every registered game (built-in and registered at run time) and the bots."""
    return {
        "games": [game_facts(get_game(n)) for n in game_names()],
        "bots": list(bot_names()),
    }


_cached: dict[tuple[str, ...], tuple[bytes, str]] = {}


def _body() -> tuple[bytes, str]:
    key = game_names()  # a game registered later (tests) makes a new body
    if key not in _cached:
        body = json.dumps(catalogue(), separators=(",", ":")).encode()
        _cached[key] = (body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"')
    return _cached[key]


@games_router.get(
    "/games",
    response_model=GamesCatalogue,
    responses={304: {"description": "Not modified (the `If-None-Match` ETag still holds)"}},
)
async def games(request: Request) -> Response:
    """Every registered game's rule facts and words, and the bots' names."""
    body, etag = _body()
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    asked = request.headers.get("if-none-match", "")
    # A proxy that compresses the body may weaken the tag (W/"…"): the same body still.
    if etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)
