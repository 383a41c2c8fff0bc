"""The server's health (the games' catalogue, /api/games, is in ``routes/games.py``)."""

from __future__ import annotations

from fastapi import APIRouter

from deadwood_knock import __version__

router = APIRouter(prefix="/api")


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok", "version": __version__}
