"""The server's health (the games' catalogue, /api/games, is in ``routes/games.py``)."""

from __future__ import annotations

from fastapi import APIRouter

from deadwood_knock import __version__
from deadwood_knock.server.answers import Health

router = APIRouter(prefix="/api")


@router.get("/health", response_model=None)
async def health() -> Health:
    return {"status": "ok", "version": __version__}
