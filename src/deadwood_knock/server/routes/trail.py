"""Trail routes: towns and tables, characters, gazette, records, card backs, likenesses,
and the content art (``/art/...``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles

from deadwood_knock.content.loader import CONTENT_DIR
from deadwood_knock.persistence import Player
from deadwood_knock.server.deps import Me, Svc
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.schemas import Strict
from deadwood_knock.server.trail import lifetime_of, progress_of, save_records, trail_content
from deadwood_knock.trail import clear_announcements, restart
from deadwood_knock.trail.figure_bots import register_figure_bots
from deadwood_knock.trail.views import (
    art_url,
    card_backs_view,
    character_sources,
    character_summary,
    gazette_view,
    records_view,
    summary_view,
    trail_view,
)

router = APIRouter(prefix="/api")

# ----- reading the trail --------------------------------------------------------------------


@router.get("/trail")
async def get_trail(me: Me) -> dict[str, Any]:
    """The towns in journey order, each with its tables, posters and the player's progress."""
    return trail_view(trail_content(), progress_of(me))


@router.get("/characters")
async def list_characters() -> dict[str, Any]:
    return {"characters": [character_summary(f) for f in trail_content().figures]}


@router.get("/characters/{figure_id}")
async def get_character(figure_id: str) -> dict[str, Any]:
    figure = trail_content().figure_by_id.get(figure_id)
    if figure is None:
        raise ApiError(404, "not_found", f"no character {figure_id[:48]!r}")
    return character_sources(trail_content(), figure)


@router.get("/gazette")
async def get_gazette(me: Me) -> dict[str, Any]:
    return gazette_view(trail_content(), lifetime_of(me), progress_of(me), me.name)


@router.get("/records")
async def get_records(me: Me) -> dict[str, Any]:
    """The trail record (this run and lifetime) and the gunfighter record."""
    return records_view(trail_content(), progress_of(me), lifetime_of(me))


@router.get("/trail/summaries/{match_id}")
async def get_summary(me: Me, match_id: str) -> dict[str, Any]:
    for summary in lifetime_of(me).summaries:
        if summary.match_id == match_id:
            return summary_view(trail_content(), summary)
    raise ApiError(404, "not_found", "no trail summary for that match")


@router.get("/card-backs")
async def get_card_backs(svc: Svc, me: Me) -> dict[str, Any]:
    """Every back with its unlock state; ``announce`` lists new unlocks once, then clears."""
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        announce, lifetime = clear_announcements(lifetime_of(player))
        if announce:
            save_records(player, None, lifetime)
    return card_backs_view(trail_content(), lifetime, player.card_back, announce)


@router.get("/likenesses")
async def list_likenesses() -> dict[str, Any]:
    """The likenesses a player may pick: id, name and the SVG's URL."""
    return {
        "likenesses": [
            {"id": lk.id, "name": lk.name, "svg_url": art_url(lk.svg)}
            for lk in trail_content().likenesses
        ]
    }


class RestartBody(Strict):
    confirm: bool = False


@router.post("/progress/restart")
async def restartprogress_of(svc: Svc, me: Me, body: RestartBody) -> dict[str, Any]:
    """Start the trail over. Name, likeness, card backs and lifetime scores stay."""
    if not body.confirm:
        raise ApiError(400, "confirm_required", 'send {"confirm": true} to restart the trail')
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        progress, lifetime = restart(lifetime_of(player))
        save_records(player, progress, lifetime)
    return records_view(trail_content(), progress, lifetime)


def install_art(app: FastAPI) -> None:
    """The figure bots the trail seats, and the content art (``/art/...``); call before the
    web client's catch-all mount so ``/art`` is matched first."""
    register_figure_bots()
    app.mount("/art", StaticFiles(directory=CONTENT_DIR / "art"), name="art")
