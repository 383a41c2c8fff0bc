"""The screens around the table (issue 12): welcome, forfeit, summaries, gazette."""

from __future__ import annotations

import itertools
import re
from typing import Any

from .helpers import DESKTOP, PHONE, Console, shot, sign_in, wait_until


def _token(page: Any) -> Any:
    return page.evaluate(
        "(JSON.parse(localStorage.getItem('dk.settings.v1') || '{}')).token || null"
    )


def test_welcome_creates_no_player_until_ride_in(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    posts: list[str] = []
    page.on(
        "request",
        lambda r: posts.append(r.url) if r.method == "POST" and "/api/players" in r.url else None,
    )
    page.goto(server_url + "/")
    page.get_by_role("heading", name="Deadwood Knock").wait_for()
    page.get_by_role("button", name="Restore from backup").wait_for()
    # The likenesses (public) have loaded, and still nobody has been registered.
    wait_until(page, "document.querySelectorAll('.likeness-grid [role=radio]').length > 0")
    page.wait_for_timeout(500)
    assert posts == []
    assert _token(page) is None
    # The whole form is on a phone's first screen: name, likenesses and "Ride in".
    ride = page.get_by_role("button", name="Ride in").bounding_box()
    assert ride is not None and ride["y"] + ride["height"] <= PHONE["height"], ride
    page.get_by_label("Your name").fill("Lottie")
    page.get_by_role("button", name="Ride in").click()
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    wait_until(page, "!!(JSON.parse(localStorage.getItem('dk.settings.v1')).token)")
    assert len(posts) == 1
    assert console.errors == []


def _start_first_trail_table(page: Any) -> None:
    wait_until(page, "!document.querySelector('.loading')")
    page.locator(".towns .table-btn:not([disabled])").first.click()
    page.locator(".table-screen").wait_for()


def test_the_next_table_is_offered_above_the_map_on_a_phone(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Wren")
    wait_until(page, "!document.querySelector('.loading')")
    trail = _api(page, "/api/trail")
    here = next(t for t in trail["towns"] if t["id"] == trail["current_town"])
    first = next(t for t in here["tables"] if t["status"] == "open")
    seat = re.compile("^Take a seat " + re.escape(first["place"]))
    button = page.get_by_role("button", name=seat)
    button.wait_for()
    # On the first screen, before the map: no scrolling to find where to play.
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
    map_box = page.locator(".map-svg").bounding_box()
    assert map_box is not None and box["y"] < map_box["y"]
    for who in first["opponents"]:
        assert who["name"] in button.inner_text()
    button.click()
    page.locator(".table-screen").wait_for()
    assert _api(page, "/api/continue")["matches"][0]["table_id"] == first["id"]
    # Back on the trail the match under way is offered to continue, not a second seat.
    page.goto(server_url + "/#/trail")
    page.locator(".continue-btn").first.wait_for()
    wait_until(page, "!document.querySelector('.loading')")
    assert page.locator(".next-table").count() == 0
    assert console.errors == []


def test_a_laptop_sees_the_map_and_the_towns_tables_side_by_side(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(DESKTOP)
    sign_in(page, server_url, "Wren")
    wait_until(page, "!document.querySelector('.loading')")
    map_box = page.locator(".map-svg").bounding_box()
    now = page.locator(".trail-side h2.now").bounding_box()
    first = page.locator(".trail-side .tables > li").first.bounding_box()
    assert map_box and now and first
    # Beside the map, not under it, and the first table whole on the first screen.
    assert now["x"] >= map_box["x"] + map_box["width"], (now, map_box)
    assert first["y"] + first["height"] <= DESKTOP["height"], first
    # A town tapped on the map opens beside it too.
    page.locator(".town-pin.current").click()
    chosen = page.locator("#chosen-town").bounding_box()
    assert chosen and chosen["x"] >= map_box["x"] + map_box["width"], chosen
    assert console.errors == []


def test_forfeit_asks_once_then_shows_the_result_and_the_gazette_story(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Kate")
    _start_first_trail_table(page)
    page.get_by_role("button", name="Leave table").click()
    page.get_by_role("button", name="Forfeit…").click()
    dialog = page.get_by_role("dialog", name="Forfeit this table?")
    dialog.wait_for()
    dialog.get_by_role("button", name="Forfeit and take the loss").click()
    # The result shows at the table, in the trail's words: real names, no ids.
    done = page.get_by_role("dialog", name="Match Complete")
    done.wait_for()
    verdict = done.locator(".verdict")
    wait_until(page, "document.querySelector('.verdict').textContent.includes('forfeit')")
    text = verdict.inner_text()
    assert "forfeit counts as a loss" in text
    assert not re.search(r"[a-z]+-[a-z]+", text), f"an id in the summary: {text!r}"
    assert not re.search(r"\.[A-Z]", done.inner_text()), "a sentence runs into the next"
    shot(page, "forfeit-result-phone")
    # The paper's headlines are said to be the Gazette's, with the way there.
    match_id = page.evaluate("decodeURIComponent(location.hash.split('/').pop())")
    headlines = _api(page, f"/api/trail/summaries/{match_id}")["headlines"]
    assert headlines
    printed = done.locator(".sum-gazette")
    assert printed.inner_text().startswith("In the Gazette: "), printed.inner_text()
    assert all(h in printed.inner_text() for h in headlines)
    assert printed.get_by_role("link", name="Gazette").get_attribute("href") == "#/gazette"
    done.get_by_role("button", name="Return to town").click()
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    # The Gazette prints the story, not only its headline.
    page.goto(server_url + "/#/gazette")
    page.get_by_role("heading", name="The Deadwood Knock Gazette").wait_for()
    story = page.locator(".news .story").first
    story.wait_for()
    assert len(story.inner_text().strip()) > 20
    shot(page, "gazette-story-phone")
    # Records: each figure under its own name. The trail's count of wanted posters paid and
    # the gunfighter's dollars once shared the label "Rewards"; a forfeit sets no best score.
    page.get_by_role("link", name="Records").click()
    page.get_by_role("heading", name="Gunfighter Record").wait_for()
    wait_until(page, "document.querySelectorAll('.records dt').length >= 8")
    stats = page.evaluate(
        """() => [...document.querySelectorAll('.records .card-panel')].map((panel) =>
            [...panel.querySelectorAll('dl.stats > div')].map((d) =>
                [d.querySelector('dt').textContent, d.querySelector('dd').textContent]))"""
    )
    trail_stats, gun_stats = dict(stats[0]), dict(stats[-1])
    assert trail_stats["Rewards collected"] == "0"
    assert trail_stats["Best match score"] == "—"
    assert gun_stats["Reward money"] == "$0"
    labels = [label for panel in stats for label, _ in panel]
    assert "Rewards" not in labels, labels
    assert console.errors == []


def test_towns_ahead_list_fits_a_phone(server_url: str, new_page: Any, console: Console) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Wyatt")
    wait_until(page, "!document.querySelector('.loading')")
    page.get_by_role("button", name=re.compile(r"Show the \d+ towns ahead")).click()
    rows = page.locator(".ahead li")
    assert rows.count() > 10
    overlaps = page.evaluate(
        """() => {
          const out = [];
          for (const li of document.querySelectorAll('.ahead li')) {
            const name = li.querySelector('.ahead-name').getBoundingClientRect();
            const where = li.querySelector('small').getBoundingClientRect();
            const apart = where.left >= name.right + 2 || where.top >= name.bottom - 1;
            if (!apart || li.getBoundingClientRect().right > innerWidth) out.push(li.textContent);
          }
          return out;
        }"""
    )
    assert overlaps == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert console.errors == []


def _api(page: Any, path: str) -> Any:
    return page.evaluate(
        """async (path) => {
          const { token } = JSON.parse(localStorage.getItem('dk.settings.v1'));
          const r = await fetch(path, { headers: { Authorization: 'Bearer ' + token } });
          return r.json();
        }""",
        path,
    )


def test_take_a_break_then_continue_resumes_the_same_match_and_round(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Ike")
    _start_first_trail_table(page)
    match_id = page.url.split("#/table/")[1]
    view = _api(page, f"/api/matches/{match_id}")
    page.get_by_role("button", name="Leave table").click()
    page.get_by_role("button", name="Take a break").click()
    page.get_by_role("heading", name="The Trail", exact=True).wait_for()
    link = page.get_by_role("link", name=re.compile(r"^Continue at "))
    link.wait_for()
    assert f"round {view['round']} of {view['rounds']}" in link.inner_text()
    shot(page, "continue-phone")
    link.click()
    page.locator(".table-screen").wait_for()
    assert page.url.split("#/table/")[1] == match_id
    again = _api(page, f"/api/matches/{match_id}")
    assert again["round"] == view["round"] and again["status"] == "active"
    # Opening the same table from the trail resumes it too, never a new match at round 1.
    page.goto(server_url + "/#/trail")
    _start_first_trail_table(page)
    assert page.url.split("#/table/")[1] == match_id
    assert len(_api(page, "/api/continue")["matches"]) == 1
    assert console.errors == []


def test_arrow_keys_move_in_the_hand_and_focus_never_falls_to_body(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Bat")
    page.get_by_role("button", name="Deadwood Knock Three at the table").click()
    page.locator(".hand button.card:not([disabled])").first.wait_for()
    # One card of the hand in the Tab order; the arrows walk the rest.
    assert page.locator(".hand button.card[tabindex='0']").count() == 1
    page.locator(".hand button.card[tabindex='0']").focus()
    names = page.evaluate(
        "[...document.querySelectorAll('.hand button.card:not([disabled])')]"
        ".map((b) => b.getAttribute('aria-label'))"
    )
    active = "document.activeElement.getAttribute('aria-label')"
    page.keyboard.press("Home")
    assert page.evaluate(active) == names[0]
    page.keyboard.press("ArrowRight")
    assert page.evaluate(active) == names[1]
    page.keyboard.press("End")
    assert page.evaluate(active) == names[-1]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate(active) == names[-2]
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    # Focused and selected at once, and both show: a sky ring for focus, gold for selection.
    ring = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineColor, s.boxShadow]; })()"
    )
    assert ring[0] == "dashed" and ring[1] == "rgb(143, 211, 255)", ring
    assert "rgb(217, 164, 65)" in ring[2], ring
    for _ in range(6):
        page.keyboard.press("Shift+Tab")
        if page.evaluate(active) == "Draw from stock":
            break
    page.keyboard.press("Enter")
    # The stock is disabled while the move goes through, and the turn passes: focus stays
    # on the table, never on <body>.
    for _ in range(20):
        page.wait_for_timeout(100)
        tag = page.evaluate("document.activeElement && document.activeElement.tagName")
        assert tag not in (None, "BODY"), "focus fell to <body>"
    assert console.errors == []


def test_form_controls_are_themed(server_url: str, new_page: Any, console: Console) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Doc")
    page.goto(server_url + "/#/profile")
    box = page.get_by_label("Large-Print Cards")
    box.check()
    radio = page.get_by_label("Back up this profile")
    radio.check()
    for control in (box, radio):
        look = control.evaluate(
            "(el) => { const s = getComputedStyle(el); return [s.appearance, s.backgroundColor]; }"
        )
        # Drawn by the stylesheet in the saloon's gold, never the browser's blue.
        assert look == ["none", "rgb(217, 164, 65)"], look
    assert console.errors == []


def test_locked_backs_say_how_to_earn_them_and_posters_hang_from_the_start(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Belle")
    backs = _api(page, "/api/card-backs")["card_backs"]
    page.goto(server_url + "/#/profile")
    page.get_by_role("heading", name="Card Back").wait_for()
    # The likenesses sit four to a row on a phone, as on the welcome screen (two to a row
    # took the profile's first screen and more).
    wait_until(page, "document.querySelectorAll('.likeness-grid [role=radio]').length > 0")
    tops = page.evaluate(
        """[...document.querySelectorAll('.likeness-grid [role=radio]')]
            .map((b) => Math.round(b.getBoundingClientRect().top))"""
    )
    assert len(set(tops)) == -(-len(tops) // 4), tops
    locked = [b for b in backs if not b["unlocked"]]
    assert locked
    for back in locked:
        radio = page.get_by_role("radio", name=f"Card back {back['name']} (locked)")
        assert radio.is_disabled()
        note = page.locator(f"#earn-{back['id']}")
        text = note.inner_text()
        unlock = back["unlock"]
        assert f"{unlock['count']} of {unlock['threshold']}" in text, text
        assert note.locator("progress").get_attribute("max") == str(unlock["threshold"])
    assert "Win a table on the trail: 0 of 1" in page.locator(".backs").inner_text()
    # Each back shows its own art, a locked one too (it showed the first back's art, so
    # every locked back looked the same): what the player is earning.
    wait_until(page, f"document.querySelectorAll('.backs img.card-svg').length === {len(backs)}")
    shown = page.evaluate(
        """() => [...document.querySelectorAll('.backs .back-choice')].map((b) =>
            [b.getAttribute('aria-label'), b.querySelector('img.card-svg').getAttribute('src')])"""
    )
    for back in backs:
        label = f"Card back {back['name']}" + ("" if back["unlocked"] else " (locked)")
        assert [label, back["svg_url"]] in shown, (back, shown)
    assert len({src for _, src in shown}) == len(backs)
    shot(page, "card-backs-phone")
    # Every wanted poster is up on the trail from the first day, with its terms.
    trail = _api(page, "/api/trail")
    posters = [w for t in trail["towns"] for w in t["wanted"]]
    page.goto(server_url + "/#/trail")
    page.get_by_role("heading", name="Wanted").wait_for()
    assert page.locator(".wanted .poster").count() == len(posters)
    far = next((w, t) for t in trail["towns"] if t["status"] == "locked" for w in t["wanted"])
    card = page.locator(f'[data-poster="{far[0]["id"]}"]')
    terms = card.locator(".poster-terms").inner_text()
    assert str(far[0]["terms"]["score_to_beat"]) in terms
    reward = f"Reward ${far[0]['reward']:,}"
    assert card.locator(".poster-reward").inner_text() == reward
    assert card.get_by_role("button", name=f"Locked until {far[1]['name']}").is_disabled()
    assert console.errors == []


def test_the_trail_map_draws_towns_where_they_are_and_opens_their_tables(
    server_url: str, new_page: Any, console: Console
) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Jane")
    pins = page.locator(".town-pin")
    pins.first.wait_for()
    trail = _api(page, "/api/trail")
    assert pins.count() == len(trail["towns"])
    drawn = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('.town-pin')].map((g) => {
             const m = g.getAttribute('transform').match(/translate\\(([-\\d.]+) ([-\\d.]+)\\)/);
             return [g.dataset.town, [Number(m[1]), Number(m[2])]];
           }))"""
    )
    # North is up and west is left, from the drawn coordinates.
    assert drawn["deadwood"][1] < drawn["cheyenne"][1]
    # The content has no Santa Fe; Las Vegas, New Mexico, is its neighbour up the trail.
    assert drawn["tombstone"][1] > drawn["las-vegas"][1]
    assert drawn["tombstone"][0] < drawn["el-paso"][0] < drawn["san-antonio"][0]
    shot(page, "trail-map-phone")
    # Zoom by button and by pinch; a pan moves the view.
    svg = page.locator(".map-svg")
    before = float(svg.get_attribute("data-scale"))
    page.get_by_role("button", name="Zoom in").click()
    assert float(svg.get_attribute("data-scale")) > before
    page.get_by_role("button", name="Whole map").click()
    assert float(svg.get_attribute("data-scale")) == 1.0
    box = svg.bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.evaluate(
        """([cx, cy]) => {
          const el = document.querySelector('.map-svg');
          const fire = (type, id, x, y) => el.dispatchEvent(new PointerEvent(type,
            { pointerId: id, clientX: x, clientY: y, bubbles: true, isPrimary: id === 1 }));
          fire('pointerdown', 1, cx - 20, cy); fire('pointerdown', 2, cx + 20, cy);
          fire('pointermove', 1, cx - 60, cy); fire('pointermove', 2, cx + 60, cy);
          fire('pointerup', 1, cx - 60, cy); fire('pointerup', 2, cx + 60, cy);
        }""",
        [cx, cy],
    )
    wait_until(page, "Number(document.querySelector('.map-svg').dataset.scale) > 2")
    view = svg.get_attribute("viewBox")
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 30, steps=4)
    page.mouse.up()
    assert svg.get_attribute("viewBox") != view
    # A tap on the current town opens its tables under the map.
    page.get_by_role("button", name="Whole map").click()
    here = trail["current_town"]
    page.locator(f'.town-pin[data-town="{here}"]').click()
    panel = page.locator("#chosen-town")
    panel.wait_for()
    town = next(t for t in trail["towns"] if t["id"] == here)
    assert panel.locator(".table-btn").count() == len(town["tables"])
    assert town["name"] in panel.inner_text()
    assert console.errors == []


def test_an_offline_start_shows_the_art_says_offline_and_keeps_quiet(
    server_url: str, browser: Any, console: Console
) -> None:
    ctx = browser.new_context(viewport=PHONE, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        page.set_default_timeout(15000)
        sign_in(page, server_url, "Nell")
        wait_until(page, "!document.querySelector('.loading')")
        # The service worker has installed and cached the shell, the art and the content.
        wait_until(
            page,
            "navigator.serviceWorker.getRegistration().then((r) => !!(r && r.active))",
        )
        wait_until(
            page,
            """caches.keys().then(async (keys) => {
                 for (const k of keys) {
                   const c = await caches.open(k);
                   if (await c.match('/art/portraits/wild-bill-hickok.svg')) return true;
                 }
                 return false; })""",
        )
        ctx.set_offline(True)
        console.watch(page)
        page.reload()
        page.get_by_role("heading", name="The Trail", exact=True).wait_for()
        page.get_by_text("You're offline.").wait_for()
        # The art shows: every portrait on the screen has loaded from the cache.
        wait_until(
            page,
            "[...document.images].length > 0 && [...document.images]"
            ".every((i) => i.complete && i.naturalWidth > 0)",
        )
        # The map and towns as last seen; only what needs the server is disabled.
        assert page.locator(".town-pin").count() > 10
        assert page.locator(".table-btn[data-table='quick-dk']").is_disabled()
        assert page.locator(".towns .table-btn").first.is_disabled()
        page.get_by_role("link", name="Rules").click()
        page.get_by_role("heading", name="Rules", exact=True).wait_for()
        shot(page, "offline-rules-phone")
        assert console.errors == []
    finally:
        ctx.close()


def test_a_replay_steps_through_a_finished_match_and_shows_hands_only_at_its_end(
    server_url: str, new_page: Any, console: Console, tmp_path: Any
) -> None:
    page = new_page(PHONE)
    sign_in(page, server_url, "Poker Alice")
    page.get_by_role("button", name="Deadwood Knock Three at the table").click()
    # One turn of our own, then the match ends by forfeit: a short finished match.
    page.locator(".hand button.card:not([disabled])").first.click()
    page.get_by_role("button", name="Draw from stock").click()
    match_id = page.url.split("#/table/")[1]
    wait_until(page, "document.querySelectorAll('.hand button.card').length === 8")
    page.get_by_role("button", name="Leave table").click()
    page.get_by_role("button", name="Forfeit…").click()
    page.get_by_role("button", name="Forfeit and take the loss").click()
    page.get_by_role("dialog", name="Match Complete").wait_for()
    replay = _api(page, f"/api/replays/{match_id}")
    last = len(replay["steps"]) - 1
    assert last >= 2
    page.goto(server_url + "/#/records")
    page.get_by_role("link", name=re.compile(r"^Replay Deadwood Knock")).click()
    page.get_by_role("heading", name=re.compile(r"^Replay: ")).wait_for()
    page.get_by_text(f"Step 0 of {last}").wait_for()
    shown: list[str] = []
    for n in range(last + 1):
        page.get_by_text(f"Step {n} of {last}").wait_for()
        step = replay["steps"][n]
        hand = page.locator("ul[aria-label='Your hand'] li").evaluate_all(
            "(els) => els.map((e) => e.dataset.card)"
        )
        assert hand == step["hand"]
        if n < last:
            # Only the player's own cards: the others are backs, no card of theirs in the page.
            assert page.locator(".replay-hands").count() == 0
            others = {c for s, h in enumerate(step["hands"]) if s != 0 for c in h}
            visible = set(
                page.locator("[data-card]").evaluate_all("(els) => els.map((e) => e.dataset.card)")
            )
            assert not (others - set(step["hand"]) - {step["discard_top"]}) & visible
            shown.extend(page.locator(".replay-lines li.now").all_inner_texts())
            page.get_by_role("button", name="Next").click()
    # The end: every hand on the table.
    hands = page.locator(".replay-hands")
    hands.wait_for()
    for seat, cards in enumerate(replay["steps"][-1]["hands"]):
        if seat == 0:
            continue
        drawn = hands.locator(f".replay-seat[data-seat='{seat}'] li").evaluate_all(
            "(els) => els.map((e) => e.dataset.card)"
        )
        assert drawn == cards
    assert any("discard" in line for line in shown)
    shot(page, "replay-end-phone")
    # The arrow keys step and Home and End jump, from anywhere but a form control.
    page.keyboard.press("Home")
    page.get_by_text(f"Step 0 of {last}").wait_for()
    page.keyboard.press("ArrowRight")
    page.get_by_text(f"Step 1 of {last}").wait_for()
    page.keyboard.press("End")
    page.get_by_text(f"Step {last} of {last}").wait_for()
    page.keyboard.press("ArrowLeft")
    page.get_by_text(f"Step {last - 1} of {last}").wait_for()
    # Export, then import the same record from a file: the same replay.
    with page.expect_download() as got:
        page.get_by_role("button", name="Save the game file").click()
    path = tmp_path / "record.json"
    got.value.save_as(path)
    page.goto(server_url + "/#/records")
    page.set_input_files("#record-file", str(path))
    page.get_by_role("heading", name=re.compile(r"^Replay: Deadwood Knock")).wait_for()
    page.get_by_text(f"Step 0 of {last}").wait_for()
    assert console.errors == []


def test_trail_offers_no_table_until_the_map_is_in(
    server_url: str, new_page: Any, console: Console
) -> None:
    """The map arrives above the quick tables: a table offered before it would jump away
    under the finger, so nothing is offered until it (and the unfinished list) is in."""
    # No service worker: with one in control, /api/trail can pass by the page's route.
    page = new_page(PHONE, service_workers="block")
    sign_in(page, server_url, "Doc")
    held: list[Any] = []
    page.route(re.compile(r".*/api/trail$"), lambda route: held.append(route))
    page.goto(server_url + "/#/profile")
    # The profile must render before going back: two quick hash changes can be drawn as
    # one, leaving the trail mounted (no new request for the map to hold).
    page.get_by_role("heading", name="Profile & Settings").wait_for()
    page.goto(server_url + "/#/trail")
    for _ in range(150):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the trail screen never asked for the map"
    page.get_by_text("Unrolling the map…").wait_for()
    page.wait_for_timeout(300)
    assert page.locator(".table-btn").count() == 0
    held[0].continue_()
    page.locator('.table-btn[data-table="quick-gin"]').wait_for()
    wait_until(page, "!document.querySelector('.loading')")
    assert page.locator(".towns .table-btn").count() > 0
    assert console.errors == []


def test_a_fold_never_speaks_a_line_meant_for_a_winner(
    server_url: str, new_page: Any, console: Console
) -> None:
    """Table talk at a fold: a character's "lose" lines speak to the round's winner
    ("Nicely done. You'll be wanted in Fort Worth."), and at a fold nobody has won yet."""
    page = new_page(PHONE)
    page.goto(server_url + "/")
    said = page.evaluate(
        """async () => {
            const talk = await import('/app/talk.js');
            const ch = await (await fetch('/api/characters/luke-short')).json();
            const lose = ch.table_talk.filter((t) => t.situation === 'lose').map((t) => t.line);
            const folds = [0, 1, 2, 3, 4, 5].map((salt) => talk.lineFor('fold', 1, salt, ch));
            return {lose, folds};
        }"""
    )
    assert said["lose"], "Luke Short has a line for losing"
    assert all(line and line not in said["lose"] for line in said["folds"]), said
    assert console.errors == []


def test_the_scores_behind_an_open_showdown_are_the_showdowns_totals(
    server_url: str, new_page: Any, console: Console
) -> None:
    """``scoresShown``: while a showdown is open the view behind it is from before the round
    was scored; the Scores panel and the bar take the showdown's totals (and, in Deadwood
    Knock, its round column) so they agree with the dialog's "Total" lines."""
    page = new_page(PHONE)
    page.goto(server_url + "/")
    got = page.evaluate(
        """async () => {
            const { scoresShown } = await import('/app/focus.js');
            const r8 = {round: 8, round_scores: [5, -3], totals: [70, 20]};
            const r9 = {round: 9, round_scores: [19, 63], totals: [89, 83]};
            const obs = {seat: 0, totals: [70, 20], results: [r8]};
            const kr = {seat: 0, totals: [10, -10]};
            const hand = {hand: 3, scores: [34, -34], totals: [44, -44]};
            return {
                open: scoresShown(obs, r9),
                again: scoresShown({...obs, totals: [89, 83], results: [r8, r9]}, r9),
                closed: scoresShown(obs, null),
                kr: scoresShown(kr, hand),
            };
        }"""
    )
    assert got["open"]["totals"] == [89, 83]
    assert [r["round"] for r in got["open"]["results"]] == [8, 9]
    assert [r["round"] for r in got["again"]["results"]] == [8, 9]
    assert got["closed"]["totals"] == [70, 20] and len(got["closed"]["results"]) == 1
    assert got["kr"]["totals"] == [44, -44] and "results" not in got["kr"]
    assert console.errors == []


def test_table_talk_keeps_characters_in_their_own_words_and_not_at_every_move(
    server_url: str, new_page: Any, console: Console
) -> None:
    """``talk.js``: a character says only its own lines (no stock "I'll take that off your
    hands." in Luke Short's mouth), a bot that is no character keeps the stock lines, and
    ``speaks`` voices every knock (and each of the character's knock lines is heard) but
    about one call in two and one take from the pile in four."""
    page = new_page(PHONE)
    page.goto(server_url + "/")
    got = page.evaluate(
        """async () => {
            const talk = await import('/app/talk.js');
            const ch = await (await fetch('/api/characters/luke-short')).json();
            const versions = Array.from({ length: 400 }, (_, v) => v);
            const share = (kind, seat) =>
                versions.filter((v) => talk.speaks(kind, seat, v)).length / versions.length;
            return {
                take: versions.map((v) => talk.lineFor('draw_discard', 1, v, ch)),
                knocks: versions.map((v) => talk.lineFor('knock', 1, v, ch)),
                // A seat's turns at a three-seat table, a draw and a discard each: versions
                // six apart (and three, and a table's four seats apart).
                spaced: [3, 6, 8].map((step) => Array.from({ length: 30 },
                    (_, k) => talk.lineFor('knock', 1, 5 + step * k, ch))),
                rounds: Array.from({ length: 10 },
                    (_, r) => talk.lineFor('win_round', 1, r + 1, ch)),
                wins: ch.table_talk.filter((t) => t.situation === 'win').map((t) => t.line),
                own: ch.table_talk.filter((t) => t.situation === 'knock').map((t) => t.line),
                stock: talk.lineFor('draw_discard', 1, 0, null),
                knock: [1, 2, 3].map((seat) => share('knock', seat)),
                call: [1, 2, 3].map((seat) => share('call', seat)),
                pile: [1, 2, 3].map((seat) => share('draw_discard', seat)),
            };
        }"""
    )
    assert set(got["take"]) == {None}, set(got["take"])
    # Every one of the character's knock lines is heard, not one at every knock.
    assert len(got["own"]) >= 3 and set(got["knocks"]) == set(got["own"]), got["own"]
    # ... also when the knocks come a table's width of versions apart (the pick was
    # (seat * 7 + version) % lines: one line at every knock of a seat at such a table), and
    # the win lines across a match's rounds.
    for spaced in got["spaced"]:
        counts = [spaced.count(line) for line in got["own"]]
        assert min(counts) >= 3 and max(counts) <= 18, counts
    assert len(set(got["rounds"])) == len(got["wins"]) >= 3, got["rounds"]
    assert got["stock"], got
    assert got["knock"] == [1, 1, 1], got["knock"]
    assert all(0.4 <= x <= 0.6 for x in got["call"]), got["call"]
    assert all(0.17 <= x <= 0.33 for x in got["pile"]), got["pile"]
    assert console.errors == []


def test_only_a_round_with_a_winner_draws_a_remark(
    server_url: str, new_page: Any, console: Console
) -> None:
    """The remark at a round's end (talk.roundRemark) on the result shapes a table meets:
    a round or hand with no winner (the engine's ``winner``: a dry round, a tie at the top,
    a folder on top, a void or shared hand) draws none; an opponent
    who won speaks its own "win" line; when you won, an opponent who lost (not the pot's
    taker) speaks its own "lose" line; a person at the table is never given words; the same
    result always draws the same remark."""
    page = new_page(PHONE)
    page.goto(server_url + "/")
    got = page.evaluate(
        """async () => {
            const talk = await import('/app/talk.js');
            const ch = {
                1: await (await fetch('/api/characters/lottie-deno')).json(),
                2: await (await fetch('/api/characters/luke-short')).json(),
            };
            const of = (seat) => ch[seat] || null;
            const bots = [{seat: 0, kind: 'human'}, {seat: 1, kind: 'bot'}, {seat: 2, kind: 'bot'}];
            // ``winner`` as the engine's RoundResult.winner gives it for these scores.
            const dk = (scores, winner, extra = {}) => ({round: 3, knocker: 1, dry: false,
                round_scores: scores, pot_winners: [], winner, ...extra});
            const say = (r, players = bots) => talk.roundRemark(r, 0, players, of);
            const lines = (seat, s) => ch[seat].table_talk.filter((t) => t.situation === s)
                .map((t) => t.line);
            return {
                dry: say(dk([20, 5, 3], null, {dry: true, knocker: null})),
                tie: say(dk([20, 20, 3], null)),
                // Luke Short folded a flush and still scored highest: no "win" from a folder.
                folded: say(dk([20, 5, 31], null, {calls: [null, 'call', 'fold']})),
                opponent: say(dk([20, 5, 31], 2, {pot_winners: [1]})),
                mine: say(dk([40, 5, 31], 0, {pot_winners: [2]})),
                again: say(dk([40, 5, 31], 0, {pot_winners: [2]})),
                person: say(dk([20, 5, 31], 2), [{seat: 0, kind: 'human'}, {seat: 1, kind: 'bot'},
                    {seat: 2, kind: 'human'}]),
                void: say({hand: 2, outcome: 'void', winners: [], winner: null}),
                shared: say({hand: 2, outcome: 'knock', winners: [1, 2], winner: null,
                    scores: [-8, 4, 4]}),
                kr: say({hand: 2, outcome: 'gin', winners: [1], winner: 1, scores: [-5, 30, -25]}),
                // You palmed and lost it: Luke Short (a palm_caught line) calls it out,
                // though Lottie Deno (none) took the round.
                caught: say(dk([10, 40, 5], 1, {suspicion: [-5, 0, 0]})),
                // Luke Short palmed: nobody else has the line, so the winner's usual remark.
                palmer: say(dk([10, 40, 5], 1, {suspicion: [0, 0, -5]})),
                palmCaught: lines(2, 'palm_caught'),
                // Luke Short wins ten rounds running: his win lines in turn.
                run: Array.from({ length: 10 }, (_, r) =>
                    talk.roundRemark({...dk([5, 5, 31], 2), round: r + 1}, 0, bots, of).text),
                // You win ten rounds running: the two losers take turns to speak.
                losing: Array.from({ length: 10 }, (_, r) =>
                    talk.roundRemark({...dk([40, 5, 3], 0), round: r + 1}, 0, bots, of)),
                win: {1: lines(1, 'win'), 2: lines(2, 'win')},
                lose: {1: lines(1, 'lose'), 2: lines(2, 'lose')},
            };
        }"""
    )
    for nobody in ("dry", "tie", "folded", "void", "shared", "person"):
        assert got[nobody] is None, (nobody, got[nobody])
    assert got["opponent"]["seat"] == 2 and got["opponent"]["text"] in got["win"]["2"]
    assert got["kr"]["seat"] == 1 and got["kr"]["text"] in got["win"]["1"]
    # You won; Luke Short (seat 2) took the pot, so Lottie Deno (seat 1) speaks.
    assert got["mine"]["seat"] == 1 and got["mine"]["text"] in got["lose"]["1"], got["mine"]
    assert got["again"] == got["mine"]
    assert got["palmCaught"] and got["win"]["1"]
    assert got["caught"]["seat"] == 2 and got["caught"]["kind"] == "caught", got["caught"]
    assert got["caught"]["text"] in got["palmCaught"]
    assert got["palmer"]["seat"] == 1 and got["palmer"]["text"] in got["win"]["1"]
    # Never the same line two rounds running, and every win line heard.
    run = got["run"]
    assert all(a != b for a, b in itertools.pairwise(run)), run
    assert set(run) == set(got["win"]["2"]), run
    # ... and each losing seat's own remarks in turn (at a three-seat table the two losers
    # alternated and each said one line at every turn: a played match heard "Even the house
    # has a bad night." at rounds 2, 8 and 10).
    for seat in (1, 2):
        said = [r["text"] for r in got["losing"] if r["seat"] == seat]
        assert len(said) >= 4, got["losing"]
        assert all(a != b for a, b in itertools.pairwise(said)), (seat, said)
        assert len(set(said)) == min(len(said), len(got["lose"][str(seat)])), (seat, said)
    assert console.errors == []


def test_a_gunfight_table_says_the_score_to_beat(
    server_url: str, new_page: Any, console: Console
) -> None:
    """The heading says the aim, both terms: outscore the outlaw and reach the score
    (it said "Gunfight · reach 40", which wins nothing while the outlaw is ahead)."""
    page = new_page(PHONE)
    sign_in(page, server_url, "Bass")
    trail = _api(page, "/api/trail")
    poster = next(w for t in trail["towns"] for w in t["wanted"] if w["status"] == "open")
    page.get_by_role("button", name=f"Challenge {poster['outlaw']}").click()
    page.wait_for_url(re.compile(r"#/table/"))
    heading = page.locator(".table-head h1")
    to_beat = poster["terms"]["score_to_beat"]
    want = f"Gunfight · outscore {poster['outlaw']} and reach {to_beat}"
    wait_until(page, f"document.querySelector('.table-head h1')?.textContent.includes({want!r})")
    assert heading.locator(".game-name").inner_text() == want
    # "reach 40" wraps whole; the outlaw's name may wrap between its words; the heading
    # stays on the phone's screen.
    assert heading.locator(".game-name .part").all_inner_texts()[-1] == f"reach {to_beat}"
    box = heading.bounding_box()
    assert box is not None and box["x"] + box["width"] <= PHONE["width"], box
    # Heads-up, the knock's help speaks of one opponent.
    if page.get_by_role("button", name="Knock", exact=True).count():
        page.get_by_text("your opponent gets one final turn, then calls or folds").wait_for()
    shot(page, "gunfight-table-phone")
    # A trail table's heading names its game, as before.
    page.goto(server_url + "/#/trail")
    page.get_by_role("button", name=re.compile("^Take a seat")).click()
    page.wait_for_url(re.compile(r"#/table/"))
    page.locator(".table-head .game-name").get_by_text("Deadwood Knock").wait_for()
    assert console.errors == []


def test_the_phone_bar_sums_up_the_hand_from_the_engine_figures(
    server_url: str, new_page: Any, console: Console
) -> None:
    """``focusLines`` (the phone's bar): each figure named, the knock count on its own line
    until someone knocks (below zero with two jokers, a true minus sign); in Knock Rummy /
    Gin, holding a card to throw, the lowest count a discard leaves (``discard_counts``),
    else the count and melds."""
    page = new_page(PHONE)
    page.goto(server_url + "/")
    got = page.evaluate(
        """async () => {
            const { focusLines } = await import('/app/focus.js');
            const { lowestAfter, countAfter } = await import('/app/cards.js');
            const kr = {arrangement: {count: 30, melds: [['2s', '3s', '4s']]},
                discard_counts: {Kh: 7, Qs: 7, '2c': 9}};
            return {
                dk: focusLines({evaluation: {category: 'pair', score: 16, knock_count: -1}},
                    true),
                knocked: focusLines({knocker: 2,
                    evaluation: {category: 'pair', score: 16, knock_count: -1}}, true),
                kr: focusLines(kr, false),
                held: focusLines({arrangement: kr.arrangement, discard_counts: {}}, false),
                low: lowestAfter(kr),
                after: countAfter(kr, 'Qs'),
                none: countAfter({}, 'Qs'),
            };
        }"""
    )
    assert got["dk"][0].endswith("· score +16"), got["dk"]
    assert got["dk"][1:] == ["knock count −1"], got["dk"]
    # After a knock there is no knock to count toward: one line, room for the call question.
    assert got["knocked"] == got["dk"][:1], got["knocked"]
    assert got["kr"] == ["Count 7 after a discard"]
    assert got["held"] == ["Count 30 · 1 meld"]
    assert got["low"] == {"count": 7, "cards": ["Kh", "Qs"]}
    assert (got["after"], got["none"]) == (7, None)
    assert console.errors == []


def _after_knock_views() -> dict[str, Any]:
    """Real engine observations (JSON) of each moment after a Deadwood Knock knock, seen
    by one seat: its own knock, its final turn, another's final turn, its call, another's."""
    import random

    from deadwood_knock.games import deadwood_knock as dk

    found: dict[str, Any] = {}
    for seed in range(40):
        rng = random.Random(seed)
        game = dk.GAME
        state = game.new_game(game.options_from_json({"players": 3}), seed)
        while not game.is_over(state) and len(found) < 5:
            for seat in range(3):
                obs = game.observe(state, seat)
                if obs.knocker is None or obs.phase not in ("final", "call"):
                    continue
                if obs.knocker == seat:
                    case = "own knock"
                elif obs.phase == "final":
                    case = "final turn" if obs.final_turn else "another's final turn"
                else:
                    case = "call" if obs.to_act == seat else "another's call"
                found.setdefault(case, obs.to_json())
            legal = game.legal_actions(state)
            knocks = [a for a in legal if isinstance(a, dk.Knock)]
            state, _ = game.apply(state, knocks[0] if knocks else rng.choice(legal))
        if len(found) == 5:
            return found
    raise AssertionError(f"not every moment came up: {sorted(found)}")


def test_hand_focus_after_a_knock_says_only_what_the_engine_says(
    server_url: str, new_page: Any, console: Console
) -> None:
    """Before the hint comes, Hand Focus's line after a knock follows the engine's phase and
    seats: the knocker is not told to make a last turn count, and only the seat the engine
    gives a final turn is told it is its final turn."""
    views = _after_knock_views()
    page = new_page(PHONE)
    page.goto(server_url + "/")
    said = page.evaluate(
        """async (views) => {
            const { HandFocus } = await import('/app/focus.js');
            const { html, render } = await import('/app/lib.js');
            const out = {};
            for (const [name, obs] of Object.entries(views)) {
                const box = document.createElement('div');
                render(html`<${HandFocus} obs=${obs} canKnock=${false} advice=${null} />`, box);
                const hints = box.querySelectorAll('.hint');
                out[name] = hints[hints.length - 1].textContent;
            }
            return out;
        }""",
        views,
    )
    assert said["own knock"].startswith("You knocked"), said
    assert "final turn" not in said["own knock"] and "last turn" not in said["own knock"]
    assert "this is your final turn" in said["final turn"], said
    for other in ("another's final turn", "call", "another's call"):
        assert "your final turn" not in said[other] and "last turn" not in said[other], said
    assert said["call"].endswith("call or fold."), said
    assert "the table calls or folds" in said["another's call"], said
    assert console.errors == []


def test_your_count_says_a_matched_hand_goes_out_on_its_turn(
    server_url: str, new_page: Any, console: Console
) -> None:
    """Your Count, before the hint: a hand with every card matched "can go out" on the
    seat's own turn; between turns it says the turn it can; when the match is over (nobody
    to act) it says only that every card is matched."""
    page = new_page(PHONE)
    page.goto(server_url + "/")
    said = page.evaluate(
        """async () => {
            const { MeldPanel } = await import('/app/focus.js');
            const { html, render } = await import('/app/lib.js');
            const arrangement = {count: 0, melds: [['2s', '3s', '4s'], ['9h', '9d', '9c']],
                deadwood: [], rummy: true};
            const out = {};
            for (const [name, toAct] of [['mine', 0], ['theirs', 1], ['over', null]]) {
                const box = document.createElement('div');
                const obs = {seat: 0, to_act: toAct, arrangement, options: {knock_limit: null}};
                render(html`<${MeldPanel} obs=${obs} advice=${null} />`, box);
                const hints = box.querySelectorAll('.hint');
                out[name] = hints[hints.length - 1].textContent;
            }
            return out;
        }"""
    )
    assert said["mine"] == "Every card is matched: you can go out.", said
    assert said["theirs"] == "Every card is matched: you can go out on your turn.", said
    assert said["over"] == "Every card is matched.", said
    assert console.errors == []


def _knock_rummy_results(players: int, seeds: range) -> list[Any]:
    """Real engine hand results (JSON, as a seat's observation carries them) of Knock Rummy
    hands played out with random legal moves."""
    import random

    from deadwood_knock.games.knock_rummy import rules as kr

    results = []
    for seed in seeds:
        rng = random.Random(seed)
        state = kr.GAME.new_game(kr.GAME.options_from_json({"players": players}), seed)
        while (result := kr.GAME.observe(state, 0).to_json().get("last_result")) is None:
            state, _ = kr.GAME.apply(state, rng.choice(kr.GAME.legal_actions(state)))
        results.append(result)
    return results


def test_a_knock_rummy_winner_at_four_says_how_many_paid_the_difference(
    server_url: str, new_page: Any, console: Console
) -> None:
    """The hand's result: at a table of four the winner's difference is the sum of what each
    player paid, and its line says how many paid; heads-up it is one count difference."""
    results = _knock_rummy_results(4, range(10)) + _knock_rummy_results(2, range(3))
    page = new_page(PHONE)
    page.goto(server_url + "/")
    lines = page.evaluate(
        """async (results) => {
            const { Showdown } = await import('/app/showdown.js');
            const { html, render } = await import('/app/lib.js');
            return results.map((result) => {
                const box = document.createElement('div');
                render(html`<${Showdown} result=${result} who=${(s) => `Seat ${s}`} />`, box);
                return [...box.querySelectorAll('.sd-row')].map((row) =>
                    [...row.querySelectorAll('.sd-line')].map((p) => p.textContent));
            });
        }""",
        results,
    )
    multi = 0
    for result, rows in zip(results, lines, strict=True):
        differences = result["difference"]
        payers = sum(1 for d in differences if d < 0)
        assert sum(differences) == 0, result
        for seat, said in enumerate(rows):
            d = differences[seat]
            figure = f"{'+' if d > 0 else '−'}{abs(d)}"
            if d > 0 and payers > 1:
                multi += 1
                assert f"Count differences from {payers} players: {figure}" in said, said
            elif d:
                assert f"Count difference: {figure}" in said, said
            else:
                assert not any(line.startswith("Count difference") for line in said), said
    assert multi >= 5  # most four-player hands have one winner and several payers
    assert console.errors == []


def test_the_back_a_new_player_holds_is_the_one_the_profile_shows(
    server_url: str, new_page: Any, console: Console
) -> None:
    """A new player's card back is the server's starting back: the profile's picker shows it
    chosen, and the table's stock wears its art (before, the table drew a back of the
    client's own that the picker did not list, and no back was shown chosen). A setting
    kept by an older version ("deadwood") reads the same way."""
    from .test_table import start_quick_table

    page = new_page(PHONE)
    start_quick_table(page, server_url, "Deadwood Knock")
    backs = _api(page, "/api/card-backs")["card_backs"]
    (selected,) = [b for b in backs if b["selected"]]
    assert selected["unlock"] is None  # nobody has chosen: the back every player starts with
    stock = page.get_by_role("button", name="Draw from stock").locator("img.card-svg")
    stock.wait_for()
    assert stock.get_attribute("src") == selected["svg_url"]
    # The opponents hold the same deck: their little backs wear the same art.
    assert selected["svg_url"] in (page.locator(".mini-back").first.get_attribute("style") or "")
    page.goto(server_url + "/#/profile")
    radio = page.get_by_role("radio", name=f"Card back {selected['name']}")
    wait_until(page, "document.querySelectorAll('.backs [role=radio]').length > 1")
    assert radio.get_attribute("aria-checked") == "true"
    checked = page.locator('.backs [role=radio][aria-checked="true"]')
    assert checked.count() == 1
    page.evaluate(
        """() => {
            const s = JSON.parse(localStorage.getItem('dk.settings.v1'));
            localStorage.setItem('dk.settings.v1', JSON.stringify({ ...s, cardBack: 'deadwood' }));
        }"""
    )
    page.reload()
    radio.wait_for()
    assert radio.get_attribute("aria-checked") == "true"
    assert console.errors == []


def test_deadwood_below_zero_reads_in_the_words_of_the_terminal_and_the_hints(
    server_url: str, new_page: Any, console: Console
) -> None:
    """The showdown's deadwood term is the one wording (games.points.deadwood_term): taken
    off ("− 9 deadwood"), or added when jokers take it below zero, with the joker's figure
    from the engine's card points ("+ 3 deadwood (jokers count −2)")."""
    from deadwood_knock.games.points import deadwood_term

    page = new_page(PHONE)
    page.goto(server_url + "/")
    got = page.evaluate(
        """async () => {
            const games = await import('/app/games.js');
            await games.loadGames();
            const sd = await import('/app/showdown.js');
            return [9, 0, -3].map((p) => sd.deadwoodTerm(p));
        }"""
    )
    assert got == [deadwood_term(9), deadwood_term(0), deadwood_term(-3)], got
    assert console.errors == []


def test_a_long_poker_hand_shows_its_scoring_five_and_the_rest_apart(
    server_url: str, new_page: Any, console: Console
) -> None:
    """A 6-8 card poker hand (one suit or one straight, DK3) scores its best five: the
    showdown lays those five beside the category and names the others on a line of their
    own ("Not deadwood: J♠ K♠ complete the 7-card straight"), from the engine's
    ``best_fives`` and ``long_hands``; a five-card hand has no such line."""
    from bot_positions import played
    from deadwood_knock.cards import parse_card

    made: list[Any] = []
    played("deadwood-knock", {"players": 4}, 0, 20000, until=lambda g, s: g.is_over(s), events=made)
    results = [e.to_json() for e in made if e.kind == "round_result"]
    assert any(any(r["long_hands"]) for r in results)
    page = new_page(PHONE)
    page.goto(server_url + "/")
    rows = page.evaluate(
        """async (results) => {
            const { Showdown } = await import('/app/showdown.js');
            const { html, render } = await import('/app/lib.js');
            return results.map((result) => {
                const box = document.createElement('div');
                render(html`<${Showdown} result=${result} who=${(s) => `Seat ${s}`} />`, box);
                return [...box.querySelectorAll('.sd-row')].map((row) => ({
                    five: [...row.querySelector('.sd-cards').querySelectorAll('.mini')]
                        .map((m) => m.textContent),
                    long: row.querySelector('.sd-long')
                        ? [row.querySelector('.sd-long .sd-tag').textContent,
                           row.querySelector('.sd-long .sd-why').textContent]
                        : null,
                    extra: [...row.querySelectorAll('.sd-long .mini')].map((m) => m.textContent),
                }));
            });
        }""",
        results,
    )
    longs = 0
    for result, seats in zip(results, rows, strict=True):
        for seat, row in enumerate(seats):
            poker, five = result["poker_hands"][seat], result["best_fives"][seat]
            assert row["five"] == [parse_card(c).pretty() for c in five] or not poker, row
            kind = result["long_hands"][seat]
            if kind is None:
                assert row["long"] is None, row
                continue
            longs += 1
            rest = [parse_card(c).pretty() for c in poker if c not in five]
            assert sorted(row["extra"]) == sorted(rest), (row, poker)
            verb = "complete" if len(rest) > 1 else "completes"
            assert row["long"] == ["Not deadwood", f"{verb} the {len(poker)}-card {kind}"], row
    assert longs >= 3
    assert console.errors == []
