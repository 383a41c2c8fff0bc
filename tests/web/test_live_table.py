"""The live table: one store of views (never an older one on screen), the table log,
the showdown that holds the table, the costly-knock question, pace, motion and sound."""

from __future__ import annotations

import itertools
import json
import re
import time
from typing import Any

import pytest

from .helpers import (
    DESKTOP,
    PHONE,
    Console,
    server_view,
    shot,
    table_version,
    wait_until,
)
from .test_table import dialog_title, enabled, start_quick_table

PlaywrightTimeout = pytest.importorskip("playwright.sync_api").TimeoutError

MOVES = {"draw", "discard", "knock", "stand", "call", "fold", "reveal", "rummy"}
SUITS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def pretty(card: str) -> str:
    if card == "JK":
        return "Joker"
    rank = "10" if card[0] == "T" else card[0]
    return rank + SUITS[card[1]]


def store_call(page: Any, body: str, arg: Any = None) -> Any:
    """Run ``body`` with ``store`` bound to the table's live match store."""
    return page.evaluate(
        f"""async (arg) => {{
            const m = await import('/app/matchstore.js');
            const id = decodeURIComponent(location.hash.split('/table/')[1]);
            const store = m.storeFor(id);
            {body}
        }}""",
        arg,
    )


def watch_versions(page: Any) -> None:
    """Record every version the table shows, with the time it was shown."""
    page.evaluate(
        """() => {
            const el = document.querySelector('.table-screen');
            window.__shown = [[Number(el.dataset.version), performance.now()]];
            new MutationObserver(() => window.__shown.push(
                [Number(el.dataset.version), performance.now()])
            ).observe(el, {attributes: true, attributeFilter: ['data-version']});
        }"""
    )


def my_dk_turn(page: Any, timeout_s: float = 30) -> bool:
    """Wait for a normal Deadwood Knock turn (closing showdowns, calling knocks, standing on
    final turns); False if the match ends first."""
    deadline = time.monotonic() + timeout_s
    while True:
        assert time.monotonic() < deadline, "our turn never came"
        title = dialog_title(page)
        try:
            if title and re.search("Nice win|shared win|Match Complete", title):
                return False
            if title in ("Showdown", "Hand over"):
                page.get_by_role("dialog").get_by_role("button", name="Continue").click(
                    timeout=2000
                )
            elif enabled(page.get_by_role("button", name="Call", exact=True)):
                page.get_by_role("button", name="Call", exact=True).click(timeout=2000)
            elif enabled(page.get_by_role("button", name="Stand")):
                page.get_by_role("button", name="Stand").click(timeout=2000)
            elif page.locator(".hand button.card:not([disabled])").count() and enabled(
                page.get_by_role("button", name="Draw from stock")
            ):
                return True
            else:
                page.wait_for_timeout(50)
        except PlaywrightTimeout:
            continue


def discard_and_draw(page: Any) -> str:
    """Throw the last card of the hand and draw from the stock; the card thrown."""
    card = page.locator(".hand button.card:not([disabled])").last
    label = str(card.get_attribute("aria-label"))
    card.click(timeout=3000)
    page.get_by_role("button", name="Draw from stock").click(timeout=3000)
    return label[len("Discard ") :]


def test_no_older_view_is_ever_rendered(server_url: str, new_page: Any, console: Console) -> None:
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    watch_versions(page)
    # Real play first: views arrive from the socket, the answers to our posts and polls.
    for _ in range(3):
        my_dk_turn(page)
        discard_and_draw(page)
    my_dk_turn(page)
    n = table_version(page)
    assert store_call(page, "return store.latest.version;") == n
    # Older and equal views, in a jumbled order, each with a total that would show: none is kept.
    forged_old = store_call(
        page,
        """const out = [];
        for (const v of arg) {
            const view = structuredClone(store.latest);
            view.version = v;
            view.observation.totals[view.seat] = 999;
            out.push(store.offer(view));
        }
        return out;""",
        [n - 1, 0, n, n - 2],
    )
    assert forged_old == [False, False, False, False]
    page.wait_for_timeout(200)
    assert table_version(page) == n
    assert "999" not in page.get_by_label("Your total").inner_text()
    # Newer views out of order: the newest is kept; the two older ones that come after it are not.
    kept = store_call(
        page,
        """return arg.map(([v, total]) => {
            const view = structuredClone(store.latest);
            view.version = v;
            view.observation.totals[view.seat] = total;
            return store.offer(view);
        });""",
        [[n + 3, 777], [n + 1, 555], [n + 2, 666]],
    )
    assert kept == [True, False, False]
    wait_until(page, f"document.querySelector('.table-screen').dataset.version === '{n + 3}'")
    assert page.get_by_label("Your total").inner_text().startswith("777")
    shown = [v for v, _ in page.evaluate("window.__shown")]
    assert shown == sorted(shown), shown
    assert n + 1 not in shown and n + 2 not in shown
    assert console.errors == []


