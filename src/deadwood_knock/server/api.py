"""HTTP and WebSocket routes."""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Depends, Request, WebSocket
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select, update

from deadwood_knock import __version__
from deadwood_knock.persistence import Database, Player
from deadwood_knock.server.devices import add_device, authenticate, new_token
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.frames import SocketClosed, close_safely, read_message, send_safely
from deadwood_knock.server.hub import Hub
from deadwood_knock.server.matches import MatchService
from deadwood_knock.server.otp import (
    CODE_PATTERN,
    EMAIL_PATTERN,
    LINK,
    REQUEST_ID_PATTERN,
    RESTORE,
    OtpService,
)
from deadwood_knock.server.proxies import client_address
from deadwood_knock.server.ratelimit import RateLimiter
from deadwood_knock.server.settings import Settings

log = logging.getLogger("deadwood_knock.server.api")

router = APIRouter(prefix="/api")

_SLUG = r"^[A-Za-z0-9_-]{1,40}$"
_CLIENT_ID = r"^[A-Za-z0-9_.:-]{1,64}$"
#: A name: no control, format or surrogate characters, and something visible.
_NAME_CHAR = r"[^\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]"
NAME_PATTERN = rf"^{_NAME_CHAR}*(?!\s){_NAME_CHAR}{_NAME_CHAR}*$"


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


async def player_for_token(svc: Services, token: str | None) -> Player:
    player, _device = await authenticate(svc.db, token, svc.settings.token_idle_days)
    return player


#: The OpenAPI document's bearer scheme; our own 401 answers a missing or bad token.
bearer = HTTPBearer(auto_error=False, description="the token from POST /api/players")


