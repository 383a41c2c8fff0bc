"""The trail's server side: the player's two trail records, matches started from a table or
a wanted poster, and a finished trail match folded into the records.

Progression itself is pure (:mod:`deadwood_knock.trail`); this module reads and writes
the two JSON records on the player row (``progress`` for this run of the trail,
``stats["trail"]`` for what outlives a restart), and :func:`record_trail_result` runs in
the transaction that finishes a match. The routes are in :mod:`.routes.trail`.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field
from sqlalchemy.ext.asyncio import AsyncSession

from deadwood_knock.bots.personality import LADDER
from deadwood_knock.content import load_content
from deadwood_knock.content.loader import Content
from deadwood_knock.content.schema import TableGame
from deadwood_knock.games.base import Event, GameRecord, JSONDict, replay
from deadwood_knock.persistence import Player
from deadwood_knock.server.answers import MatchCreated
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.live import LiveMatch
from deadwood_knock.server.matches import MatchService
from deadwood_knock.server.schemas import Strict
from deadwood_knock.server.views import seat_view
from deadwood_knock.trail import (
    Entry,
    Lifetime,
    TrailProgress,
    apply_match,
    entry_of,
    facts_from_events,
    poster_status,
    reconcile,
    table_id_of,
    table_status,
)
from deadwood_knock.trail.figure_bots import figure_bot_name

#: Key of the lifetime trail record inside ``players.stats``.
STATS_KEY = "trail"


def trail_content() -> Content:
    return load_content()


def progress_of(player: Player) -> TrailProgress:
    # Saved progress is read against today's content (renamed, added or retired tables).
    return reconcile(trail_content(), TrailProgress.from_json(player.progress or {}))


def lifetime_of(player: Player) -> Lifetime:
    return Lifetime.from_json((player.stats or {}).get(STATS_KEY))


def save_records(player: Player, progress: TrailProgress | None, lifetime: Lifetime | None) -> None:
    # New dict objects, so SQLAlchemy sees the JSON columns change.
    if progress is not None:
        player.progress = progress.to_json()
    if lifetime is not None:
        stats = dict(player.stats or {})
        stats[STATS_KEY] = lifetime.to_json()
        player.stats = stats


def unlocked_card_backs(content: Content, lifetime: Lifetime) -> set[str]:
    """Ids of the backs the player may use: those with no unlock, and those unlocked."""
    earned = set(lifetime.card_backs)
    return {b.id for b in content.card_backs if b.unlock is None or b.id in earned}


def check_card_back(player: Player, back_id: str) -> None:
    """Refuse (422) a card back that does not exist or that the player has not unlocked."""
    content = trail_content()
    if back_id not in {b.id for b in content.card_backs}:
        raise ApiError(
            422, "unknown_card_back", f"there is no card back {back_id!r}", card_back=back_id
        )
    if back_id not in unlocked_card_backs(content, lifetime_of(player)):
        raise ApiError(
            422,
            "card_back_locked",
            f"the card back {back_id!r} is not unlocked yet",
            card_back=back_id,
        )


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


async def create_trail_match(
    matches: MatchService, me: Player, request: TrailMatchRequest
) -> MatchCreated:
    """Start a match at a table (its opponents) or a gunfight (the poster's terms)."""
    content = trail_content()
    entry, game, opponents, terms = _opponents_and_terms(content, progress_of(me), request)
    # The table's terms win over anything the client sends for them.
    options = {**request.options, **terms}
    live = await matches.create(me, game, opponents, options, table_id=table_id_of(entry))
    return {"match_id": live.id, "view": seat_view(live, 0)}


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
    content = trail_content()
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
            progress_of(player),
            lifetime_of(player),
            entry,
            facts_from_events(events, info.seat, result),
            player=player.name or "A stranger",
            match_id=live.id,
        )
        save_records(player, update.progress, update.lifetime)
