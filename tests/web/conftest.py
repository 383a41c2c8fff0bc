"""Browser tests: a real server on a free port, driven by Debian's headless Chromium.

Playwright is only the driver here; the browser is the system one at /usr/bin/chromium
(installed by the Makefile's test setup), never a downloaded build.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .helpers import PHONE, REPO, SHOTS, Console

CHROMIUM = Path(os.environ.get("DEADWOOD_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _missing() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} is missing (make test installs Debian's chromium)"
    if not (REPO / "node_modules" / "preact").is_dir():
        return "node_modules is missing (run `npm ci`, which `make` does)"
    if not (REPO / "node_modules" / "axe-core" / "axe.min.js").is_file():
        return "axe-core is missing from node_modules (run `npm ci`, which `make` does)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright Python package is missing (pip install -e '.[test]')"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    if reason is None:
        return
    if os.environ.get("CI"):
        # In CI a missing browser is a broken setup, not a reason to pass quietly.
        raise pytest.UsageError(f"web tests cannot run: {reason}")
    skip = pytest.mark.skip(reason=reason)
    for item in items:
        if "tests/web" in str(item.fspath):
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=2) as resp:
        return json.loads(resp.read())


@contextlib.contextmanager
def run_server(data: Path, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """A real server process on a free port, its data in ``data``; yields its base URL."""
    port = _free_port()
    env = dict(os.environ, DEADWOOD_BOT_PACING="0", PYTHONUNBUFFERED="1", **(extra_env or {}))
    log = (data / "server.log").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "deadwood_knock.server",
            "--port",
            str(port),
            "--data-dir",
            str(data),
        ],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if _get_json(url + "/api/health").get("status") == "ok":
                break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("server did not start:\n" + (data / "server.log").read_text())
        time.sleep(0.2)
    try:
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with run_server(tmp_path_factory.mktemp("server-data")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    for old in SHOTS.glob("FAILED-*.png"):
        old.unlink()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call":
        item.stash[FAILED] = report.failed


FAILED = pytest.StashKey[bool]()


@pytest.fixture
def new_page(browser: Any, console: Console, request: pytest.FixtureRequest) -> Iterator[Any]:
    """``new_page(viewport=PHONE)``: a fresh context (own storage) and page; opponents'
    moves are shown without pauses unless ``pace_ms`` says otherwise (``None``: the
    player's own setting). ``service_workers="block"`` for a test that holds requests
    with ``page.route``: once the service worker controls the page, its requests pass
    through the worker and the page's routes no longer see them."""
    contexts: list[Any] = []

    def make(
        viewport: dict[str, int] = PHONE,
        reduced_motion: str = "reduce",
        pace_ms: int | None = 0,
        service_workers: str = "allow",
    ) -> Any:
        ctx = browser.new_context(
            viewport=viewport, reduced_motion=reduced_motion, service_workers=service_workers
        )
        if pace_ms is not None:
            # The table plays opponents' moves back at a readable pace; tests that are not
            # about pace play them at once (the client's `dk.paceMs` override).
            ctx.add_init_script(
                f"if (localStorage.getItem('dk.paceMs') === null)"
                f" localStorage.setItem('dk.paceMs', '{int(pace_ms)}');"
            )
        contexts.append(ctx)
        page = ctx.new_page()
        page.set_default_timeout(15000)
        console.watch(page)
        return page

    yield make
    if request.node.stash.get(FAILED, False):
        # A failed test leaves a picture of each of its pages, to see what went wrong.
        SHOTS.mkdir(parents=True, exist_ok=True)
        for i, ctx in enumerate(contexts):
            for j, page in enumerate(ctx.pages):
                page.screenshot(path=str(SHOTS / f"FAILED-{request.node.name}-{i}-{j}.png"))
    for ctx in contexts:
        ctx.close()
