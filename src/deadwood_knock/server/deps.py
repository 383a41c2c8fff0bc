"""FastAPI dependencies shared by every router: the app's services, the signed-in player,
the client's address. Imports no router, so any router may import it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from deadwood_knock.persistence import Database, Player
from deadwood_knock.server.devices import authenticate
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.hub import Hub
from deadwood_knock.server.matches import MatchService
from deadwood_knock.server.otp import OtpService
from deadwood_knock.server.proxies import client_address
from deadwood_knock.server.ratelimit import RateLimiter
from deadwood_knock.server.settings import Settings


@dataclass
class Services:
    settings: Settings
    db: Database
    matches: MatchService
    otp: OtpService
    hub: Hub
    limiter: RateLimiter


async def services(request: Request) -> Services:
    # async: FastAPI runs a plain function dependency in its thread pool, a thread hop
    # for every request that the profile showed under load.
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
    settings: Settings = request.app.state.services.settings
    return client_address(peer, forwarded, settings.trusted_proxies)
