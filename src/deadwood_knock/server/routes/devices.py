"""Signed-in devices of a profile: list them, sign one out, or sign out all the others."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from sqlalchemy import delete, select

from deadwood_knock.persistence import Device as DeviceRow
from deadwood_knock.server.answers import Device, DeviceList, Revoked
from deadwood_knock.server.deps import Me, Svc
from deadwood_knock.server.devices import DEVICE_ID_PATTERN, iso_time
from deadwood_knock.server.errors import ApiError

router = APIRouter(prefix="/api/players/me/devices")

DeviceId = Annotated[str, Path(pattern=DEVICE_ID_PATTERN)]


@router.get("", response_model=None)
async def list_devices(svc: Svc, me: Me, request: Request) -> DeviceList:
    """The devices signed in to this profile, newest first; ``current`` is this one."""
    current = getattr(request.state, "device_id", None)
    async with svc.db.sessions() as session:
        rows = (
            await session.execute(
                select(DeviceRow)
                .where(DeviceRow.player_id == me.id)
                .order_by(DeviceRow.created_at.desc(), DeviceRow.id)
            )
        ).scalars()
        devices: list[Device] = [
            {
                "id": d.id,
                "label": d.label or "Unknown device",
                "created_at": iso_time(d.created_at),
                "last_used_at": iso_time(d.last_used_at),
                "current": d.id == current,
            }
            for d in rows
        ]
    return {"devices": devices}


@router.delete("/{device_id}", response_model=None)
async def revoke_device(svc: Svc, me: Me, device_id: DeviceId) -> Revoked:
    """Sign one device out (this one too: its token stops working at once)."""
    async with svc.db.sessions() as session, session.begin():
        gone = await session.execute(
            delete(DeviceRow)
            .where(DeviceRow.player_id == me.id, DeviceRow.id == device_id)
            .returning(DeviceRow.id)
        )
        revoked = len(gone.all())
    if not revoked:
        raise ApiError(404, "not_found", "no such device on this profile")
    return {"revoked": revoked}


@router.post("/sign-out-others", response_model=None)
async def sign_out_others(svc: Svc, me: Me, request: Request) -> Revoked:
    """Every other device's token stops working; this one stays signed in."""
    current = getattr(request.state, "device_id", None)
    async with svc.db.sessions() as session, session.begin():
        gone = await session.execute(
            delete(DeviceRow)
            .where(DeviceRow.player_id == me.id, DeviceRow.id != current)
            .returning(DeviceRow.id)
        )
        revoked = len(gone.all())
    return {"revoked": revoked}
