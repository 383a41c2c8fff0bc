"""HTTP and WebSocket routes."""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select, update

from deadwood_knock import __version__
from deadwood_knock.bots.base import bot_names
from deadwood_knock.persistence import Database, Device, Player
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.games import game_names
from deadwood_knock.server.hub import Hub
from deadwood_knock.server.matches import MatchService
from deadwood_knock.server.otp import LINK, RESTORE, OtpService
from deadwood_knock.server.ratelimit import RateLimiter
from deadwood_knock.server.settings import Settings

router = APIRouter(prefix="/api")

_SLUG = r"^[A-Za-z0-9_-]{1,40}$"
_CLIENT_ID = r"^[A-Za-z0-9_.:-]{1,64}$"


@dataclass
class Services:
    settings: Settings
    db: Database
    matches: MatchService
    otp: OtpService
    hub: Hub
    limiter: RateLimiter


def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


Svc = Annotated[Services, Depends(services)]


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


async def player_for_token(svc: Services, token: str | None) -> Player:
    if not token or len(token) > 128:
        raise ApiError(401, "unauthorized", "a bearer token is required (POST /api/players)")
    async with svc.db.sessions() as session:
        player = await session.scalar(
            select(Player)
            .join(Device, Device.player_id == Player.id)
            .where(Device.token_hash == token_hash(token))
        )
    if player is None:
        raise ApiError(401, "unauthorized", "unknown token")
    return player


async def current_player(svc: Svc, authorization: Annotated[str | None, Header()] = None) -> Player:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer":
        raise ApiError(401, "unauthorized", "send Authorization: Bearer <token>")
    return await player_for_token(svc, token.strip())


Me = Annotated[Player, Depends(current_player)]


def client_key(request: Request) -> str:
    return request.client.host if request.client else "unknown"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ----- health and catalogue ---------------------------------------------------------------


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok", "version": __version__}


@router.get("/games")
async def games(svc: Svc) -> dict[str, list[str]]:
    return {"games": list(game_names(svc.settings.extra_games)), "bots": list(bot_names())}


# ----- players ------------------------------------------------------------------------------


class NewPlayer(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=40)


def profile(player: Player) -> dict[str, Any]:
    return {
        "player_id": player.id,
        "name": player.name,
        "likeness": player.likeness,
        "card_back": player.card_back,
        "large_print": player.large_print,
        "sleight_of_hand": player.sleight_of_hand,
        "email": player.email,
        "stats": player.stats or {},
        "progress": player.progress or {},
    }


def _clean_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned or not cleaned.isprintable():
        raise ApiError(422, "bad_name", "a name needs visible characters and no control characters")
    return cleaned


@router.post("/players", status_code=201)
async def create_player(
    svc: Svc, request: Request, body: NewPlayer | None = None
) -> dict[str, str]:
    """A new anonymous player; keep the token: it is the only way back in (or link an email)."""
    retry = await svc.limiter.hit(f"players:{client_key(request)}", 60, 60)
    if retry is not None:
        error = ApiError(429, "rate_limited", f"too many new players; try again in {retry} s")
        error.headers["Retry-After"] = str(retry)
        raise error
    token = new_token()
    player_id = secrets.token_hex(16)
    name = _clean_name(body.name) if body and body.name else ""
    async with svc.db.sessions() as session, session.begin():
        session.add(
            Player(
                id=player_id,
                name=name,
                likeness="",
                card_back="",
                large_print=False,
                sleight_of_hand=False,
                stats={},
                progress={},
            )
        )
        await session.flush()
        session.add(Device(token_hash=token_hash(token), player_id=player_id))
    return {"player_id": player_id, "token": token}


class ProfileUpdate(Strict):
    name: str | None = Field(default=None, min_length=1, max_length=40)
    likeness: str | None = Field(default=None, pattern=_SLUG)
    card_back: str | None = Field(default=None, pattern=_SLUG)
    large_print: bool | None = None
    sleight_of_hand: bool | None = None


@router.get("/players/me")
async def get_me(me: Me) -> dict[str, Any]:
    return profile(me)


@router.patch("/players/me")
async def update_me(svc: Svc, me: Me, body: ProfileUpdate) -> dict[str, Any]:
    values = body.model_dump(exclude_none=True)
    if "name" in values:
        values["name"] = _clean_name(values["name"])
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        if "card_back" in values:
            from deadwood_knock.server.trail_api import check_card_back

            # Checked against the freshly read row, so a back unlocked a moment ago counts.
            check_card_back(player, values["card_back"])
        for key, value in values.items():
            setattr(player, key, value)
    return profile(player)


