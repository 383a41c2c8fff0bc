"""Players: a new anonymous player, the profile, restarting the trail's progress."""

from __future__ import annotations

import re
import secrets
from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from deadwood_knock.persistence import Player
from deadwood_knock.server.answers import NewPlayerAnswer, Profile
from deadwood_knock.server.deps import Me, Svc, client_key
from deadwood_knock.server.devices import add_device, new_token
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.schemas import Strict
from deadwood_knock.server.trail import check_card_back
from deadwood_knock.server.views import profile

router = APIRouter(prefix="/api")

_SLUG = r"^[A-Za-z0-9_-]{1,40}$"
#: A name: no control, format or surrogate characters, and something visible.
_NAME_CHAR = r"[^\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ud800-\udfff]"
NAME_PATTERN = rf"^{_NAME_CHAR}*(?!\s){_NAME_CHAR}{_NAME_CHAR}*$"


def _name_field() -> Any:
    # The pattern is documented and checked by _clean_name (a 422 "bad_name").
    return Field(
        default=None, min_length=1, max_length=40, json_schema_extra={"pattern": NAME_PATTERN}
    )


class NewPlayer(Strict):
    name: str | None = _name_field()


def _clean_name(name: str) -> str:
    cleaned = " ".join(name.split())
    if not cleaned or not re.fullmatch(NAME_PATTERN, name):
        raise ApiError(422, "bad_name", "a name needs visible characters and no control characters")
    return cleaned


@router.post("/players", status_code=201, response_model=None)
async def create_player(
    svc: Svc, request: Request, body: NewPlayer | None = None
) -> NewPlayerAnswer:
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


@router.get("/players/me", response_model=None)
async def get_me(me: Me) -> Profile:
    return profile(me)


@router.patch("/players/me", response_model=None)
async def update_me(svc: Svc, me: Me, body: ProfileUpdate) -> Profile:
    values = body.model_dump(exclude_none=True)
    if "name" in values:
        values["name"] = _clean_name(values["name"])
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        if "card_back" in values:
            # Checked against the freshly read row, so a back unlocked a moment ago counts.
            check_card_back(player, values["card_back"])
        for key, value in values.items():
            setattr(player, key, value)
    return profile(player)


@router.post("/players/me/restart-progress", response_model=None)
async def restart_progress(svc: Svc, me: Me) -> Profile:
    """Start the trail again: progress is cleared; name and lifetime stats stay."""
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        player.progress = {}
    return profile(player)
