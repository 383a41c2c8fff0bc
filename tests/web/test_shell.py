"""The app around the table: screens, settings, install pieces and the update prompt."""

from __future__ import annotations

import json
import re
from typing import Any

from .helpers import DESKTOP, PHONE, REPO, Console, shot, sign_in, wait_until

# The shell cache's name, read from the service worker (bumped there when the shell changes).
SHELL_CACHE = re.search(
    r'const CACHE = "([^"]+)"', (REPO / "src/deadwood_knock/web/sw.js").read_text()
).group(1)  # type: ignore[union-attr]


def test_screens_render_at_phone_and_desktop(server_url: str, new_page: Any, console: Console):
    for label, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page = new_page(viewport)
        page.goto(server_url + "/")
        page.get_by_role("heading", name="Deadwood Knock").wait_for()
        assert page.get_by_text("Optional — pick one now, or later in your profile.").is_visible()
        shot(page, f"welcome-{label}")
        sign_in(page, server_url)
        # The trail may or may not have content yet; either way the quick tables are open.
        page.get_by_role("button", name="Deadwood Knock Three at the table").wait_for()
        wait_until(page, "!document.querySelector('.loading')")
        shot(page, f"trail-{label}")
        for route, heading in (
            ("profile", "Profile & Settings"),
            ("records", "Records"),
            ("gazette", "The Deadwood Knock Gazette"),
            ("rules", "Rules"),
            ("scoring", "Hand Scoring"),
        ):
            page.goto(f"{server_url}/#/{route}")
            page.get_by_role("heading", name=heading, exact=True).wait_for()
            wait_until(page, "!document.querySelector('.loading')")
            shot(page, f"{route}-{label}")
        # No page is wider than the screen (a 360-px phone must not scroll sideways).
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{label}: page is {width}px wide"
    assert console.errors == []


def test_settings_survive_a_reload(server_url: str, new_page: Any, console: Console):
    page = new_page(PHONE)
    sign_in(page, server_url, "Doc")
    page.get_by_role("link", name="Profile").click()
    page.get_by_role("heading", name="Profile & Settings").wait_for()
    page.get_by_label("Large-Print Cards").check()
    page.get_by_label("Sleight of Hand").check()
    # Only the first back is open to a newcomer; the rest unlock along the trail.
    assert page.get_by_role("radio", name="Card back Drover's Red (locked)").is_disabled()
    page.get_by_role("radio", name="Card back Plain Ledger").click()
    page.get_by_role("radio", name="Tinhorn Gambler").click()
    # The server receives the profile too (it seats Sleight of Hand from it).
    wait_until(
        page,
        "async () => { const s = JSON.parse(localStorage.getItem('dk.settings.v1'));"
        " const auth = {Authorization: 'Bearer ' + s.token};"
        " const r = await fetch('/api/players/me', {headers: auth});"
        " const p = await r.json(); return p.sleight_of_hand && p.card_back === 'plain-ledger'; }",
    )
    page.reload()
    page.get_by_role("heading", name="Profile & Settings").wait_for()
    assert page.get_by_label("Large-Print Cards").is_checked()
    assert page.get_by_label("Sleight of Hand").is_checked()
    assert (
        page.get_by_role("radio", name="Card back Plain Ledger").get_attribute("aria-checked")
        == "true"
    )
    assert page.get_by_role("radio", name="Tinhorn Gambler").get_attribute("aria-checked") == "true"
    shot(page, "profile-large-print-phone")
    # Restart progress asks first, and cancelling changes nothing.
    page.get_by_role("button", name="Restart progress").click()
    dialog = page.get_by_role("dialog", name="Restart progress?")
    dialog.wait_for()
    dialog.get_by_role("button", name="Cancel").click()
    assert page.get_by_role("dialog").count() == 0
    page.get_by_role("button", name="Restart progress").click()
    page.get_by_role("dialog").get_by_role("button", name="Restart").click()
    page.get_by_text("Progress restarted.").wait_for()
    assert console.errors == []


def test_update_prompt_when_server_version_changes(
    server_url: str, new_page: Any, console: Console
):
    # No service worker: with one in control, requests can pass by page.route.
    page = new_page(PHONE, service_workers="block")
    sign_in(page, server_url)
    real = json.loads(page.evaluate("fetch('/api/health').then(r => r.text())"))
    # From now on the server reports a newer version, as after a deploy.
    page.route(
        "**/api/health",
        lambda route: route.fulfill(
            status=200,
            content_type="application/json",
            body=json.dumps({"status": "ok", "version": real["version"] + "-next"}),
        ),
    )
    page.get_by_role("link", name="Rules").click()  # any navigation checks the version
    banner = page.get_by_role("alert").filter(has_text="A new version of Deadwood Knock")
    banner.wait_for()
    shot(page, "update-prompt-phone")
    page.unroute("**/api/health")
    with page.expect_event("load"):
        page.get_by_role("button", name="Update now").click()
    page.get_by_role("heading", name="Rules").wait_for()
    assert page.get_by_role("alert").filter(has_text="A new version").count() == 0
    assert console.errors == []