@router.post("/players/me/restart-progress")
async def restart_progress(svc: Svc, me: Me) -> dict[str, Any]:
    """Start the trail again: progress is cleared; name and lifetime stats stay."""
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        player.progress = {}
    return profile(player)


# ----- cloud backup -----------------------------------------------------------------------


class EmailBody(Strict):
    email: str = Field(min_length=3, max_length=254)


class CodeBody(Strict):
    email: str = Field(min_length=3, max_length=254)
    code: str = Field(min_length=1, max_length=12)


@router.post("/backup/link", status_code=202)
async def link_request(svc: Svc, me: Me, request: Request, body: EmailBody) -> dict[str, Any]:
    """Mail a code to the address; verifying it links this profile to the address."""
    await svc.otp.send(body.email, LINK, client_key(request), me.id)
    return {"sent": True, "expires_in": svc.settings.otp_ttl_seconds}


@router.post("/backup/link/verify")
async def link_verify(svc: Svc, me: Me, request: Request, body: CodeBody) -> dict[str, Any]:
    row = await svc.otp.verify(body.email, LINK, body.code, client_key(request))
    if row.player_id != me.id:
        raise ApiError(400, "wrong_code", "that code was sent for another profile")
    async with svc.db.sessions() as session, session.begin():
        # One address backs up one profile: linking moves it from any older profile.
        await session.execute(
            update(Player).where(Player.email == row.email, Player.id != me.id).values(email=None)
        )
        player = await session.get(Player, me.id)
        assert player is not None
        player.email = row.email
    return profile(player)


@router.post("/backup/restore", status_code=202)
async def restore_request(svc: Svc, request: Request, body: EmailBody) -> dict[str, Any]:
    """Mail a code if a profile is linked to the address (the answer is the same either way)."""
    from deadwood_knock.server.otp import normalise_email

    address = normalise_email(body.email)
    async with svc.db.sessions() as session:
        owner = await session.scalar(select(Player.id).where(Player.email == address))
    await svc.otp.send(address, RESTORE, client_key(request), owner, deliver=owner is not None)
    return {"sent": True, "expires_in": svc.settings.otp_ttl_seconds}


@router.post("/backup/restore/verify")
async def restore_verify(svc: Svc, request: Request, body: CodeBody) -> dict[str, str]:
    """A new device token for the profile linked to the address."""
    row = await svc.otp.verify(body.email, RESTORE, body.code, client_key(request))
    token = new_token()
    async with svc.db.sessions() as session, session.begin():
        player = await session.scalar(select(Player).where(Player.email == row.email))
        if player is None:
            raise ApiError(400, "not_linked", "no profile is linked to that address")
        session.add(Device(token_hash=token_hash(token), player_id=player.id))
    return {"player_id": player.id, "token": token}


# ----- matches ------------------------------------------------------------------------------


class CreateMatch(Strict):
    game: str | None = Field(default=None, max_length=40)
    opponents: list[Annotated[str, Field(max_length=40)]] | None = Field(
        default=None, min_length=1, max_length=7
    )
    options: dict[str, Any] = Field(default_factory=dict)
    #: A trail table or wanted poster instead of game and opponents (see trail_api).
    table_id: str | None = Field(default=None, max_length=64)
    wanted_id: str | None = Field(default=None, max_length=64)


class PostAction(Strict):
    action: dict[str, Any]
    client_action_id: str | None = Field(default=None, pattern=_CLIENT_ID)
    #: The version the client saw; a stale one is refused (409) instead of applied.
    version: int | None = Field(default=None, ge=0)


@router.post("/matches", status_code=201)
async def create_match(svc: Svc, me: Me, body: CreateMatch) -> dict[str, Any]:
    if body.table_id is not None or body.wanted_id is not None:
        from deadwood_knock.server.trail_api import TrailMatchRequest, create_trail_match

        if body.game is not None or body.opponents is not None:
            raise ApiError(422, "invalid_request", "a trail match takes no game or opponents")
        request = TrailMatchRequest(
            table_id=body.table_id, wanted_id=body.wanted_id, options=body.options
        )
        return await create_trail_match(svc, me, request)
    if body.game is None or body.opponents is None:
        raise ApiError(422, "invalid_request", "give game and opponents (or a table_id)")
    live = await svc.matches.create(me, body.game, body.opponents, body.options)
    return {"match_id": live.id, "view": svc.matches.view(live, 0)}


@router.get("/matches")
async def list_matches(svc: Svc, me: Me) -> dict[str, Any]:
    return {"matches": await svc.matches.list_for(me)}


@router.get("/matches/{match_id}")
async def get_match(svc: Svc, me: Me, match_id: str) -> dict[str, Any]:
    live, seat = await svc.matches.get_for(me, match_id)
    return svc.matches.view(live, seat)


