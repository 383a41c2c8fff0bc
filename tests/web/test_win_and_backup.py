"""Two features checked in real Chromium: the screen after a won match, and Cloud Backup.

The win is earned by clicks against the ``random`` bot over a one-round, two-seat table, so
each attempt is short; a lost attempt just starts another table. The backup test reads the
one-time code from a real SMTP server (aiosmtpd) that a server of its own mails to.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import _free_port, run_server
from .helpers import DESKTOP, PHONE, Console, shot, sign_in, wait_until

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

DONE = re.compile(r"Nice win!|A shared win!|Match Complete")
CODE = re.compile(r"\b(\d{6})\b")
# Points a card counts as deadwood: faces ten, aces one; jokers (never deadwood here) last.
POINTS = {"A": 1, "J": 10, "Q": 10, "K": 10}
ATTEMPTS = 12


def _title(page: Any) -> str | None:
    dialog = page.get_by_role("dialog")
    if dialog.count() == 0:
        return None
    try:
        return str(dialog.locator("h2").first.inner_text(timeout=2000))
    except PlaywrightTimeout:
        return None


def _enabled(locator: Any) -> bool:
    # A re-render can remove the control between the two calls: that counts as "not now".
    try:
        return bool(locator.count() and locator.first.is_enabled(timeout=1000))
    except PlaywrightTimeout:
        return False


def _points(label: str) -> int:
    rank = label[len("Discard ") : -1]
    if not rank or (rank not in POINTS and not rank.isdigit()):
        return -1
    return POINTS.get(rank) or int(rank)


def _deadwood_shown(page: Any) -> set[str]:
    """The cards Hand Focus lists as deadwood, as the hand's labels name them."""
    focus = page.locator(".focus-cards")
    if focus.count() == 0:
        return set()
    try:
        # On a phone Hand Focus is a closed sheet: its text is there, not shown.
        text = str(focus.first.text_content(timeout=1000))
    except PlaywrightTimeout:
        return set()
    _, _, dead = text.partition("Deadwood:")
    return set(dead.split())


def _play_turn(page: Any) -> None:
    """Knock whenever allowed; call a knock; show the suggested hand; otherwise throw the
    costliest deadwood card (as Hand Focus shows it) and draw from the stock."""
    call = page.get_by_role("button", name="Call", exact=True)
    show = page.get_by_role("button", name="Show hand")
    knock = page.get_by_role("button", name="Knock", exact=True)
    if _enabled(call):
        call.click(timeout=3000)
    elif _enabled(show):
        show.click(timeout=3000)
    elif _enabled(knock):
        knock.click(timeout=3000)
    else:
        cards = page.locator(".hand button.card:not([disabled])")
        labels = [str(c.get_attribute("aria-label") or "") for c in cards.all()]
        if not labels or not all(label.startswith("Discard ") for label in labels):
            return
        dead = _deadwood_shown(page)
        pool = [i for i, label in enumerate(labels) if label[len("Discard ") :] in dead]
        pick = max(pool or range(len(labels)), key=lambda i: _points(labels[i]))
        cards.nth(pick).click(timeout=3000)
        page.get_by_role("button", name="Draw from stock").click(timeout=3000)


def _new_quick_match(page: Any, base: str) -> None:
    """A two-seat, one-round Deadwood Knock table against the random bot, then open it."""
    # The client's own API module: it registers the player first if that hasn't happened yet.
    made = page.evaluate(
        """async () => {
            const api = await import('/app/api.js');
            return api.createMatch('deadwood-knock', ['random'], {rounds: 1});
        }"""
    )
    page.goto(f"{base}/#/table/{made['match_id']}")
    page.get_by_role("button", name="Leave table").wait_for()


def _play_match(page: Any, budget_s: float = 60) -> str:
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        title = _title(page)
        if title and DONE.search(title):
            return title
        if title in ("Showdown", "Hand over"):
            with contextlib.suppress(PlaywrightTimeout):
                page.get_by_role("dialog").get_by_role("button", name="Continue").click(
                    timeout=2000
                )
            continue
        if title and title.startswith("Knock"):
            # The costly-knock question: knock anyway.
            with contextlib.suppress(PlaywrightTimeout):
                page.get_by_role("dialog").get_by_role("button", name="Knock", exact=True).click(
                    timeout=2000
                )
            continue
        live = ".actions button:not([disabled]), .hand button.card:not([disabled]), .prompt button"
        if page.locator(live).count():
            try:
                _play_turn(page)
            except PlaywrightTimeout:
                # The table moved on under the click (a bot acted, a dialog opened): look again.
                continue
        else:
            page.wait_for_timeout(50)
    raise AssertionError("the one-round match did not finish in time")


