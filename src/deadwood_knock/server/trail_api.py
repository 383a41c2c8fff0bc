"""The trail over HTTP: towns and tables, characters, gazette, records, card backs.

Progression itself is pure (:mod:`deadwood_knock.trail`); this module reads and
writes the two JSON records on the player row (``progress`` for this run of the
trail, ``stats["trail"]`` for what outlives a restart), starts matches from a
table or a wanted poster, and folds a finished trail match into the records in
the same transaction that finishes it (:func:`record_trail_result`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles
from pydantic import Field
from sqlalchemy.ext.asyncio import AsyncSession

from deadwood_knock.bots.personality import LADDER
from deadwood_knock.content import load_content
from deadwood_knock.content.loader import CONTENT_DIR, Content
from deadwood_knock.content.schema import TableGame
from deadwood_knock.games.base import Event, GameRecord, JSONDict, replay
from deadwood_knock.persistence import Player
from deadwood_knock.server.api import Me, Services, Strict, Svc
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.matches import LiveMatch
from deadwood_knock.trail import (
    Entry,
    Lifetime,
    TrailProgress,
    apply_match,
    clear_announcements,
    entry_of,
    facts_from_events,
    poster_status,
    reconcile,
    restart,
    table_id_of,
    table_status,
)
from deadwood_knock.trail.figure_bots import figure_bot_name, register_figure_bots
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

__all__ = ["create_trail_match", "install_trail", "record_trail_result", "trail_router"]

trail_router = APIRouter(prefix="/api")

#: Key of the lifetime trail record inside ``players.stats``.
STATS_KEY = "trail"


def _content() -> Content:
    return load_content()


def _progress(player: Player) -> TrailProgress:
    # Saved progress is read against today's content (renamed, added or retired tables).
    return reconcile(_content(), TrailProgress.from_json(player.progress or {}))


def _lifetime(player: Player) -> Lifetime:
    return Lifetime.from_json((player.stats or {}).get(STATS_KEY))


def _store(player: Player, progress: TrailProgress | None, lifetime: Lifetime | None) -> None:
    # New dict objects, so SQLAlchemy sees the JSON columns change.
    if progress is not None:
        player.progress = progress.to_json()
    if lifetime is not None:
        stats = dict(player.stats or {})
        stats[STATS_KEY] = lifetime.to_json()
        player.stats = stats


# ----- reading the trail --------------------------------------------------------------------


@trail_router.get("/trail")
async def get_trail(me: Me) -> dict[str, Any]:
    """The towns in journey order, each with its tables, posters and the player's progress."""
    return trail_view(_content(), _progress(me))


@trail_router.get("/characters")
async def list_characters() -> dict[str, Any]:
    return {"characters": [character_summary(f) for f in _content().figures]}


@trail_router.get("/characters/{figure_id}")
async def get_character(figure_id: str) -> dict[str, Any]:
    figure = _content().figure_by_id.get(figure_id)
    if figure is None:
        raise ApiError(404, "not_found", f"no character {figure_id[:48]!r}")
    return character_sources(_content(), figure)


@trail_router.get("/gazette")
async def get_gazette(me: Me) -> dict[str, Any]:
    return gazette_view(_content(), _lifetime(me))


@trail_router.get("/records")
async def get_records(me: Me) -> dict[str, Any]:
    """The trail record (this run and lifetime) and the gunfighter record."""
    return records_view(_content(), _progress(me), _lifetime(me))


@trail_router.get("/trail/summaries/{match_id}")
async def get_summary(me: Me, match_id: str) -> dict[str, Any]:
    for summary in _lifetime(me).summaries:
        if summary.match_id == match_id:
            return summary_view(_content(), summary)
    raise ApiError(404, "not_found", "no trail summary for that match")


@trail_router.get("/card-backs")
async def get_card_backs(svc: Svc, me: Me) -> dict[str, Any]:
    """Every back with its unlock state; ``announce`` lists new unlocks once, then clears."""
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        announce, lifetime = clear_announcements(_lifetime(player))
        if announce:
            _store(player, None, lifetime)
    return card_backs_view(_content(), lifetime, player.card_back, announce)


def unlocked_card_backs(content: Content, lifetime: Lifetime) -> set[str]:
    """Ids of the backs the player may use: those with no unlock, and those unlocked."""
    earned = set(lifetime.card_backs)
    return {b.id for b in content.card_backs if b.unlock is None or b.id in earned}


def check_card_back(player: Player, back_id: str) -> None:
    """Refuse (422) a card back that does not exist or that the player has not unlocked."""
    content = _content()
    if back_id not in {b.id for b in content.card_backs}:
        raise ApiError(
            422, "unknown_card_back", f"there is no card back {back_id!r}", card_back=back_id
        )
    if back_id not in unlocked_card_backs(content, _lifetime(player)):
        raise ApiError(
            422,
            "card_back_locked",
            f"the card back {back_id!r} is not unlocked yet",
            card_back=back_id,
        )


