"""The player's own matches: unfinished ones to continue, finished ones to replay, and
the art and content the client keeps for an offline start.

Nothing here sends hidden information of an unfinished match: ``/continue`` gives
names and the round only, and a replay or a record exists only for a finished match.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from deadwood_knock.bots.base import FIGURE_PREFIX
from deadwood_knock.content import load_content
from deadwood_knock.content.loader import CONTENT_DIR, Content
from deadwood_knock.games import game_names, get_game
from deadwood_knock.games.base import GameError, GameRecord, JSONDict
from deadwood_knock.games.points import figure_text
from deadwood_knock.replays import replay_steps
from deadwood_knock.server.deps import Me, Svc
from deadwood_knock.server.errors import ApiError, conflict
from deadwood_knock.server.live import ACTIVE, LiveMatch
from deadwood_knock.server.views import seat_view
from deadwood_knock.trail.progress import entry_of, gunfight_aim
from deadwood_knock.trail.views import place_at

__all__ = ["router"]

router = APIRouter(prefix="/api", tags=["records"])


def game_title(name: str) -> str:
    """A game's title as the engine names it (the name itself if it is not registered)."""
    return get_game(name).title if name in game_names() else name


def _content() -> Content:
    return load_content()


def seat_name(content: Content, name: str, bot: str | None) -> str:
    """A seat as a player reads it: a character's name, never its bot id; a bot seat the
    table names otherwise (a gunfight's outlaw: ``bot_seat_name``) by that name."""
    if bot and bot.startswith(FIGURE_PREFIX):
        figure = content.figure_by_id.get(bot[len(FIGURE_PREFIX) :])
        if figure is not None:
            return figure.name
    if bot and name and name != bot:
        return name
    if bot:
        # As the web writes a bot's id ("high_roller" → "High Roller"; it read "High_Roller").
        return bot.replace("-", " ").replace("_", " ").title()
    return name


def where(content: Content, live: LiveMatch, seat: int) -> JSONDict:
    """Where and against whom a match is played, in names. ``place`` follows the game's
    title ("Gin against Bat Masterson", "Deadwood Knock at the Vaudeville Theater"): it
    never names the game itself."""
    entry = entry_of(content, live.table_id)
    others = [seat_name(content, s.name, s.bot) for s in live.seats if s.seat != seat]
    against = " and ".join([", ".join(others[:-1]), others[-1]] if len(others) > 1 else others)
    game = game_title(live.game_name)
    if entry is not None and entry.kind == "table":
        venue = content.venue_by_id[entry.id]
        town = content.town_by_id[venue.town]
        return {
            "kind": "table",
            "title": venue.name,
            "place": place_at(venue.name),
            "town": town.name,
            "town_id": town.id,
            "against": against,
            "game_title": game,
            "score_to_beat": None,
            "aim": None,
        }
    if entry is not None:
        poster = content.wanted_by_id[entry.id]
        town = content.town_by_id[poster.town]
        return {
            "kind": "gunfight",
            "title": poster.outlaw,
            "place": f"against {poster.outlaw}",
            "town": town.name,
            "town_id": town.id,
            "against": against,
            "game_title": game,
            "score_to_beat": poster.gunfight.score_to_beat,
            "aim": gunfight_aim(poster),
        }
    return {
        "kind": "quick",
        "title": game,
        "place": f"against {against}",
        "town": None,
        "town_id": None,
        "against": against,
        "game_title": game,
        "score_to_beat": None,
        "aim": None,
    }


@router.get("/matches/{match_id}/where")
async def match_where(svc: Svc, me: Me, match_id: str) -> dict[str, Any]:
    """Where a match of the player's is played and for what, in names: the table's venue and
    town, or the wanted outlaw, the poster's score to beat and the gunfight's aim in words
    (the table's heading: "outscore Sam Bass and reach 40")."""
    live, seat = await svc.matches.get_for(me, match_id)
    return where(_content(), live, seat)


@router.get("/continue")
async def unfinished(svc: Svc, me: Me) -> dict[str, Any]:
    """Every unfinished match of the player, newest first, with where and which round:
    ``text`` reads "Continue at the Vaudeville Theater, round 4 of 10", ``standing`` the
    scores so far in seat order ("You 88 · Jack Harris 40 · King Fisher −12")."""
    content = _content()
    out = []
    for row in await svc.matches.list_for(me):
        if row["status"] != ACTIVE:
            continue
        live = await svc.matches.get(row["match_id"])
        if live is None or live.status != ACTIVE:
            continue
        seat = row["seat"]
        view = seat_view(live, seat)
        place = where(content, live, seat)
        label = view.get("round_label")
        text = f"Continue {place['place']}" + (f", {label}" if label else "")
        # The scores so far, so two matches against the same characters read apart.
        standing = " · ".join(
            f"{'You' if s.seat == seat else seat_name(content, s.name, s.bot)} {figure_text(score)}"
            for s, score in zip(live.seats, view["scores"], strict=True)
        )
        out.append(
            {
                "match_id": live.id,
                "game": live.game_name,
                "table_id": live.table_id,
                **place,
                "round": view.get("round"),
                "rounds": view.get("rounds"),
                "round_label": label,
                "your_turn": view.get("your_turn", False),
                "text": text,
                "standing": standing,
            }
        )
    return {"matches": out}


