"""Server seams with the bots, the trail and the logs: Hand Focus hints, likenesses,
card backs that must be unlocked, logs without cards, and the bot streak cap."""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from dkserver_helpers import CARD_TOKEN, card_tokens, choose, new_player, real_games, wait_turn
from starlette.testclient import TestClient

from deadwood_knock.content import load_content
from deadwood_knock.persistence import Player
from deadwood_knock.server import Settings
from deadwood_knock.trail import Lifetime

Client = Callable[[Settings], TestClient]


def _start(client: TestClient, headers: dict[str, str], game: str, bots: list[str]) -> str:
    body = {"game": game, "opponents": bots, "options": {}}
    response = client.post("/api/matches", json=body, headers=headers)
    assert response.status_code == 201, response.text
    match_id: str = response.json()["match_id"]
    return match_id


def _hint(client: TestClient, headers: dict[str, str], match_id: str) -> Any:
    return client.get(f"/api/matches/{match_id}/hint", headers=headers)


# ----- Hand Focus ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", [g for g in real_games()])
def test_hint_ranks_only_legal_actions_and_shows_no_hidden_card(
    client: TestClient, game: str
) -> None:
    headers = new_player(client, "Wild Bill")
    match_id = _start(client, headers, game, ["greedy"])
    rng = random.Random(5)
    hints = 0
    for _ in range(6):
        view = wait_turn(client, headers, match_id)
        if view["status"] == "finished":
            break
        response = _hint(client, headers, match_id)
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["version"] == view["version"] and body["seat"] == view["seat"]
        assert body["your_turn"] is True
        hint = body["hint"]
        legal = view["legal_actions"]
        ranked = [r["action"] for r in hint["actions"]]
        # Every legal action ranked once, nothing else; the best is one of them.
        assert sorted(map(json.dumps, ranked)) == sorted(map(json.dumps, legal))
        assert hint["best"] in legal
        assert hint["explanation"]
        assert isinstance(hint["knock"]["legal"], bool)
        # Knock advice only when a knock is legal (issue #13).
        knock_legal = any(a["type"] == "knock" for a in legal)
        assert hint["knock"]["legal"] == knock_legal
        assert bool(hint["knock"]["advice"]) == knock_legal
        # Any card the hint names is one the seat can see: its observation or its actions.
        visible = card_tokens(view["observation"]) | card_tokens(legal)
        assert card_tokens(hint) <= visible
        hints += 1
        response = client.post(
            f"/api/matches/{match_id}/actions",
            json={"action": choose(legal, rng), "version": view["version"]},
            headers=headers,
        )
        assert response.status_code == 200, response.text
    assert hints >= 3


def test_hint_only_on_your_turn(make_client: Client, settings: Settings) -> None:
    # Paced bots keep the turn away from the player for a while after each move.
    client = make_client(settings.model_copy(update={"bot_pacing": 3.0}))
    headers = new_player(client)
    match_id = _start(client, headers, "deadwood-knock", ["greedy"])
    view = wait_turn(client, headers, match_id)
    assert _hint(client, headers, match_id).status_code == 200
    while view["your_turn"]:
        # A plain draw ends the turn (a knock would leave the player to act again).
        draws = [a for a in view["legal_actions"] if a["type"] == "draw"]
        view = client.post(
            f"/api/matches/{match_id}/actions",
            json={"action": (draws or view["legal_actions"])[0]},
            headers=headers,
        ).json()
    assert view["to_act"] == 1
    waiting = _hint(client, headers, match_id)
    assert waiting.status_code == 200
    assert waiting.json()["your_turn"] is False and waiting.json()["hint"] is None
    assert waiting.json()["version"] == view["version"]
    client.post(f"/api/matches/{match_id}/forfeit", headers=headers)
    over = _hint(client, headers, match_id)
    assert over.status_code == 409 and over.json()["code"] == "match_finished"
    other = new_player(client)
    assert _hint(client, other, match_id).status_code == 404


# ----- likenesses and card backs ------------------------------------------------------------


def test_likenesses_come_from_the_content(client: TestClient) -> None:
    listed = client.get("/api/likenesses").json()["likenesses"]
    content = load_content()
    assert [(x["id"], x["name"]) for x in listed] == [(lk.id, lk.name) for lk in content.likenesses]
    for item in listed:
        art = client.get(item["svg_url"])
        assert art.status_code == 200 and b"<svg" in art.content


