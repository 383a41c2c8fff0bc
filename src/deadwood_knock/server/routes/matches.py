"""Matches over HTTP: create, list, view, hint, act, forfeit."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Response
from pydantic import Field

from deadwood_knock.server.answers import HintAnswer, MatchCreated, MatchList
from deadwood_knock.server.deps import Me, Svc
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.schemas import PostAction, Strict
from deadwood_knock.server.trail import TrailMatchRequest, create_trail_match
from deadwood_knock.server.views import Shown, shown

router = APIRouter(prefix="/api")


def _json(text: str, status: int = 200) -> Response:
    # The view's JSON text, encoded once and shared with the socket: FastAPI's encoder
    # (which walks the whole dict again) is skipped for the routes a game calls most.
    return Response(text, status_code=status, media_type="application/json")


def _view(view: Shown) -> Response:
    return _json(view.text)


class CreateMatch(Strict):
    game: str | None = Field(default=None, max_length=40)
    opponents: list[Annotated[str, Field(max_length=40)]] | None = Field(
        default=None, min_length=1, max_length=7
    )
    options: dict[str, Any] = Field(default_factory=dict)
    #: A trail table or wanted poster instead of game and opponents (see server/trail.py).
    table_id: str | None = Field(default=None, max_length=64)
    wanted_id: str | None = Field(default=None, max_length=64)


@router.post("/matches", status_code=201, response_model=None)
async def create_match(svc: Svc, me: Me, body: CreateMatch) -> MatchCreated | Response:
    if body.table_id is not None or body.wanted_id is not None:
        if body.game is not None or body.opponents is not None:
            raise ApiError(422, "invalid_request", "a trail match takes no game or opponents")
        request = TrailMatchRequest(
            table_id=body.table_id, wanted_id=body.wanted_id, options=body.options
        )
        return await create_trail_match(svc.matches, me, request)
    if body.game is None or body.opponents is None:
        raise ApiError(422, "invalid_request", "give game and opponents (or a table_id)")
    live = await svc.matches.create(me, body.game, body.opponents, body.options)
    return _json(f'{{"match_id":"{live.id}","view":{shown(live, 0).text}}}', 201)


@router.get("/matches", response_model=None)
async def list_matches(svc: Svc, me: Me) -> MatchList:
    return {"matches": await svc.matches.list_for(me)}


@router.get("/matches/{match_id}", response_model=None)
async def get_match(svc: Svc, me: Me, match_id: str) -> Response:
    live, seat = await svc.matches.get_for(me, match_id)
    return _view(shown(live, seat))


@router.get("/matches/{match_id}/hint", response_model=None)
async def get_hint(svc: Svc, me: Me, match_id: str) -> HintAnswer:
    """Hand Focus: the strong bot's ranked legal actions for your seat, the best one in
    words and knock advice, searched from your seat's observation only (about 0.25 s).
    Off your turn ``hint`` is null (``your_turn`` false); a finished match is a 409."""
    live, seat = await svc.matches.get_for(me, match_id)
    return await svc.matches.hint(live, seat)


@router.post("/matches/{match_id}/actions", response_model=None)
async def post_action(svc: Svc, me: Me, match_id: str, body: PostAction) -> Response:
    live, seat = await svc.matches.get_for(me, match_id)
    return _view(
        await svc.matches.act(live, seat, body.action, body.client_action_id, body.version)
    )


@router.post("/matches/{match_id}/forfeit", response_model=None)
async def forfeit(svc: Svc, me: Me, match_id: str) -> Response:
    live, seat = await svc.matches.get_for(me, match_id)
    return _view(await svc.matches.forfeit(live, seat))
