"""Playing at the table by clicks only, as a person would (keyboard and pointer)."""

from __future__ import annotations

import contextlib
import json
import re
import time
from typing import Any

import pytest

from .helpers import (
    DESKTOP,
    PHONE,
    Console,
    controls_out_of_view,
    shot,
    sign_in,
    table_version,
    wait_until,
)

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

DONE = re.compile(r"Nice win!|A shared win!|Match Complete")


def start_quick_table(page: Any, base: str, title: str) -> None:
    sign_in(page, base)
    quick = {"Deadwood Knock": "quick-dk", "Knock Rummy": "quick-kr", "Gin": "quick-gin"}
    page.locator(f'.table-btn[data-table="{quick[title]}"]').click()
    page.wait_for_url(re.compile(r"#/table/"))
    page.get_by_role("region").first.wait_for()


def dialog_title(page: Any) -> str | None:
    dialog = page.get_by_role("dialog")
    if dialog.count() == 0:
        return None
    return str(dialog.locator("h2").first.inner_text())


def enabled(locator: Any) -> bool:
    # The control can leave the page between the two calls (a re-render): that is "not now".
    try:
        return bool(locator.count() and locator.first.is_enabled(timeout=2000))
    except PlaywrightTimeout:
        return False


def play_dk_turn(page: Any, shots: dict[str, bool], label: str, check: Any = None) -> None:
    """One decision from what the screen offers: knock when allowed, else a discard and a
    draw, call when asked, show the suggested hand at a showdown. ``check(page)`` runs when
    the turn's controls are up, and again once a card is picked."""
    if check is not None:
        check(page)
    knock = page.get_by_role("button", name="Knock", exact=True)
    call = page.get_by_role("button", name="Call", exact=True)
    show = page.get_by_role("button", name="Show hand")
    stand = page.get_by_role("button", name="Stand")
    if enabled(call):
        if not shots.get("call"):
            shots["call"] = True
            shot(page, f"table-call-{label}")
        call.click(timeout=3000)
    elif enabled(show):
        show.click(timeout=3000)
    elif enabled(knock):
        if not shots.get("knock"):
            shots["knock"] = True
            shot(page, f"table-dk-{label}")
        knock.click(timeout=3000)
    elif enabled(stand) and not shots.get("stood"):
        shots["stood"] = True
        stand.click(timeout=3000)
    else:
        cards = page.locator(".hand button.card:not([disabled])")
        if cards.count() == 0:
            return
        card = cards.nth(cards.count() - 1)
        name = card.get_attribute("aria-label") or ""
        assert name.startswith("Discard "), name
        card.click(timeout=3000)
        assert card.get_attribute("aria-pressed") == "true"
        if check is not None:
            check(page)
        page.get_by_role("button", name="Draw from stock").click(timeout=3000)


def confirm_knock(page: Any, title: str | None) -> bool:
    """The costly-knock question ("Knock with high card for −20?"): knock anyway."""
    if not title or not title.startswith("Knock"):
        return False
    page.get_by_role("dialog").get_by_role("button", name="Knock", exact=True).click(timeout=3000)
    return True


def play_until_over(
    page: Any, label: str, turn: Any, budget_s: float = 150, one_round: bool = False
) -> str:
    shots: dict[str, bool] = {}
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        title = dialog_title(page)
        if title and DONE.search(title):
            return title
        if confirm_knock(page, title):
            continue
        if title in ("Showdown", "Hand over"):
            # Opened, the result reads from its title down, with Continue in reach: a tall
            # showdown keeps its button at the dialog's foot instead of scrolling to it.
            dialog = page.get_by_role("dialog")
            head = dialog.locator("h2").first.bounding_box()
            go = dialog.get_by_role("button", name="Continue").bounding_box()
            height = page.viewport_size["height"]
            box = dialog.bounding_box()
            assert box and head and head["y"] >= box["y"], (head, box)
            assert go and go["y"] + go["height"] <= height, go
            if not shots.get("showdown"):
                shots["showdown"] = True
                shot(page, f"showdown-{label}")
                if one_round:
                    return title
            page.get_by_role("dialog").get_by_role("button", name="Continue").click(timeout=3000)
            continue
        if page.locator(".banner.final").count() and not shots.get("final"):
            shots["final"] = True
            shot(page, f"final-turn-{label}")
        live = ".actions button:not([disabled]), .hand button.card:not([disabled]), .prompt button"
        if page.locator(live).count():
            try:
                turn(page, shots, label)
            except PlaywrightTimeout:
                # The table moved on under the click (a dialog opened, a bot acted): look again.
                continue
        else:
            page.wait_for_timeout(100)
    raise AssertionError("the match did not finish in time")


def test_deadwood_knock_round_at_desktop_size(server_url: str, new_page: Any, console: Console):
    page = new_page(DESKTOP)
    start_quick_table(page, server_url, "Deadwood Knock")
    page.get_by_text("Round 1 of 10").wait_for()
    shot(page, "table-start-desktop")
    checked = []

    def in_view(page: Any) -> None:
        # Hand Focus stands beside the felt: however long its hint, the screen does not
        # scroll and every control stays in view (a long hint scrolls inside its panel).
        if dialog_title(page) is not None:
            return
        with contextlib.suppress(PlaywrightTimeout):
            page.locator('aside[aria-label="Hand Focus"] .advice').wait_for(timeout=10000)
        if not checked:  # the longest hint there could be: a panel's height of text
            page.evaluate(
                """() => {
                    const extra = document.createElement('p');
                    extra.className = 'test-long-hint';
                    extra.style.height = '2000px';
                    document.querySelector('aside[aria-label="Hand Focus"]').append(extra);
                }"""
            )
        out = controls_out_of_view(page)
        if out:
            shot(page, "FAILED-off-screen-desktop")
        page.evaluate("() => document.querySelector('.test-long-hint')?.remove()")
        assert not out, out
        checked.append(table_version(page))

    def turn(page: Any, shots: dict[str, bool], label: str) -> None:
        play_dk_turn(page, shots, label, check=in_view)

    title = play_until_over(page, "desktop", turn, one_round=True)
    assert checked
    assert title == "Showdown"
    dialog = page.get_by_role("dialog")
    # Each seat's poker hand and deadwood, and the arithmetic of its round score.
    assert dialog.locator(".sd-row").count() == 3
    assert (
        dialog.locator(".sd-math").filter(has_text=re.compile(r"hand [−+] \d+ deadwood")).count()
        == 3
    )
    assert console.errors == []


def test_an_upright_tablet_holds_the_hand_in_one_row_of_big_cards(
    server_url: str, new_page: Any, console: Console
):
    """At 768 x 1024 the phone's layout used to hold eight 74-px cards in two rows of four in
    the middle of a wide felt; a tablet holds them in one row, each about 90 px wide."""
    page = new_page({"width": 768, "height": 1024})
    start_quick_table(page, server_url, "Deadwood Knock")
    wait_until(page, "document.querySelectorAll('.hand button.card').length === 8")
    boxes = page.evaluate(
        """[...document.querySelectorAll('.hand button.card')].map((b) => {
            const r = b.getBoundingClientRect();
            return [Math.round(r.top), r.width];
        })"""
    )
    assert len({top for top, _ in boxes}) == 1, boxes
    assert min(width for _, width in boxes) >= 85, boxes
    assert controls_out_of_view(page) == []
    assert console.errors == []


