"""Authoritative matches: create, view, act, forfeit, and bots taking their turns.

A match's truth is its log in the database; in memory each live match keeps the
state its log replays to. An action is applied to a copy, appended to the log
together with the bumped version in one transaction, and only then becomes the
cached state and the answer. A restart replays the logs and carries on exactly.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, insert, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from deadwood_knock.bots import resolve_bot_name
from deadwood_knock.games import get_game
from deadwood_knock.games.base import Event, Game, GameError, GameRecord, JSONDict, replay
from deadwood_knock.persistence import (
    Database,
    Match,
    MatchAction,
    MatchLease,
    MatchSeat,
    Player,
)
from deadwood_knock.server.errors import ApiError, conflict, invalid, not_found
from deadwood_knock.server.hub import Hub
from deadwood_knock.server.ratelimit import MemoryRateLimiter, RateLimiter
from deadwood_knock.server.settings import Settings
from deadwood_knock.server.workers import FairScheduler

log = logging.getLogger("deadwood_knock.server.matches")

ACTIVE = "active"
FINISHED = "finished"
#: Live matches kept in memory; finished ones beyond it are dropped (reloaded on demand).
MAX_LIVE = 2000
#: Hints remembered per (match, seat, version), so a repeated request costs no search.
HINT_CACHE = 256
#: Seconds a bot-driving lease lasts unless renewed (renewed every third of it): after a
#: process dies, another takes its matches over within about this long.
LEASE_SECONDS = 3.0
#: What a match id can look like (ours are 32 hex digits).
_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    player_id: str | None
    bot: str | None
    name: str

    def to_json(self) -> JSONDict:
        out: JSONDict = {"seat": self.seat, "name": self.name}
        out["kind"] = "bot" if self.bot else "human"
        if self.bot:
            out["bot"] = self.bot
        return out


@dataclass(eq=False)
class LiveMatch:
    """A match in memory. Mutated only while holding ``lock``."""

    id: str
    game_name: str
    game: Game[Any, Any]
    options: JSONDict
    seed: int
    seats: tuple[SeatInfo, ...]
    state: Any
    version: int
    status: str
    result: JSONDict | None
    table_id: str | None
    actions: list[JSONDict]
    recent: deque[tuple[int, Event]]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    #: A newer version another process announced: catch up before the next use.
    behind: int = 0
    #: client_action_id -> version, so a repeated post is recognised without a query.
    client_ids: dict[str, int] = field(default_factory=dict)
    #: (version, seat) -> the seat's observation JSON: the answer, the socket's view and
    #: a hint at one version share one observation.
    observed: dict[tuple[int, int], Any] = field(default_factory=dict)

    @property
    def owner(self) -> str:
        """Whom this match's bot moves are for (fair scheduling): its first person."""
        for info in self.seats:
            if info.player_id is not None:
                return info.player_id
        return "match:" + self.id

    def observation(self, seat: int) -> Any:
        key = (self.version, seat)
        found = self.observed.get(key)
        if found is None:
            if self.observed and next(iter(self.observed))[0] != self.version:
                self.observed.clear()
            found = self.observed[key] = _json_of(self.game.observe(self.state, seat))
        return found

    def seat_of(self, player_id: str) -> int | None:
        for info in self.seats:
            if info.player_id == player_id:
                return info.seat
        return None

    def record_json(self) -> JSONDict:
        # Holds the seed: for the bot worker only, never for a response or a log.
        return {
            "game": self.game_name,
            "options": self.options,
            "seed": self.seed,
            "actions": list(self.actions),
        }


def _json_of(value: Any) -> Any:
    return value.to_json() if hasattr(value, "to_json") else value


#: Called when a match finishes, inside the transaction that finishes it, with the
#: match, its result and its whole action log (the trail records results this way).
FinishHook = Callable[[AsyncSession, "LiveMatch", JSONDict, list[JSONDict]], Awaitable[None]]


