"""Every screen at 360x740 and 1280x800: axe-core (npm, injected here) finds no serious
or critical violation, and each screen is photographed into artifacts/look/ to be looked at.
"""

from __future__ import annotations

import json
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
    page.wait_for_timeout(150)


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

        def look(name: str, ready: Callable[[], None] = lambda: None) -> None:
            ready()
            _quiet(page)
            page.screenshot(path=str(LOOK / f"{name}-{label}.png"), full_page=True)
            found = _audit(page)
            # Every screen names itself with one h1 (the table's is its round line).
            if page.locator("h1").count() != 1:
                found.append({"id": "one-h1", "impact": "serious", "help": "one h1", "nodes": []})
            report[f"{name}-{label}"] = found

        page.goto(server_url + "/")
        look("welcome", lambda: page.get_by_role("button", name="Ride in").wait_for())
        sign_in(page, server_url, "Audit")
        look("trail")
        for route, heading in (
            ("profile", "Profile & Settings"),
            ("records", "Records"),
            ("gazette", "The Deadwood Knock Gazette"),
            ("rules", "Rules"),
            ("scoring", "Hand Scoring"),
        ):
            page.goto(f"{server_url}/#/{route}")
            look(route, lambda h=heading: page.get_by_role("heading", name=h, exact=True).wait_for())
        page.goto(server_url + "/#/trail")
        page.locator(".towns .table-btn:not([disabled])").first.wait_for()
        page.locator(".towns .table-btn:not([disabled])").first.click()
        look("table", lambda: page.locator(".hand button.card").first.wait_for())
        page.get_by_role("button", name="Leave table").click()
        look("leave", lambda: page.get_by_role("dialog").wait_for())
        ctx.close()
    (LOOK / "axe.json").write_text(json.dumps(report, indent=1))
    bad = {k: v for k, v in report.items() if v}
    assert bad == {}, json.dumps(bad, indent=1)
    assert console.errors == []