async def _finished(svc: Svc, me: Me, match_id: str) -> tuple[LiveMatch, int]:
    live, seat = await svc.matches.get_for(me, match_id)
    if live.status == ACTIVE:
        # The record holds the seed: the whole deal. Never while the match is being played.
        raise conflict("match_unfinished", "a replay opens once the match is over")
    return live, seat


def _outcome(result: JSONDict | None, seat: int) -> str:
    if not result:
        return "unknown"
    if result.get("forfeited_by") == seat:
        return "forfeit"
    winners = result.get("winners") or []
    if seat in winners:
        return "won" if len(winners) == 1 else "shared"
    return "lost"


@router.get("/replays")
async def list_replays(svc: Svc, me: Me) -> dict[str, Any]:
    """The player's finished matches (newest first), each one replayable."""
    content = _content()
    out = []
    for row in await svc.matches.list_for(me):
        if row["status"] == ACTIVE:
            continue
        live = await svc.matches.get(row["match_id"])
        if live is None or live.status == ACTIVE:
            continue
        seat = row["seat"]
        place = where(content, live, seat)
        outcome = _outcome(live.result, seat)
        scores = list((live.result or {}).get("scores") or [])
        out.append(
            {
                "match_id": live.id,
                "game": live.game_name,
                **place,
                "outcome": outcome,
                "scores": scores,
                "actions": len(live.actions),
                "text": f"{place['game_title']} {place['place']}"
                + (f", {place['town']}" if place["town"] else ""),
            }
        )
        if len(out) >= 50:
            break
    return {"replays": out}


def _names(content: Content, live: LiveMatch, seat: int) -> list[str]:
    return ["You" if s.seat == seat else seat_name(content, s.name, s.bot) for s in live.seats]


_UNFINISHED: dict[int | str, dict[str, Any]] = {
    409: {"description": "The match is not over yet (match_unfinished)"}
}


@router.get("/replays/{match_id}", responses=_UNFINISHED)
async def get_replay(svc: Svc, me: Me, match_id: str) -> dict[str, Any]:
    """A finished match step by step: each step as the player's seat saw it, and every
    hand (the client shows those once the replay reaches the end)."""
    live, seat = await _finished(svc, me, match_id)
    content = _content()
    record = GameRecord.from_json(live.record_json())
    replay = replay_steps(record, _names(content, live, seat), seat, live.game)
    return {
        "match_id": live.id,
        **where(content, live, seat),
        "result": live.result,
        **replay,
        # Over on the server (a forfeit ends a match the engine would have played on).
        "over": True,
    }


@router.get("/replays/{match_id}/record", responses=_UNFINISHED)
async def export_record(svc: Svc, me: Me, match_id: str) -> dict[str, Any]:
    """The finished match as ``GameRecord`` JSON (game, options, seed, actions)."""
    live, _seat = await _finished(svc, me, match_id)
    return GameRecord.from_json(live.record_json()).to_json()


#: Actions in an imported record: more than a 10-round match has, and few enough that a
#: list one over the limit still fits the server's body limit (so it is a 422, not a 413).
MAX_IMPORT_ACTIONS = 2000


class RecordBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = Field(ge=0, lt=2**64)
    actions: list[dict[str, Any]] = Field(default_factory=list, max_length=MAX_IMPORT_ACTIONS)


@router.post("/replays/import")
async def import_record(svc: Svc, _me: Me, body: RecordBody) -> dict[str, Any]:
    """Replay a ``GameRecord`` JSON (an exported match): the steps as seat 1 saw them.
    Nothing is stored. A record with an unknown game or an illegal action is a 422."""
    game = svc.matches.game(body.game)
    record = GameRecord(body.game, body.options, body.seed, tuple(body.actions))
    try:
        replay = replay_steps(record, ["You"], 0, game)
    except GameError as exc:
        raise ApiError(422, "bad_record", str(exc)) from None
    title = game_title(body.game)
    return {
        "match_id": None,
        "kind": "imported",
        "title": title,
        "game_title": title,
        "place": "from a file",
        "town": None,
        "result": None,
        **replay,
        "over": replay["finished"],
    }


@router.get("/offline")
async def offline_files() -> dict[str, Any]:
    """What the client caches for an offline start: every piece of content art."""
    art = sorted(
        "/" + str(p.relative_to(CONTENT_DIR)).replace("\\", "/")
        for p in (CONTENT_DIR / "art").rglob("*.svg")
    )
    return {"art": art, "api": ["/api/characters", "/api/likenesses", "/api/games"]}
