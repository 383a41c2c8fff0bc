"""Does a restore request's answer time tell linked addresses from unlinked ones?

Starts a local SMTP sink (aiosmtpd), a real server (``deadwood-knock serve``) mailing to
it, links one address, then times ``POST /api/backup/restore`` for that address and for
unlinked ones, interleaved. Prints the medians and 90th percentiles in milliseconds.

    .venv/bin/python bench/restore_timing.py [--requests 60] [--smtp-delay 0.01]

``--smtp-delay`` makes the sink take that long to accept each message, like a real
mail server; before the fix the linked answers waited for it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Sink:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await asyncio.sleep(self.delay)
        self.messages.append(envelope)
        return "250 OK"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    from aiosmtpd.controller import Controller

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=60, help="per kind of address")
    parser.add_argument("--smtp-delay", type=float, default=0.01)
    args = parser.parse_args()

    sink = Sink(args.smtp_delay)
    smtp_port, port = free_port(), free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=smtp_port)
    controller.start()
    data = Path(tempfile.mkdtemp(prefix="restore-timing-"))
    env = {
        **os.environ,
        "DEADWOOD_SMTP_HOST": "127.0.0.1",
        "DEADWOOD_SMTP_PORT": str(smtp_port),
        "DEADWOOD_SMTP_SECURITY": "none",
        "DEADWOOD_OTP_ADDRESS_LIMIT": "100000,600",
        "DEADWOOD_OTP_CLIENT_LIMIT": "100000,3600",
        "DEADWOOD_BOT_WORKERS": "1",
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "deadwood_knock.server",
            "--port",
            str(port),
            "--data-dir",
            str(data),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            for _ in range(600):
                try:
                    if http.get("/api/health").status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            token = http.post("/api/players").json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            sent = http.post("/api/backup/link", json={"email": "linked@example.org"}, headers=auth)
            while not sink.messages:
                time.sleep(0.01)
            code = re.search(rb"\b(\d{6})\b", sink.messages[-1].content)
            assert code is not None
            body = {"email": "linked@example.org", "code": code.group(1).decode()}
            if "request_id" in sent.json():  # (older servers had none)
                body["request_id"] = sent.json()["request_id"]
            assert http.post("/api/backup/link/verify", json=body, headers=auth).is_success
            times: dict[str, list[float]] = {"linked": [], "unlinked": []}
            for number in range(args.requests):
                for kind in ("linked", "unlinked"):
                    email = "linked@example.org" if kind == "linked" else f"u{number}@example.org"
                    started = time.perf_counter()
                    answer = http.post("/api/backup/restore", json={"email": email})
                    times[kind].append((time.perf_counter() - started) * 1000)
                    assert answer.status_code == 202, answer.text
        for kind, values in times.items():
            print(
                f"{kind:8} n={len(values)} median {statistics.median(values):6.1f} ms"
                f"  p90 {percentile(values, 0.9):6.1f} ms"
            )
        print(f"smtp delay {args.smtp_delay * 1000:.0f} ms; load average {os.getloadavg()}")
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        controller.stop()


if __name__ == "__main__":
    main()