@pytest.mark.parametrize("viewport,label", [(PHONE, "phone"), (DESKTOP, "desktop")])
def test_a_won_match_says_so_and_offers_the_app_shortcut(
    server_url: str, new_page: Any, console: Console, viewport: dict[str, int], label: str
) -> None:
    page = new_page(viewport)
    sign_in(page, server_url, "Annie Oakley")
    outcomes = []
    for _ in range(ATTEMPTS):
        _new_quick_match(page, server_url)
        title = _play_match(page)
        outcomes.append(title)
        if title == "Nice win!":
            break
    else:
        raise AssertionError(f"no win in {ATTEMPTS} one-round tables: {outcomes}")
    dialog = page.get_by_role("dialog", name="Nice win!")
    dialog.get_by_text("You took the table.").wait_for()
    # The summary: both seats with their totals, ours first as the winner's.
    rows = dialog.locator(".summary li")
    assert rows.count() == 2
    assert re.fullmatch(r"You: −?\d+", rows.first.inner_text().strip())
    # The App Shortcut hint shows after a win (the first one this browser has seen).
    hint = dialog.get_by_role("note")
    assert hint.get_by_text("App Shortcut").is_visible()
    assert "home screen" in hint.inner_text()
    assert dialog.get_by_text("Tap outside to return to town.").is_visible()
    shot(page, f"match-won-{label}")
    # Tapping outside the dialog goes back to town.
    page.mouse.click(3, 3)
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    assert console.errors == []


class _Inbox:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(envelope)
        return "250 OK"


@pytest.fixture(scope="module")
def mail_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, _Inbox]]:
    """A server of its own whose one-time codes go to a local SMTP server we can read."""
    from aiosmtpd.controller import Controller

    inbox = _Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    env = {
        "DEADWOOD_SMTP_HOST": "127.0.0.1",
        "DEADWOOD_SMTP_PORT": str(port),
        "DEADWOOD_SMTP_SECURITY": "none",
    }
    data: Path = tmp_path_factory.mktemp("mail-server-data")
    try:
        with run_server(data, env) as url:
            yield url, inbox
    finally:
        controller.stop()


def _code_for(page: Any, inbox: _Inbox, address: str, seen: int) -> str:
    """The six digits of the newest message to ``address`` after the first ``seen``."""
    deadline = time.monotonic() + 15
    while len(inbox.messages) <= seen:
        assert time.monotonic() < deadline, "no code was mailed"
        page.wait_for_timeout(50)
    envelope = inbox.messages[-1]
    assert envelope.rcpt_tos == [address]
    found = CODE.search(envelope.content.decode())
    assert found is not None
    return found.group(1)