def log_entries(page: Any) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = page.evaluate(
        """[...document.querySelectorAll('.log-list li')].map((li) => ({
            version: Number(li.dataset.version),
            type: li.dataset.type,
            seat: li.dataset.seat === '' ? null : Number(li.dataset.seat),
            text: li.textContent,
        }))"""
    )
    return entries


def test_every_move_is_in_the_log(server_url: str, new_page: Any, console: Console) -> None:
    page = new_page(DESKTOP)
    start_quick_table(page, server_url, "Deadwood Knock")
    log = page.get_by_role("log")
    assert log.get_attribute("aria-live") == "polite"
    checked: set[tuple[int, str, int]] = set()
    rounds_logged = 0
    # Play until a round has ended and both opponents have moved (a deal may run long:
    # the quick table's seed is not fixed), at most 16 of our turns.
    for turn in range(16):
        if turn >= 6 and rounds_logged >= 1:
            break
        if not my_dk_turn(page):
            break
        shown = table_version(page)
        view = server_view(page)
        assert view["version"] == shown  # the server waits for us: nothing is left to show
        entries = log_entries(page)
        have = {(e["version"], e["type"], e["seat"]) for e in entries}
        for e in view["recent_events"]:
            if e["type"] in MOVES:
                key = (e["version"], e["type"], e["seat"])
                assert key in have, f"{e} is not in the log: {entries[-12:]}"
                checked.add(key)
                if e["type"] == "discard":
                    line = next(x for x in entries if (x["version"], x["type"]) == key[:2])
                    assert line["text"].endswith(f"discarded {pretty(e['card'])}.")
        rounds_logged = max(rounds_logged, sum(e["type"] == "round_result" for e in entries))
        if turn == 0:
            shot(page, "table-log-desktop")
        thrown = discard_and_draw(page)
        # Our own move is shown at once; the card we drew is marked until our next action.
        wait_until(
            page, f"Number(document.querySelector('.table-screen').dataset.version) > {shown}"
        )
        mine = server_view(page)["recent_events"]
        drawn = [e["card"] for e in mine if e["type"] == "stock_card" and e["version"] == shown + 1]
        if drawn and page.get_by_role("dialog").count() == 0:
            marked = page.locator(".hand .card.drawn")
            assert marked.count() == 1
            assert marked.get_attribute("aria-label") == f"Discard {pretty(drawn[0])}"
            # Our own lines say the card we drew (only we saw it) and the card we threw.
            ours = [x["text"] for x in log_entries(page) if x["version"] == shown + 1]
            assert ours == [
                f"You drew {pretty(drawn[0])} from the stock.",
                f"You discarded {thrown}.",
            ]
    opponents = {seat for _, _, seat in checked if seat != 0}
    assert len(checked) >= 20 and opponents == {1, 2}, checked
    assert rounds_logged >= 1
    assert console.errors == []


# What the table shows: its version, round, hand, discard pile and log length.
TABLE_NOW = """() => ({
    version: document.querySelector('.table-screen').dataset.version,
    round: document.querySelector('.table-head .round strong').textContent,
    hand: [...document.querySelectorAll('.hand .card')].map((c) => c.ariaLabel),
    log: document.querySelectorAll('.log-list li').length,
    pile: document.querySelector('.pile.discard').ariaLabel,
})"""


