"""The match store: live matches cached in memory over their truth, the database log.

A match's truth is its log: a row in ``matches`` (game, options, seed, version, status)
and one ``match_actions`` row per action, keyed by (match, version). In memory each
live match keeps the state its log replays to (:func:`games.base.replay`). An action
is applied to a copy, appended to the log together with the bumped version, and only
then becomes the cached state. With several processes (Redis configured) a copy that
is behind catches up from the log, and a lease says which process drives a match's bots.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from deadwood_knock.content.loader import load_content
from deadwood_knock.games import get_game
from deadwood_knock.games.base import Action, Event, GameRecord, JSONDict, replay
from deadwood_knock.persistence import Database, Match, MatchAction, MatchLease, MatchSeat, Player
from deadwood_knock.server.answers import MatchSummary
from deadwood_knock.server.errors import conflict
from deadwood_knock.server.live import ACTIVE, FINISHED, LiveMatch, SeatInfo
from deadwood_knock.server.settings import Settings
from deadwood_knock.trail.progress import bot_seat_name

log = logging.getLogger("deadwood_knock.server.store")

#: Live matches kept in memory; finished ones beyond it are dropped (reloaded on demand).
MAX_LIVE = 2000
#: Seconds a bot-driving lease lasts unless renewed (renewed every third of it): after a
#: process dies, another takes its matches over within about this long.
LEASE_SECONDS = 3.0

#: Called when a match finishes, inside the transaction that finishes it, with the
#: match, its result and its whole action log (the trail records results this way).
FinishHook = Callable[[AsyncSession, LiveMatch, JSONDict, list[JSONDict]], Awaitable[None]]


#: PostgreSQL's appends, a batch in one statement: bump each match's version only if it is
#: still the one we hold, and log the action only where it was bumped (the primary key
#: (match, version) guards it as well). Returns the ids of the matches whose action was logged.
_APPEND_SQL = """
WITH entry AS (
    SELECT * FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[])
        AS e(match_id, version, seat, action, client_action_id)
), bumped AS (
    UPDATE matches m SET version = e.version, updated_at = now()
    FROM entry e
    WHERE m.id = e.match_id AND m.version = e.version - 1
    RETURNING m.id, e.version
)
INSERT INTO match_actions (match_id, version, seat, action, client_action_id)
SELECT e.match_id, e.version, e.seat, e.action::json, e.client_action_id
FROM entry e JOIN bumped b ON b.id = e.match_id AND b.version = e.version
RETURNING match_id
"""


#: PostgreSQL: take the lease to drive a match's bots if it is free, run out, or ours.
_LEASE_SQL = """
INSERT INTO match_leases (match_id, holder, expires_at) VALUES ($1, $2, $3)
ON CONFLICT (match_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
WHERE match_leases.expires_at < $4 OR match_leases.holder = $2
RETURNING holder
"""


def _json_value(value: Any) -> Any:
    """A JSON column as asyncpg hands it over (its text) made a value."""
    return json.loads(value) if isinstance(value, str) else value


class _StaleMatch(Exception):
    pass


#: One write in a shared transaction: True if written, False if it wrote nothing.
Work = Callable[[AsyncSession], Awaitable[bool]]


@dataclass(frozen=True, slots=True)
class _Entry:
    """One action to log: the match, the version it makes, who acted and how, and the
    match's result if the action finished it."""

    live: LiveMatch
    version: int
    seat: int
    action_json: JSONDict
    client_action_id: str | None
    result: JSONDict | None


#: Writes of many like items in one go (SQLite: one ``executemany`` per statement), inside
#: the batch's transaction; raises (the batch is then written one item at a time) unless
#: every item could be written.
Bulk = Callable[[AsyncSession, list[Any]], Awaitable[None]]

_Pending = tuple[Work, "asyncio.Future[bool]", Any]


class GroupCommit:
    """Writes that arrive together committed in one transaction (SQLite: one fsync for the
    lot instead of one each). A write's caller is answered only after its batch commits.

    The writes that arrive while a batch commits form the next batch. Each write leaves
    nothing behind when it answers False; if a batch fails as a whole, each of its writes
    is tried again alone, so one bad write cannot fail the others.

    A write submitted with a ``bulk`` item is written, with the batch's other such items, by
    ``bulk`` in one go: with aiosqlite every statement is a hand-off to its thread, which
    waits for the event loop to let go of the interpreter, so two statements per action made
    a batch of fifty take a hundred hand-offs."""

    def __init__(self, db: Database, bulk: Bulk | None = None) -> None:
        self.db = db
        self.bulk = bulk
        self._pending: list[_Pending] = []
        self._task: asyncio.Task[None] | None = None
        #: Sizes of the batches committed so far (the last few hundred), for tests and tuning.
        self.batches: deque[int] = deque(maxlen=500)

    async def submit(self, work: Work, bulk: Any = None) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append((work, future, bulk))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())
        return await future

    async def _run(self) -> None:
        await asyncio.sleep(0)  # writes posted in this turn of the loop join the first batch
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                answers = await self._commit(batch)
            except Exception:
                answers = None
            if answers is None:  # written again one at a time: one failure fails one
                for item in batch:
                    await self._alone(item)
                continue
            self.batches.append(len(batch))
            for (_work, future, _bulk), answer in zip(batch, answers, strict=True):
                if not future.done():
                    future.set_result(answer)

    async def _commit(self, batch: list[_Pending]) -> list[bool]:
        bulk = [item[2] for item in batch if item[2] is not None]
        together = self.bulk is not None and len(bulk) > 1
        async with self.db.sessions() as session, session.begin():
            if together and self.bulk is not None:
                await self.bulk(session, bulk)
            return [
                True if together and bulk_item is not None else await work(session)
                for work, _future, bulk_item in batch
            ]

    async def _alone(self, item: _Pending) -> None:
        work, future, _bulk = item
        try:
            async with self.db.sessions() as session, session.begin():
                answer = await work(session)
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
            return
        self.batches.append(1)
        if not future.done():
            future.set_result(answer)