class MatchService:
    def __init__(
        self,
        db: Database,
        settings: Settings,
        scheduler: FairScheduler,
        hub: Hub,
        limiter: RateLimiter | None = None,
    ) -> None:
        self.limiter = limiter or MemoryRateLimiter()
        self.db = db
        self.settings = settings
        self.scheduler = scheduler
        #: Several processes share the database (Redis configured): leases and catch-up.
        self.multi = settings.redis_url is not None
        self.process_id = secrets.token_hex(16)
        self._leases: set[str] = set()
        self._keeper: asyncio.Task[None] | None = None
        self.hub = hub
        self.live: dict[str, LiveMatch] = {}
        self.finish_hooks: list[FinishHook] = []
        self._load_lock = asyncio.Lock()
        self._closing = False
        self._hints: OrderedDict[tuple[str, int, int], asyncio.Future[JSONDict]] = OrderedDict()

    # ----- creating and loading -------------------------------------------------------

    def game(self, name: str) -> Game[Any, Any]:
        try:
            return get_game(name)
        except GameError as exc:
            raise invalid("unknown_game", str(exc)) from None

    async def create(
        self,
        player: Player,
        game_name: str,
        opponents: list[str],
        options: Mapping[str, Any],
        table_id: str | None = None,
    ) -> LiveMatch:
        game = self.game(game_name)
        active = await self._active_count(player.id)
        if active >= self.settings.max_active_matches:
            raise ApiError(
                429,
                "too_many_matches",
                f"you have {active} matches in play (at most "
                f"{self.settings.max_active_matches}); finish or forfeit one first",
            )
        await self._check_quota(
            f"create:{player.id}", self.settings.match_create_limit, "new matches"
        )
        try:
            # Names are case-insensitive and a character may drop "figure:": store the
            # registered spelling, which is what the clients read.
            opponents = [resolve_bot_name(bot_name) for bot_name in opponents]
        except GameError as exc:
            raise invalid("unknown_bot", str(exc)) from None
        players = 1 + len(opponents)
        if not game.min_players <= players <= game.max_players:
            raise invalid(
                "bad_player_count",
                f"{game_name} takes {game.min_players}-{game.max_players} players "
                f"(you and {game.min_players - 1}-{game.max_players - 1} opponents); got {players}",
            )
        merged = dict(options)
        merged.setdefault("players", players)
        if merged["players"] != players:
            raise invalid(
                "bad_options", f"options.players is {merged['players']} but {players} are seated"
            )
        if "sleight_of_hand" not in options and game_name == "deadwood-knock":
            # The table option comes from the profile unless the request sets it.
            merged["sleight_of_hand"] = player.sleight_of_hand
        try:
            parsed = game.options_from_json(merged)
            canonical = dict(_json_of(parsed)) if hasattr(parsed, "to_json") else merged
            seed = secrets.randbits(63)
            state = game.new_game(parsed, seed)
        except (GameError, TypeError, ValueError, KeyError) as exc:
            raise invalid("bad_options", f"invalid options: {exc}") from None
        seats = (
            SeatInfo(0, player.id, None, player.name or "Player"),
            *(SeatInfo(i, None, bot, bot) for i, bot in enumerate(opponents, 1)),
        )
        match_id = secrets.token_hex(16)
        async with self.db.sessions() as session, session.begin():
            session.add(
                Match(
                    id=match_id,
                    game=game_name,
                    options=canonical,
                    seed=seed,
                    status=ACTIVE,
                    version=0,
                    table_id=table_id,
                )
            )
            await session.flush()
            for info in seats:
                session.add(
                    MatchSeat(
                        match_id=match_id, seat=info.seat, player_id=info.player_id, bot=info.bot
                    )
                )
        live = LiveMatch(
            id=match_id,
            game_name=game_name,
            game=game,
            options=canonical,
            seed=seed,
            seats=seats,
            state=state,
            version=0,
            status=ACTIVE,
            result=None,
            table_id=table_id,
            actions=[],
            recent=deque(maxlen=self.settings.recent_events),
        )
        self._remember(live)
        self.kick(live)
        return live

    async def _check_quota(self, key: str, limit: tuple[int, int], what: str) -> None:
        retry = await self.limiter.hit(key, limit[0], limit[1])
        if retry is not None:
            error = ApiError(
                429,
                "quota_exceeded",
                f"too many {what} (at most {limit[0]} in {limit[1]} s); try again in {retry} s",
            )
            error.headers["Retry-After"] = str(retry)
            raise error

    async def _active_count(self, player_id: str) -> int:
        async with self.db.sessions() as session:
            count = await session.scalar(
                select(func.count())
                .select_from(Match)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .where(MatchSeat.player_id == player_id, Match.status == ACTIVE)
            )
        return int(count or 0)

    async def get(self, match_id: str) -> LiveMatch | None:
        live = self.live.get(match_id)
        if live is not None:
            return live
        async with self._load_lock:
            live = self.live.get(match_id)
            if live is None:
                live = await self._load(match_id)
                if live is not None:
                    self._remember(live)
                    self.kick(live)
            return live

    def _remember(self, live: LiveMatch) -> None:
        """Cache a live match; past the cap, forget idle finished ones (oldest first)."""
        self.live[live.id] = live
        if len(self.live) <= MAX_LIVE:
            return
        for match_id, cached in list(self.live.items()):
            idle = cached.bot_task is None or cached.bot_task.done()
            idle = idle and not cached.lock.locked() and not self.hub.watching(match_id)
            if cached.status == FINISHED and idle:
                del self.live[match_id]
            if len(self.live) <= MAX_LIVE // 2:
                break

    async def get_for(self, player: Player, match_id: str) -> tuple[LiveMatch, int]:
        """The match and the player's seat; a match without the player is "not found"."""
        if not _MATCH_ID.fullmatch(match_id):
            raise not_found()  # never a query with a NUL or worse (PostgreSQL refuses NUL)
        live = await self.get(match_id)
        seat = None if live is None else live.seat_of(player.id)
        if live is None or seat is None:
            raise not_found()
        await self._fresh(live)
        self.kick(live)  # resumes bots paused by the streak cap (a no-op when they run)
        return live, seat

    async def _load(self, match_id: str) -> LiveMatch | None:
        async with self.db.sessions() as session:
            row = await session.get(Match, match_id)
            if row is None:
                return None
            seat_rows = (
                await session.execute(
                    select(MatchSeat, Player.name)
                    .outerjoin(Player, Player.id == MatchSeat.player_id)
                    .where(MatchSeat.match_id == match_id)
                    .order_by(MatchSeat.seat)
                )
            ).all()
            action_rows = (
                (
                    await session.execute(
                        select(MatchAction)
                        # Up to the version read with the row: another process may log
                        # more meanwhile (the copy catches up on its next use).
                        .where(MatchAction.match_id == match_id, MatchAction.version <= row.version)
                        .order_by(MatchAction.version)
                    )
                )
                .scalars()
                .all()
            )
        game = get_game(row.game)
        recent: deque[tuple[int, Event]] = deque(maxlen=self.settings.recent_events)
        actions: list[JSONDict] = []
        client_ids: dict[str, int] = {}
        for number, action_row in enumerate(action_rows, 1):
            if action_row.version != number:
                raise RuntimeError(f"match {match_id}: log has a gap at version {number}")
            actions.append(dict(action_row.action))
            if action_row.client_action_id is not None:
                client_ids[action_row.client_action_id] = number
        state = replay(
            game,
            GameRecord(row.game, row.options, row.seed, tuple(actions)),
            lambda number, _action, events: recent.extend((number, e) for e in events),
        )
        if row.version != len(actions):
            raise RuntimeError(
                f"match {match_id}: version {row.version} but {len(actions)} actions"
            )
        seats = tuple(
            SeatInfo(s.seat, s.player_id, s.bot, s.bot or name or "Player") for s, name in seat_rows
        )
        if row.result and row.result.get("reason") == "forfeit":
            # A forfeit is not an engine action; its event is rebuilt from the result.
            recent.append((row.version, Event("forfeit", row.result.get("forfeited_by"))))
        return LiveMatch(
            id=row.id,
            game_name=row.game,
            game=game,
            options=dict(row.options),
            seed=row.seed,
            seats=seats,
            state=state,
            version=row.version,
            status=row.status,
            result=row.result,
            table_id=row.table_id,
            actions=actions,
            recent=recent,
            client_ids=client_ids,
        )

    async def resume_all(self) -> int:
        """After a start: load every active match and let bots whose turn it is carry on."""
        async with self.db.sessions() as session:
            ids = (await session.execute(select(Match.id).where(Match.status == ACTIVE))).scalars()
            match_ids = list(ids)
        for match_id in match_ids:
            try:
                await self.get(match_id)
            except Exception:
                log.exception("could not resume match %s", match_id)
        return len(match_ids)

    async def list_for(self, player: Player) -> list[JSONDict]:
        async with self.db.sessions() as session:
            rows = (
                await session.execute(
                    select(Match.id, Match.game, Match.status, Match.version, MatchSeat.seat)
                    .join(MatchSeat, MatchSeat.match_id == Match.id)
                    .where(MatchSeat.player_id == player.id)
                    .order_by(Match.status, Match.updated_at.desc())
                    .limit(200)
                )
            ).all()
        return [
            {
                "match_id": r.id,
                "game": r.game,
                "status": r.status,
                "version": r.version,
                "seat": r.seat,
            }
            for r in rows
        ]

    # ----- views ---------------------------------------------------------------------

    def view(self, live: LiveMatch, seat: int) -> JSONDict:
        """Everything ``seat`` may see: its observation, never another seat's hidden cards."""
        game, state = live.game, live.state
        observation = live.observation(seat)
        to_act = game.to_act(state) if live.status == ACTIVE else None
        legal = (
            [a.to_json() for a in game.legal_actions(state)]
            if live.status == ACTIVE and to_act == seat
            else []
        )
        obs: Mapping[str, Any] = observation if isinstance(observation, Mapping) else {}
        round_no, rounds = obs.get("round"), obs.get("rounds")
        if round_no is None:
            label = None
        elif rounds:
            label = f"round {round_no} of {rounds}"
        else:
            label = f"round {round_no}"
        return {
            "match_id": live.id,
            "game": live.game_name,
            "status": live.status,
            "version": live.version,
            "seat": seat,
            "players": [s.to_json() for s in live.seats],
            "to_act": to_act,
            "your_turn": bool(legal),
            "legal_actions": legal,
            "scores": list(game.scores(state)),
            "round": round_no,
            "rounds": rounds,
            "round_label": label,
            "final_turn": bool(obs.get("final_turn", False)),
            "observation": observation,
            "recent_events": [
                {"version": v, **e.to_json()} for v, e in live.recent if e.visible_to(seat)
            ],
            "result": live.result,
            "table_id": live.table_id,
        }

    # ----- Hand Focus hints ------------------------------------------------------------

    async def hint(self, live: LiveMatch, seat: int) -> JSONDict:
        """The strong bot's ranked actions for ``seat``, searched in the bot pool from the
        seat's observation alone. Off the seat's turn the hint is ``None`` (an answer, not an
        error: a client's request can race the bots' moves); a finished match is a 409."""
        if live.status != ACTIVE:
            raise conflict("match_finished", "the match is over")
        key = (live.id, seat, live.version)
        if live.game.to_act(live.state) != seat:
            return {
                "match_id": live.id,
                "seat": seat,
                "version": key[2],
                "your_turn": False,
                "hint": None,
            }
        pending = self._hints.get(key)
        if pending is None:
            await self._check_quota(
                f"hint:{seat_owner(live, seat)}", self.settings.hint_limit, "hints"
            )
            # One search per position: concurrent and repeated requests share it.
            observation = live.observation(seat)
            pending = asyncio.ensure_future(
                self._search_hint(seat_owner(live, seat), live.game_name, observation)
            )
            self._hints[key] = pending
            while len(self._hints) > HINT_CACHE:
                self._hints.popitem(last=False)
        try:
            found = await asyncio.shield(pending)
        except ApiError:
            self._hints.pop(key, None)
            raise
        return {
            "match_id": live.id,
            "seat": seat,
            "version": key[2],
            "your_turn": True,
            "hint": found,
        }

    async def _search_hint(self, owner: str, game_name: str, observation: JSONDict) -> JSONDict:
        try:
            found: JSONDict = await self.scheduler.run(
                owner,
                "hint",
                game_name,
                observation,
                self.settings.hint_seconds,
                secrets.randbits(64),
            )
            return found
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # The message could name cards; the type is enough to investigate.
            log.error("hint failed for %s: %s", game_name, type(exc).__name__)
            raise ApiError(503, "hint_unavailable", "no hint for this position") from None

    # ----- acting --------------------------------------------------------------------

    async def act(
        self,
        live: LiveMatch,
        seat: int,
        action_json: Any,
        client_action_id: str | None = None,
        expected_version: int | None = None,
    ) -> JSONDict:
        """Apply one of the seat's legal actions; the answer is the seat's new view."""
        async with live.lock:
            if self.multi and (
                live.behind > live.version
                or (expected_version is not None and expected_version > live.version)
            ):
                await self._catch_up(live)
            if client_action_id is not None and client_action_id in live.client_ids:
                return self.view(live, seat)  # the same post again: applied once already
            if live.status != ACTIVE:
                raise conflict("match_finished", "the match is over")
            if expected_version is not None and expected_version != live.version:
                raise conflict(
                    "version_conflict",
                    f"the match is at version {live.version}, not {expected_version}; reload",
                    version=live.version,
                )
            if live.game.to_act(live.state) != seat:
                raise conflict("not_your_turn", "it is not your turn")
            if not isinstance(action_json, Mapping):
                raise invalid("bad_action", "action must be a JSON object")
            try:
                action = live.game.action_from_json(action_json)
            except (GameError, TypeError, ValueError, KeyError) as exc:
                raise invalid("bad_action", f"not an action: {exc}") from None
            # The engine's own reason (it names only the player's own cards and the phase).
            reason = live.game.reason(live.state, action)
            if reason is not None:
                raise invalid("illegal_action", f"{reason}; choose one of legal_actions")
            new_events = await self._append(live, seat, action, client_action_id)
        self._published(live, new_events)
        self.kick(live)
        return self.view(live, seat)

    async def _append(
        self, live: LiveMatch, seat: int, action: Any, client_action_id: str | None
    ) -> list[tuple[int, Event]]:
        """Log the action durably, then make its result the live state. Caller holds the lock."""
        new_state, events = live.game.apply(live.state, action)
        version = live.version + 1
        over = live.game.is_over(new_state)
        result = self._result(live, new_state) if over else None
        action_json = action.to_json()
        try:
            if result is None and not self.db.is_sqlite:
                # The common case in one statement and one round trip: bump the version
                # only if it is still ours, and log the action only if it was bumped.
                logged = await self._append_one_trip(
                    live, version, seat, action_json, client_action_id
                )
            else:
                logged = await self._append_in_transaction(
                    live, version, seat, action_json, client_action_id, over, result
                )
            if not logged:
                raise _StaleMatch
        except (IntegrityError, _StaleMatch):
            # Another writer (another process) got there first: our copy is stale.
            if self.multi:
                await self._catch_up(live)
            else:
                self.live.pop(live.id, None)
            raise conflict(
                "version_conflict", "the match changed meanwhile; reload and try again"
            ) from None
        live.state = new_state
        live.version = version
        live.actions.append(action_json)
        if client_action_id is not None:
            live.client_ids[client_action_id] = version
        if over:
            live.status, live.result = FINISHED, result
        tagged = [(version, e) for e in events]
        live.recent.extend(tagged)
        return tagged

    async def _append_one_trip(
        self,
        live: LiveMatch,
        version: int,
        seat: int,
        action_json: JSONDict,
        client_action_id: str | None,
    ) -> bool:
        """PostgreSQL: the version bump and the log row in one statement, committed alone."""
        bumped = (
            update(Match)
            .where(Match.id == live.id, Match.version == live.version)
            .values(version=version, updated_at=func.now())
            .returning(Match.id)
            .cte("bumped")
        )
        row = select(
            bumped.c.id,
            literal(version),
            literal(seat),
            literal(action_json, type_=MatchAction.__table__.c.action.type),
            literal(client_action_id, type_=MatchAction.__table__.c.client_action_id.type),
        )
        statement = (
            insert(MatchAction)
            .from_select(["match_id", "version", "seat", "action", "client_action_id"], row)
            .returning(MatchAction.version)
        )
        async with self.db.engine.connect() as conn:
            autocommit = await conn.execution_options(isolation_level="AUTOCOMMIT")
            logged = (await autocommit.execute(statement)).first()
        return logged is not None

    async def _append_in_transaction(
        self,
        live: LiveMatch,
        version: int,
        seat: int,
        action_json: JSONDict,
        client_action_id: str | None,
        over: bool,
        result: JSONDict | None,
    ) -> bool:
        async with self.db.sessions() as session, session.begin():
            session.add(
                MatchAction(
                    match_id=live.id,
                    version=version,
                    seat=seat,
                    action=action_json,
                    client_action_id=client_action_id,
                )
            )
            changed = await session.execute(
                update(Match)
                .where(Match.id == live.id, Match.version == live.version)
                .values(
                    version=version,
                    status=FINISHED if over else ACTIVE,
                    result=result,
                    updated_at=func.now(),
                )
            )
            if getattr(changed, "rowcount", 1) != 1:
                return False
            if result is not None:
                await self._record_stats(session, live, result)
                for hook in self.finish_hooks:
                    await hook(session, live, result, [*live.actions, action_json])
        return True

    def _result(self, live: LiveMatch, state: Any) -> JSONDict:
        scores = list(live.game.scores(state))
        best = max(scores)
        return {
            "reason": "completed",
            "scores": scores,
            "winners": [seat for seat, score in enumerate(scores) if score == best],
        }

    async def _record_stats(self, session: AsyncSession, live: LiveMatch, result: JSONDict) -> None:
        winners = set(result.get("winners", ()))
        forfeited = result.get("forfeited_by")
        scores = result.get("scores") or []
        for info in live.seats:
            if info.player_id is None:
                continue
            player = await session.get(Player, info.player_id)
            if player is None:
                continue
            stats = dict(player.stats or {})
            by_game = dict(stats.get("by_game", {}))
            per = dict(by_game.get(live.game_name, {}))
            if info.seat == forfeited:
                outcome = "losses"
                stats["forfeits"] = stats.get("forfeits", 0) + 1
            elif info.seat in winners:
                outcome = "wins" if len(winners) == 1 else "shared_wins"
            elif forfeited is not None:
                outcome = "abandoned"
            else:
                outcome = "losses"
            for bucket in (stats, per):
                bucket["matches"] = bucket.get("matches", 0) + 1
                bucket[outcome] = bucket.get(outcome, 0) + 1
            if info.seat < len(scores) and forfeited is None:
                stats["points"] = stats.get("points", 0) + int(scores[info.seat])
                per["points"] = per.get("points", 0) + int(scores[info.seat])
            by_game[live.game_name] = per
            stats["by_game"] = by_game
            player.stats = stats

    async def forfeit(self, live: LiveMatch, seat: int) -> JSONDict:
        """The seat gives up: the match ends and counts as that player's loss."""
        async with live.lock:
            if live.status != ACTIVE:
                raise conflict("match_finished", "the match is over")
            result: JSONDict = {
                "reason": "forfeit",
                "forfeited_by": seat,
                "scores": list(live.game.scores(live.state)),
                "winners": [],
            }
            async with self.db.sessions() as session, session.begin():
                changed = await session.execute(
                    update(Match)
                    .where(Match.id == live.id, Match.version == live.version)
                    .values(status=FINISHED, result=result, updated_at=func.now())
                )
                if getattr(changed, "rowcount", 1) != 1:
                    self.live.pop(live.id, None)
                    raise conflict("version_conflict", "the match changed meanwhile; reload")
                await self._record_stats(session, live, result)
                for hook in self.finish_hooks:
                    await hook(session, live, result, list(live.actions))
            live.status, live.result = FINISHED, result
            event = (live.version, Event("forfeit", seat))
            live.recent.append(event)
        self._published(live, [event])
        return self.view(live, seat)

    def _published(self, live: LiveMatch, events: list[tuple[int, Event]]) -> None:
        """Each watcher gets the events its seat may see, then its seat's new view. With
        other processes, every person's seat is sent (a watcher may be on any of them)."""
        if self.hub.bridge is not None:
            seats = {info.seat for info in live.seats if info.player_id is not None}
        else:
            seats = self.hub.watched_seats(live.id)
        per_seat: dict[int, list[JSONDict]] = {}
        for seat in seats:
            messages: list[JSONDict] = [
                {"type": "event", "version": version, "event": event.to_json()}
                for version, event in events
                if event.visible_to(seat)
            ]
            messages.append({"type": "view", "view": self.view(live, seat)})
            per_seat[seat] = messages
        if per_seat:
            self.hub.publish(live.id, per_seat, live.version)

    # ----- several processes: catching up and bot-driving leases --------------------------

    def remote_update(self, match_id: str, version: int) -> None:
        """Another process moved this match on: our copy catches up before its next use."""
        live = self.live.get(match_id)
        if live is not None and version > live.behind:
            live.behind = version

    async def _catch_up(self, live: LiveMatch) -> None:
        """Apply the actions other processes logged since our copy. Caller holds the lock."""
        async with self.db.sessions() as session:
            row = await session.get(Match, live.id)
            if row is None:
                return
            if row.version == live.version and row.status == live.status:
                return
            action_rows = (
                (
                    await session.execute(
                        select(MatchAction)
                        .where(MatchAction.match_id == live.id, MatchAction.version > live.version)
                        .order_by(MatchAction.version)
                    )
                )
                .scalars()
                .all()
            )
        logged: list[JSONDict] = []
        for action_row in action_rows:
            if action_row.version != live.version + len(logged) + 1:
                raise RuntimeError(f"match {live.id}: log has a gap at {live.version + 1}")
            logged.append(dict(action_row.action))
            if action_row.client_action_id is not None:
                live.client_ids[action_row.client_action_id] = action_row.version
        base = live.version

        def step(number: int, _action: Any, events: tuple[Event, ...]) -> None:
            live.recent.extend((base + number, e) for e in events)

        rest = GameRecord(live.game_name, live.options, live.seed, tuple(logged))
        live.state = replay(live.game, rest, step, start=live.state)
        live.version = base + len(logged)
        live.actions.extend(logged)
        if row.status != live.status:
            live.status, live.result = row.status, row.result
            if row.result and row.result.get("reason") == "forfeit":
                live.recent.append((row.version, Event("forfeit", row.result.get("forfeited_by"))))

    async def _fresh(self, live: LiveMatch) -> None:
        if self.multi and live.behind > live.version:
            async with live.lock:
                await self._catch_up(live)

    async def _acquire(self, match_id: str) -> bool:
        """Take (or keep) the lease to drive this match's bots; False if another holds it."""
        now = time.time()
        if self.db.is_sqlite:
            from sqlalchemy.dialects.sqlite import insert
        else:
            from sqlalchemy.dialects.postgresql import insert  # type: ignore[assignment]
        lease = MatchLease.__table__
        upsert = insert(MatchLease).values(
            match_id=match_id, holder=self.process_id, expires_at=now + LEASE_SECONDS
        )
        statement = upsert.on_conflict_do_update(
            index_elements=[lease.c.match_id],
            set_={"holder": self.process_id, "expires_at": now + LEASE_SECONDS},
            where=(lease.c.expires_at < now) | (lease.c.holder == self.process_id),
        ).returning(lease.c.holder)
        async with self.db.sessions() as session, session.begin():
            holder = await session.scalar(statement)
        if holder == self.process_id:
            self._leases.add(match_id)
            return True
        return False

    async def _release(self, match_id: str) -> None:
        self._leases.discard(match_id)
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                delete(MatchLease).where(
                    MatchLease.match_id == match_id, MatchLease.holder == self.process_id
                )
            )

    async def _lease_keeper(self) -> None:
        """Renew our leases; take over the matches whose holder stopped renewing (died)."""
        while not self._closing:
            await asyncio.sleep(LEASE_SECONDS / 3)
            try:
                now = time.time()
                async with self.db.sessions() as session, session.begin():
                    if self._leases:
                        await session.execute(
                            update(MatchLease)
                            .where(MatchLease.holder == self.process_id)
                            .values(expires_at=now + LEASE_SECONDS)
                        )
                    orphans = list(
                        (
                            await session.execute(
                                select(MatchLease.match_id)
                                .where(MatchLease.expires_at < now)
                                .limit(100)
                            )
                        ).scalars()
                    )
                for match_id in orphans:
                    live = await self.get(match_id)
                    if live is not None:
                        live.behind = max(live.behind, live.version + 1)  # check the log
                        self.kick(live)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("bot leases: %s", type(exc).__name__)

    # ----- bots ----------------------------------------------------------------------

    def _bot_to_act(self, live: LiveMatch) -> SeatInfo | None:
        if live.status != ACTIVE or self._closing:
            return None
        seat = live.game.to_act(live.state)
        if seat is None or seat >= len(live.seats):
            return None
        info = live.seats[seat]
        return info if info.bot else None

    def kick(self, live: LiveMatch) -> None:
        """Start the bots of this match if one of them is to act and none is running."""
        if live.bot_task is not None and not live.bot_task.done():
            return
        if self._bot_to_act(live) is None:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveMatch) -> None:
        streak = 0  # bot actions since this drive began, i.e. since a person last acted
        try:
            if self.multi:
                # One process drives a match's bots at a time. The holder may be finishing
                # its last move; a moment later the lease is free (or it is still driving).
                for _ in range(20):
                    async with live.lock:
                        await self._catch_up(live)
                    if self._bot_to_act(live) is None:
                        return
                    if await self._acquire(live.id):
                        break
                    await asyncio.sleep(0.1)
                else:
                    return
                async with live.lock:
                    await self._catch_up(live)
            while self.live.get(live.id) is live:
                info = self._bot_to_act(live)
                if info is None or info.bot is None:
                    return
                if streak >= self.settings.max_bot_streak:
                    # Safety net: bots alone must not churn a match (and a worker) forever.
                    # The match stays active; the next person's request or a restart resumes it.
                    log.warning("bots paused in match %s after %d moves in a row", live.id, streak)
                    return
                version = live.version
                started = time.monotonic()
                action_json = await self._decide(live, info)
                pace = self.settings.bot_pacing
                if pace > 0:
                    # Pacing only, not security: a person-like pause before the move shows.
                    wait = pace * random.uniform(0.6, 1.4) - (time.monotonic() - started)
                    if wait > 0:
                        await asyncio.sleep(wait)
                async with live.lock:
                    if live.version != version or self._bot_to_act(live) != info:
                        continue  # the match moved on (a forfeit, another writer): decide again
                    action = live.game.action_from_json(action_json)
                    events = await self._append(live, info.seat, action, None)
                streak += 1
                if self.multi and self._bot_to_act(live) is None:
                    # Free before anyone sees the move: the person's answer may reach
                    # another process, whose bots must then be free to drive.
                    await self._release(live.id)
                self._published(live, events)
        except asyncio.CancelledError:
            raise
        except ApiError as exc:
            log.warning("bot stopped in match %s: %s", live.id, exc.code)
        except Exception as exc:
            # The message could name cards; the type is enough to investigate.
            log.error("bot failed in match %s: %s", live.id, type(exc).__name__)
        finally:
            if live.id in self._leases and not self._closing:
                with contextlib.suppress(Exception):
                    await self._release(live.id)

    async def _decide(self, live: LiveMatch, info: SeatInfo) -> JSONDict:
        """The bot's choice from the worker pool; a random legal action if that fails, so a
        broken bot or pool never stalls a match."""
        try:
            chosen: JSONDict = await self.scheduler.run(
                live.owner,
                "decide",
                live.id,
                live.record_json(),
                info.seat,
                info.bot or "random",
                secrets.randbits(64),
                self.settings.bot_seconds,
            )
            return chosen
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            # The message could name cards; the type is enough to investigate.
            log.error("bot %s failed in match %s: %s", info.bot, live.id, type(exc).__name__)
            legal = live.game.legal_actions(live.state)
            fallback: JSONDict = legal[secrets.randbelow(len(legal))].to_json()
            return fallback

    def start(self) -> None:
        if self.multi:
            self._keeper = asyncio.get_running_loop().create_task(self._lease_keeper())

    async def close(self) -> None:
        self._closing = True
        if self._keeper is not None:
            self._keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._keeper
        tasks = [m.bot_task for m in self.live.values() if m.bot_task and not m.bot_task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def seat_owner(live: LiveMatch, seat: int) -> str:
    """Whom a hint for ``seat`` is for (fair scheduling)."""
    info = live.seats[seat] if seat < len(live.seats) else None
    return info.player_id if info is not None and info.player_id else live.owner


class _StaleMatch(Exception):
    pass
