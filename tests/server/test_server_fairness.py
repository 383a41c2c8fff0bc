"""Fair work: quotas answered 429 with a message, and one player's flood of strong-bot
matches does not delay another player's bot moves or hints."""

from __future__ import annotations

import time
from collections.abc import Callable

from dkserver_helpers import new_player
from starlette.testclient import TestClient

from deadwood_knock.server import Settings, create_app


def _wait_version(
    client: TestClient, headers: dict[str, str], match_id: str, at_least: int, limit: float
) -> tuple[dict, float]:
    started = time.monotonic()
    while True:
        view = client.get(f"/api/matches/{match_id}", headers=headers).json()
        if view["version"] >= at_least or time.monotonic() - started > limit:
            return view, time.monotonic() - started
        time.sleep(0.01)


def test_a_flood_of_strong_bots_does_not_delay_another_player(settings: Settings) -> None:
    flood_settings = settings.model_copy(
        update={
            "bot_seconds": 1.0,  # each flood move takes ~1 s (by default: the bot's 0.15 s)
            "max_active_matches": 100,
            "match_create_limit": (200, 60),
            "bot_workers": 2,
        }
    )
    # The server's own worker processes (started and warm before it answers), not the
    # tests' shared pool, which starts its processes on demand.
    with TestClient(create_app(flood_settings)) as client:
        _flood_and_measure(client)


def _flood_and_measure(client: TestClient) -> None:
    flooder = new_player(client, "Flood")
    body = {"game": "deadwood-knock", "opponents": ["strong"] * 5}
    for _ in range(100):
        response = client.post("/api/matches", json=body, headers=flooder)
        assert response.status_code == 201, response.text

    other = new_player(client, "Other")
    moves: list[float] = []
    hints: list[float] = []
    for _ in range(2):
        created = client.post(
            "/api/matches",
            json={"game": "deadwood-knock", "opponents": ["greedy", "greedy"]},
            headers=other,
        ).json()
        match_id, view = created["match_id"], created["view"]
        assert view["to_act"] != 0  # a bot opens (seat 1 leads the first round)
        view, waited = _wait_version(client, other, match_id, 1, 10.0)
        moves.append(waited)
        view, _ = _wait_version(client, other, match_id, 2, 10.0)
        assert view["your_turn"], view["to_act"]
        started = time.monotonic()
        hint = client.get(f"/api/matches/{match_id}/hint", headers=other)
        hints.append(time.monotonic() - started)
        assert hint.status_code == 200, hint.text
        assert hint.json()["hint"] is not None
    print(f"flood: other player's first bot moves {moves} s, hints {hints} s")
    assert max(moves) < 1.0, moves
    assert max(hints) < 2.0, hints


def test_quotas_answer_429_with_a_message(
    settings: Settings, make_client: Callable[[Settings], TestClient]
) -> None:
    limited = settings.model_copy(
        update={"max_active_matches": 2, "match_create_limit": (3, 60), "hint_limit": (1, 60)}
    )
    client = make_client(limited)
    me = new_player(client)
    body = {"game": "deadwood-knock", "opponents": ["greedy", "greedy"]}
    ids = [client.post("/api/matches", json=body, headers=me).json()["match_id"] for _ in range(2)]
    refused = client.post("/api/matches", json=body, headers=me)
    assert refused.status_code == 429
    assert refused.json()["code"] == "too_many_matches"
    assert "2 matches in play" in refused.json()["detail"]
    assert client.post(f"/api/matches/{ids[0]}/forfeit", headers=me).status_code == 200
    assert client.post("/api/matches", json=body, headers=me).status_code == 201
    # A fourth creation in the window is over the creation quota, whatever is in play.
    assert client.post(f"/api/matches/{ids[1]}/forfeit", headers=me).status_code == 200
    refused = client.post("/api/matches", json=body, headers=me)
    assert refused.status_code == 429
    assert refused.json()["code"] == "quota_exceeded"
    assert int(refused.headers["Retry-After"]) >= 1
    # Another player has quotas of their own.
    assert client.post("/api/matches", json=body, headers=new_player(client)).status_code == 201