class PgAppends:
    """PostgreSQL: the actions that arrive while a batch is being written go together in the
    next one, one statement and one commit (autocommit) on the asyncpg pool for the lot. Each
    caller is answered only after that commit; one write's failure never fails another's
    (a batch that fails as a whole is written again one entry at a time). A few batches may
    be in flight at once (an action need not wait for a whole commit before its own starts),
    and beyond that the batches grow with the load instead of the connections."""

    #: Statements in flight at once.
    IN_FLIGHT = 3

    def __init__(self, db: Database) -> None:
        self.db = db
        self._pending: list[tuple[_Entry, asyncio.Future[bool]]] = []
        self._runners: set[asyncio.Task[None]] = set()
        #: Sizes of the batches written so far (the last few hundred), for tests and tuning.
        self.batches: deque[int] = deque(maxlen=500)

    async def submit(self, entry: _Entry) -> bool:
        """True once the action is committed; False (nothing written) if the match is no
        longer at ``entry.version - 1`` or the version or client id is logged already."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append((entry, future))
        if len(self._runners) < self.IN_FLIGHT:
            runner = asyncio.get_running_loop().create_task(self._run())
            self._runners.add(runner)
            runner.add_done_callback(self._runners.discard)
        return await future

    async def _run(self) -> None:
        await asyncio.sleep(0)  # writes posted in this turn of the loop join the first batch
        while self._pending:
            batch: list[tuple[_Entry, asyncio.Future[bool]]] = []
            later: list[tuple[_Entry, asyncio.Future[bool]]] = []
            seen: set[str] = set()
            for item in self._pending:
                # One entry per match in a statement (a match's lock allows only one anyway).
                (later if item[0].live.id in seen else batch).append(item)
                seen.add(item[0].live.id)
            self._pending = later
            try:
                logged = await self._write([entry for entry, _future in batch])
            except Exception:  # written again one at a time: one failure fails one
                for item in batch:
                    await self._alone(item)
                continue
            self.batches.append(len(batch))
            for entry, future in batch:
                if not future.done():
                    future.set_result(entry.live.id in logged)

    async def _write(self, entries: list[_Entry]) -> set[str]:
        pool = await self.db.raw()
        async with pool.acquire() as conn:
            rows = await conn.fetch(
                _APPEND_SQL,
                [e.live.id for e in entries],
                [e.version for e in entries],
                [e.seat for e in entries],
                [json.dumps(e.action_json, separators=(",", ":")) for e in entries],
                [e.client_action_id for e in entries],
            )
        return {row[0] for row in rows}

    async def _alone(self, item: tuple[_Entry, asyncio.Future[bool]]) -> None:
        import asyncpg

        entry, future = item
        try:
            logged = await self._write([entry])
        except asyncpg.UniqueViolationError:
            logged = set()  # another writer logged this version (or this client id) first
        except Exception as exc:
            if not future.done():
                future.set_exception(exc)
            return
        self.batches.append(1)
        if not future.done():
            future.set_result(entry.live.id in logged)


class MatchStore:
    def __init__(
        self, db: Database, settings: Settings, pinned: Callable[[str], bool] | None = None
    ) -> None:
        self.db = db
        self.settings = settings
        #: Several processes share the database (Redis configured): leases and catch-up.
        self.multi = settings.redis_url is not None
        self.process_id = secrets.token_hex(16)
        self.live: dict[str, LiveMatch] = {}
        self.finish_hooks: list[FinishHook] = []
        #: A match some socket watches stays cached even when finished and idle.
        self._pinned = pinned or (lambda _match_id: False)
        self._load_lock = asyncio.Lock()
        self.leases: set[str] = set()
        self._group = GroupCommit(db, self._append_bulk)
        self._pg_appends = PgAppends(db)

    # ----- the cache ------------------------------------------------------------------------

    async def get(self, match_id: str) -> tuple[LiveMatch | None, bool]:
        """The live match (loaded from the log if not cached) and whether it was loaded now."""
        live = self.live.get(match_id)
        if live is not None:
            return live, False
        async with self._load_lock:
            live = self.live.get(match_id)
            if live is not None:
                return live, False
            live = await self._load(match_id)
            if live is not None:
                self.remember(live)
            return live, live is not None

    def remember(self, live: LiveMatch) -> None:
        """Cache a live match; past the cap, forget idle finished ones (oldest first)."""
        self.live[live.id] = live
        if len(self.live) <= MAX_LIVE:
            return
        for match_id, cached in list(self.live.items()):
            idle = cached.bot_task is None or cached.bot_task.done()
            idle = idle and not cached.lock.locked() and not self._pinned(match_id)
            if cached.status == FINISHED and idle:
                del self.live[match_id]
            if len(self.live) <= MAX_LIVE // 2:
                break

    def forget(self, match_id: str) -> None:
        self.live.pop(match_id, None)

    # ----- reading ----------------------------------------------------------------------------

    async def insert(self, live: LiveMatch) -> None:
        """Store a new match (its row and seats) and cache it."""
        raw = await self.db.raw()
        if raw is not None:
            # PostgreSQL: hand-written inserts on the asyncpg pool (a thousand players
            # starting at once spent a third of the event loop in the ORM's inserts).
            async with raw.acquire() as conn, conn.transaction():
                await conn.execute(
                    "INSERT INTO matches (id, game, options, seed, status, version, table_id)"
                    " VALUES ($1, $2, $3::json, $4, $5, 0, $6)",
                    live.id,
                    live.game_name,
                    json.dumps(live.options),
                    live.seed,
                    ACTIVE,
                    live.table_id,
                )
                await conn.executemany(
                    "INSERT INTO match_seats (match_id, seat, player_id, bot)"
                    " VALUES ($1, $2, $3, $4)",
                    [(live.id, i.seat, i.player_id, i.bot) for i in live.seats],
                )
            self.remember(live)
            return
        async with self.db.sessions() as session, session.begin():
            session.add(
                Match(
                    id=live.id,
                    game=live.game_name,
                    options=live.options,
                    seed=live.seed,
                    status=ACTIVE,
                    version=0,
                    table_id=live.table_id,
                )
            )
            await session.flush()
            for info in live.seats:
                session.add(
                    MatchSeat(
                        match_id=live.id, seat=info.seat, player_id=info.player_id, bot=info.bot
                    )
                )
        self.remember(live)

    async def active_count(self, player_id: str) -> int:
        raw = await self.db.raw()
        if raw is not None:
            async with raw.acquire() as conn:
                found = await conn.fetchval(
                    "SELECT count(*) FROM matches m JOIN match_seats s ON s.match_id = m.id"
                    " WHERE s.player_id = $1 AND m.status = $2",
                    player_id,
                    ACTIVE,
                )
            return int(found or 0)
        async with self.db.reads() as session:
            count = await session.scalar(
                select(func.count())
                .select_from(Match)
                .join(MatchSeat, MatchSeat.match_id == Match.id)
                .where(MatchSeat.player_id == player_id, Match.status == ACTIVE)
            )
        return int(count or 0)

    async def active_ids(self) -> list[str]:
        async with self.db.sessions() as session:
            ids = (await session.execute(select(Match.id).where(Match.status == ACTIVE))).scalars()
            return list(ids)

    async def list_for(self, player: Player) -> list[MatchSummary]:
        async with self.db.reads() as session:
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
            SeatInfo(
                s.seat,
                s.player_id,
                s.bot,
                bot_seat_name(load_content(), row.table_id, s.bot) if s.bot else name or "Player",
            )
            for s, name in seat_rows
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

    # ----- writing ---------------------------------------------------------------------------

    async def append(
        self, live: LiveMatch, seat: int, action: Action, client_action_id: str | None
    ) -> list[tuple[int, Event]]:
        """Log the action durably, then make its result the live state. Caller holds the lock."""
        new_state, events = live.game.apply(live.state, action)
        version = live.version + 1
        over = live.game.is_over(new_state)
        result = self._result(live, new_state) if over else None
        action_json = action.to_json()
        entry = _Entry(live, version, seat, action_json, client_action_id, result)
        try:
            if result is None and not self.db.is_sqlite:
                # The common case: with the actions arriving meanwhile, in one statement and
                # one round trip (bump the version only if it is still ours, and log the
                # action only if it was bumped), answered once committed.
                logged = await self._pg_appends.submit(entry)
            elif self.db.is_sqlite:
                # SQLite has one writer at a time: actions arriving together share one
                # transaction (one fsync), each answered only after that commit.
                logged = await self._group.submit(
                    functools.partial(self._append_rows, entry=entry),
                    bulk=entry if result is None else None,
                )
            else:
                logged = await self._append_in_transaction(entry)
            if not logged:
                raise _StaleMatch
        except (IntegrityError, _StaleMatch):
            # Another writer (another process) got there first: our copy is stale.
            if self.multi:
                await self.catch_up(live)
            else:
                self.forget(live.id)
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

    async def _append_in_transaction(self, entry: _Entry) -> bool:
        async with self.db.sessions() as session, session.begin():
            return await self._append_rows(session, entry=entry)

    async def _append_bulk(self, session: AsyncSession, entries: list[_Entry]) -> None:
        """SQLite: the version bumps, then the log rows, of actions that finish no match, one
        ``executemany`` each; :class:`_StaleMatch` unless every match was still at the
        version its action follows (the batch is then written one action at a time)."""
        matches: Table = Match.__table__  # type: ignore[assignment]
        actions: Table = MatchAction.__table__  # type: ignore[assignment]
        changed = await session.execute(
            update(matches)
            .where(matches.c.id == bindparam("b_id"), matches.c.version == bindparam("b_from"))
            .values(version=bindparam("b_to"), updated_at=func.now()),
            [{"b_id": e.live.id, "b_from": e.version - 1, "b_to": e.version} for e in entries],
        )
        if getattr(changed, "rowcount", -1) != len(entries):
            raise _StaleMatch
        await session.execute(
            insert(actions),
            [
                {
                    "match_id": e.live.id,
                    "version": e.version,
                    "seat": e.seat,
                    "action": e.action_json,
                    "client_action_id": e.client_action_id,
                }
                for e in entries
            ],
        )

    async def _append_rows(self, session: AsyncSession, *, entry: _Entry) -> bool:
        """The version bump, then the log row (and a finished match's stats), in
        ``session``'s transaction; False, having written nothing, if the match is no longer
        at ``version - 1``."""
        live, version, result = entry.live, entry.version, entry.result
        # Core statements on the tables (no ORM unit of work per action).
        matches: Table = Match.__table__  # type: ignore[assignment]
        actions: Table = MatchAction.__table__  # type: ignore[assignment]
        changed = await session.execute(
            update(matches)
            .where(matches.c.id == live.id, matches.c.version == live.version)
            .values(
                version=version,
                status=FINISHED if result is not None else ACTIVE,
                result=result,
                updated_at=func.now(),
            )
        )
        if getattr(changed, "rowcount", 1) != 1:
            return False
        await session.execute(
            insert(actions).values(
                match_id=live.id,
                version=version,
                seat=entry.seat,
                action=entry.action_json,
                client_action_id=entry.client_action_id,
            )
        )
        if result is not None:
            await self._record_stats(session, live, result)
            for hook in self.finish_hooks:
                await hook(session, live, result, [*live.actions, entry.action_json])
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

    async def forfeit(self, live: LiveMatch, seat: int) -> tuple[int, Event]:
        """The seat gives up: the match ends as that player's loss. Caller holds the lock."""
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
                self.forget(live.id)
                raise conflict("version_conflict", "the match changed meanwhile; reload")
            await self._record_stats(session, live, result)
            for hook in self.finish_hooks:
                await hook(session, live, result, list(live.actions))
        live.status, live.result = FINISHED, result
        event = (live.version, Event("forfeit", seat))
        live.recent.append(event)
        return event

    # ----- several processes: catching up and bot-driving leases --------------------------

    def remote_update(self, match_id: str, version: int) -> None:
        """Another process moved this match on: our copy catches up before its next use."""
        live = self.live.get(match_id)
        if live is not None and version > live.behind:
            live.behind = version

    async def catch_up(self, live: LiveMatch) -> None:
        """Apply the actions other processes logged since our copy. Caller holds the lock."""
        found = await self._logged_since(live)
        if found is None:
            return
        row_version, row_status, row_result, action_rows = found
        logged: list[JSONDict] = []
        for version, action, client_action_id in action_rows:
            if version != live.version + len(logged) + 1:
                raise RuntimeError(f"match {live.id}: log has a gap at {live.version + 1}")
            logged.append(action)
            if client_action_id is not None:
                live.client_ids[client_action_id] = version
        base = live.version

        def step(number: int, _action: object, events: tuple[Event, ...]) -> None:
            live.recent.extend((base + number, e) for e in events)

        rest = GameRecord(live.game_name, live.options, live.seed, tuple(logged))
        live.state = replay(live.game, rest, step, start=live.state)
        live.version = base + len(logged)
        live.actions.extend(logged)
        if row_status != live.status:
            live.status, live.result = row_status, row_result
            if row_result and row_result.get("reason") == "forfeit":
                live.recent.append((row_version, Event("forfeit", row_result.get("forfeited_by"))))

    async def _logged_since(
        self, live: LiveMatch
    ) -> tuple[int, str, JSONDict | None, list[tuple[int, JSONDict, str | None]]] | None:
        """The match's row (version, status, result) and the actions logged after our copy's
        version, in order; None if the row says our copy is current (or is gone)."""
        raw = await self.db.raw()
        if raw is not None:
            # PostgreSQL: mostly our copy is current, and one light query says so; else the
            # missing actions on the same connection (no ORM session: with several
            # processes nearly every action makes the next process catch up).
            async with raw.acquire() as conn:
                current = await conn.fetchrow(
                    "SELECT version, status, result FROM matches WHERE id = $1", live.id
                )
                if current is None or (current[0], current[1]) == (live.version, live.status):
                    return None
                rows = await conn.fetch(
                    "SELECT version, action, client_action_id FROM match_actions"
                    " WHERE match_id = $1 AND version > $2 ORDER BY version",
                    live.id,
                    live.version,
                )
            return (
                current[0],
                current[1],
                _json_value(current[2]),
                [(row[0], dict(_json_value(row[1])), row[2]) for row in rows],
            )
        async with self.db.sessions() as session:
            row = await session.get(Match, live.id)
            if row is None:
                return None
            if row.version == live.version and row.status == live.status:
                return None
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
            return (
                row.version,
                row.status,
                row.result,
                [(a.version, dict(a.action), a.client_action_id) for a in action_rows],
            )

    async def fresh(self, live: LiveMatch) -> None:
        """Catch up first if another process announced a newer version."""
        if self.multi and live.behind > live.version:
            async with live.lock:
                await self.catch_up(live)

    async def acquire(self, match_id: str) -> bool:
        """Take (or keep) the lease to drive this match's bots; False if another holds it."""
        now = time.time()
        raw = await self.db.raw()
        if raw is not None:
            async with raw.acquire() as conn:
                holder = await conn.fetchval(
                    _LEASE_SQL, match_id, self.process_id, now + LEASE_SECONDS, now
                )
            if holder == self.process_id:
                self.leases.add(match_id)
                return True
            return False
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
            self.leases.add(match_id)
            return True
        return False

    async def release(self, match_id: str) -> None:
        self.leases.discard(match_id)
        raw = await self.db.raw()
        if raw is not None:
            async with raw.acquire() as conn:
                await conn.execute(
                    "DELETE FROM match_leases WHERE match_id = $1 AND holder = $2",
                    match_id,
                    self.process_id,
                )
            return
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                delete(MatchLease).where(
                    MatchLease.match_id == match_id, MatchLease.holder == self.process_id
                )
            )

    async def renew_leases(self) -> list[str]:
        """Renew our leases; the ids of matches whose lease ran out (its holder died)."""
        now = time.time()
        async with self.db.sessions() as session, session.begin():
            if self.leases:
                await session.execute(
                    update(MatchLease)
                    .where(MatchLease.holder == self.process_id)
                    .values(expires_at=now + LEASE_SECONDS)
                )
            return list(
                (
                    await session.execute(
                        select(MatchLease.match_id).where(MatchLease.expires_at < now).limit(100)
                    )
                ).scalars()
            )
