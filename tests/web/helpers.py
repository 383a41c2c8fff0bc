"""Helpers shared by the browser tests."""

from __future__ import annotations

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
    page.get_by_role("heading", name="The Trail").wait_for()
