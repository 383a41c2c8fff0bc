"""A real server at the most verbose log level (audit findings 2, 8 and 11): no token,
card or code reaches its log, no request forges a line, a client that leaves is no 500,
and a slow body is cut off."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from dkserver_helpers import card_tokens, choose, games_to_drive, opponents_for
from test_server_process import ServerProcess

#: Seconds the server under test waits for a request body.
BODY_TIMEOUT = 1


class VerboseServer(ServerProcess):
    """``deadwood-knock serve --log-level trace``, its log (stderr) kept."""

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-c",
            "import sys; from deadwood_knock.cli import main; sys.exit(main())",
            "serve",
            "--port",
            str(self.port),
            "--data-dir",
            str(self.data_dir),
            "--database-url",
            self.database_url,
            "--log-level",
            "trace",
        ]

    def environment(self) -> dict[str, str]:
        return {
            **os.environ,
            "DEADWOOD_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT),
            "DEADWOOD_BOT_WORKERS": "1",
            "DEADWOOD_BOT_SECONDS": "0.2",
            "DEADWOOD_SECRET_KEY": "test secret",
        }

    def stop(self) -> str:
        """Stop it gracefully (SIGTERM); its whole log."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.log.read_text(errors="replace")


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[VerboseServer]:
    process = VerboseServer(tmp_path / "data", database_url)
    process.start()
    try:
        yield process
    finally:
        process.kill()


def _raw(port: int, data: bytes, read: bool = True) -> bytes:
    """Send raw bytes; the answer (until the server closes or 15 s pass)."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(data)
        if not read:
            return b""
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
        return answer


def _play_over_socket(base: str, match_id: str, token: str) -> list[dict[str, Any]]:
    """Authenticate and play a few moves over the socket; every message received."""
    from websockets.sync.client import connect

    rng = random.Random(3)
    received: list[dict[str, Any]] = []
    url = base.replace("http", "ws") + f"/api/matches/{match_id}/ws"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "auth", "token": token}))
        moves = 0
        deadline = time.monotonic() + 60
        while moves < 6 and time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=30))
            received.append(message)
            view = message.get("view")
            if message["type"] == "view" and view["status"] == "finished":
                break
            if message["type"] == "view" and view["legal_actions"]:
                action = choose(view["legal_actions"], rng)
                ws.send(
                    json.dumps({"type": "action", "action": action, "version": view["version"]})
                )
                moves += 1
        ws.send(json.dumps({"type": "ping"}))
    return received


def test_nothing_secret_reaches_the_log_at_trace_level(server: VerboseServer) -> None:
    game = games_to_drive()[0]
    with httpx.Client(base_url=server.base, timeout=30) as http:
        token = http.post("/api/players", json={"name": "Wild Bill"}).json()["token"]
        headers = {"Authorization": f"Bearer {token}"}
        body = {"game": game, "opponents": opponents_for(game), "options": {}}
        created = http.post("/api/matches", json=body, headers=headers)
        assert created.status_code == 201, created.text
        match_id = created.json()["match_id"]
        seen = _play_over_socket(server.base, match_id, token)
        view = http.get(f"/api/matches/{match_id}", headers=headers).json()
        sent = http.post("/api/backup/link", json={"email": "bill@example.org"}, headers=headers)
        assert sent.status_code == 202
        # A forged line, a client that leaves mid-body, and one that is too slow.
        forged = http.get("/api/x%0aFAKE 127.0.0.1 GET /api/admin 200")
        assert forged.status_code == 404
    request = (
        b"POST /api/players HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 100\r\n\r\n{"
    )
    _raw(server.port, request, read=False)  # and hang up
    started = time.monotonic()
    slow = _raw(server.port, request)
    waited = time.monotonic() - started
    assert slow.startswith(b"HTTP/1.1 408"), slow[:200]
    assert b'"code":"timeout"' in slow.replace(b" ", b"")
    assert waited < 10 * BODY_TIMEOUT  # cut off, not held (it was 25 s and more)

    log = server.stop()
    mine = card_tokens([m for m in seen if m["type"] in ("view", "event")]) | card_tokens(view)
    assert mine, "the player saw cards"
    assert token not in log
    assert not card_tokens(log) & mine, sorted(card_tokens(log) & mine)
    assert "bill@example.org" not in log  # nor the address the code went to
    assert '"hand"' not in log and '"type": "auth"' not in log and "Authorization" not in log
    lines = log.splitlines()
    assert not any(line.startswith("FAKE") for line in lines)
    assert any("GET /api/x\\nFAKE 127.0.0.1 GET /api/admin 200 404" in line for line in lines)
    assert any("POST /api/players 499 " in line for line in lines)
    assert not any(" 500 " in line for line in lines if "deadwood_knock.server.access" in line)
    assert "Traceback" not in log
    # The log was on: DEBUG lines and one access line per request.
    assert " DEBUG " in log and f"GET /api/matches/{match_id} 200" in log
