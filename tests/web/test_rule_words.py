"""The rule words and figures a player reads come from the server's /api/games.

The browser gets a doctored catalogue (other category words, hand points, knock limit,
joker points, the pot's ante, titles, targets); every screen that shows them must show the
doctored ones, which it could only do by reading them from the server (the client has no
copy).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .helpers import DESKTOP, Console, shot, sign_in, wait_until


def _doctor(body: dict[str, Any]) -> dict[str, Any]:
    for game in body["games"]:
        if game["name"] == "deadwood-knock":
            game["title"] = "Deadwood Served"
            game["category_words"]["full_house"] = "a served house"
            game["hand_points"]["full_house"] = 77
            game["knock_limit"] = 9
            game["hand_size"] = 7
            game["card_points"][52] = game["card_points"][53] = -3
            game["figures"]["pot_ante"] = 12
        if game["name"] == "gin":
            game["title"] = "Gin Served"
            game["knock_limit"] = 8
        if game["name"] == "knock-rummy":
            game["options"]["target"] = 123
    return body


def test_the_words_shown_come_from_the_server(
    server_url: str, browser: Any, console: Console
) -> None:
    # No service worker: it would fetch /api/games itself, past the page's route.
    ctx = browser.new_context(viewport=DESKTOP, service_workers="block")
    ctx.add_init_script("localStorage.setItem('dk.paceMs', '0');")
    served: list[int] = []

    def doctored(route: Any) -> None:
        real = route.fetch()
        served.append(real.status)
        route.fulfill(response=real, body=json.dumps(_doctor(real.json())))

    ctx.route(re.compile(r".*/api/games$"), doctored)
    page = ctx.new_page()
    page.set_default_timeout(15000)
    console.watch(page)
    try:
        page.goto(server_url + "/")
        page.get_by_text("You start with 7 cards.").wait_for()
        page.get_by_text("any split of your hand leaves) is 9 or less").wait_for()
        sign_in(page, server_url)
        # The quick tables: titles and figures from the catalogue.
        quick = page.locator(".tables.quick")
        quick.get_by_text("Gin Served", exact=True).wait_for()
        quick.get_by_text("Deadwood Served", exact=True).wait_for()
        assert "game to 123" in quick.inner_text()
        # Hand scoring: the points table, the words and the joker's points.
        page.goto(server_url + "/#/scoring")
        row = page.locator("table.points tr", has_text="Served house")
        assert row.locator("td").inner_text() == "77"
        page.get_by_text("Joker: −3").wait_for()
        page.get_by_text("The knocker collects 12.").wait_for()
        # Rules: the knock limits.
        page.goto(server_url + "/#/rules")
        page.get_by_text("with a knock count of 9 or less").wait_for()
        page.get_by_text("knock at 8 or less").wait_for()
        page.get_by_text("calls (puts 12 in the pot) or folds").wait_for()
        # No figure is glued to a word (htm drops a line break between text and a figure:
        # "puts\n${ante}" read "puts10").
        for route in ("rules", "scoring"):
            page.goto(f"{server_url}/#/{route}")
            page.locator(".screen h1").wait_for()
            text = page.locator(".screen").inner_text()
            glued = re.findall(r"\b[a-z]+\d+\b|\b\d+[a-z]{2,}\b", text)
            assert not glued, (route, glued)
        shot(page, "rule-words-from-server")
        # At a table the title is the served one.
        page.goto(server_url + "/#/trail")
        page.locator('.table-btn[data-table="quick-gin"]').click()
        page.wait_for_url(re.compile(r"#/table/"))
        page.get_by_text("Gin Served · to 100", exact=True).wait_for()
        wait_until(page, "document.querySelector('.table-screen') !== null")
        assert served and all(s == 200 for s in served)
        assert page.evaluate("JSON.parse(localStorage.getItem('dk.games.v1')).gin.title") == (
            "Gin Served"
        )
    finally:
        ctx.close()
    assert console.errors == []


def test_the_example_hands_read_as_the_table_shows_them(
    server_url: str, new_page: Any, console: Console
) -> None:
    """The scoring page's poker hands keep the engine's reading order (a straight low to
    high, a full house its three first), the order the table and the showdown use; the page
    once sorted them again, high to low, so its straight read 9 8 7 6 5."""
    from deadwood_knock.cards import parse_cards
    from deadwood_knock.games.deadwood_knock.hand import reading_order

    page = new_page(DESKTOP)
    page.goto(server_url + "/#/scoring")
    page.locator(".example").first.wait_for()
    shown: list[list[str]] = page.evaluate(
        """[...document.querySelectorAll('.example .card-row:not(.dim)')].map((row) =>
            [...row.querySelectorAll('li')].map((li) => li.dataset.card))"""
    )
    assert len(shown) >= 10
    for cards in shown:
        assert cards == [str(c) for c in reading_order(parse_cards(" ".join(cards)))], cards
    assert ["5s", "6h", "7d", "8c", "9s"] in shown
    assert console.errors == []