@trail_router.get("/likenesses")
async def list_likenesses() -> dict[str, Any]:
    """The likenesses a player may pick: id, name and the SVG's URL."""
    return {
        "likenesses": [
            {"id": lk.id, "name": lk.name, "svg_url": art_url(lk.svg)}
            for lk in _content().likenesses
        ]
    }


class RestartBody(Strict):
    confirm: bool = False


@trail_router.post("/progress/restart")
async def restart_progress(svc: Svc, me: Me, body: RestartBody) -> dict[str, Any]:
    """Start the trail over. Name, likeness, card backs and lifetime scores stay."""
    if not body.confirm:
        raise ApiError(400, "confirm_required", 'send {"confirm": true} to restart the trail')
    async with svc.db.sessions() as session, session.begin():
        player = await session.get(Player, me.id)
        assert player is not None
        progress, lifetime = restart(_lifetime(player))
        _store(player, progress, lifetime)
    return records_view(_content(), progress, lifetime)


# ----- starting a trail match ---------------------------------------------------------------


class TrailMatchRequest(Strict):
    table_id: str | None = Field(default=None, max_length=64)
    wanted_id: str | None = Field(default=None, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)


def _terms(game: TableGame, rounds: int) -> dict[str, Any]:
    # Knock Rummy and Gin play to a points target; only Deadwood Knock counts rounds.
    return {"rounds": rounds} if game is TableGame.DEADWOOD_KNOCK else {}


def _opponents_and_terms(
    content: Content, progress: TrailProgress, request: TrailMatchRequest
) -> tuple[Entry, str, list[str], dict[str, Any]]:
    if (request.table_id is None) == (request.wanted_id is None):
        raise ApiError(422, "invalid_request", "give exactly one of table_id and wanted_id")
    if request.table_id is not None:
        venue = content.venue_by_id.get(request.table_id)
        if venue is None:
            raise ApiError(404, "unknown_table", "no such table on the trail")
        if table_status(content, progress, venue.id) == "locked":
            raise ApiError(409, "table_locked", "win the tables before this one first")
        table = venue.table
        opponents = [figure_bot_name(f) for f in table.opponents]
        return (
            Entry("table", venue.id),
            table.game.value,
            opponents,
            _terms(table.game, table.rounds),
        )
    assert request.wanted_id is not None
    poster = content.wanted_by_id.get(request.wanted_id)
    if poster is None:
        raise ApiError(404, "unknown_poster", "no such wanted poster")
    status = poster_status(content, progress, poster.id)
    if status == "locked":
        raise ApiError(409, "poster_locked", "this poster hangs in a town not reached yet")
    if status == "collected":
        raise ApiError(409, "poster_collected", "that reward is already collected")
    if poster.figure is not None:
        outlaw = figure_bot_name(poster.figure)
    else:
        # An outlaw with no figure plays like the hardest table of the poster's town.
        rank = max(content.table_difficulty(v) for v in content.venues_in(poster.town))
        outlaw = LADDER[rank]
    terms = _terms(poster.gunfight.game, poster.gunfight.rounds)
    return Entry("gunfight", poster.id), poster.gunfight.game.value, [outlaw], terms


async def create_trail_match(svc: Services, me: Player, request: TrailMatchRequest) -> JSONDict:
    """Start a match at a table (its opponents) or a gunfight (the poster's terms)."""
    content = _content()
    entry, game, opponents, terms = _opponents_and_terms(content, _progress(me), request)
    # The table's terms win over anything the client sends for them.
    options = {**request.options, **terms}
    live = await svc.matches.create(me, game, opponents, options, table_id=table_id_of(entry))
    return {"match_id": live.id, "view": svc.matches.view(live, 0)}


# ----- recording a finished trail match -----------------------------------------------------


def _all_events(live: LiveMatch, actions: list[JSONDict]) -> list[Event]:
    """Every event of the match, by replaying its log (the live deque keeps only recent ones)."""
    events: list[Event] = []
    record = GameRecord(live.game_name, live.options, live.seed, tuple(actions))
    replay(live.game, record, lambda _number, _action, new: events.extend(new))
    return events


async def record_trail_result(
    session: AsyncSession, live: LiveMatch, result: JSONDict, actions: list[JSONDict]
) -> None:
    """Finish hook: a trail match's result goes on each human seat's trail."""
    content = _content()
    entry = entry_of(content, live.table_id)
    if entry is None:
        return
    humans = [info for info in live.seats if info.player_id is not None]
    if not humans:
        return
    events = _all_events(live, actions)
    for info in humans:
        assert info.player_id is not None
        player = await session.get(Player, info.player_id)
        if player is None:
            continue
        update = apply_match(
            content,
            _progress(player),
            _lifetime(player),
            entry,
            facts_from_events(events, info.seat, result),
            player=player.name or "A stranger",
            match_id=live.id,
        )
        _store(player, update.progress, update.lifetime)


def install_trail(app: FastAPI) -> None:
    """Add the trail routes and the content art (``/art/...``) to the app.

    Call before the web client's catch-all mount so ``/art`` is matched first.
    """
    register_figure_bots()
    app.include_router(trail_router)
    app.mount("/art", StaticFiles(directory=CONTENT_DIR / "art"), name="art")