async def current_player(
    svc: Svc,
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> Player:
    if credentials is None:
        raise ApiError(401, "unauthorized", "send Authorization: Bearer <token>")
    player, device_id = await authenticate(
        svc.db, credentials.credentials.strip(), svc.settings.token_idle_days
    )
    request.state.device_id = device_id  # the device list marks "this device"
    return player


Me = Annotated[Player, Depends(current_player)]


def client_key(request: Request) -> str:
    """The client's address, through trusted proxies only (rate limits key on it)."""
    peer = request.client.host if request.client else None
    forwarded = request.headers.getlist("x-forwarded-for")
    return client_address(peer, forwarded, services(request).settings.trusted_proxies)


class Strict(BaseModel):
    # strict: JSON true/false only for booleans ("yes" is not true), whole numbers only.
    model_config = ConfigDict(extra="forbid", strict=True)


# ----- health (the games catalogue is in games_api.py) ---------------------------------------


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok", "version": __version__}


# ----- players ------------------------------------------------------------------------------


def _name_field() -> Any:
    # The pattern is documented and checked by _clean_name (a 422 "bad_name").
    return Field(
        default=None, min_length=1, max_length=40, json_schema_extra={"pattern": NAME_PATTERN}
    )


class NewPlayer(Strict):
    name: str | None = _name_field()


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
    if not cleaned or not re.fullmatch(NAME_PATTERN, name):
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
    user_agent = request.headers.get("user-agent")
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
        add_device(session, player_id, token, user_agent)
    return {"player_id": player_id, "token": token}


class ProfileUpdate(Strict):
    name: str | None = _name_field()
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


# Patterns are documented and checked by the OTP service (422 "bad_email" / "bad_code").
def _email_field() -> Any:
    return Field(min_length=3, max_length=254, json_schema_extra={"pattern": EMAIL_PATTERN})


def _code_field() -> Any:
    return Field(min_length=1, max_length=12, json_schema_extra={"pattern": CODE_PATTERN})


class EmailBody(Strict):
    email: str = _email_field()


class LinkCodeBody(Strict):
    email: str = _email_field()
    code: str = _code_field()
    #: From the link request's answer; without it, any of this profile's codes for the
    #: address may match.
    request_id: str | None = Field(default=None, pattern=REQUEST_ID_PATTERN)


class RestoreCodeBody(Strict):
    email: str = _email_field()
    code: str = _code_field()
    #: From the restore request's answer: guesses count only against that request's code.
    request_id: str = Field(pattern=REQUEST_ID_PATTERN)


async def _send_code(
    svc: Services,
    request: Request,
    background: BackgroundTasks,
    address: str,
    purpose: str,
    owner: str | None,
    deliver: bool,
) -> dict[str, Any]:
    request_id, after_answer = await svc.otp.send(
        address, purpose, client_key(request), owner, deliver=deliver
    )
    background.add_task(after_answer)  # the mail goes out after the answer
    return {"sent": True, "expires_in": svc.settings.otp_ttl_seconds, "request_id": request_id}


@router.post("/backup/link", status_code=202)
async def link_request(
    svc: Svc, me: Me, request: Request, body: EmailBody, background: BackgroundTasks
) -> dict[str, Any]:
    """Mail a code to the address; verifying it links this profile to the address."""
    return await _send_code(svc, request, background, body.email, LINK, me.id, True)


@router.post("/backup/link/verify")
async def link_verify(svc: Svc, me: Me, request: Request, body: LinkCodeBody) -> dict[str, Any]:
    row = await svc.otp.verify(
        body.email,
        LINK,
        body.code,
        client_key(request),
        request_id=body.request_id,
        player_id=me.id,
    )
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
async def restore_request(
    svc: Svc, request: Request, body: EmailBody, background: BackgroundTasks
) -> dict[str, Any]:
    """Mail a code if a profile is linked to the address. The answer, and the time it
    takes, are the same either way; the mail goes out after it."""
    from deadwood_knock.server.otp import normalise_email

    address = normalise_email(body.email)
    async with svc.db.sessions() as session:
        owner = await session.scalar(select(Player.id).where(Player.email == address))
    return await _send_code(svc, request, background, address, RESTORE, owner, owner is not None)


@router.post("/backup/restore/verify")
async def restore_verify(svc: Svc, request: Request, body: RestoreCodeBody) -> dict[str, str]:
    """A new device token for the profile linked to the address."""
    row = await svc.otp.verify(
        body.email, RESTORE, body.code, client_key(request), request_id=body.request_id
    )
    token = new_token()
    user_agent = request.headers.get("user-agent")
    async with svc.db.sessions() as session, session.begin():
        player = await session.scalar(select(Player).where(Player.email == row.email))
        if player is None:
            raise ApiError(400, "not_linked", "no profile is linked to that address")
        add_device(session, player.id, token, user_agent)
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
    A frame that is not a JSON object (binary, too large, too deep) is answered with an
    ``error``; before authentication it also closes the socket.
    """
    svc: Services = websocket.app.state.services
    limit = svc.settings.max_socket_message_bytes
    await websocket.accept()
    try:
        message = await asyncio.wait_for(read_message(websocket, limit), AUTH_TIMEOUT)
        if message.get("type") != "auth":
            raise ApiError(401, "unauthorized", 'first send {"type": "auth", "token": …}')
        token = message.get("token")
        player = await player_for_token(svc, token if isinstance(token, str) else None)
        live, seat = await svc.matches.get_for(player, match_id)
    except (TimeoutError, SocketClosed, ApiError) as exc:
        if isinstance(exc, ApiError):
            await send_safely(websocket, _socket_error(exc))
        if not isinstance(exc, SocketClosed):
            code = 4000 + exc.status if isinstance(exc, ApiError) else 4408
            await close_safely(websocket, code)
        return

    sub = svc.hub.subscribe(match_id, seat)

    def answer(item: dict[str, Any]) -> None:
        try:
            sub.queue.put_nowait(item)
        except asyncio.QueueFull:
            sub.overflowed = True  # the pump closes a reader this far behind

    async def pump() -> None:
        while True:
            item = await sub.queue.get()
            if not await send_safely(websocket, item):
                return
            if sub.overflowed and sub.queue.empty():
                await close_safely(websocket, 4008)
                return

    answer({"type": "view", "view": svc.matches.view(live, seat)})
    sender = asyncio.create_task(pump())
    try:
        while True:
            try:
                message = await read_message(websocket, limit)
                kind = message.get("type")
                if kind == "ping":
                    answer({"type": "pong"})
                elif kind == "action":
                    body = PostAction.model_validate(
                        {k: v for k, v in message.items() if k != "type"}
                    )
                    live, seat = await svc.matches.get_for(player, match_id)
                    view = await svc.matches.act(
                        live, seat, body.action, body.client_action_id, body.version
                    )
                    answer(
                        {
                            "type": "ack",
                            "client_action_id": body.client_action_id,
                            "version": view["version"],
                        }
                    )
                else:
                    raise ApiError(400, "bad_message", 'type must be "action" or "ping"')
            except ApiError as exc:
                answer(_socket_error(exc))
            except ValueError as exc:  # pydantic's ValidationError
                answer(_socket_error(ApiError(422, "invalid_request", _short_validation(exc))))
    except SocketClosed:
        pass
    except Exception as exc:
        # Never a traceback that could quote a frame; the type is enough to investigate.
        log.error("match socket failed: %s", type(exc).__name__)
        await close_safely(websocket, 1011)
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
