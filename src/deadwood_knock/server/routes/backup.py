"""Cloud backup without a password: link an address, restore on another device."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request
from pydantic import Field
from sqlalchemy import select, update

from deadwood_knock.persistence import Player
from deadwood_knock.server.answers import CodeSent, NewPlayerAnswer, Profile
from deadwood_knock.server.deps import Me, Services, Svc, client_key
from deadwood_knock.server.devices import add_device, new_token
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.otp import (
    CODE_PATTERN,
    EMAIL_PATTERN,
    LINK,
    REQUEST_ID_PATTERN,
    RESTORE,
    normalise_email,
)
from deadwood_knock.server.schemas import Strict
from deadwood_knock.server.views import profile

router = APIRouter(prefix="/api")


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
) -> CodeSent:
    request_id, after_answer = await svc.otp.send(
        address, purpose, client_key(request), owner, deliver=deliver
    )
    background.add_task(after_answer)  # the mail goes out after the answer
    return {"sent": True, "expires_in": svc.settings.otp_ttl_seconds, "request_id": request_id}


@router.post("/backup/link", status_code=202, response_model=None)
async def link_request(
    svc: Svc, me: Me, request: Request, body: EmailBody, background: BackgroundTasks
) -> CodeSent:
    """Mail a code to the address; verifying it links this profile to the address."""
    return await _send_code(svc, request, background, body.email, LINK, me.id, True)


@router.post("/backup/link/verify", response_model=None)
async def link_verify(svc: Svc, me: Me, request: Request, body: LinkCodeBody) -> Profile:
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


@router.post("/backup/restore", status_code=202, response_model=None)
async def restore_request(
    svc: Svc, request: Request, body: EmailBody, background: BackgroundTasks
) -> CodeSent:
    """Mail a code if a profile is linked to the address. The answer, and the time it
    takes, are the same either way; the mail goes out after it."""
    address = normalise_email(body.email)
    async with svc.db.sessions() as session:
        owner = await session.scalar(select(Player.id).where(Player.email == address))
    return await _send_code(svc, request, background, address, RESTORE, owner, owner is not None)


@router.post("/backup/restore/verify", response_model=None)
async def restore_verify(svc: Svc, request: Request, body: RestoreCodeBody) -> NewPlayerAnswer:
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