def test_installable_pieces(server_url: str, new_page: Any, console: Console):
    page = new_page(PHONE)
    page.goto(server_url + "/")
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone"
    sizes = {i["sizes"] for i in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        status = page.evaluate(f"fetch('{icon['src']}').then(r => r.status)")
        assert status == 200, icon
    # The service worker takes control and keeps the shell: an offline reload still starts.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(page, f"caches.has('{SHELL_CACHE}')")
    wait_until(
        page,
        f"caches.open('{SHELL_CACHE}').then(c => c.match('/vendor/preact/dist/preact.mjs'))"
        ".then(r => !!r)",
    )
    page.context.set_offline(True)
    page.reload()
    page.get_by_role("heading", name="Deadwood Knock").wait_for()
    page.context.set_offline(False)
    # Offline, the failed health/network requests are expected; anything else is not.
    assert [e for e in console.errors if "Failed to load resource" not in e] == []


def test_trail_map_and_a_trail_table(server_url: str, new_page: Any, console: Console):
    page = new_page(PHONE)
    sign_in(page, server_url)
    trail = page.evaluate(
        "async () => { const t = JSON.parse(localStorage.getItem('dk.settings.v1')).token;"
        " const r = await fetch('/api/trail', {headers: {Authorization: 'Bearer ' + t}});"
        " return r.ok ? r.json() : null; }"
    )
    if trail is None:
        # Without the trail endpoints the screen says so plainly and quick tables remain.
        page.get_by_text("The trail map hasn't reached this saloon yet.").wait_for()
        return
    town = next(t for t in trail["towns"] if t["id"] == trail["current_town"])
    page.get_by_role("heading", name="Now Playing").wait_for()
    page.get_by_role("heading", name=town["name"]).first.wait_for()
    total = trail["progress"]["tables_total"]
    assert page.get_by_text(f"of {total} tables won").is_visible()
    first, *rest = town["tables"]
    opponents = [o["name"] for o in first["opponents"]]
    # A table's name is what it shows: the venue first, its state ("Open", "Locked") last.
    button = page.get_by_role("button", name=re.compile("^" + re.escape(first["name"]) + " "))
    locked = [t for t in rest if t["status"] == "locked"]
    if locked:
        name = re.compile("^" + re.escape(locked[0]["name"]) + " .*Locked$")
        assert page.get_by_role("button", name=name).is_disabled()
    button.click()
    page.wait_for_url(re.compile(r"#/table/"))
    # The trail's characters sit at the table under their own names and portraits.
    for who in opponents:
        page.locator(".opp-name", has_text=who).wait_for()
    page.get_by_role("img", name=f"Portrait of {opponents[0]}").wait_for()
    shot(page, "trail-table-phone")
    assert console.errors == []


def test_trail_shows_what_each_place_is_its_sources_legends_and_poster_terms(
    server_url: str, new_page: Any, console: Console
):
    page = new_page(PHONE)
    sign_in(page, server_url, "Kit")
    trail = page.evaluate(
        "async () => { const t = JSON.parse(localStorage.getItem('dk.settings.v1')).token;"
        " const r = await fetch('/api/trail', {headers: {Authorization: 'Bearer ' + t}});"
        " return r.json(); }"
    )
    assert "towns" in trail, trail
    town = next(t for t in trail["towns"] if t["id"] == trail["current_town"])
    first = town["tables"][0]
    # Each table says what the place was, and its citations open under it.
    page.get_by_text(first["description"]).wait_for()
    card = page.locator(".tables > li").first
    card.locator("summary", has_text="Sources").click()
    source = first["sources"][0]
    card.get_by_text(source["title"]).wait_for()
    # The poster shows its reward, who offered it and the terms of the gunfight.
    poster = next(w for t in trail["towns"] if t["status"] != "locked" for w in t["wanted"])
    page.get_by_text(f"Reward ${poster['reward']:,}").wait_for()
    page.get_by_text(f"Offered by {poster['offered_by']}, {poster['offered']}").wait_for()
    terms = poster["terms"]
    shown = page.locator(f'[data-poster="{poster["id"]}"] .poster-terms').inner_text()
    assert f"Score to beat\n{terms['score_to_beat']}" in shown, shown
    assert f"Rounds\n{terms['rounds']}" in shown and "Game\nDeadwood Knock" in shown, shown
    # The reward reads once, on the poster's face, not again in its terms.
    assert "Reward" not in shown, shown
    # Towns ahead with a legends table are marked before the player gets there.
    page.get_by_role("button", name=re.compile(r"^Show the \d+ towns ahead$")).click()
    legends = [t["name"] for t in trail["towns"] if any(x.get("legends") for x in t["tables"])]
    ahead = page.locator("ol.ahead > li", has=page.locator(".legends-badge"))
    assert ahead.count() == len(legends) > 0
    for name in legends:
        assert ahead.filter(has_text=name).count() == 1
    shot(page, "trail-sources-legends-phone")
    assert console.errors == []
