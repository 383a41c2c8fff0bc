"""The server's health and the catalogue of games and bots."""

from __future__ import annotations

from fastapi import APIRouter

from deadwood_knock import __version__
from deadwood_knock.bots.base import bot_names
from deadwood_knock.games import game_names

router = APIRouter(prefix="/api")


@router.get("/health")
async def health() -> dict[str, str]:
    return {"status": "ok", "version": __version__}


@router.get("/games")
async def games() -> dict[str, list[str]]:
    return {"games": list(game_names()), "bots": list(bot_names())}
