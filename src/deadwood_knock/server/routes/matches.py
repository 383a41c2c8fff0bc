"""Matches over HTTP: create, list, view, hint, act, forfeit."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from fastapi import APIRouter, Response
from pydantic import Field, ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deadwood_knock.server.answers import HintAnswer, MatchCreated, MatchList
from deadwood_knock.server.deps import Me, Services, Svc
from deadwood_knock.server.devices import authenticate_id
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
    return await _act(svc, me.id, match_id, body)


async def _act(svc: Services, player_id: str, match_id: str, body: PostAction) -> Response:
    """The action's steps once the body and token are checked: the route and
    :class:`ActionFastPath` both end here."""
    live, seat = await svc.matches.get_for_id(player_id, match_id)
    return _view(
        await svc.matches.act(live, seat, body.action, body.client_action_id, body.version)
    )


#: The action route's path, as Starlette matches ``/api/matches/{match_id}/actions``.
_ACTION_PATH = re.compile(r"/api/matches/([^/]+)/actions")


class ActionFastPath:
    """``POST /api/matches/{match_id}/actions``, the request a game makes most, taken
    before FastAPI's routing and dependency resolution (which match the included routers
    route by route, twice, and took about a sixth of the main process's CPU under load,
    with the request's other layers). The same steps as
    :func:`post_action` with its dependencies, in the same order, with the same answers:
    the body read as JSON and checked by :class:`PostAction`, then the bearer token checked
    (401 as ``current_player`` says it), then the action.

    A request it does not take exactly as the route would (another content type, a body
    that is not JSON or that the model refuses, no bearer token) goes on to the app
    untouched, which answers it as before (422, 401). Sits inside the app's own
    middleware (access log, body limit, security headers): only the routing is skipped.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        path = _ACTION_PATH.fullmatch(scope["path"])
        if path is None:
            await self.app(scope, receive, send)
            return
        authorization: str | None = None
        content_type: bytes | None = None
        for name, value in scope["headers"]:
            if name == b"authorization" and authorization is None:
                authorization = value.decode("latin-1")
            elif name == b"content-type" and content_type is None:
                content_type = value
        chunks: list[bytes] = []
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        raw = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            return await receive()

        # HTTPBearer(auto_error=False) as current_player uses it: "<scheme> <credentials>".
        scheme, _, param = (authorization or "").partition(" ")
        credentials = param.strip()
        body: PostAction | None = None
        bearer = credentials and scheme.lower() == "bearer"
        if raw and bearer and content_type in (None, b"application/json"):
            try:
                body = PostAction.model_validate(json.loads(raw))
            except (ValueError, ValidationError):  # not JSON, or refused: the app says why
                body = None
        if body is None:
            await self.app(scope, replay, send)
            return
        svc: Services = scope["app"].state.services
        try:
            player_id = await authenticate_id(svc.db, credentials, svc.settings.token_idle_days)
            response = await _act(svc, player_id, path.group(1), body)
        except ApiError as exc:
            response = exc.response()
        await response(scope, replay, send)


@router.post("/matches/{match_id}/forfeit", response_model=None)
async def forfeit(svc: Svc, me: Me, match_id: str) -> Response:
    live, seat = await svc.matches.get_for(me, match_id)
    return _view(await svc.matches.forfeit(live, seat))
