"""Device tokens: made, checked, listed and revoked ("sign out other devices").

A bearer token is stored only as its SHA-256. Each token is one device with a public
``id`` (for listing and revoking, unrelated to the token), a label from the browser's
User-Agent, and when it was last used (kept to the hour, so checking a token is not a
write per request). ``token_idle_days`` makes unused tokens stop working; it is off by
default because an anonymous profile has no other way back in.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from deadwood_knock.persistence import Database, Device, Player
from deadwood_knock.server.errors import ApiError

#: Seconds between two writes of a device's ``last_used_at``.
TOUCH_EVERY = 3600
DEVICE_ID_PATTERN = r"^[0-9a-f]{32}$"

_BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(32)


def device_label(user_agent: str | None) -> str:
    """A few words a person recognises ("Firefox on Android"), never the raw header."""
    ua = user_agent or ""
    browser = next((name for key, name in _BROWSERS if key in ua), None)
    system = next((name for key, name in _SYSTEMS if key in ua), None)
    if browser and system:
        return f"{browser} on {system}"
    if browser or system:
        return browser or system or ""
    # Not a browser: the product token ("python-httpx/0.27" -> "python-httpx").
    product = ua.split("/", 1)[0].strip()
    product = "".join(ch for ch in product if ch.isalnum() or ch in "-_. ")[:40]
    return product or "Unknown device"


def add_device(session: AsyncSession, player_id: str, token: str, user_agent: str | None) -> None:
    """Register ``token`` as a new device of the player (inside the caller's transaction)."""
    session.add(
        Device(
            token_hash=token_hash(token),
            id=secrets.token_hex(16),
            player_id=player_id,
            label=device_label(user_agent),
            last_used_at=int(time.time()),
        )
    )


def iso_time(value: datetime | int | None) -> str | None:
    """ISO 8601 in UTC, from a timestamp column or epoch seconds."""
    if value is None:
        return None
    if isinstance(value, int):
        value = datetime.fromtimestamp(value, UTC)
    elif value.tzinfo is None:
        value = value.replace(tzinfo=UTC)  # SQLite hands back UTC without a zone
    return value.astimezone(UTC).isoformat(timespec="seconds")


_PLAYER_COLUMNS = [column.name for column in Player.__table__.columns]
_JSON_COLUMNS = [c.name for c in Player.__table__.columns if isinstance(c.type, JSON)]
_TOKEN_SQL = (
    "SELECT "
    + ", ".join(f"p.{name}" for name in _PLAYER_COLUMNS)
    + ", d.id AS device_id, d.last_used_at FROM players p"
    " JOIN devices d ON d.player_id = p.id WHERE d.token_hash = $1"
)
_TOKEN_ID_SQL = (
    "SELECT p.id, d.id AS device_id, d.last_used_at FROM players p"
    " JOIN devices d ON d.player_id = p.id WHERE d.token_hash = $1"
)


def _unauthorized(detail: str, code: str = "unauthorized") -> ApiError:
    return ApiError(401, code, detail)


async def authenticate(db: Database, token: str | None, idle_days: int) -> tuple[Player, str]:
    """The player and device id of a bearer token; 401 if it is unknown, revoked or idle."""
    values = await _device_row(db, token, idle_days, whole_player=True)
    device_id = values.pop("device_id")
    values.pop("last_used_at")
    for name in _JSON_COLUMNS:
        if isinstance(values[name], str):
            values[name] = json.loads(values[name])
    # Columns, not an ORM query (no identity map or loading per request). Read only, like
    # a row loaded by a session that has closed: routes that change the player load it
    # again in their own transaction.
    return Player(**values), device_id


async def authenticate_id(db: Database, token: str | None, idle_days: int) -> str:
    """:func:`authenticate`'s checks and answers, for a caller that needs only the player's
    id (an action: the seat is found by it): one small row, no player object."""
    values = await _device_row(db, token, idle_days, whole_player=False)
    player_id: str = values["id"]
    return player_id


async def _device_row(
    db: Database, token: str | None, idle_days: int, *, whole_player: bool
) -> dict[str, Any]:
    """The token's device row (``device_id``, ``last_used_at``) with its player's columns
    (``id`` only unless ``whole_player``); 401 if it is unknown, revoked or idle."""
    if not token or len(token) > 128 or not token.isascii():
        raise _unauthorized("a bearer token is required (POST /api/players)")
    hashed = token_hash(token)
    raw = await db.raw()
    if raw is not None:
        # PostgreSQL: every request checks its token, so this one is hand-written SQL on
        # the asyncpg pool.
        async with raw.acquire() as conn:
            found = await conn.fetchrow(_TOKEN_SQL if whole_player else _TOKEN_ID_SQL, hashed)
    else:
        columns = Player.__table__.columns if whole_player else [Player.id]
        async with db.reads() as session:
            found = (
                (
                    await session.execute(
                        select(*columns, Device.id.label("device_id"), Device.last_used_at)
                        .join(Device, Device.player_id == Player.id)
                        .where(Device.token_hash == hashed)
                    )
                )
                .mappings()
                .first()
            )
    if found is None:
        raise _unauthorized("unknown token")
    values = dict(found)
    last_used = values["last_used_at"]
    now = int(time.time())
    if idle_days and last_used is not None and now - last_used > idle_days * 86_400:
        async with db.sessions() as session, session.begin():
            await session.execute(delete(Device).where(Device.token_hash == hashed))
        raise _unauthorized("this sign-in expired; restore your profile by email", "token_expired")
    if last_used is None or now - last_used >= TOUCH_EVERY:
        async with db.sessions() as session, session.begin():
            await session.execute(
                update(Device).where(Device.token_hash == hashed).values(last_used_at=now)
            )
    return values
