"""Every screen at 360x740 and 1280x800: axe-core (npm, injected here) finds no serious
or critical violation, and each screen is photographed into artifacts/look/ to be looked at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from .helpers import DESKTOP, PHONE, REPO, Console, sign_in, wait_until

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
LOOK = REPO / "artifacts" / "look"


def _audit(page: Any) -> list[dict[str, Any]]:
    """Serious and critical axe violations on the page as it stands."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.read_text())
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ['violations'] });
          return r.violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({ id: v.id, impact: v.impact, help: v.help,
                           nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
        }"""
    )
    return found


def _quiet(page: Any) -> None:
    wait_until(page, "!document.querySelector('.loading')")
    # The photographs show the art: every image has loaded.
    wait_until(page, "[...document.images].every((i) => i.complete)")
    page.wait_for_timeout(150)


class Looker:
    """Photographs a screen into artifacts/look/ and audits it with axe."""

    def __init__(self, page: Any, label: str, report: dict[str, list[dict[str, Any]]]) -> None:
        self.page, self.label, self.report = page, label, report

    def __call__(self, name: str, ready: Callable[[], Any] = lambda: None) -> None:
        page = self.page
        ready()
        _quiet(page)
        page.screenshot(path=str(LOOK / f"{name}-{self.label}.png"), full_page=True)
        # What a player sees first, without scrolling.
        page.screenshot(path=str(LOOK / f"{name}-{self.label}-screen.png"))
        found = _audit(page)
        # Every screen names itself with one h1 (the table's is its round line).
        if page.locator("h1").count() != 1:
            found.append({"id": "one-h1", "impact": "serious", "help": "one h1", "nodes": []})
        self.report[f"{name}-{self.label}"] = found


ROUTES = (
    ("profile", "Profile & Settings"),
    ("records", "Records"),
    ("gazette", "The Deadwood Knock Gazette"),
    ("rules", "Rules"),
    ("scoring", "Hand Scoring"),
)


def _visit_all(page: Any, base: str, look: Looker) -> None:
    page.goto(base + "/")
    look("welcome", page.get_by_role("button", name="Ride in").wait_for)
    sign_in(page, base, "Audit")
    look("trail")
    for route, heading in ROUTES:
        page.goto(f"{base}/#/{route}")
        look(route, page.get_by_role("heading", name=heading, exact=True).wait_for)
    page.goto(base + "/#/trail")
    first = page.locator(".towns .table-btn:not([disabled])").first
    first.wait_for()
    first.click()
    look("table", page.locator(".hand button.card").first.wait_for)
    page.get_by_role("button", name="Leave table").click()
    look("leave", page.get_by_role("dialog").wait_for)
    page.get_by_role("button", name="Forfeit…").click()
    page.get_by_role("button", name="Forfeit and take the loss").click()
    look("result", page.get_by_role("dialog", name="Match Complete").wait_for)
    page.get_by_role("button", name="Return to town").click()
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    page.locator(".town-pin.current").click()
    look("trail-town", page.locator("#chosen-town").wait_for)
    page.goto(base + "/#/records")
    page.get_by_role("link", name=re.compile(r"^Replay ")).first.click()
    look("replay", page.get_by_role("heading", name=re.compile(r"^Replay: ")).wait_for)
    page.get_by_role("button", name="End").click()
    look("replay-end", page.locator(".replay-hands").wait_for)


def test_every_screen_passes_axe_at_both_sizes(
    server_url: str, browser: Any, console: Console
) -> None:
    LOOK.mkdir(parents=True, exist_ok=True)
    report: dict[str, list[dict[str, Any]]] = {}
    for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        ctx = browser.new_context(viewport=viewport, reduced_motion="reduce", bypass_csp=True)
        ctx.add_init_script("localStorage.setItem('dk.paceMs', '0');")
        page = ctx.new_page()
        page.set_default_timeout(20000)
        console.watch(page)
        try:
            _visit_all(page, server_url, Looker(page, label, report))
        finally:
            ctx.close()
    (LOOK / "axe.json").write_text(json.dumps(report, indent=1))
    bad = {k: v for k, v in report.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
    assert console.errors == []
