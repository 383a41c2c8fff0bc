"""Driving the server in tests: players, waiting for a turn, random legal play."""

from __future__ import annotations

import json
import random
import re
import time
from typing import Any

from starlette.testclient import TestClient

from deadwood_knock.games import GAME_NAMES, get_game

CARD_TOKEN = re.compile(
    r"(?<![A-Za-z0-9])(?:[A2-9TJQK]|10)[shdc](?![A-Za-z0-9])"
    r"|(?<![A-Za-z])JK(?![A-Za-z])"
)


def real_games() -> list[str]:
    """The real games that have landed (all three once the engine is complete)."""
    names = []
    for name in GAME_NAMES:
        try:
            get_game(name)
        except (ImportError, AttributeError):
            continue
        names.append(name)
    return names


def games_to_drive() -> list[str]:
    return real_games() or ["toy"]


def new_player(client: TestClient, name: str | None = None) -> dict[str, str]:
    body = {"name": name} if name else None
    response = client.post("/api/players", json=body)
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['token']}"}


def opponents_for(game: str) -> list[str]:
    # Two random players of Gin can pass cards back and forth for thousands of turns.
    return ["greedy"] if game == "gin" else ["random", "random"]


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal action, but end hands when allowed so matches stay short."""
    keen = [a for a in legal if any(w in json.dumps(a) for w in ("knock", "gin", "rummy"))]
    return rng.choice(keen or legal)


def create_match(client: TestClient, headers: dict[str, str], game: str, **extra: Any) -> str:
    body = {"game": game, "opponents": opponents_for(game), "options": {}, **extra}
    response = client.post("/api/matches", json=body, headers=headers)
    assert response.status_code == 201, response.text
    match_id: str = response.json()["match_id"]
    return match_id


def wait_turn(
    client: TestClient, headers: dict[str, str], match_id: str, limit: float = 60.0
) -> dict[str, Any]:
    """Poll until the seat may act or the match is over (bots act in the background)."""
    deadline = time.monotonic() + limit
    while True:
        response = client.get(f"/api/matches/{match_id}", headers=headers)
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        if view["legal_actions"] or view["status"] == "finished":
            return view
        assert time.monotonic() < deadline, "bots never handed the turn back"
        time.sleep(0.005)


def play_http(
    client: TestClient, headers: dict[str, str], match_id: str, rng: random.Random
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Random legal actions over HTTP until the match ends; the final view and all views."""
    views = []
    for _ in range(5000):
        view = wait_turn(client, headers, match_id)
        views.append(view)
        if view["status"] == "finished":
            return view, views
        action = choose(view["legal_actions"], rng)
        response = client.post(
            f"/api/matches/{match_id}/actions", json={"action": action}, headers=headers
        )
        assert response.status_code == 200, response.text
        views.append(response.json())
    raise AssertionError("match did not finish")


def card_tokens(value: Any) -> set[str]:
    return set(CARD_TOKEN.findall(json.dumps(value)))