@pytest.mark.parametrize(
    "short",
    [(360, 640), (320, 568), (740, 360), (1280, 650)],
    ids=["phone", "smallest-phone", "phone-on-its-side", "laptop"],
)
def test_a_short_screen_fits_every_turn_of_a_round(
    server_url: str, new_page: Any, console: Console, short: tuple[int, int]
):
    """A 740-px phone whose browser keeps its address bar and tabs shows about 640 px, a
    1366 x 768 laptop's browser about 650, a phone on its side 360, the smallest phones
    (320 x 568) less still: the cards and piles shrink there (on its side the hand runs in
    one row beside the piles; on the smallest the talk line and the pot's rule give way, the
    log and the Rules page keep them), so every turn's
    controls still fit with no scrolling (they did not: the phone's page was 680-730 px tall,
    on its side 470-510 with Stand or Knock below the screen, and on the laptop the call
    prompt's buttons were below it)."""
    page = new_page({"width": short[0], "height": short[1]})
    start_quick_table(page, server_url, "Deadwood Knock")
    page.get_by_text("Round 1 of 10").wait_for()
    _a_round_fits(page, f"{short[0]}x{short[1]}", f"short-{short[0]}")
    assert console.errors == []


def _a_round_fits(page: Any, size: str, label: str) -> None:
    """Play a round by clicks, checking on every turn that each control is on screen."""
    checked: list[int] = []

    def in_view(page: Any) -> None:
        if dialog_title(page) is not None:
            return
        out = controls_out_of_view(page)
        if out:
            shot(page, f"FAILED-off-screen-{size}")
        assert not out, f"off screen at version {table_version(page)}: {out}"
        checked.append(table_version(page))

    def turn(page: Any, shots: dict[str, bool], label: str) -> None:
        play_dk_turn(page, shots, label, check=in_view)

    play_until_over(page, label, turn, one_round=True)
    assert checked


@pytest.mark.parametrize(
    ("size", "large"),
    [
        ((360, 740), False),
        ((360, 740), True),
        ((360, 640), False),
        ((320, 568), False),
        ((740, 360), False),
    ],
    ids=["phone", "phone-large-print", "short-phone", "smallest-phone", "phone-on-its-side"],
)
def test_six_at_the_table_fit_every_turn_of_a_round_on_a_phone(
    server_url: str, new_page: Any, console: Console, size: tuple[int, int], large: bool
) -> None:
    """Deadwood Knock for six on a phone, at the trail's last table (Deadwood's six-seat
    venue, its own characters): the five opponents sit in one row of narrow seats, so every
    turn's controls fit without scrolling (in rows of two the seats took 195 px and Stand was
    below a 740-px screen, 105 px below with large-print cards). With the room, each name
    reads whole on two lines."""
    from deadwood_knock.content.loader import load_content

    (venue,) = [v for v in load_content().venues if len(v.table.opponents) == 5]
    table = [f"figure:{figure}" for figure in venue.table.opponents]
    names = [load_content().figure_by_id[figure].name for figure in venue.table.opponents]
    page = new_page({"width": size[0], "height": size[1]})
    sign_in(page, server_url)
    if large:
        page.get_by_role("link", name="Profile").click()
        page.get_by_label("Large-Print Cards").check()
    match_id = page.evaluate(
        """async (table) => {
            const api = await import('/app/api.js');
            const made = await api.createMatch('deadwood-knock', table, {});
            return made.match_id;
        }""",
        table,
    )
    page.goto(f"{server_url}/#/table/{match_id}")
    page.get_by_text("Round 1 of 10").wait_for()
    seats = page.locator(".opponents .opponent")
    assert seats.count() == 5
    tops = {round(box["y"]) for box in (seats.nth(i).bounding_box() for i in range(5)) if box}
    assert len(tops) == 1, tops  # one row
    if size[1] > 700 and size[0] < 900:
        shown = page.evaluate(
            """() => [...document.querySelectorAll('.opponents .opp-name')].map((n) =>
                n.scrollHeight <= n.clientHeight + 1 && n.scrollWidth <= n.clientWidth + 1)"""
        )
        whole = [name for name, fits in zip(names, shown, strict=True) if fits]
        assert len(whole) >= 4, (names, shown)  # "Colorado Charlie" may lose its last letters
    _a_round_fits(page, f"six-{size[0]}x{size[1]}", f"six-{size[1]}{'-large' if large else ''}")
    assert console.errors == []


def test_two_long_names_read_whole_beside_each_other_on_a_phone(
    server_url: str, new_page: Any, console: Console
) -> None:
    """Two opponents side by side at 360 x 740: a long name breaks at a space onto a second
    line ("Mysterious Dave / Mather"), where it was cut to "Mysterious Da…", and a round
    still fits every turn, the call question included."""
    table = ["figure:dave-mather", "figure:charlie-utter"]
    page = new_page(PHONE)
    sign_in(page, server_url)
    match_id = page.evaluate(
        """async (table) => {
            const api = await import('/app/api.js');
            return (await api.createMatch('deadwood-knock', table, {})).match_id;
        }""",
        table,
    )
    page.goto(f"{server_url}/#/table/{match_id}")
    page.get_by_text("Round 1 of 10").wait_for()
    whole = page.evaluate(
        """() => [...document.querySelectorAll('.opponents .opp-name')].map((n) =>
            [n.textContent, n.scrollHeight <= n.clientHeight + 1
                && n.scrollWidth <= n.clientWidth + 1])"""
    )
    assert [name for name, _ in whole] == ["Mysterious Dave Mather", "Colorado Charlie Utter"]
    assert all(fits for _, fits in whole), whole
    _a_round_fits(page, "two-long-360x740", "two-long-names")
    assert console.errors == []


