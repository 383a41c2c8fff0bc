"""`deadwood-knock serve --workers N`: several processes behind one address on PostgreSQL +
Redis, each serving any match; refused with a clear error on SQLite or without Redis."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import _reset_postgres

from deadwood_knock.server.launch import ServerProcess

DB = os.environ.get("DEADWOOD_TEST_DATABASE_URL")
REDIS = os.environ.get("DEADWOOD_TEST_REDIS_URL")


def _refused(tmp_path: Path, **options: Any) -> tuple[int, str]:
    """Start a server that must refuse to run: its exit status and standard error."""
    server = ServerProcess(tmp_path / "data", log=tmp_path / "refused.log", **options)
    server.proc.wait(timeout=60)
    return server.proc.returncode, server.log_text()


def test_several_workers_on_sqlite_are_refused(tmp_path: Path) -> None:
    returncode, err = _refused(tmp_path, workers=2)
    assert returncode == 2
    assert "--workers 2 needs PostgreSQL" in err
    assert "SQLite is one process only" in err
    assert "Redis (--redis-url" in err


@pytest.mark.skipif(not DB, reason="needs DEADWOOD_TEST_DATABASE_URL")
def test_several_workers_without_redis_are_refused(tmp_path: Path) -> None:
    returncode, err = _refused(tmp_path, workers=3, database_url=DB)
    assert returncode == 2
    assert "--workers 3 needs Redis (--redis-url" in err
    assert "PostgreSQL" not in err


@pytest.mark.skipif(
    not (DB and REDIS), reason="needs DEADWOOD_TEST_DATABASE_URL and DEADWOOD_TEST_REDIS_URL"
)
def test_two_workers_behind_one_address_both_serve_one_match(tmp_path: Path) -> None:
    import asyncio

    asyncio.run(_reset_postgres(str(DB)))
    log_path = tmp_path / "server.log"
    server = ServerProcess(
        tmp_path / "data",
        database_url=DB,
        redis_url=REDIS,
        workers=2,
        env={
            "DEADWOOD_SECRET_KEY": "test secret",
            "DEADWOOD_BOT_WORKERS": "1",
            "DEADWOOD_BOT_SECONDS": "0.2",
        },
        log=log_path,
    )
    base = server.base
    try:
        server.wait_ready()
        token = httpx.post(base + "/api/players", json={}).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        created = httpx.post(
            base + "/api/matches",
            json={"game": "gin", "opponents": ["random"]},
            headers=headers,
        )
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        # A new connection per request: the kernel hands each to either process. Play the
        # match with the legal actions each answer offers, until both processes served it.
        actions = 0
        for _ in range(300):
            view = httpx.get(f"{base}/api/matches/{match_id}", headers=headers).json()
            if view["status"] != "active":
                break
            if view["your_turn"]:
                posted = httpx.post(
                    f"{base}/api/matches/{match_id}/actions",
                    json={"action": view["legal_actions"][0], "version": view["version"]},
                    headers=headers,
                )
                # 409: a bot moved first on the other process; the next view catches up.
                assert posted.status_code in (200, 409), posted.text
                actions += posted.status_code == 200
            served = _processes_that_answered(log_path.read_text(), match_id)
            if len(served) >= 2 and actions >= 4:
                break
            time.sleep(0.05)
        assert actions >= 4
        assert len(_processes_that_answered(log_path.read_text(), match_id)) == 2
        # The log stays the truth: every version was appended exactly once.
        final = httpx.get(f"{base}/api/matches/{match_id}", headers=headers).json()
        versions = [e["version"] for e in final["recent_events"]]
        assert versions == sorted(versions)
    finally:
        server.stop(timeout=30)


def _processes_that_answered(log: str, match_id: str) -> set[str]:
    """Process ids on the access lines for this match (each line names its process)."""
    pattern = re.compile(rf" (\d+) INFO deadwood_knock\.server\.access \w+ /api/matches/{match_id}")
    return set(pattern.findall(log))


def test_the_workers_rebuild_the_same_settings_from_the_environment(tmp_path: Path) -> None:
    from deadwood_knock.server import Settings, settings_env

    settings = Settings(
        data_dir=tmp_path,
        database_url="postgresql+asyncpg://db/dk",
        redis_url="redis://127.0.0.1:6379/5",
        trusted_proxies=("10.0.0.0/8", "127.0.0.1"),
        api_docs=False,
        hint_limit=(5, 30),
        bot_seconds=0.5,
    )
    assert Settings.from_env(settings_env(settings)) == settings
