"""A real server process: killed mid-match and restarted, the match resumes exactly;
concurrent posts to one match are serialised."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import free_port
from dkserver_helpers import choose, games_to_drive, opponents_for

HERE = Path(__file__).resolve().parent


class ServerProcess:
    def __init__(self, data_dir: Path, database_url: str) -> None:
        self.data_dir = data_dir
        self.database_url = database_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / "server.log"

    def command(self) -> list[str]:
        return [
            sys.executable,
            str(HERE / "dkserver_run.py"),
            str(self.port),
            str(self.data_dir),
            self.database_url,
        ]

    def environment(self) -> dict[str, str]:
        return {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), *sys.path])}

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.command(),
            env=self.environment(),
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("ab"),
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            time.sleep(0.05)
        raise AssertionError("server did not start")

    def kill(self) -> None:
        """SIGKILL the whole process group (server and its bot workers): a crash."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path / "data", database_url)
    process.start()
    try:
        yield process
    finally:
        process.kill()


def _player(http: httpx.Client) -> dict[str, str]:
    token = http.post("/api/players").json()["token"]
    return {"Authorization": f"Bearer {token}"}


def _wait_turn(http: httpx.Client, headers: dict[str, str], match_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        view: dict[str, Any] = http.get(f"/api/matches/{match_id}", headers=headers).json()
        if view["legal_actions"] or view["status"] == "finished":
            return view
        assert time.monotonic() < deadline, "bots never handed the turn back"
        time.sleep(0.01)


def _calm(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random action that does not end the hand, so the match is still on at the crash."""
    calm = [a for a in legal if not any(w in str(a) for w in ("knock", "gin", "rummy"))]
    return rng.choice(calm or legal)


def test_killed_mid_match_and_restarted_resumes_exactly(server: ServerProcess) -> None:
    game = games_to_drive()[0]
    rng = random.Random(5)
    with httpx.Client(base_url=server.base, timeout=30) as http:
        headers = _player(http)
        # Two rounds keep the test short; the log and replay are the same at any length.
        options = {"rounds": 2} if game == "deadwood-knock" else {}
        body = {"game": game, "opponents": opponents_for(game), "options": options}
        match_id = http.post("/api/matches", json=body, headers=headers).json()["match_id"]
        for _ in range(3):
            view = _wait_turn(http, headers, match_id)
            http.post(
                f"/api/matches/{match_id}/actions",
                json={"action": _calm(view["legal_actions"], rng)},
                headers=headers,
            )
        before = _wait_turn(http, headers, match_id)
    server.kill()
    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        after = http.get(f"/api/matches/{match_id}", headers=headers).json()
        assert after == before
        # Act, then crash at once, while the bots are (maybe) mid-decision.
        acted = http.post(
            f"/api/matches/{match_id}/actions",
            json={"action": _calm(after["legal_actions"], rng)},
            headers=headers,
        ).json()
    server.kill()
    server.start()
    with httpx.Client(base_url=server.base, timeout=30) as http:
        # The acknowledged action survived; bots resumed by themselves.
        resumed = _wait_turn(http, headers, match_id)
        assert resumed["version"] >= acted["version"]
        while resumed["status"] != "finished":
            http.post(
                f"/api/matches/{match_id}/actions",
                json={"action": choose(resumed["legal_actions"], rng)},
                headers=headers,
            )
            resumed = _wait_turn(http, headers, match_id)
        assert resumed["result"]["reason"] == "completed"


def _race(
    posts: list[tuple[str, dict[str, Any], dict[str, str]]], base: str
) -> list[httpx.Response]:
    barrier = threading.Barrier(len(posts))
    results: list[httpx.Response | None] = [None] * len(posts)

    def post(index: int) -> None:
        url, body, headers = posts[index]
        with httpx.Client(base_url=base, timeout=30) as http:
            barrier.wait()
            results[index] = http.post(url, json=body, headers=headers)

    threads = [threading.Thread(target=post, args=(i,)) for i in range(len(posts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r is not None for r in results)
    return [r for r in results if r is not None]


def test_concurrent_posts_are_serialised(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.base, timeout=30) as http:
        headers = _player(http)
        body = {"game": "toy", "opponents": ["random"], "options": {"turns": 10}}
        match_id = http.post("/api/matches", json=body, headers=headers).json()["match_id"]
        view = _wait_turn(http, headers, match_id)
        url = f"/api/matches/{match_id}/actions"

        # Same version, different moves: exactly one wins, the rest are told to reload.
        posts = [
            (url, {"action": action, "version": view["version"]}, headers)
            for action in view["legal_actions"]
        ]
        statuses = sorted(r.status_code for r in _race(posts, server.base))
        assert statuses == [200] + [409] * (len(posts) - 1)

        # The same client action id from several connections: applied once.
        view = _wait_turn(http, headers, match_id)
        action = view["legal_actions"][0]
        posts = [(url, {"action": action, "client_action_id": "tap-9"}, headers)] * 4
        responses = _race(posts, server.base)
        assert all(r.status_code == 200 for r in responses), [r.text for r in responses]
        after = http.get(f"/api/matches/{match_id}", headers=headers).json()
        mine = [e for e in after["recent_events"] if e["type"] == "discard" and e["seat"] == 0]
        assert sum(1 for e in mine if e["version"] > view["version"]) == 1
