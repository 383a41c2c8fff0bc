"""Smoke run of the load test (bench/loadtest.py): a few players for a few seconds against a
real server process, with zero errors. Its speed figures live in `make loadtest`, not here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_load_smoke_has_no_errors(backend: str) -> None:
    command = [
        sys.executable,
        str(ROOT / "bench" / "loadtest.py"),
        "--players",
        "4",
        "--seconds",
        "3",
        "--warmup",
        "1",
        "--json",
    ]
    if backend == "postgres":
        url = os.environ.get("DEADWOOD_TEST_DATABASE_URL")
        if not url:
            pytest.skip("DEADWOOD_TEST_DATABASE_URL is not set")
        command += ["--database-url", url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    import json

    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["errors"] == 0
    assert result["actions_per_s"] > 0  # players did play (no speed asserted)