@router.get("/matches/{match_id}/hint")
async def get_hint(svc: Svc, me: Me, match_id: str) -> dict[str, Any]:
    """Hand Focus: the strong bot's ranked legal actions for your seat, the best one in
    words and knock advice, searched from your seat's observation only (about 0.25 s).
    Off your turn ``hint`` is null (``your_turn`` false); a finished match is a 409."""
    live, seat = await svc.matches.get_for(me, match_id)
    return await svc.matches.hint(live, seat)


@router.post("/matches/{match_id}/actions")
async def post_action(svc: Svc, me: Me, match_id: str, body: PostAction) -> dict[str, Any]:
    live, seat = await svc.matches.get_for(me, match_id)
    return await svc.matches.act(live, seat, body.action, body.client_action_id, body.version)


@router.post("/matches/{match_id}/forfeit")
async def forfeit(svc: Svc, me: Me, match_id: str) -> dict[str, Any]:
    live, seat = await svc.matches.get_for(me, match_id)
    return await svc.matches.forfeit(live, seat)


# ----- the match socket ----------------------------------------------------------------------

AUTH_TIMEOUT = 10.0


def _socket_error(error: ApiError) -> dict[str, Any]:
    return {"type": "error", "status": error.status, **error.body()}


@router.websocket("/matches/{match_id}/ws")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    """First message ``{"type": "auth", "token": …}`` (tokens stay out of URLs and logs).

    Then the server sends ``view``; after every change, one ``event`` per event the seat
    may see and the new ``view``. The client may send ``{"type": "action", "action": …,
    "client_action_id": …, "version": …}`` (answered by ``ack`` or ``error``) and ``ping``.
    """
    svc: Services = websocket.app.state.services
    limit = svc.settings.max_socket_message_bytes
    await websocket.accept()
    try:
        raw = await asyncio.wait_for(websocket.receive_text(), AUTH_TIMEOUT)
        message = json.loads(raw) if len(raw) <= limit else None
        if not isinstance(message, dict) or message.get("type") != "auth":
            raise ApiError(401, "unauthorized", 'first send {"type": "auth", "token": …}')
        token = message.get("token")
        player = await player_for_token(svc, token if isinstance(token, str) else None)
        live, seat = await svc.matches.get_for(player, match_id)
    except (TimeoutError, WebSocketDisconnect, json.JSONDecodeError, ApiError) as exc:
        if isinstance(exc, ApiError):
            await websocket.send_json(_socket_error(exc))
        if not isinstance(exc, WebSocketDisconnect):
            await websocket.close(code=4401 if not isinstance(exc, ApiError) else 4000 + exc.status)
        return

    sub = svc.hub.subscribe(match_id, seat)

    async def pump() -> None:
        while True:
            item = await sub.queue.get()
            await websocket.send_json(item)
            if sub.overflowed and sub.queue.empty():
                await websocket.close(code=4008)
                return

    sub.queue.put_nowait({"type": "view", "view": svc.matches.view(live, seat)})
    sender = asyncio.create_task(pump())
    try:
        while True:
            raw = await websocket.receive_text()
            try:
                if len(raw) > limit:
                    raise ApiError(413, "too_large", f"message over {limit} bytes")
                try:
                    message = json.loads(raw)
                except json.JSONDecodeError:
                    raise ApiError(400, "bad_json", "messages are JSON objects") from None
                kind = message.get("type") if isinstance(message, dict) else None
                if kind == "ping":
                    sub.queue.put_nowait({"type": "pong"})
                elif kind == "action":
                    body = PostAction.model_validate(
                        {k: v for k, v in message.items() if k != "type"}
                    )
                    live, seat = await svc.matches.get_for(player, match_id)
                    view = await svc.matches.act(
                        live, seat, body.action, body.client_action_id, body.version
                    )
                    sub.queue.put_nowait(
                        {
                            "type": "ack",
                            "client_action_id": body.client_action_id,
                            "version": view["version"],
                        }
                    )
                else:
                    raise ApiError(400, "bad_message", 'type must be "action" or "ping"')
            except ApiError as exc:
                sub.queue.put_nowait(_socket_error(exc))
            except ValueError as exc:  # pydantic's ValidationError
                sub.queue.put_nowait(
                    _socket_error(ApiError(422, "invalid_request", _short_validation(exc)))
                )
    except WebSocketDisconnect:
        pass
    finally:
        svc.hub.unsubscribe(match_id, sub)
        sender.cancel()


def _short_validation(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        return "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in errors()
        )
    return "invalid message"
