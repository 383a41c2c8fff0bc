"""Whole matches over HTTP and the WebSocket, idempotent posts, access checks, forfeits,
and that nothing hidden reaches another seat's responses, sockets or the log."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest
from dkserver_helpers import (
    card_tokens,
    choose,
    create_match,
    games_to_drive,
    new_player,
    play_http,
    wait_turn,
)
from starlette.testclient import TestClient

from deadwood_knock.games import get_game
from deadwood_knock.games.base import GameRecord


def _live(client: TestClient, match_id: str) -> Any:
    return client.app.state.services.matches.live[match_id]  # type: ignore[attr-defined]


def _allowed_tokens(client: TestClient, match_id: str, seat: int) -> list[set[str]]:
    """For each version, the card tokens the seat may legitimately see: its engine
    observation, the events it was shown so far and its legal actions."""
    live = _live(client, match_id)
    game = get_game(live.game_name)
    record = GameRecord(live.game_name, live.options, live.seed)
    state = game.new_game(game.options_from_json(record.options), record.seed)
    shown: set[str] = set()
    allowed: list[set[str]] = []
    for action_json in [*live.actions, None]:
        now = shown | card_tokens(game.observe(state, seat).to_json())
        if game.to_act(state) == seat:
            now |= card_tokens([a.to_json() for a in game.legal_actions(state)])
        allowed.append(now)
        if action_json is None:
            break
        state, events = game.apply(state, game.action_from_json(action_json))
        for event in events:
            if event.visible_to(seat):
                shown |= card_tokens(event.to_json())
    return allowed


@pytest.mark.parametrize("game", games_to_drive())
def test_whole_match_over_http_leaks_nothing(
    client: TestClient, game: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    headers = new_player(client, "Ada")
    match_id = create_match(client, headers, game)
    final, views = play_http(client, headers, match_id, random.Random(1))
    assert final["status"] == "finished" and final["legal_actions"] == []
    assert final["result"]["reason"] == "completed"
    assert final["version"] == len(_live(client, match_id).actions)
    allowed = _allowed_tokens(client, match_id, 0)
    for view in views:
        assert view["seat"] == 0 and view["match_id"] == match_id
        assert set(view) >= {"observation", "to_act", "legal_actions", "scores", "round_label"}
        assert "seed" not in view and "seed" not in view["observation"]
        extra = card_tokens(view) - allowed[view["version"]]
        assert not extra, f"view at version {view['version']} shows hidden cards {extra}"
    # The log holds method, path, status and time: no card at all, so none of another seat.
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "/api/matches" in logged
    assert not card_tokens(logged)
    stats = client.get("/api/players/me", headers=headers).json()["stats"]
    assert stats["matches"] == 1 and stats["by_game"][game]["matches"] == 1


@pytest.mark.parametrize("game", games_to_drive())
def test_whole_match_over_websocket(client: TestClient, game: str) -> None:
    headers = new_player(client)
    token = headers["Authorization"].split()[1]
    match_id = create_match(client, headers, game)
    rng = random.Random(2)
    events: list[dict[str, Any]] = []
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_json({"type": "auth", "token": token})
        view = ws.receive_json()["view"]
        for number in range(5000):
            if view["status"] == "finished":
                break
            if view["legal_actions"]:
                action = choose(view["legal_actions"], rng)
                ws.send_json({"type": "action", "action": action, "client_action_id": f"a{number}"})
            while True:
                message = ws.receive_json()
                assert message["type"] != "error", message
                if message["type"] == "event":
                    events.append(message)
                if message["type"] == "view":
                    view = message["view"]
                    if view["legal_actions"] or view["status"] == "finished":
                        break
        assert view["status"] == "finished"
    allowed = _allowed_tokens(client, match_id, 0)
    assert events
    for message in events:
        assert not card_tokens(message) - allowed[message["version"]]
    over_http = client.get(f"/api/matches/{match_id}", headers=headers).json()
    assert over_http["version"] == view["version"] and over_http["status"] == "finished"


def test_socket_needs_the_right_token(client: TestClient) -> None:
    owner = new_player(client)
    other = new_player(client)
    match_id = create_match(client, owner, "toy")
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_json({"type": "auth", "token": other["Authorization"].split()[1]})
        message = ws.receive_json()
        assert message["type"] == "error" and message["status"] == 404
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["status"] == 401


def test_another_players_token_never_reads_or_acts(client: TestClient) -> None:
    owner = new_player(client)
    intruder = new_player(client)
    match_id = create_match(client, owner, "toy")
    view = wait_turn(client, owner, match_id)
    action = view["legal_actions"][0]
    assert client.get(f"/api/matches/{match_id}", headers=intruder).status_code == 404
    posted = client.post(
        f"/api/matches/{match_id}/actions", json={"action": action}, headers=intruder
    )
    assert posted.status_code == 404
    assert client.post(f"/api/matches/{match_id}/forfeit", headers=intruder).status_code == 404
    assert client.get("/api/matches", headers=intruder).json()["matches"] == []
    # Nothing changed for the owner.
    again = client.get(f"/api/matches/{match_id}", headers=owner).json()
    assert again["version"] == view["version"] and again["status"] == "active"


def test_same_client_action_id_applies_once(client: TestClient) -> None:
    headers = new_player(client)
    match_id = create_match(client, headers, "toy", options={"turns": 6})
    view = wait_turn(client, headers, match_id)
    body = {"action": view["legal_actions"][0], "client_action_id": "tap-1"}
    first = client.post(f"/api/matches/{match_id}/actions", json=body, headers=headers)
    second = client.post(f"/api/matches/{match_id}/actions", json=body, headers=headers)
    assert first.status_code == 200 and second.status_code == 200
    logged = [a for a in _live(client, match_id).actions]
    mine = [n for n, info in enumerate(logged) if info == body["action"] and n == view["version"]]
    assert len(mine) == 1
    assert first.json()["version"] == view["version"] + 1


def test_stale_version_is_refused_and_moves_are_checked(client: TestClient) -> None:
    headers = new_player(client)
    match_id = create_match(client, headers, "toy", options={"turns": 6})
    view = wait_turn(client, headers, match_id)
    url = f"/api/matches/{match_id}/actions"
    stale = client.post(
        url,
        json={"action": view["legal_actions"][0], "version": view["version"] + 5},
        headers=headers,
    )
    assert stale.status_code == 409 and stale.json()["code"] == "version_conflict"
    illegal = client.post(url, json={"action": {"type": "discard", "card": "JK"}}, headers=headers)
    assert illegal.status_code == 422 and illegal.json()["code"] == "illegal_action"
    nonsense = client.post(url, json={"action": {"type": "fly"}}, headers=headers)
    assert nonsense.status_code == 422 and nonsense.json()["code"] == "bad_action"
    ok = client.post(
        url, json={"action": view["legal_actions"][0], "version": view["version"]}, headers=headers
    )
    assert ok.status_code == 200
    again = client.post(
        url, json={"action": view["legal_actions"][0], "version": view["version"]}, headers=headers
    )
    assert again.status_code == 409


def test_forfeit_records_a_loss(client: TestClient) -> None:
    headers = new_player(client)
    match_id = create_match(client, headers, "toy", options={"turns": 10})
    wait_turn(client, headers, match_id)
    view = client.post(f"/api/matches/{match_id}/forfeit", headers=headers).json()
    assert view["status"] == "finished" and view["legal_actions"] == []
    assert view["result"] == {**view["result"], "reason": "forfeit", "forfeited_by": 0}
    stats = client.get("/api/players/me", headers=headers).json()["stats"]
    assert stats["losses"] == 1 and stats["forfeits"] == 1 and stats["matches"] == 1
    again = client.post(f"/api/matches/{match_id}/forfeit", headers=headers)
    assert again.status_code == 409
    listed = client.get("/api/matches", headers=headers).json()["matches"]
    assert listed == [
        {
            "match_id": match_id,
            "game": "toy",
            "status": "finished",
            "version": view["version"],
            "seat": 0,
        }
    ]


def test_break_and_return_to_the_same_position(make_client, settings) -> None:  # type: ignore[no-untyped-def]
    first = make_client(settings)
    headers = new_player(first)
    match_id = create_match(first, headers, "toy", options={"turns": 8})
    view = wait_turn(first, headers, match_id)
    first.post(
        f"/api/matches/{match_id}/actions",
        json={"action": view["legal_actions"][0]},
        headers=headers,
    )
    before = wait_turn(first, headers, match_id)
    first.__exit__(None, None, None)
    # A new app on the same database: the match is replayed from its log.
    second = make_client(settings)
    after = wait_turn(second, headers, match_id)
    assert after == before


def test_a_failing_bot_never_stalls_the_match(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from deadwood_knock.bots import base as bots

    # Known here, unknown in the bot workers: every decision there fails.
    monkeypatch.setitem(bots._REGISTRY, "dkserver-broken", bots.RandomBot)
    headers = new_player(client)
    match_id = create_match(
        client, headers, "toy", opponents=["dkserver-broken"], options={"turns": 3}
    )
    final, _ = play_http(client, headers, match_id, random.Random(3))
    assert final["status"] == "finished"
    assert "bot dkserver-broken failed" in caplog.text


def test_finished_matches_leave_memory_and_reload(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import deadwood_knock.server.store as store

    monkeypatch.setattr(store, "MAX_LIVE", 2)
    headers = new_player(client)
    finished = []
    for _ in range(3):
        match_id = create_match(client, headers, "toy", options={"turns": 5})
        wait_turn(client, headers, match_id)
        finished.append(client.post(f"/api/matches/{match_id}/forfeit", headers=headers).json())
    create_match(client, headers, "toy")
    cache = client.app.state.services.matches.live  # type: ignore[attr-defined]
    assert len(cache) <= 2
    for view in finished:
        again = client.get(f"/api/matches/{view['match_id']}", headers=headers).json()
        assert again == view


def test_skilled_bots_play_through_the_pool(client: TestClient) -> None:
    headers = new_player(client)
    match_id = create_match(client, headers, "knock-rummy", opponents=["strong", "sharp"])
    rng = random.Random(4)
    for _ in range(3):
        view = wait_turn(client, headers, match_id)
        if view["status"] == "finished":
            break
        client.post(
            f"/api/matches/{match_id}/actions",
            json={"action": rng.choice(view["legal_actions"])},
            headers=headers,
        )
    bots_moved = [e for e in wait_turn(client, headers, match_id)["recent_events"] if e.get("seat")]
    assert bots_moved


def test_socket_messages_are_validated(client: TestClient) -> None:
    headers = new_player(client)
    match_id = create_match(client, headers, "toy", options={"turns": 5})
    wait_turn(client, headers, match_id)
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_json({"type": "auth", "token": headers["Authorization"].split()[1]})
        assert ws.receive_json()["type"] == "view"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        ws.send_text("x" * 20_000)
        assert ws.receive_json()["status"] == 413
        ws.send_text("{not json")
        assert ws.receive_json()["code"] == "bad_json"
        ws.send_json({"type": "dance"})
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_json({"type": "action", "action": {"type": "discard", "card": "JK"}})
        assert ws.receive_json()["code"] == "illegal_action"
        ws.send_json({"type": "action", "action": "discard", "extra": 1})
        error = ws.receive_json()
        assert error["status"] == 422 and "action" in error["detail"]
