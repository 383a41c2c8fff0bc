"""Group commit: actions that arrive together are committed together (SQLite: one
transaction; PostgreSQL: one statement), and each is acknowledged only after that commit. No
acknowledged action is lost: each is in the database the moment it is acknowledged (read by
another connection, as another process would), and a fresh store replays them all."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy import make_url

from deadwood_knock.persistence import Database, Player
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.hub import Hub
from deadwood_knock.server.matches import MatchService
from deadwood_knock.server.settings import Settings
from deadwood_knock.server.store import MatchStore
from deadwood_knock.server.workers import ExecutorBackend, FairScheduler

MATCHES = 40


def test_actions_arriving_together_share_a_commit_and_none_acknowledged_is_lost(
    tmp_path: Path, database_url: str
) -> None:
    url = database_url
    sqlite = url.startswith("sqlite")
    settings = Settings(
        data_dir=tmp_path,
        database_url=url,
        secret_key="test secret",
        max_active_matches=100,
        match_create_limit=(100, 60),
    )
    acknowledged: list[tuple[str, int, dict[str, object]]] = []

    other: list[Any] = []  # PostgreSQL: other connections, opened in the test's loop

    async def in_the_file(match_id: str, version: int) -> dict[str, object] | None:
        # Another connection, as another process would read the database.
        if sqlite:
            with sqlite3.connect(make_url(url).database or "") as conn:
                row = conn.execute(
                    "SELECT action FROM match_actions WHERE match_id = ? AND version = ?",
                    (match_id, version),
                ).fetchone()
            return None if row is None else json.loads(row[0])
        if not other:
            dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
            other.append(await asyncpg.create_pool(dsn, min_size=1, max_size=2))
        text = await other[0].fetchval(
            "SELECT action::text FROM match_actions WHERE match_id = $1 AND version = $2",
            match_id,
            version,
        )
        return None if text is None else json.loads(text)

    async def play(service: MatchService, player: Player, match_id: str, rng: random.Random) -> int:
        posted = 0
        for _ in range(400):
            live = await service.get(match_id)
            assert live is not None
            if live.status != "active":
                return posted
            if live.game.to_act(live.state) != 0:
                await asyncio.sleep(0.005)
                continue
            legal = live.game.legal_actions(live.state)
            action = rng.choice(legal).to_json()
            try:
                view = (await service.act(live, 0, action, expected_version=live.version)).view
            except ApiError as exc:
                assert exc.code == "version_conflict"  # a bot's move came first
                continue
            # The answer is the view right after this action (the bots move later).
            # Acknowledged: the action is already committed, visible to another reader.
            assert await in_the_file(match_id, view["version"]) == action
            acknowledged.append((match_id, view["version"], action))
            posted += 1
        return posted

    async def run() -> list[int]:
        db = Database(url)
        await db.migrate()
        async with db.sessions() as session, session.begin():
            session.add(Player(id="p" * 32, name="Tester", stats={}, progress={}))
        async with db.sessions() as session:
            player = await session.get(Player, "p" * 32)
        assert player is not None
        pool = ThreadPoolExecutor(2)
        scheduler = FairScheduler(ExecutorBackend(pool, slots=2))
        service = MatchService(db, settings, scheduler, Hub())
        service.start()
        ids = []
        for _ in range(MATCHES):
            live = await service.create(player, "toy", ["random"], {"turns": 6})
            ids.append(live.id)
        rng = random.Random(7)
        counts = await asyncio.gather(
            *(play(service, player, match_id, random.Random(rng.random())) for match_id in ids)
        )
        batches = list((service.store._group if sqlite else service.store._pg_appends).batches)
        for readers in other:
            await readers.close()
        await service.close()
        await scheduler.close()
        pool.shutdown()
        await db.dispose()
        assert sum(counts) == MATCHES * 6
        return batches

    batches = asyncio.run(run())
    # Actions did arrive together, and were committed together.
    assert max(batches) > 1
    assert sum(batches) > len(batches)

    async def reread() -> dict[str, list[dict[str, object]]]:
        db = Database(url)
        store = MatchStore(db, settings)
        logs = {}
        for match_id in {m for m, _v, _a in acknowledged}:
            live, _ = await store.get(match_id)
            assert live is not None and live.status == "finished"
            logs[match_id] = live.actions
        await db.dispose()
        return logs

    logs = asyncio.run(reread())
    assert len(acknowledged) == MATCHES * 6
    for match_id, version, action in acknowledged:
        assert logs[match_id][version - 1] == action