def test_showdown_holds_the_table_until_closed(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    held = 0
    deadline = time.monotonic() + 120
    while held < 1:
        assert time.monotonic() < deadline, "no showdown was followed by a bot's lead"
        title = dialog_title(page)
        if title != "Showdown":
            try:
                if title and title.startswith("Knock"):
                    dialog = page.get_by_role("dialog")
                    dialog.get_by_role("button", name="Knock", exact=True).click(timeout=2000)
                elif enabled(page.get_by_role("button", name="Call", exact=True)):
                    page.get_by_role("button", name="Call", exact=True).click(timeout=2000)
                elif enabled(page.get_by_role("button", name="Knock", exact=True)):
                    page.get_by_role("button", name="Knock", exact=True).click(timeout=2000)
                elif page.locator(".hand button.card:not([disabled])").count() and enabled(
                    page.get_by_role("button", name="Draw from stock")
                ):
                    discard_and_draw(page)
                elif enabled(page.get_by_role("button", name="Stand")):
                    page.get_by_role("button", name="Stand").click(timeout=2000)
                else:
                    page.wait_for_timeout(50)
            except PlaywrightTimeout:
                pass
            continue
        # The showdown is up. What the table shows behind it:
        before = page.evaluate(TABLE_NOW)
        # Give the server time to play the next round's first moves, if a bot leads it.
        moved_on = False
        for _ in range(30):
            if server_view(page)["version"] > int(before["version"]):
                moved_on = True
                break
            page.wait_for_timeout(100)
        page.wait_for_timeout(300)
        after = page.evaluate(TABLE_NOW)
        assert after == before, "the table moved on behind the showdown"
        assert dialog_title(page) == "Showdown"
        if moved_on:
            held += 1
            shot(page, "showdown-held-phone")
        round_before = before["round"]
        page.get_by_role("dialog").get_by_role("button", name="Continue").click()
        # Closed: the next round comes on, and then its moves.
        wait_until(
            page,
            f"document.querySelector('.table-head .round strong').textContent !== '{round_before}'"
            " || !!document.querySelector('.modal')",
        )
        if moved_on:
            wait_until(
                page,
                "document.querySelectorAll('.log-list li').length > " + str(before["log"]),
            )
    assert console.errors == []


def wait_for_posts(page: Any, posts: list[Any], n: int) -> None:
    deadline = time.monotonic() + 10
    while len(posts) < n:
        assert time.monotonic() < deadline, f"{n} actions were not sent: {posts}"
        page.wait_for_timeout(50)


FORGE = """
    const view = structuredClone(store.latest);
    view.version = store.latest.version + 1;
    if (!view.legal_actions.some((a) => a.type === 'knock')) {
        view.legal_actions = [{type: 'knock'}, ...view.legal_actions];
    }
    Object.assign(view.observation.evaluation, arg);
    store.offer(view);
    return view;
"""


def test_costly_knock_asks_once_and_the_question_can_be_turned_off(
    server_url: str, new_page: Any, console: Console
) -> None:
    # No service worker: with one in control, requests can pass by page.route.
    page = new_page(PHONE, service_workers="block")
    start_quick_table(page, server_url, "Deadwood Knock")
    my_dk_turn(page)
    # A control that cannot be used now is not on screen at all.
    legal = {a["type"] for a in server_view(page)["legal_actions"]}
    knock = page.get_by_role("button", name="Knock", exact=True)
    assert knock.count() == (1 if "knock" in legal else 0)
    assert page.get_by_role("button", name="Stand").count() == (1 if "stand" in legal else 0)
    posts: list[dict[str, Any]] = []
    forged: list[Any] = []

    def answer(route: Any) -> None:
        # Answered with the position on screen (not newer, so the store keeps what it has).
        posts.append(json.loads(route.request.post_data))
        route.fulfill(status=200, content_type="application/json", body=json.dumps(forged[-1]))

    def forge(evaluation: dict[str, Any]) -> int:
        view = store_call(page, FORGE, evaluation)
        forged.append(view)
        wait_until(
            page, f"document.querySelector('.table-screen').dataset.version === '{view['version']}'"
        )
        return int(view["version"])

    page.route(re.compile(r"/api/matches/[^/]+/actions$"), answer)
    # The position as the engine would score it: a knock now locks in high card for -20.
    risky = {"category": "high_card", "hand_points": 0, "deadwood_points": 20, "score": -20}
    version = forge({**risky, "knock_count": 9})
    knock.click()
    question = page.get_by_role("dialog", name="Knock with high card for −20?")
    question.wait_for()
    assert "0 hand − 20 deadwood = −20" in question.inner_text()
    shot(page, "knock-warning-phone")
    question.get_by_role("button", name="Keep playing").click()
    assert page.get_by_role("dialog").count() == 0
    assert posts == []
    # Asked once: Knock in the question knocks.
    knock.click()
    question.get_by_role("button", name="Knock", exact=True).click()
    wait_for_posts(page, posts, 1)
    assert [p["action"] for p in posts] == [{"type": "knock"}]
    assert posts[0]["version"] == version and re.match(
        r"^a-[0-9a-f]{18}$", posts[0]["client_action_id"]
    )
    # A knock that costs nothing is not questioned.
    forge({"category": "pair", "hand_points": 15, "score": 12})
    knock.click()
    wait_for_posts(page, posts, 2)
    assert page.get_by_role("dialog").count() == 0
    # When Hand Focus rates playing on above knocking, the question says so in the hint's
    # own checked words, figure and all (it said only "The hint rates playing on above
    # knocking now").
    real = page.evaluate(
        """async () => {
          const { token } = JSON.parse(localStorage.getItem('dk.settings.v1'));
          const id = decodeURIComponent(location.hash.split('/').pop());
          const r = await fetch(`/api/matches/${id}/hint`,
            { headers: { Authorization: 'Bearer ' + token } });
          return r.json();
        }"""
    )
    assert real["hint"] and "knock" in real["hint"], real
    verdict = "Not yet: playing on is rated 12.5 points above knocking now (clearly)."
    claim = {"kind": "knock_search", "wise": False, "margin": 12.5, "text": verdict}

    # The forged position's version, known before it is offered: the hint is asked for
    # while the forge is still under way.
    coming = store_call(page, "return store.latest.version + 1;")

    def hint(route: Any) -> None:
        knock_part = {**real["hint"]["knock"], "wise": False, "claims": [claim]}
        body = {
            **real,
            "version": coming,
            "hint": {**real["hint"], "knock": knock_part},
        }
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(re.compile(r"/api/matches/[^/]+/hint$"), hint)
    forge({"category": "pair", "hand_points": 15, "score": 12})
    wait_until(page, "!!document.querySelector('.bar-label .dot')")
    knock.click()
    question = page.get_by_role("dialog", name="Knock with a pair for +12?")
    question.wait_for()
    assert f"Hand Focus: {verdict}" in question.inner_text()
    question.get_by_role("button", name="Keep playing").click()
    assert len(posts) == 2
    page.unroute(re.compile(r"/api/matches/[^/]+/hint$"))
    # Table settings turn the question off (and it stays off).
    page.get_by_role("button", name="Table settings").click()
    ask = page.get_by_label("Ask before a costly knock")
    assert ask.is_checked()
    ask.uncheck()
    page.get_by_role("button", name="Close Table settings").click()
    settings = page.evaluate("JSON.parse(localStorage.getItem('dk.settings.v1'))")
    assert settings["knockWarning"] is False
    forge({**risky, "knock_count": 9})
    knock.click()
    wait_for_posts(page, posts, 3)
    assert page.get_by_role("dialog").count() == 0
    assert posts[2]["action"] == {"type": "knock"}
    page.unroute_all(behavior="wait")
    assert console.errors == []


MOTION_PROBE = """() => {
    window.__flights = 0;
    window.__maxAnimations = 0;
    new MutationObserver((records) => {
        for (const r of records) for (const n of r.addedNodes) {
            if (n.classList && n.classList.contains('flying-card')) window.__flights += 1;
        }
    }).observe(document.body, {childList: true, subtree: true});
    const sample = () => {
        window.__maxAnimations = Math.max(window.__maxAnimations, document.getAnimations().length);
        requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
}"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_turns_animation_off(
    server_url: str, new_page: Any, console: Console, motion: str
) -> None:
    page = new_page(DESKTOP, reduced_motion=motion, pace_ms=300)
    start_quick_table(page, server_url, "Deadwood Knock")
    page.evaluate(MOTION_PROBE)
    for _ in range(2):
        my_dk_turn(page)
        shown = table_version(page)
        discard_and_draw(page)
        if motion == "no-preference" and page.locator(".flying-card").count():
            shot(page, "table-mid-flight-desktop")  # our discard and draw in the air
        wait_until(
            page, f"Number(document.querySelector('.table-screen').dataset.version) > {shown}"
        )
    my_dk_turn(page)
    flights, animations = page.evaluate("[window.__flights, window.__maxAnimations]")
    if motion == "reduce":
        assert (flights, animations) == (0, 0)
    else:
        # Our two discards and draws at least; the opponents' moves usually add more.
        assert flights >= 4 and animations >= 1
    assert console.errors == []


def test_pace_setting_and_sound(server_url: str, new_page: Any, console: Console) -> None:
    """Opponents' moves are shown one at a time, Normal pace ~0.75 s apart (the server has
    long played them); Fast is chosen in Table settings. Sound is off until turned on."""
    page = new_page(DESKTOP, pace_ms=None)
    start_quick_table(page, server_url, "Deadwood Knock")
    watch_versions(page)
    my_dk_turn(page, timeout_s=60)
    discard_and_draw(page)
    my_dk_turn(page, timeout_s=60)
    view = server_view(page)
    actors = {e["version"]: e["seat"] for e in view["recent_events"] if e["type"] in MOVES}
    shown = page.evaluate("window.__shown")
    gaps = [
        (v, round(t - t0))
        for (v0, t0), (v, t) in itertools.pairwise(shown)
        if actors.get(v, 0) != 0 and v == v0 + 1
    ]
    assert gaps, shown
    assert all(gap >= 600 for _, gap in gaps), gaps
    assert page.evaluate("import('/app/sound.js').then((m) => m.played.length)") == 0
    # Fast, and sound on.
    page.get_by_role("button", name="Table settings").click()
    page.get_by_label("Fast").check()
    page.get_by_label("Sound effects").check()
    page.get_by_role("button", name="Close Table settings").click()
    settings = page.evaluate("JSON.parse(localStorage.getItem('dk.settings.v1'))")
    assert settings["pace"] == "fast" and settings["sound"] is True
    discard_and_draw(page)
    my_dk_turn(page, timeout_s=60)
    played = page.evaluate("import('/app/sound.js').then((m) => [...m.played])")
    assert "draw" in played and "discard" in played
    assert console.errors == []