def test_whole_deadwood_knock_match_by_clicks(server_url: str, new_page: Any, console: Console):
    """Ten rounds by clicks on a 360 x 740 phone, with Sleight of Hand on (so Palm comes up):
    on every turn, everything the player must press is inside the screen, no scrolling."""
    viewport, label = PHONE, "phone"
    page = new_page(viewport)
    sign_in(page, server_url)
    page.get_by_role("link", name="Profile").click()
    page.get_by_label("Sleight of Hand").check()
    page.get_by_role("link", name="Trail").click()
    page.locator('.table-btn[data-table="quick-dk"]').click()
    page.wait_for_url(re.compile(r"#/table/"))
    page.get_by_text("Round 1 of 10").wait_for()
    seen: dict[str, int] = {}

    def in_view(page: Any) -> None:
        if dialog_title(page) is not None:
            return
        out = controls_out_of_view(page)
        if out:
            shot(page, "FAILED-off-screen-phone")
        assert not out, f"off screen at version {table_version(page)}: {out}"
        seen["turns"] = seen.get("turns", 0) + 1
        # The hand holds its poker hand as it reads (a straight low to high, a full house
        # its three first): the order Hand Focus prints, which is the engine's.
        held, told = page.evaluate(
            """() => [
                [...document.querySelectorAll('.hand button.card.grp')]
                    .map((b) => b.getAttribute('aria-label').replace(/^Discard /, '')),
                (document.querySelector('.focus-cards')?.textContent || '')
                    .split('Poker hand:')[1]?.split('Deadwood:')[0]?.trim().split(/\\s+/) || [],
            ]"""
        )
        assert held == told, (held, told)
        if held:
            seen["held"] = seen.get("held", 0) + 1
        for name in ("Knock", "Stand", "Call", "Fold", "Palm the buried card"):
            if page.get_by_role("button", name=name, exact=True).count():
                seen[name] = seen.get(name, 0) + 1
        # A remark reads whole on a 740-px phone (two lines), but for the call question.
        cut = page.evaluate(
            """() => {
                const line = document.querySelector('.talk-line');
                if (!line || !line.textContent || document.querySelector('.prompt')) return null;
                const cut = line.scrollHeight > line.clientHeight + 1
                    || line.scrollWidth > line.clientWidth + 1;
                return cut ? line.textContent : false;
            }"""
        )
        assert not cut, f"the remark is cut off: {cut}"
        if cut is False:
            seen["remarks"] = seen.get("remarks", 0) + 1

    def turn(page: Any, shots: dict[str, bool], label: str) -> None:
        play_dk_turn(page, shots, label, check=in_view)

    page.locator('aside[aria-label="Hand Focus"]').wait_for(state="attached")
    # The discard pile and stock say what they do; eight cards, each named by what a click does.
    assert page.get_by_role("button", name="Draw from stock").count() == 1
    assert page.get_by_role("button", name=re.compile(r"^Take discard .+[♠♥♦♣]$|Joker")).count()
    wait_until(page, "document.querySelectorAll('.hand button.card').length === 8")
    shot(page, f"table-start-{label}")
    title = play_until_over(page, label, turn, budget_s=240)
    shot(page, f"match-complete-{label}")
    # Checked on every turn, with the knock, final-turn and call prompts among them.
    assert seen["turns"] >= 10 and seen.get("Call", 0) + seen.get("Knock", 0) >= 1, seen
    assert seen.get("held", 0) >= 5, seen
    assert seen.get("remarks", 0) >= 3, seen
    dialog = page.get_by_role("dialog")
    assert dialog.get_by_text("Tap outside to return to town.").is_visible()
    # The summary lists every seat with its total.
    assert dialog.locator(".summary li").count() == 3
    if title == "Nice win!":
        assert dialog.get_by_text("App Shortcut").is_visible()
    # Tapping outside the dialog goes back to town.
    page.mouse.click(5, 5)
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    assert console.errors == []


def test_knock_rummy_hand_by_clicks(server_url: str, new_page: Any, console: Console):
    page = new_page(DESKTOP)
    start_quick_table(page, server_url, "Knock Rummy")
    page.get_by_text(re.compile(r"Hand 1")).wait_for()
    wait_until(page, "document.querySelectorAll('.hand button.card').length === 10")
    turns = 0
    deadline = time.monotonic() + 90
    while (title := dialog_title(page)) != "Hand over":
        assert time.monotonic() < deadline, "the hand did not end"
        stock = page.get_by_role("button", name="Draw from stock")
        try:
            if confirm_knock(page, title):
                continue
            if enabled(stock):
                stock.click(timeout=3000)
                # Eleven cards now; the cards that may be discarded become selectable.
                wait_until(
                    page,
                    "document.querySelectorAll('.hand button.card:not([disabled])').length === 11",
                )
                if turns == 0:
                    shot(page, "table-kr-desktop")
                card = page.locator(".hand button.card:not([disabled])").last
                label = card.get_attribute("aria-label") or ""
                assert label.startswith("Select "), label
                card.click(timeout=3000)
                knock = page.get_by_role("button", name="Knock", exact=True)
                turns += 1
                if turns >= 3 and enabled(knock):
                    knock.click(timeout=3000)
                else:
                    # The discard button names the card it will throw.
                    page.get_by_role("button", name="Discard " + label[len("Select ") :]).click(
                        timeout=3000
                    )
            else:
                page.wait_for_timeout(100)
        except PlaywrightTimeout:
            continue
    dialog = page.get_by_role("dialog")
    shot(page, "kr-hand-over-desktop")
    # Luke Short has his say if the hand had one winner (see check_round_remark).
    check_round_remark(page, opponents_lines(page))
    # Every hand is laid out: melds (if any), deadwood and the count, with the hand score.
    assert dialog.locator(".sd-row").count() == 2
    assert dialog.get_by_text(re.compile(r"Count \d+")).count() == 2
    dialog.get_by_role("button", name="Continue").click()
    assert page.get_by_role("dialog").count() == 0
    assert console.errors == []


def match_view(page: Any) -> Any:
    """The server's view of the match on screen, read with the page's own token."""
    return page.evaluate(
        """async () => {
            const id = decodeURIComponent(location.hash.split('/table/')[1]);
            const token = JSON.parse(localStorage.getItem('dk.settings.v1')).token;
            const auth = {Authorization: 'Bearer ' + token};
            const r = await fetch('/api/matches/' + id, {headers: auth});
            return r.json();
        }"""
    )


def test_a_turn_by_keyboard_alone(server_url: str, new_page: Any, console: Console):
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    # Wait for our first turn (a bot to the dealer's left may act first).
    page.locator(".hand button.card:not([disabled])").first.wait_for()
    page.locator(".hand button.card").first.focus()
    card_name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert card_name.startswith("Discard ")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    # Tab backwards from the hand reaches the piles: discard pile first, then the stock.
    for _ in range(10):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("document.activeElement.getAttribute('aria-label')") == "Draw from stock":
            break
    else:
        raise AssertionError("the stock is not reachable by keyboard")
    page.keyboard.press("Enter")
    card = card_name[len("Discard ") :]
    notation = page.evaluate(
        "(c) => { const r = c.slice(0, -1) === '10' ? 'T' : c.slice(0, -1);"
        " return r + {'♠': 's', '♥': 'h', '♦': 'd', '♣': 'c'}[c.slice(-1)]; }",
        card,
    )
    view = wait_until(
        page,
        """async () => {
            const id = decodeURIComponent(location.hash.split('/table/')[1]);
            const token = JSON.parse(localStorage.getItem('dk.settings.v1')).token;
            const auth = {Authorization: 'Bearer ' + token};
            const r = await fetch('/api/matches/' + id, {headers: auth});
            const v = await r.json();
            return v.recent_events.some(e => e.type === 'discard' && e.seat === 0) ? v : null;
        }""",
    )
    mine = [e for e in view["recent_events"] if e["type"] == "discard" and e["seat"] == 0]
    assert mine[0]["card"] == notation
    assert console.errors == []


