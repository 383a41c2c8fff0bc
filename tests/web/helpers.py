"""Helpers shared by the browser tests."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "artifacts" / "screenshots"
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


class Console:
    """Collects console errors and uncaught page errors; a test ends by asserting none."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def watch(self, page: Any) -> None:
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def sign_in(page: Any, base: str, name: str = "Calamity") -> None:
    """Fresh browser: the welcome screen, a name, and on to the trail."""
    page.goto(base + "/")
    page.get_by_label("Your name").fill(name)
    page.get_by_role("button", name="Ride in").click()
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()


def wait_until(page: Any, script: str, timeout_s: float = 15.0) -> Any:
    """Poll ``page.evaluate(script)`` until it is truthy.

    Playwright's own ``wait_for_function`` re-evaluates string predicates with ``eval``
    inside the page, which the server's Content-Security-Policy (rightly) forbids.
    """
    deadline = time.monotonic() + timeout_s
    while True:
        value = page.evaluate(script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {script}")
        page.wait_for_timeout(50)