def test_card_back_must_be_unlocked(client: TestClient) -> None:
    headers = new_player(client, "Kate")
    default = client.patch("/api/players/me", json={"card_back": "plain-ledger"}, headers=headers)
    assert default.status_code == 200 and default.json()["card_back"] == "plain-ledger"
    locked = client.patch("/api/players/me", json={"card_back": "drovers-red"}, headers=headers)
    assert locked.status_code == 422
    assert locked.json()["code"] == "card_back_locked"
    assert locked.json()["card_back"] == "drovers-red" and "drovers-red" in locked.json()["detail"]
    unknown = client.patch("/api/players/me", json={"card_back": "red-rope"}, headers=headers)
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_card_back"
    assert "red-rope" in unknown.json()["detail"]
    assert client.get("/api/players/me", headers=headers).json()["card_back"] == "plain-ledger"

    # Once the trail records the back as unlocked, it may be chosen.
    player_id = client.get("/api/players/me", headers=headers).json()["player_id"]
    db = client.app.state.services.db  # type: ignore[attr-defined]

    async def unlock() -> None:
        async with db.sessions() as session, session.begin():
            player = await session.get(Player, player_id)
            stats = dict(player.stats or {})
            stats["trail"] = Lifetime(card_backs=("drovers-red",)).to_json()
            player.stats = stats

    assert client.portal is not None
    client.portal.call(unlock)
    chosen = client.patch("/api/players/me", json={"card_back": "drovers-red"}, headers=headers)
    assert chosen.status_code == 200 and chosen.json()["card_back"] == "drovers-red"


# ----- logs ----------------------------------------------------------------------------------


def test_no_log_line_holds_a_card_even_at_debug(
    make_client: Client, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    client = make_client(settings)
    headers = new_player(client, "Doc")
    match_id = _start(client, headers, "knock-rummy", ["random", "greedy"])
    rng = random.Random(11)
    for _ in range(6):
        view = wait_turn(client, headers, match_id)
        if view["status"] == "finished":
            break
        assert _hint(client, headers, match_id).status_code == 200
        action = choose(view["legal_actions"], rng)
        client.post(f"/api/matches/{match_id}/actions", json={"action": action}, headers=headers)
    client.post(f"/api/matches/{match_id}/forfeit", headers=headers)
    lines = [r.getMessage() for r in caplog.records]
    assert any("/api/matches" in line for line in lines)  # the access log was captured
    leaks = [line for line in lines if CARD_TOKEN.search(line)]
    assert leaks == []


# ----- bots that would play on forever ----------------------------------------------------------


def test_bot_streak_cap_pauses_and_a_request_resumes(
    make_client: Client, settings: Settings
) -> None:
    client = make_client(settings.model_copy(update={"max_bot_streak": 1}))
    headers = new_player(client)
    # Random bots may knock a short match to its end before the person moves; such a
    # match shows nothing about the cap, so take the first one where the person plays.
    for _attempt in range(10):
        match_id = _start(client, headers, "knock-rummy", ["random", "random"])
        live = client.app.state.services.matches.live[match_id]  # type: ignore[attr-defined]
        view = wait_turn(client, headers, match_id)
        human = next(info.seat for info in live.seats if info.bot is None)
        moved = False
        while view["your_turn"] and view["status"] == "active":
            # Draw then discard (never knock), so the turn passes to the bots.
            plain = [a for a in view["legal_actions"] if a["type"] in ("draw", "discard")]
            view = client.post(
                f"/api/matches/{match_id}/actions", json={"action": plain[0]}, headers=headers
            ).json()
            moved = True
        if moved and live.status == "active":
            break
    else:
        raise AssertionError("ten matches ended before the person could move")
    # The answer's version may already include the bot's reply (the drive can run before
    # the answer is built), so count from the person's own last move in the match log.
    mine = max(
        number
        for number, event in list(live.recent)
        if event.seat == human and event.kind in ("draw", "discard")
    )
    deadline = time.monotonic() + 10
    while live.version == mine and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.5)
    # One bot move, then the drive stops: nothing churns without a request.
    assert live.version == mine + 1
    assert live.bot_task is None or live.bot_task.done()
    if live.status != "active":
        return  # that one bot move ended the match: there is nothing left to resume
    # A request (here a view) resumes the bots, and the turn comes back.
    view = wait_turn(client, headers, match_id)
    assert view["your_turn"] or view["status"] == "finished"
    assert live.version > mine + 1