def test_leave_table_flow(server_url: str, new_page: Any, console: Console):
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    table_url = page.url
    leave = page.get_by_role("button", name="Leave table")
    # Stay: the dialog closes and the table carries on.
    leave.click()
    dialog = page.get_by_role("dialog", name="Leave Table?")
    dialog.wait_for()
    shot(page, "leave-dialog-phone")
    assert [b.inner_text() for b in dialog.get_by_role("button").all()] == [
        "Take a break",
        "Stay",
        "Forfeit…",
    ]
    dialog.get_by_role("button", name="Stay").click()
    assert page.get_by_role("dialog").count() == 0
    # Escape is the keyboard's way to stay.
    leave.click()
    dialog.wait_for()
    # The dialog takes focus once it has rendered; a person presses Escape after that.
    wait_until(page, "!!(document.activeElement && document.activeElement.closest('.modal'))")
    page.keyboard.press("Escape")
    assert page.get_by_role("dialog").count() == 0
    # Take a break: back to town, and the match is still there to come back to.
    leave.click()
    dialog.get_by_role("button", name="Take a break").click()
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    page.goto(table_url)
    page.get_by_role("button", name="Leave table").wait_for()
    assert match_view(page)["status"] == "active"
    # Forfeit asks once more, then the match ends as our loss and says so at the table.
    page.get_by_role("button", name="Leave table").click()
    page.get_by_role("dialog").get_by_role("button", name="Forfeit…").click()
    page.get_by_role("dialog", name="Forfeit this table?").get_by_role(
        "button", name="Forfeit and take the loss"
    ).click()
    page.get_by_role("dialog", name="Match Complete").wait_for()
    page.goto(server_url + "/#/trail")
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    page.goto(table_url)
    page.get_by_role("button", name="Leave table").wait_for()
    view = match_view(page)
    assert view["status"] == "finished"
    assert view["result"]["forfeited_by"] == view["seat"]
    page.get_by_role("dialog", name="Match Complete").wait_for()
    page.goto(server_url + "/#/records")
    page.get_by_role("heading", name="Trail Record").wait_for()
    # The server's record of every match, not just this browser's, in its own panel: under
    # "Trail Record" its "Tables 1 · Wins 1" (a custom table won) read against the trail's
    # "Tables won 0 / 99".
    every = page.locator(".card-panel", has_text="Every Match")
    every.get_by_text("Matches", exact=True).wait_for()
    assert every.locator(".stats div", has_text="Lost").inner_text().endswith("1")
    trail = page.locator(".card-panel", has_text="Trail Record")
    assert trail.get_by_text("Matches", exact=True).count() == 0
    assert console.errors == []


def draw_from_stock_on_our_turn(page: Any) -> None:
    """Knock Rummy / Gin: wait for the turn, then draw from the stock."""
    stock = page.get_by_role("button", name="Draw from stock")
    deadline = time.monotonic() + 30
    while not stock.is_enabled():
        assert time.monotonic() < deadline, "our turn never came"
        page.wait_for_timeout(100)
    stock.click()


