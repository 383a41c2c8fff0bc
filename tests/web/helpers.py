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
    # The player is registered on "Ride in" (not before): wait for its token.
    wait_until(page, "!!(JSON.parse(localStorage.getItem('dk.settings.v1') || '{}').token)")


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


# Everything a player may have to press on a turn: the hand, the stock and the pile, Palm,
# and the action and prompt buttons (Knock, Stand, Discard, Call, Fold, Show hand).
TURN_CONTROLS = (
    ".hand button.card, .pile.stock, .pile.discard, .pile.palm, .actions button, .prompt button"
)


def controls_out_of_view(page: Any) -> list[str]:
    """The turn's controls that are not wholly inside the viewport, and whether the page
    would need scrolling at all (it must not)."""
    found: list[str] = page.evaluate(
        """(selector) => {
            const out = [];
            const doc = document.scrollingElement;
            if (doc.scrollHeight > innerHeight + 1) out.push(`page scrolls: ${doc.scrollHeight}`);
            for (const el of document.querySelectorAll(selector)) {
                const r = el.getBoundingClientRect();
                if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5
                    || r.right > innerWidth + 0.5) {
                    const name = el.getAttribute('aria-label') || el.textContent.trim();
                    out.push(`${name} at ${Math.round(r.top)}..${Math.round(r.bottom)}`);
                }
            }
            return out;
        }""",
        TURN_CONTROLS,
    )
    return found


def table_version(page: Any) -> int:
    """The version of the view on screen (the table section's data-version)."""
    return int(page.locator(".table-screen").get_attribute("data-version") or -1)


def server_view(page: Any) -> Any:
    """The server's view of the match on screen, read with the page's own token."""
    return page.evaluate(
        """async () => {
            const id = decodeURIComponent(location.hash.split('/table/')[1]);
            const token = JSON.parse(localStorage.getItem('dk.settings.v1')).token;
            const auth = {Authorization: 'Bearer ' + token};
            return (await fetch('/api/matches/' + id, {headers: auth})).json();
        }"""
    )
