"""`deadwood-knock serve --workers N`: several processes behind one address on PostgreSQL +
Redis, each serving any match; refused with a clear error on SQLite or without Redis."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from conftest import _reset_postgres, free_port

DB = os.environ.get("DEADWOOD_TEST_DATABASE_URL")
REDIS = os.environ.get("DEADWOOD_TEST_REDIS_URL")


def _serve(tmp_path: Path, *extra: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    command = [
        sys.executable,
        "-m",
        "deadwood_knock.cli",
        "serve",
        "--port",
        str(free_port()),
        "--data-dir",
        str(tmp_path / "data"),
        *extra,
    ]
    return subprocess.Popen(
        command,
        env={**os.environ, **(env or {})},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_several_workers_on_sqlite_are_refused(tmp_path: Path) -> None:
    proc = _serve(tmp_path, "--workers", "2")
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "--workers 2 needs PostgreSQL" in err
    assert "SQLite is one process only" in err
    assert "Redis (--redis-url" in err


@pytest.mark.skipif(not DB, reason="needs DEADWOOD_TEST_DATABASE_URL")
def test_several_workers_without_redis_are_refused(tmp_path: Path) -> None:
    proc = _serve(tmp_path, "--workers", "3", "--database-url", str(DB))
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert "--workers 3 needs Redis (--redis-url" in err
    assert "PostgreSQL" not in err


@pytest.mark.skipif(
    not (DB and REDIS), reason="needs DEADWOOD_TEST_DATABASE_URL and DEADWOOD_TEST_REDIS_URL"
)
def test_two_workers_behind_one_address_both_serve_one_match(tmp_path: Path) -> None:
    import asyncio

    asyncio.run(_reset_postgres(str(DB)))
    port = free_port()
    log_path = tmp_path / "server.log"
    env = {
        **os.environ,
        "DEADWOOD_SECRET_KEY": "test secret",
        "DEADWOOD_BOT_WORKERS": "1",
        "DEADWOOD_BOT_SECONDS": "0.2",
    }
    command = [
        sys.executable,
        "-m",
        "deadwood_knock.cli",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        str(tmp_path / "data"),
        "--database-url",
        str(DB),
        "--redis-url",
        str(REDIS),
        "--workers",
        "2",
    ]
    with log_path.open("w") as log:
        proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, log_path.read_text()
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.3)
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
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


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