def hand_reads_on_a_phone(page: Any, cards: int) -> None:
    """Ten or eleven cards on a 360-px phone: two rows of cards at least 64 px wide (54 px
    before the hand was fanned), all on screen, each one's corner index (its top left) not
    covered by its neighbour."""
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('.hand .card')].map((c) => {
            const r = c.getBoundingClientRect();
            const hit = document.elementFromPoint(r.left + 6, r.top + 14);
            return {left: r.left, right: r.right, top: Math.round(r.top), width: r.width,
                    corner: Boolean(hit && hit.closest('.card') === c)};
        })"""
    )
    assert len(boxes) == cards
    assert min(b["width"] for b in boxes) >= 64, boxes
    assert len({b["top"] for b in boxes}) <= 2, boxes
    assert all(b["left"] >= 0 and b["right"] <= PHONE["width"] for b in boxes), boxes
    assert all(b["corner"] for b in boxes), boxes
    # A drawn card's NEW tag reads whole wherever the card sits: tagged here on the second
    # card (its neighbour covers its right edge), the tag's middle is still that card's.
    tag = page.evaluate(
        """() => {
            const card = document.querySelectorAll('.hand .card')[1];
            const had = card.classList.contains('drawn');
            card.classList.add('drawn');
            const after = getComputedStyle(card, '::after');
            const r = card.getBoundingClientRect();
            const x = r.right - parseFloat(after.right) - parseFloat(after.width) / 2;
            const hit = document.elementFromPoint(x, r.top - 7 + parseFloat(after.height) / 2);
            if (!had) card.classList.remove('drawn');
            return Boolean(hit && hit.closest('.card') === card);
        }"""
    )
    assert tag


def test_gin_table_turn_by_clicks(server_url: str, new_page: Any, console: Console):
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Gin")
    page.get_by_text("Gin · to 100", exact=True).wait_for()
    page.locator('aside[aria-label="Your count"]').wait_for(state="attached")
    draw_from_stock_on_our_turn(page)
    wait_until(page, "document.querySelectorAll('.hand button.card:not([disabled])').length >= 11")
    hand_reads_on_a_phone(page, 11)
    # Holding a card to throw, the bar and Your Count give the lowest count a discard
    # leaves, the engine's ``discard_counts``.
    after = match_view(page)["observation"]["discard_counts"]
    assert len(after) == 11, after
    low = min(after.values())
    wait_until(page, "document.querySelector('.table-bar').innerText.includes('after a discard')")
    assert f"Count {low} after a discard" in page.locator(".table-bar").inner_text()
    # Your Count's first figure is then that count (a closed sheet on a phone: its text).
    assert (page.locator(".focus-after").text_content() or "").strip() == str(low)
    title = page.locator(".focus-after").get_attribute("title") or ""
    assert title.count(" or ") == sum(n == low for n in after.values()) - 1, (title, after)
    # Gin's knock needs a count of 10 or less, so with a fresh hand it stays off.
    card = page.locator(".hand button.card:not([disabled])").first
    label = (card.get_attribute("aria-label") or "")[len("Select ") :]
    card.click()
    # Eleven cards, the Discard button (and Knock when it is allowed) all fit the phone.
    assert controls_out_of_view(page) == []
    # The turn line offers a knock only when this discard allows one.
    if page.get_by_role("button", name="Knock", exact=True).count() == 0:
        assert page.locator(".turn-line").inner_text() == f"Discard {label}."
    page.get_by_role("button", name=f"Discard {label}").click()
    wait_until(page, "document.querySelectorAll('.hand button.card').length === 10")
    hand_reads_on_a_phone(page, 10)
    shot(page, "table-gin-phone")
    # The phone's bar sums the hand up in words that agree with the arrangement.
    melds = len(match_view(page)["observation"]["arrangement"]["melds"])
    summary = page.locator(".table-bar").inner_text()
    assert f"· {melds} meld{'' if melds == 1 else 's'}" in summary, summary
    assert console.errors == []


def test_a_knock_rummy_knock_says_the_count_it_lays_down(
    server_url: str, new_page: Any, console: Console
) -> None:
    """With a card selected, the Knock button's help gives the count that discard leaves
    (the engine's ``discard_counts``), so a player sees what a knock lays down first."""
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Knock Rummy")
    draw_from_stock_on_our_turn(page)
    wait_until(page, "document.querySelectorAll('.hand button.card:not([disabled])').length >= 8")
    after = match_view(page)["observation"]["discard_counts"]
    shown = page.evaluate(
        """async (after) => {
            const { pretty } = await import('/app/cards.js');
            return Object.fromEntries(Object.entries(after).map(([c, n]) => [pretty(c), n]));
        }""",
        after,
    )
    for i in (0, -1):
        card = page.locator(".hand button.card:not([disabled])").nth(i)
        label = (card.get_attribute("aria-label") or "")[len("Select ") :]
        card.click()
        # Knock Rummy plays with no knock limit here, so every discard may knock.
        page.get_by_role("button", name="Knock", exact=True).wait_for()
        help_text = page.locator("#action-help").inner_text()
        want = f"Knock: discard {label} and lay down a count of {shown[label]};"
        assert want in help_text, (help_text, shown)
        line = page.locator(".turn-line").inner_text()
        assert line == f"Discard {label}, or knock with it.", line
    assert console.errors == []


def test_the_heads_subtitle_wraps_between_its_parts_never_inside_one(
    server_url: str, new_page: Any, console: Console
) -> None:
    """On a phone, with a three-figure total beside it, "Knock Rummy · to 100" has no room
    for one line; it breaks after the dot, not between "to" and "100" (seen in play)."""
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Knock Rummy")
    page.locator(".table-head .game-name .part").first.wait_for()
    # The widest total a Knock Rummy game to 100 shows: a minus and three figures.
    page.evaluate(
        """() => { const t = document.querySelector('.my-total span');
                   t.firstChild.textContent = '\u2212119'; }"""
    )
    parts = page.evaluate(
        """() => [...document.querySelectorAll('.table-head .game-name .part')].map(
               (p) => [p.textContent, p.getClientRects().length])"""
    )
    assert [text for text, _ in parts] == ["Knock Rummy ·", "to 100"], parts
    assert all(lines == 1 for _, lines in parts), parts
    assert page.locator(".table-head .game-name").inner_text().split() == [
        "Knock",
        "Rummy",
        "·",
        "to",
        "100",
    ]
    assert console.errors == []


def _rummy_turn(hand: str, game_name: str = "knock-rummy") -> tuple[dict[str, Any], list[Any]]:
    """Seat 0's observation and legal actions (as the server sends them) at the discard step
    of a two-player Knock Rummy (or Gin) hand holding ``hand`` (11 cards), the engine's
    position."""
    from deadwood_knock.games import get_game

    game = get_game(game_name)
    dealt = game.position_to_json(game.new_game(game.options_from_json({"players": 2}), 7))
    mine = hand.split()
    rest = [
        c
        for c in (*dealt["stock"], *dealt["discard_pile"], *dealt["hands"][0], *dealt["hands"][1])
        if c not in mine
    ]
    state = game.position_from_json(
        {
            **dealt,
            "phase": "discard",
            "to_act": 0,
            "hands": [mine, rest[:10]],
            "discard_pile": [rest[10]],
            "stock": rest[11:],
        }
    )
    return game.observe(state, 0).to_json(), [a.to_json() for a in game.legal_actions(state)]


def test_a_knock_rummy_rummy_is_offered_in_words_with_what_it_pays(
    server_url: str, new_page: Any, console: Console
) -> None:
    """With every card but one in melds, the turn line offers the rummy beside the discard
    and the knock, and the help says what a rummy pays (KR6: the count plus 25), so it does
    not read as a knock at 0 (play showed "Discard Q♠, or knock with it." over a Rummy!
    button)."""
    obs, legal = _rummy_turn("3s 3h 3d 3c 4d 5d 6d Td Jd Qd Qs")
    assert {"type": "rummy", "discard": "Qs"} in legal
    page = new_page(DESKTOP)
    page.goto(server_url + "/")
    said = page.evaluate(
        """async ([obs, legal]) => {
            const { turnLine, Controls, legalControls } = await import('/app/controls.js');
            const { loadGames } = await import('/app/games.js');
            const { html, render } = await import('/app/lib.js');
            await loadGames();
            const out = {};
            for (const card of ['Qs', 'Td']) {
                const line = turnLine({ legal, over: false }, obs, 0, false, card,
                    (s) => `Seat ${s}`, { showdown: null });
                const box = document.createElement('div');
                const controls = legalControls(legal, false, card);
                render(html`<${Controls} dk=${false} obs=${obs} busy=${false} selected=${card}
                    ...${controls} onAct=${() => {}} onKnock=${() => {}} />`, box);
                const names = (sel) =>
                    [...box.querySelectorAll(sel)].map((b) => b.textContent.trim());
                out[card] = { line, help: box.querySelector('#action-help')?.textContent ?? '',
                    buttons: names('button'), gold: names('button.gold') };
            }
            out.none = turnLine({ legal, over: false }, obs, 0, false, null, (s) => `Seat ${s}`,
                { showdown: null });
            return out;
        }""",
        [obs, legal],
    )
    assert said["Qs"]["line"] == "Discard Q♠, knock with it, or go rummy."
    # Rummy! leads, the only gold button: a knock at the same count pays no bonus.
    assert said["Qs"]["buttons"][0] == "Rummy!", said["Qs"]
    assert said["Qs"]["gold"] == ["Rummy!"], said["Qs"]
    from deadwood_knock.games.knock_rummy.core import RUMMY_BONUS

    assert (
        "Rummy!: discard Q♠; every card is in a meld, so each other player pays you their count "
        f"plus {RUMMY_BONUS}." in said["Qs"]["help"]
    ), said
    # Throwing a card from a meld leaves no rummy: neither the line nor the help offers one.
    assert said["Td"]["line"] == "Discard 10♦, or knock with it."
    assert "Rummy" not in said["Td"]["help"] and "Rummy!" not in said["Td"]["buttons"]
    assert said["Td"]["gold"] == ["Knock"], said["Td"]
    assert said["none"] == "Select a card to discard."
    # Matched whole on the take (KR5, no discard): the line says so before any card is held.
    obs, legal = _rummy_turn("3s 3h 3d 3c 4d 5d 6d Td Jd Qd Kd")
    assert {"type": "rummy", "discard": None} in legal
    bare = page.evaluate(
        """async ([obs, legal]) => {
            const { turnLine } = await import('/app/controls.js');
            return turnLine({ legal, over: false }, obs, 0, false, null, (s) => `Seat ${s}`,
                { showdown: null });
        }""",
        [obs, legal],
    )
    assert bare == "Every card is matched: go rummy, or select a card to discard."
    assert console.errors == []


def test_a_gin_knock_says_what_gin_and_an_undercut_are(
    server_url: str, new_page: Any, console: Console
) -> None:
    """At Gin (KR8) the other player lays off and can undercut, and a count of 0 is gin:
    the knock's help says so with the engine's bonus, not Knock Rummy's "lowest count wins"."""
    from deadwood_knock.games.knock_rummy.core import GIN_BONUS

    obs, legal = _rummy_turn("3s 3h 3d 4d 5d 6d Td Jd Qd Kd 2c", "gin")
    assert {"type": "knock", "discard": "2c"} in legal and {
        "type": "knock",
        "discard": "Kd",
    } in legal
    page = new_page(DESKTOP)
    page.goto(server_url + "/")
    helps = page.evaluate(
        """async ([obs, legal]) => {
            const { Controls, legalControls } = await import('/app/controls.js');
            const { loadGames } = await import('/app/games.js');
            const { html, render } = await import('/app/lib.js');
            await loadGames();
            const out = {};
            for (const card of ['2c', 'Kd']) {
                const box = document.createElement('div');
                const controls = legalControls(legal, false, card);
                render(html`<${Controls} dk=${false} obs=${obs} busy=${false} selected=${card}
                    ...${controls} onAct=${() => {}} onKnock=${() => {}} />`, box);
                out[card] = box.querySelector('#action-help')?.textContent ?? '';
            }
            // The question before a knock says the same (a modal: into the page, then out).
            const { KnockConfirm } = await import('/app/controls.js');
            const ask = document.createElement('div');
            document.body.append(ask);
            render(html`<${KnockConfirm} dk=${false} obs=${obs} action=${controls2(legal)}
                advice=${null} onKnock=${() => {}} onKeep=${() => {}} />`, ask);
            out.ask = ask.textContent;
            render(null, ask);
            ask.remove();
            return out;
            function controls2(all) {
                return all.find((a) => a.type === 'knock' && a.discard === 'Kd');
            }
        }""",
        [obs, legal],
    )
    assert helps["2c"] == (
        "Knock: discard 2♣ and go gin; no lay-offs, and you score the other player's count "
        f"plus {GIN_BONUS}."
    ), helps
    assert helps["Kd"] == (
        "Knock: discard K♦ and lay down a count of 2; the other player lays off on your melds, "
        f"and at or under 2 undercuts you for the difference plus {GIN_BONUS}."
    ), helps
    assert helps["Kd"][len("Knock: discard K♦ and ") :] in helps["ask"], helps["ask"]
    assert all("lowest count wins" not in h for h in helps.values())
    assert console.errors == []


def test_a_knock_rummy_knock_asks_until_the_hint_has_weighed_it(
    server_url: str, new_page: Any, console: Console
) -> None:
    """With no knock limit a knock may lay down any count. Until the turn's hint has come,
    Knock asks first, with the count it lays down, and Keep playing plays nothing; once
    the hint has come, only a knock it rates unwise asks."""
    page = new_page(PHONE, service_workers="block")
    held: list[Any] = []
    hint_url = re.compile(r"/api/matches/[^/]+/hint$")
    page.route(hint_url, lambda route: held.append(route))
    start_quick_table(page, server_url, "Knock Rummy")
    draw_from_stock_on_our_turn(page)
    wait_until(page, "document.querySelectorAll('.hand button.card:not([disabled])').length >= 8")
    view = match_view(page)
    card = page.locator(".hand button.card:not([disabled])").last
    label = (card.get_attribute("aria-label") or "")[len("Select ") :]
    card.click()
    count = page.evaluate(
        """async ([after, label]) => {
            const { pretty } = await import('/app/cards.js');
            return Object.entries(after).find(([c]) => pretty(c) === label)[1];
        }""",
        [view["observation"]["discard_counts"], label],
    )
    page.get_by_role("button", name="Knock", exact=True).click()
    question = page.get_by_role("dialog", name=f"Knock and discard {label}?")
    question.wait_for()
    text = question.inner_text()
    assert "Hand Focus has not weighed this knock." in text, text
    assert f"You lay down a count of {count};" in text, text
    question.get_by_role("button", name="Keep playing").click()
    assert page.get_by_role("dialog").count() == 0
    assert match_view(page)["version"] == view["version"], "Keep playing played a move"
    assert held, "the table never asked for the hint"
    # The hint comes: the question now asks only when the hint rates the knock unwise.
    for route in held:
        route.continue_()
    page.unroute(hint_url)
    wait_until(page, "!!document.querySelector('.bar-label .dot')")
    hint = page.evaluate(
        """async () => {
            const id = decodeURIComponent(location.hash.split('/table/')[1]);
            const { getHint } = await import('/app/api.js');
            return (await getHint(id)).hint;
        }"""
    )
    page.get_by_role("button", name="Knock", exact=True).click()
    if hint["knock"]["wise"] is False:
        question.wait_for()
        assert "has not weighed" not in question.inner_text()
        assert "Hand Focus: " in question.inner_text()
        question.get_by_role("button", name="Keep playing").click()
    else:
        deadline = time.monotonic() + 10
        while match_view(page)["version"] == view["version"]:
            assert page.get_by_role("dialog", name=f"Knock and discard {label}?").count() == 0
            assert time.monotonic() < deadline, "the knock was not played"
            page.wait_for_timeout(100)
    assert console.errors == []


def test_gin_side_column_at_desktop_size(server_url: str, new_page: Any, console: Console):
    """Beside the felt, Your Count (melds and the hint) shows whole however long the log
    grows, and the log keeps its newest line in view as the panels above it change."""
    page = new_page(DESKTOP)
    start_quick_table(page, server_url, "Gin")
    page.get_by_text("Gin · to 100", exact=True).wait_for()
    panel = 'aside[aria-label="Your count"]'
    stock = page.get_by_role("button", name="Draw from stock")
    checked = 0
    deadline = time.monotonic() + 120
    while checked < 4 and dialog_title(page) is None:
        assert time.monotonic() < deadline, "four turns did not come"
        if not enabled(stock):
            page.wait_for_timeout(100)
            continue
        try:
            stock.click(timeout=3000)
            page.locator(f"{panel} .advice").wait_for(timeout=15000)
        except PlaywrightTimeout:
            continue  # the hand ended under the click
        # Let the hint's panel settle, then read every box.
        page.wait_for_timeout(300)
        boxes = page.evaluate(
            """(panel) => {
                const p = document.querySelector(panel);
                const log = document.querySelector('#table-log-list');
                const items = log.querySelectorAll('li');
                const last = items[items.length - 1].getBoundingClientRect();
                return {clipped: p.scrollHeight - p.clientHeight,
                        below: last.bottom - log.getBoundingClientRect().bottom,
                        lines: items.length};
            }""",
            panel,
        )
        assert boxes["clipped"] <= 1, boxes
        assert boxes["below"] <= 1, boxes
        assert controls_out_of_view(page) == []
        checked += 1
        card = page.locator(".hand button.card:not([disabled])").last
        label = (card.get_attribute("aria-label") or "")[len("Select ") :]
        try:
            card.click(timeout=3000)
            page.get_by_role("button", name=f"Discard {label}").click(timeout=3000)
        except PlaywrightTimeout:
            continue
    shot(page, "table-gin-desktop")
    assert checked, "no turn was checked"
    assert console.errors == []


def test_sleight_of_hand_palm_by_clicks(server_url: str, new_page: Any, console: Console):
    page = new_page(PHONE)
    sign_in(page, server_url, "Doc Holliday")
    page.get_by_role("link", name="Profile").click()
    page.get_by_label("Sleight of Hand").check()
    page.get_by_role("link", name="Trail").click()
    page.locator('.table-btn[data-table="quick-dk"]').click()
    page.wait_for_url(re.compile(r"#/table/"))
    page.get_by_text("Round 1 of 10").wait_for()
    assert match_view(page)["observation"]["options"]["sleight_of_hand"] is True
    palm = page.get_by_role("button", name="Palm the buried card")
    deadline = time.monotonic() + 120
    while not enabled(palm):
        assert time.monotonic() < deadline, "no chance to palm came up"
        title = dialog_title(page)
        if title == "Showdown":
            page.get_by_role("dialog").get_by_role("button", name="Continue").click()
        elif title and DONE.search(title):
            # The match ended without a chance to palm: sit down at another table.
            page.get_by_role("dialog").get_by_role("button", name="Return to town").click()
            page.locator('.table-btn[data-table="quick-dk"]').click()
            page.get_by_text("Round 1 of 10").wait_for()
        stock = page.get_by_role("button", name="Draw from stock")
        cards = page.locator(".hand button.card:not([disabled])")
        call = page.get_by_role("button", name="Call", exact=True)
        try:
            if enabled(call):
                call.click(timeout=3000)
            elif cards.count() and enabled(stock):
                cards.first.click(timeout=3000)
                stock.click(timeout=3000)
            else:
                page.wait_for_timeout(100)
        except PlaywrightTimeout:
            continue
    card = page.locator(".hand button.card:not([disabled])").first
    chosen = (card.get_attribute("aria-label") or "")[len("Discard ") :]
    card.click()
    shot(page, "table-palm-phone")
    palm.click()
    view = wait_until(
        page,
        """async () => {
            const id = decodeURIComponent(location.hash.split('/table/')[1]);
            const token = JSON.parse(localStorage.getItem('dk.settings.v1')).token;
            const auth = {Authorization: 'Bearer ' + token};
            const v = await (await fetch('/api/matches/' + id, {headers: auth})).json();
            return v.recent_events.some(e => e.source === 'palm' && e.seat === 0) ? v : null;
        }""",
    )
    assert view["observation"]["palmed"][0] is True
    assert chosen
    assert console.errors == []


SAYS = ("win", "lose")


def opponents_lines(page: Any) -> dict[int, dict[str, Any]]:
    """Each opponent's name and its own "win" and "lose" lines, from the server."""
    view = match_view(page)
    lines: dict[int, dict[str, Any]] = {}
    for p in view["players"]:
        if p["seat"] == view["seat"]:
            continue
        assert p["kind"] == "bot" and p["bot"].startswith("figure:"), p
        ch = page.evaluate(
            "async (id) => (await fetch('/api/characters/' + id)).json()",
            p["bot"][len("figure:") :],
        )
        said = {s: [t["line"] for t in ch["table_talk"] if t["situation"] == s] for s in SAYS}
        lines[p["seat"]] = {"name": ch["name"], **said}
    return lines


def check_round_remark(page: Any, lines: dict[int, dict[str, Any]]) -> bool:
    """The open showdown's remark against the server's facts of the round it shows: the
    opponent who won says one of its "win" lines; when you won, an opponent who lost (one who
    did not take the pot, if there is one) says one of its "lose" lines; a round nobody won
    draws no remark. Returns whether there was one."""
    dialog = page.get_by_role("dialog")
    shown = int(dialog.locator(".sd-round").inner_text().split()[-1])
    view = match_view(page)
    result = view["observation"]["last_result"]
    assert result.get("round", result.get("hand")) == shown, (result, shown)
    winner = result["winner"]
    remark = dialog.locator(".sd-talk")
    if winner is None:
        assert remark.count() == 0, remark.all_inner_texts()
        return False
    assert remark.count() == 1
    remark.scroll_into_view_if_needed()
    assert remark.is_visible()
    speaker = remark.locator(".talk-who").inner_text().removesuffix(":")
    line = remark.locator("q").inner_text()
    if winner == view["seat"]:
        losers = [s for s in lines if s not in result.get("pot_winners", [])] or list(lines)
        seats = [s for s in losers if lines[s]["name"] == speaker]
        assert len(seats) == 1, (speaker, losers, result)
        assert line in lines[seats[0]]["lose"], (speaker, line, lines[seats[0]])
    else:
        assert speaker == lines[winner]["name"], (speaker, winner, result)
        assert line in lines[winner]["win"], (speaker, line, lines[winner])
    # The table log keeps the remark in the same words, as it keeps every line said at the
    # table (the bubble on the felt fades).
    said = f"{speaker}: “{line}”"
    wait_until(
        page,
        f"""[...document.querySelectorAll('.log-items li.log-talk')]
            .some((li) => li.textContent === {json.dumps(said)})""",
    )
    return True


TALK_IN_LOG = "[...document.querySelectorAll('.log-items li.log-talk')].map((li) => li.textContent)"


def test_the_log_keeps_what_was_said_after_a_reload(
    server_url: str, new_page: Any, console: Console
) -> None:
    """A remark's bubble fades, the log keeps it; and after a reload (or a break) the moves
    the log shows again draw their remarks again, in the same words (the line is picked by
    the event's version), not only the ones made since the page opened."""
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    page.get_by_text("Round 1 of 10").wait_for()
    page.wait_for_timeout(1500)  # the characters' greetings head the log
    greetings = page.evaluate(TALK_IN_LOG)
    deadline = time.monotonic() + 150
    said: list[str] = []
    while not said:
        assert time.monotonic() < deadline, "nobody said anything in time"
        title = dialog_title(page)
        if title and DONE.search(title):
            pytest.fail("the match ended before a remark")
        if confirm_knock(page, title):
            continue
        if title in ("Showdown", "Hand over"):
            page.get_by_role("dialog").get_by_role("button", name="Continue").click(timeout=3000)
        elif page.locator(
            ".actions button:not([disabled]), .hand button.card:not([disabled]), .prompt button"
        ).count():
            play_dk_turn(page, {}, "reload")
        page.wait_for_timeout(300)
        said = [x for x in page.evaluate(TALK_IN_LOG) if x not in greetings]
    page.reload()
    page.get_by_role("button", name="Leave table").wait_for()
    # The newest remark's move is among the view's recent events, which the log opens on
    # (older ones may have dropped out of that window): it is said again, word for word.
    newest = json.dumps(said[-1])
    wait_until(page, f"{TALK_IN_LOG}.includes({newest})")
    assert console.errors == []


def test_a_scored_round_draws_one_remark_from_the_right_seat(
    server_url: str, new_page: Any, console: Console
):
    """When a round is scored, the showdown carries one remark: the opponent who won it says
    one of its "win" lines; when you won, an opponent who lost says one of its "lose" lines to
    you. A round nobody won (dry, or tied at the top) draws no remark. Each showdown is
    checked against the server's result facts and the characters' own lines, round after
    round until one had a winner (and so a remark)."""
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    page.get_by_text("Round 1 of 10").wait_for()
    lines = opponents_lines(page)
    deadline = time.monotonic() + 200
    while True:
        assert time.monotonic() < deadline, "no round with a winner was scored in time"
        title = play_until_over(page, "talk-phone", play_dk_turn, one_round=True)
        assert title == "Showdown", title
        # The bar behind the showdown gives the totals the dialog prints, not the last
        # round's (scoresShown).
        view = match_view(page)
        totals = view["observation"]["last_result"]["totals"]
        bar = page.locator(".table-bar .bar-btn").nth(1).locator(".bar-sub").inner_text()
        assert bar.startswith(f"You {totals[view['seat']]}".replace("-", "−")), (bar, totals)
        mine = page.get_by_label("Your total").inner_text().split()[0]
        seats = page.evaluate(
            """() => Object.fromEntries([...document.querySelectorAll('.opponent')].map(
                (li) => [li.dataset.seat, li.querySelector('.opp-pts').textContent]))"""
        )
        shown = {int(k): int(v.split()[0].replace("−", "-")) for k, v in seats.items()}
        assert int(mine.replace("−", "-")) == totals[view["seat"]], (mine, totals)
        assert shown == {s: totals[s] for s in shown}, (shown, totals)
        if check_round_remark(page, lines):
            shot(page, "showdown-remark-phone")
            break
        page.get_by_role("dialog").get_by_role("button", name="Continue").click()
    assert console.errors == []


def test_remarks_sit_in_the_log_after_the_move_that_drew_them(
    server_url: str, new_page: Any, console: Console
):
    """``tablelog.withTalk``, the client's own module run in the page: each remark follows
    the last line of its log part (greetings, part −1, first), and remarks of parts the log
    has dropped go with them."""
    page = new_page(DESKTOP)
    page.goto(server_url + "/")
    woven = page.evaluate(
        """async () => {
            const { withTalk } = await import('/app/tablelog.js');
            const line = (part, text) => ({ part, text, key: text });
            const lines = [line(0, 'a0'), line(0, 'b0'), line(1, 'a1'), line(3, 'a3')];
            const said = [
                { part: -1, seat: 1, text: 'hello' }, { part: 1, seat: 2, text: 'mine now' },
                { part: 2, seat: 1, text: 'nothing shown' }, { part: 3, seat: 2, text: 'last' },
            ];
            const name = (seat) => `Seat ${seat}`;
            return [withTalk(lines, said, name).map((l) => l.text),
                    withTalk(lines.slice(2), said, name, 1).map((l) => l.text)];
        }"""
    )
    assert woven[0] == [
        "Seat 1: “hello”",
        "a0",
        "b0",
        "a1",
        "Seat 2: “mine now”",
        "Seat 1: “nothing shown”",
        "a3",
        "Seat 2: “last”",
    ]
    assert woven[1] == [
        "a1",
        "Seat 2: “mine now”",
        "Seat 1: “nothing shown”",
        "a3",
        "Seat 2: “last”",
    ]
    assert console.errors == []


def test_a_knock_remark_follows_the_knock_not_the_hands_result(
    server_url: str, new_page: Any, console: Console
) -> None:
    """A Knock Rummy or Gin knock comes in one batch with its discard and the hand's result
    (one log part). Seen in play: "Bat Masterson: “I'll knock, and print the result.”" logged
    after "Hand 8 to you (undercut): …". Each remark sits after the line of the event that
    drew it: the lines carry the event's index (``describeEvents``' ``at``), and so do the
    remarks."""
    page = new_page(DESKTOP)
    page.goto(server_url + "/")
    woven = page.evaluate(
        """async () => {
            const { withTalk, describeEvents } = await import('/app/tablelog.js');
            const events = [
                { type: 'knock', seat: 1 },
                { type: 'discard', seat: 1, card: 'Qh' },
                { type: 'hand_result', hand: 8, winners: [0], outcome: 'undercut',
                  scores: [27, 0], totals: [118, 56] },
            ];
            const who = (seat, inside) => (seat === 0 ? (inside ? "you" : "You") : "Bat");
            const lines = describeEvents(events, who, 0).map((l, i) => ({ ...l, part: 4, key: i }));
            const said = [
                { part: 4, at: 0, seat: 1, text: 'knocking' },
                { part: 4, at: 2, seat: 1, text: 'fine hand' },
                { part: 4, seat: 1, text: 'no index: after the part' },
            ];
            return [lines.map((l) => l.at), withTalk(lines, said, who).map((l) => l.text)];
        }"""
    )
    ats, texts = woven
    assert ats == [0, 1, 2]
    assert texts[0].startswith("Bat knocked")
    assert texts[1] == "Bat: “knocking”"
    assert texts[2].startswith("Bat discarded")
    assert texts[3].startswith("Hand 8 to you")
    assert texts[4:] == ["Bat: “fine hand”", "Bat: “no index: after the part”"]
    assert console.errors == []


def test_the_log_says_when_a_gin_hand_ended_in_gin_or_an_undercut(
    server_url: str, new_page: Any, console: Console
) -> None:
    """A Gin knock logs as "knocked", whatever the count; the hand's result line then says
    how it ended, from the engine's ``outcome``: "Hand 2 to you (gin): …", "(undercut)", and
    nothing more for a plain knock. The events are the engine's, from greedy-played hands."""
    from bot_positions import played

    found: dict[str, dict[str, Any]] = {}
    for seed in range(40):
        made: list[Any] = []
        played("gin", {}, seed, 5000, until=lambda game, state: game.is_over(state), events=made)
        for e in made:
            if e.kind == "hand_result":
                found.setdefault(e.data["outcome"], e.to_json())
        if len(found) == 3:
            break
    assert set(found) == {"knock", "undercut", "gin"}, found
    page = new_page(DESKTOP)
    page.goto(server_url + "/")
    lines = page.evaluate(
        """async (events) => {
            const { describeEvents } = await import('/app/tablelog.js');
            const who = (seat, inside) => (seat === 0 ? (inside ? 'you' : 'You') : 'Luke Short');
            const out = {};
            for (const [outcome, ev] of Object.entries(events)) {
                out[outcome] = describeEvents([ev], who, 0).map((l) => l.text);
            }
            return out;
        }""",
        found,
    )
    for outcome, said in lines.items():
        ev = found[outcome]
        won = " and ".join("you" if w == 0 else "Luke Short" for w in ev["winners"])
        how = {"gin": " (gin)", "undercut": " (undercut)"}.get(outcome, "")
        scores = ", ".join(
            f"{'you' if seat == 0 else 'Luke Short'} "
            + (f"+{x}" if x > 0 else f"−{-x}" if x < 0 else "0")
            for seat, x in enumerate(ev["scores"])
        )
        assert said == [f"Hand {ev['hand']} to {won}{how}: {scores}."], said
    assert console.errors == []


def test_you_is_capital_only_where_it_opens_a_sentence(
    server_url: str, new_page: Any, console: Console
) -> None:
    """The player's own seat is "You" when it opens a sentence ("You knocked.") and "you"
    inside one: the log ("Round 2: you dealt", "Hand 3 to Luke Short: you −12, …") and the
    showdown ("Luke Short knocked and you undercut.", "Pot of 20 from you, …: you take it").
    Every log line, outcome line and pot line of whole greedy-played matches of each game is
    checked, with the table's own naming of seats (table.js's ``who``)."""
    from bot_positions import played

    matches: list[dict[str, Any]] = []
    for name, options, seeds in (
        ("deadwood-knock", {"players": 4}, range(2)),
        ("knock-rummy", {"players": 3}, range(2)),
        ("gin", {}, range(6)),
    ):
        for seed in seeds:
            made: list[Any] = []
            played(name, options, seed, 20000, until=lambda g, s: g.is_over(s), events=made)
            results = [e.to_json() for e in made if e.kind in ("round_result", "hand_result")]
            matches.append({"events": [e.to_json() for e in made], "results": results})
    page = new_page(DESKTOP)
    page.goto(server_url + "/")
    said = page.evaluate(
        """async (matches) => {
            const { describeEvents } = await import('/app/tablelog.js');
            const { Showdown } = await import('/app/showdown.js');
            const { html, render } = await import('/app/lib.js');
            const names = ['You', 'Luke Short', 'Lottie Deno', 'Doc Holliday'];
            const who = (seat, inside = false) => (seat === 0 && inside ? 'you' : names[seat]);
            const lines = [];
            for (const m of matches) {
                lines.push(...describeEvents(m.events, who, 0).map((l) => l.text));
                for (const result of m.results) {
                    const box = document.createElement('div');
                    render(html`<${Showdown} result=${result} who=${who} />`, box);
                    const shown = box.querySelectorAll('.sd-outcome, .sd-pot');
                    for (const p of shown) lines.push(p.textContent);
                }
            }
            return lines;
        }""",
        matches,
    )
    assert len(said) > 500
    for line in said:
        assert "You" not in line[1:], line
    inside = [line for line in said if re.search(r"\byou\b", line)]
    # Seat 0 is named inside sentences of every kind: the deal, a score list, a pot.
    assert any(re.match(r"Round \d+: you dealt", line) for line in inside), inside[:20]
    assert any(re.match(r"Hand \d+ to .*: .*you [+−0]", line) for line in inside), inside[:20]
    assert any(line.startswith("Pot of ") and " you" in line for line in inside), inside[:20]
    assert any(line.startswith("You ") for line in said)
    assert console.errors == []
