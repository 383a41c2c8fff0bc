"""The built wheel serves the whole game: installed into a fresh venv (no checkout, no
node_modules), `deadwood-knock serve` answers `/` and every module the page imports."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(
    not (ROOT / "node_modules" / "preact").is_dir(), reason="npm ci has not run (make web-deps)"
)
def test_the_installed_wheel_serves_the_page_and_its_modules(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = wheels.glob("deadwood_knock-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", f"{wheel}[server]"],
        check=True,
        capture_output=True,
        timeout=900,
    )
    port = free_port()
    work = tmp_path / "run"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DEADWOOD_NODE_MODULES")}
    server = subprocess.Popen(
        [str(venv / "bin" / "deadwood-knock"), "serve", "--port", str(port), "--data-dir", "data"],
        cwd=work,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None, "the server exited"
            try:
                if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.3)
        page = httpx.get(base + "/")
        assert page.status_code == 200
        # The import map's npm modules and every module the page loads.
        modules = set(re.findall(r'"(/[^"]+\.m?js)"', page.text))
        modules |= set(re.findall(r'src="(/[^"]+\.m?js)"', page.text))
        assert {"/vendor/preact/dist/preact.mjs", "/vendor/htm/dist/htm.mjs"} <= modules
        for path in sorted(modules):
            response = httpx.get(base + path)
            assert response.status_code == 200, path
            assert "javascript" in response.headers["content-type"], path
        assert httpx.get(base + "/docs").status_code == 200  # Swagger UI, also from npm
    finally:
        server.terminate()
        server.wait(timeout=30)
    # Nothing was copied into the checkout.
    assert not (ROOT / "src" / "deadwood_knock" / "web_vendor").exists()
