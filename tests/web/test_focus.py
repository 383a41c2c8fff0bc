"""Hand Focus advice from the server's strong bot, and likenesses from the server's list."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .helpers import DESKTOP, PHONE, Console, shot, sign_in, wait_until
from .test_table import start_quick_table

pytest.importorskip("playwright.sync_api")

BEST = re.compile(r"^Best move: \S")


def open_focus(page: Any) -> None:
    """On a phone Hand Focus is a sheet opened from the bar at the bottom; on a desktop it
    stands beside the felt."""
    bar = page.locator(".table-bar")
    toggle = bar.locator('[aria-controls="sheet-focus"]')
    if bar.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def _advice(page: Any, panel: str) -> Any:
    open_focus(page)
    focus = page.get_by_role("complementary", name=panel)
    advice = focus.locator(".advice")
    advice.wait_for(timeout=20000)
    return advice


@pytest.mark.parametrize(
    ("viewport", "label", "table", "panel"),
    [
        (PHONE, "phone", "Deadwood Knock", "Hand Focus"),
        (DESKTOP, "desktop", "Deadwood Knock", "Hand Focus"),
        (PHONE, "phone-kr", "Knock Rummy", "Your count"),
    ],
)
def test_hand_focus_shows_the_hint_on_your_turn(
    server_url: str,
    new_page: Any,
    console: Console,
    viewport: Any,
    label: str,
    table: str,
    panel: str,
) -> None:
    page = new_page(viewport)
    start_quick_table(page, server_url, table)
    advice = _advice(page, panel)
    best = advice.locator(".advice-best").inner_text()
    assert BEST.match(best), best
    # The best move names a card of the hand or of the pile, or a plain action.
    assert re.search(r"[♠♥♦♣]|Joker|Knock|Stand|Call|Fold|Draw|rummy", best), best
    # Knock advice only where a knock is legal; the ranked moves in points either way.
    knock = advice.locator(".advice-knock")
    if knock.count():
        assert knock.inner_text().startswith("Knock now?")
    ranking = advice.locator(".advice-ranking li")
    if ranking.count():
        assert re.search(r"[+−]\d+\.\d points \(", ranking.first.inner_text())
    shot(page, f"hand-focus-{label}")
    if viewport is PHONE:
        # Advice fits the phone: no sideways scrolling.
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    if viewport is PHONE and table == "Deadwood Knock":
        # The bar's lines show whole, even for a long hand name: the knock count is never
        # the part an ellipsis hides.
        cut = page.evaluate(
            """() => { const out = []; const subs = document.querySelectorAll(
                '.table-bar .focus-btn .bar-sub');
              const keep = [...subs].map((el) => el.textContent);
              subs[0].textContent = 'Four of a kind · score +61';
              for (const el of subs) if (el.scrollWidth > el.clientWidth) out.push(el.textContent);
              subs[0].textContent = keep[0]; return out; }"""
        )
        assert cut == [], cut
        assert (
            page.locator(".table-bar .focus-btn .bar-sub")
            .nth(1)
            .inner_text()
            .startswith("knock count ")
        )
    assert console.errors == []


def test_hint_follows_the_turn(server_url: str, new_page: Any, console: Console) -> None:
    page = new_page(DESKTOP)
    start_quick_table(page, server_url, "Deadwood Knock")
    first = _advice(page, "Hand Focus").inner_text()
    # Play the discard and draw the advice's position allows; the old advice must go, and
    # advice for the new position come (or the round end), never the stale one staying up.
    page.locator(".hand button.card:not([disabled])").first.click()
    page.get_by_role("button", name="Draw from stock").click()
    wait_until(page, "!document.querySelector('.advice') || !!document.querySelector('.modal')")
    assert first
    assert console.errors == []


def test_likeness_picker_uses_the_server_list(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    page.goto(server_url + "/")
    listed = page.evaluate("fetch('/api/likenesses').then((r) => r.json())")["likenesses"]
    picker = page.get_by_role("radiogroup", name="Likeness")
    wait_until(page, f"document.querySelectorAll('.likeness-grid button').length === {len(listed)}")
    for item in listed:
        assert picker.get_by_role("radio", name=item["name"]).count() == 1
    src = picker.locator("img").first.get_attribute("src")
    assert src == listed[0]["svg_url"]
    sign_in(page, server_url)
    assert console.errors == []


def test_escape_closes_a_phone_sheet_but_not_under_a_dialog(
    server_url: str, new_page: Any, console: Console
) -> None:
    """On a phone Hand Focus, Scores and Table settings open as sheets over the table:
    Escape closes the open one and hands focus back to its button, as a dialog's Escape
    does, and the opened log strip folds; with a dialog open over a sheet, Escape closes
    only the dialog."""
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    for name in ("focus", "scores", "settings"):
        toggle = page.locator(f'[aria-controls="sheet-{name}"]')
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "true"
        assert page.locator(f"#sheet-{name}").is_visible()
        page.keyboard.press("Escape")
        wait_until(
            page,
            f"""document.querySelector('[aria-controls="sheet-{name}"]')
            .getAttribute('aria-expanded') === 'false'""",
        )
        assert page.evaluate(
            f"document.activeElement === document.querySelector('[aria-controls=\"sheet-{name}\"]')"
        ), name
    # The table log's strip opens over the hand; Escape folds it back to one line.
    strip = page.locator('[aria-controls="table-log-list"]')
    strip.click()
    assert strip.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    wait_until(
        page,
        """document.querySelector('[aria-controls="table-log-list"]')
        .getAttribute('aria-expanded') === 'false'""",
    )
    assert page.evaluate(
        "document.activeElement === document.querySelector('[aria-controls=\"table-log-list\"]')"
    )
    toggle = page.locator('[aria-controls="sheet-focus"]')
    toggle.click()
    page.get_by_role("button", name="Leave").click()
    page.get_by_role("dialog").wait_for()
    # Once the dialog has taken focus its own Escape handler is in place.
    wait_until(page, "!!document.activeElement?.closest('[role=dialog]')")
    page.keyboard.press("Escape")
    wait_until(page, "document.querySelectorAll('[role=dialog]').length === 0")
    assert toggle.get_attribute("aria-expanded") == "true"
    assert page.locator("#sheet-focus").is_visible()
    assert console.errors == []


def test_hand_focus_says_when_a_knock_is_possible_as_the_terminal_does(
    server_url: str, new_page: Any, console: Console
) -> None:
    """``knockHint``: "Knock count 1: knocking needs 11 or less." was said while another seat
    was to act with a count low enough to knock. Each situation now reads as the terminal's
    hand summary reads it (``tui.words.knock_words``), from the same observations."""
    import json

    from deadwood_knock.tui.words import evaluation_lines
    from knock_positions import knock_observations

    same = {  # the web's words, the terminal's words: one meaning
        "now": ("Knock count 1: you may knock now.", "you may knock now"),
        "their_turn": (
            "Knock count 1: low enough to knock on your turn.",
            "low enough to knock on your turn",
        ),
        "they_knocked": (
            "Someone has knocked: this is your final turn, so make it count.",
            "no more knocks this round",
        ),
        "i_knocked": (
            "You knocked: your hand stands as it is for the showdown.",
            "you knocked",
        ),
        "over_limit": ("Knock count 18: knocking needs 11 or less.", "knocking needs 11 or less"),
        "over": ("Knock count 1: no knock, the round is over.", "no knock: the round is over"),
    }
    observations = knock_observations()
    views = {name: obs.to_json() for name, obs in observations.items()}
    page = new_page(PHONE)
    page.goto(server_url + "/")
    got = page.evaluate(
        """async (views) => {
            const { knockHint } = await import('/app/focus.js');
            const out = {};
            for (const [name, obs] of Object.entries(views)) {
                const canKnock = obs.legal_actions.some((a) => a.type === 'knock');
                out[name] = knockHint(obs, canKnock, 11);
            }
            return out;
        }""",
        json.loads(json.dumps(views)),
    )
    for name, (web, terminal) in same.items():
        assert got[name] == web, (name, got[name])
        line = evaluation_lines("deadwood-knock", observations[name])[-1]
        assert line.endswith(f"({terminal})"), (name, line)
    assert console.errors == []
