"""Two real server processes on one PostgreSQL database and one Redis: any process serves
any match. Actions alternate between the processes; a socket on one sees what is posted to
the other; after kill -9 of the process driving a match's bots, the other takes over."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from conftest import _reset_postgres
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from deadwood_knock.server.launch import ServerProcess

DB = os.environ.get("DEADWOOD_TEST_DATABASE_URL")
REDIS = os.environ.get("DEADWOOD_TEST_REDIS_URL")

pytestmark = pytest.mark.skipif(
    not (DB and REDIS), reason="needs DEADWOOD_TEST_DATABASE_URL and DEADWOOD_TEST_REDIS_URL"
)


#: Two server processes on one database and one Redis.
Pair = tuple[ServerProcess, ServerProcess]


def _server(data_dir: Path, name: str, pacing: float) -> ServerProcess:
    server = ServerProcess(
        data_dir,
        database_url=DB,
        redis_url=REDIS,
        extra=("--log-level", "warning"),
        env={
            "DEADWOOD_SECRET_KEY": "test secret",
            "DEADWOOD_BOT_PACING": str(pacing),
            "DEADWOOD_BOT_WORKERS": "1",
            "DEADWOOD_BOT_SECONDS": "0.2",
        },
        log=data_dir / f"server-{name}.log",
    )
    try:
        server.wait_ready(timeout=90)
    except BaseException:
        server.stop()
        raise
    return server


@pytest.fixture
def two(tmp_path: Path) -> Iterator[Pair]:
    asyncio.run(_reset_postgres(str(DB)))
    servers: list[ServerProcess] = []
    try:
        # One after the other: the first applies the migrations.
        servers.append(_server(tmp_path, "a", pacing=0.5))
        servers.append(_server(tmp_path, "b", pacing=0.5))
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


def _player(server: ServerProcess) -> tuple[str, dict[str, str]]:
    token = httpx.post(server.base + "/api/players", json={}).json()["token"]
    return token, {"Authorization": f"Bearer {token}"}


async def _log_of(match_id: str) -> list[tuple[int, int]]:
    engine = create_async_engine(str(DB))
    async with engine.connect() as conn:
        rows = await conn.execute(
            text("SELECT version, seat FROM match_actions WHERE match_id = :m ORDER BY version"),
            {"m": match_id},
        )
        found = [(int(r[0]), int(r[1])) for r in rows]
    await engine.dispose()
    return found


def test_actions_alternate_and_a_socket_on_b_sees_posts_to_a(
    two: Pair,
) -> None:
    a, b = two
    token, auth = _player(a)
    created = httpx.post(
        a.base + "/api/matches",
        json={"game": "deadwood-knock", "opponents": ["greedy", "greedy"]},
        headers=auth,
    ).json()
    match_id = created["match_id"]

    seen: list[str] = []  # what B's socket said, for the message of a failure

    async def frame(ws: Any, timeout: float) -> Any:
        """B's next message; waiting too long fails with what came before and the logs
        (once, under heavy load, a wait here ran out, cause unknown)."""
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), timeout))
        except TimeoutError:
            logs = "\n".join(
                f"--- {s.log.name}:\n" + s.log.read_text()[-3000:] for s in (a, b) if s.log
            )
            raise AssertionError(
                f"no message on B's socket for {timeout} s; the last: {seen[-8:]}\n{logs}"
            ) from None
        view = message.get("view") or {}
        seen.append(
            f"{message['type']} v{message.get('version', view.get('version'))}"
            f"{' your turn' if view.get('your_turn') else ''}"
        )
        return message

    async def play() -> tuple[list[int], list[int], list[float]]:
        posted_to_a: list[int] = []
        seen_on_b: list[int] = []
        delays: list[float] = []
        url = b.base.replace("http", "ws") + f"/api/matches/{match_id}/ws"
        async with websockets.connect(url) as ws, httpx.AsyncClient() as http:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            servers = [a, b]
            posted = 0
            sent_at: dict[int, float] = {}
            while posted < 8:
                message = await frame(ws, 30)
                if message["type"] == "event" and message["version"] in sent_at:
                    seen_on_b.append(message["version"])
                    delays.append(time.monotonic() - sent_at.pop(message["version"]))
                if message["type"] != "view":
                    continue
                view = message["view"]
                if view["status"] != "active":
                    break
                if not view["your_turn"]:
                    continue
                server = servers[posted % 2]
                version = view["version"] + 1
                if server is a:
                    sent_at[version] = time.monotonic()
                    posted_to_a.append(version)
                response = await http.post(
                    f"{server.base}/api/matches/{match_id}/actions",
                    json={
                        "action": view["legal_actions"][0],
                        "version": view["version"],
                        "client_action_id": f"t{view['version']}",
                    },
                    headers=auth,
                )
                assert response.status_code == 200, response.text
                assert response.json()["version"] == version
                posted += 1
            # The last post's event, if it was posted to A.
            while sent_at:
                message = await frame(ws, 10)
                if message["type"] == "event" and message["version"] in sent_at:
                    seen_on_b.append(message["version"])
                    delays.append(time.monotonic() - sent_at.pop(message["version"]))
        return posted_to_a, seen_on_b, delays

    posted_to_a, seen_on_b, delays = asyncio.run(play())
    assert posted_to_a and seen_on_b == posted_to_a
    print(f"two processes: events posted to A reached B's socket after {delays}")
    log = asyncio.run(_log_of(match_id))
    assert [version for version, _ in log] == list(range(1, len(log) + 1))
    # Each process's copy follows the log through Redis: the last update may still be on
    # its way to one of them (a fresh-clone run under load read 19 of 20 once), so each
    # view is asked again for a while; both must come to the log's version.
    versions: list[int] = []
    deadline = time.monotonic() + 10
    while True:
        versions = [
            httpx.get(f"{s.base}/api/matches/{match_id}", headers=auth).json()["version"]
            for s in (a, b)
        ]
        if versions == [len(log)] * 2 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert versions == [len(log)] * 2, (versions, len(log))


def test_after_kill_9_the_other_process_drives_the_bots(
    two: Pair,
) -> None:
    a, b = two
    _token, auth = _player(a)
    created = httpx.post(
        a.base + "/api/matches",
        json={"game": "deadwood-knock", "opponents": ["greedy"] * 5},
        headers=auth,
    ).json()
    match_id = created["match_id"]
    assert created["view"]["to_act"] != 0  # the bots open: A drives them, paced 0.5 s
    deadline = time.monotonic() + 10
    while not asyncio.run(_log_of(match_id)):
        assert time.monotonic() < deadline
        time.sleep(0.05)
    os.kill(a.proc.pid, signal.SIGKILL)
    a.proc.wait()
    killed_at = time.monotonic()
    before = len(asyncio.run(_log_of(match_id)))
    # B takes over once A's lease runs out, and the bots play on to the person's turn.
    deadline = time.monotonic() + 20
    while True:
        view = httpx.get(f"{b.base}/api/matches/{match_id}", headers=auth).json()
        if view["your_turn"]:
            break
        assert time.monotonic() < deadline, view
        time.sleep(0.1)
    took = time.monotonic() - killed_at
    print(f"two processes: B drove the bots to the person's turn {took:.1f} s after kill -9")
    log = asyncio.run(_log_of(match_id))
    assert len(log) > before
    assert [version for version, _ in log] == list(range(1, len(log) + 1))
    assert view["version"] == len(log)
    # The person acts through B; the bots carry on, driven by B.
    response = httpx.post(
        f"{b.base}/api/matches/{match_id}/actions",
        json={"action": view["legal_actions"][0], "version": view["version"]},
        headers=auth,
    )
    assert response.status_code == 200, response.text
    deadline = time.monotonic() + 20
    while len(asyncio.run(_log_of(match_id))) <= view["version"] + 1:
        assert time.monotonic() < deadline
        time.sleep(0.1)