def test_cloud_backup_links_and_restores_on_a_fresh_browser(
    mail_server: tuple[str, _Inbox], new_page: Any, console: Console
) -> None:
    base, inbox = mail_server
    address = "annie@example.org"
    # Device one: a profile with a name, backed up by email and code.
    page = new_page(PHONE)
    sign_in(page, base, "Annie Oakley")
    page.get_by_role("link", name="Profile").click()
    page.get_by_role("heading", name="Cloud Backup").wait_for()
    page.get_by_label("Back up this profile").check()
    page.get_by_label("Email", exact=True).fill(address)
    seen = len(inbox.messages)
    page.get_by_role("button", name="Send code").click()
    page.get_by_role("status").filter(has_text="Code sent").wait_for()
    page.get_by_label("Code", exact=True).fill(_code_for(page, inbox, address, seen))
    page.get_by_role("button", name="Verify").click()
    page.get_by_role("status").filter(has_text="now linked to your email").wait_for()
    shot(page, "backup-linked-phone")

    # Device two: its own storage and a different name, then restore from the address.
    other = new_page(PHONE)
    sign_in(other, base, "Stranger")
    other.get_by_role("link", name="Profile").click()
    other.get_by_role("heading", name="Cloud Backup").wait_for()
    assert other.get_by_label("Name", exact=True).input_value() == "Stranger"
    # This browser's own choice, which the restored profile (no likeness) must not keep.
    other.get_by_role("radio", name="Prospector").click()
    assert other.get_by_role("radio", name="Prospector").get_attribute("aria-checked") == "true"
    other.get_by_label("Restore a backup here").check()
    other.get_by_label("Email", exact=True).fill(address)
    seen = len(inbox.messages)
    other.get_by_role("button", name="Send code").click()
    other.get_by_role("status").filter(has_text="Code sent").wait_for()
    other.get_by_label("Code", exact=True).fill(_code_for(other, inbox, address, seen))
    other.get_by_role("button", name="Verify").click()
    other.get_by_role("status").filter(has_text="Restored").wait_for()
    # The same profile, on screen and as the server knows this browser now.
    assert other.get_by_label("Name", exact=True).input_value() == "Annie Oakley"
    assert other.locator('.likeness-grid [aria-checked="true"]').count() == 0
    assert other.locator('.backs [aria-checked="true"]').count() == 1
    shot(other, "backup-restored-phone")
    ids = [
        p.evaluate("JSON.parse(localStorage.getItem('dk.settings.v1')).playerId")
        for p in (page, other)
    ]
    assert ids[0] == ids[1]

    # Device one sees both devices and signs the other one out.
    page.reload()
    devices = page.locator(".devices li")
    page.get_by_role("heading", name="Signed-in Devices").wait_for()
    wait_until(page, "document.querySelectorAll('.devices li').length === 2")
    assert devices.filter(has_text="(this device)").count() == 1
    assert page.get_by_role("button", name=re.compile(r"^Sign out .*signed in")).count() == 1
    shot(page, "devices-phone")
    page.get_by_role("button", name="Sign out other devices").click()
    page.get_by_role("status").filter(has_text="Signed out 1 device.").wait_for()
    wait_until(page, "document.querySelectorAll('.devices li').length === 1")
    assert console.errors == []
    # The other browser's token no longer opens the profile.
    status = other.evaluate(
        """async () => {
          const { token } = JSON.parse(localStorage.getItem('dk.settings.v1'));
          const auth = { Authorization: 'Bearer ' + token };
          return (await fetch('/api/players/me', { headers: auth })).status;
        }"""
    )
    assert status == 401


def test_restore_from_the_welcome_screen(
    mail_server: tuple[str, _Inbox], new_page: Any, console: Console
) -> None:
    base, inbox = mail_server
    address = "belle@example.org"
    page = new_page(PHONE)
    sign_in(page, base, "Belle Starr")
    page.get_by_role("link", name="Profile").click()
    page.get_by_label("Back up this profile").check()
    page.get_by_label("Email", exact=True).fill(address)
    seen = len(inbox.messages)
    page.get_by_role("button", name="Send code").click()
    page.get_by_label("Code", exact=True).fill(_code_for(page, inbox, address, seen))
    page.get_by_role("button", name="Verify").click()
    page.get_by_role("status").filter(has_text="now linked to your email").wait_for()

    # A fresh browser restores on the welcome screen, with no player of its own made first.
    other = new_page(PHONE)
    other.goto(base + "/")
    other.get_by_role("button", name="Restore from backup").click()
    other.get_by_label("Email", exact=True).fill(address)
    seen = len(inbox.messages)
    other.get_by_role("button", name="Send code").click()
    other.get_by_role("status").filter(has_text="Code sent").wait_for()
    other.get_by_label("Code", exact=True).fill(_code_for(other, inbox, address, seen))
    other.get_by_role("button", name="Restore").click()
    other.get_by_role("heading", name="The Trail", exact=True).wait_for()
    assert other.get_by_text("Howdy, Belle Starr").is_visible()
    ids = [
        p.evaluate("JSON.parse(localStorage.getItem('dk.settings.v1')).playerId")
        for p in (page, other)
    ]
    assert ids[0] == ids[1]
    assert console.errors == []
