"""Health, docs, players and profiles, validation, headers and limits."""

from __future__ import annotations

from dkserver_helpers import create_match, new_player
from starlette.testclient import TestClient


def test_health_and_docs(client: TestClient) -> None:
    response = client.get("/api/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok" and isinstance(body["version"], str)
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/matches/{match_id}/actions" in paths


def test_security_headers_and_no_store(client: TestClient) -> None:
    response = client.get("/api/health")
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
    assert response.headers["cache-control"] == "no-store"


def test_the_clients_files_are_revalidated_on_every_load(client: TestClient) -> None:
    """The web client's modules, pages and art carry no-cache (revalidated by ETag, a 304
    when unchanged), so a browser never mixes an old module with new ones after an update."""
    for path in ("/", "/app/main.js", "/app/cards.js", "/sw.js", "/styles.css"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert response.headers["cache-control"] == "no-cache", path
        again = client.get(path, headers={"If-None-Match": response.headers["etag"]})
        assert again.status_code == 304, path
    art = client.get("/api/card-backs", headers=new_player(client, "Belle")).json()
    url = art["card_backs"][0]["svg_url"]
    assert client.get(url).headers["cache-control"] == "no-cache", url


def test_cors_only_for_configured_origins(make_client, settings) -> None:  # type: ignore[no-untyped-def]
    client = make_client(settings.model_copy(update={"cors_origins": ("https://play.example",)}))
    allowed = client.options(
        "/api/health",
        headers={"Origin": "https://play.example", "Access-Control-Request-Method": "GET"},
    )
    assert allowed.headers.get("access-control-allow-origin") == "https://play.example"
    other = client.get("/api/health", headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in other.headers


def test_new_player_profile_and_restart_progress(client: TestClient) -> None:
    headers = new_player(client, "Calamity")
    me = client.get("/api/players/me", headers=headers).json()
    assert me["name"] == "Calamity" and me["stats"] == {} and me["email"] is None
    changed = client.patch(
        "/api/players/me",
        json={
            "name": "  Doc   Holliday ",
            "likeness": "doc",
            "card_back": "plain-ledger",
            "large_print": True,
            "sleight_of_hand": True,
        },
        headers=headers,
    ).json()
    assert changed["name"] == "Doc Holliday"
    assert changed["large_print"] is True and changed["sleight_of_hand"] is True
    assert changed["card_back"] == "plain-ledger"
    # Progress belongs to the trail (issue 6); restarting clears it but keeps the rest.
    # Finish a match first so lifetime stats are not empty.
    match_id = create_match(client, headers, "toy", options={"turns": 1})
    client.post(f"/api/matches/{match_id}/forfeit", headers=headers)
    before = client.get("/api/players/me", headers=headers).json()
    assert before["stats"]["matches"] == 1
    after = client.post("/api/players/me/restart-progress", headers=headers).json()
    assert after["progress"] == {}
    assert after["name"] == "Doc Holliday" and after["stats"] == before["stats"]


def test_validation_errors_are_json_and_say_what(client: TestClient) -> None:
    headers = new_player(client)
    bad = client.patch("/api/players/me", json={"card_back": "../etc"}, headers=headers)
    assert bad.status_code == 422 and "card_back" in bad.json()["detail"]
    extra = client.patch("/api/players/me", json={"colour": "red"}, headers=headers)
    assert extra.status_code == 422 and "colour" in extra.json()["detail"]
    control = client.patch("/api/players/me", json={"name": "a\u0000b"}, headers=headers)
    assert control.status_code == 422 and control.json()["code"] == "bad_name"
    game = client.post(
        "/api/matches", json={"game": "poker", "opponents": ["random"]}, headers=headers
    )
    assert game.status_code == 422
    assert "deadwood-knock" in game.json()["detail"] and "knock-rummy" in game.json()["detail"]
    bot = client.post("/api/matches", json={"game": "toy", "opponents": ["hal"]}, headers=headers)
    assert bot.status_code == 422 and bot.json()["code"] == "unknown_bot"
    assert "random" in bot.json()["detail"]
    many = client.post(
        "/api/matches", json={"game": "toy", "opponents": ["random"] * 4}, headers=headers
    )
    assert many.status_code == 422 and many.json()["code"] == "bad_player_count"
    options = client.post(
        "/api/matches",
        json={"game": "toy", "opponents": ["random"], "options": {"turns": 999}},
        headers=headers,
    )
    assert options.status_code == 422 and options.json()["code"] == "bad_options"
    not_json = client.post(
        "/api/matches", content=b"{nope", headers={**headers, "content-type": "application/json"}
    )
    assert not_json.status_code == 422
    assert client.get("/api/nothing-here").json()["code"] == "not_found"


def test_auth_required(client: TestClient) -> None:
    assert client.get("/api/players/me").status_code == 401
    wrong = client.get("/api/players/me", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.json()["code"] == "unauthorized"
    assert client.get("/api/matches/abc").status_code == 401


def test_request_size_limit(client: TestClient) -> None:
    headers = new_player(client)
    huge = {"name": "x", "padding": "y" * 20_000}
    response = client.patch("/api/players/me", json=huge, headers=headers)
    assert response.status_code == 413 and response.json()["code"] == "too_large"

    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(10):
            yield b" " * 4000

    streamed = client.post(
        "/api/players", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413


def test_games_catalogue_serves_every_games_rule_facts(client: TestClient) -> None:
    from deadwood_knock.games import GAME_NAMES, get_game

    response = client.get("/api/games")
    assert response.status_code == 200
    body = response.json()
    by_name = {g["name"]: g for g in body["games"]}
    assert set(GAME_NAMES) <= set(by_name) and "greedy" in body["bots"]
    for name in GAME_NAMES:
        game = get_game(name)
        entry = by_name[name]
        # Exactly the engine's facts: the clients copy none of them.
        for key, value in game.facts.to_json().items():
            assert entry[key] == value, (name, key)
        assert entry["title"] == game.title
        assert (entry["min_players"], entry["max_players"]) == (
            game.min_players,
            game.max_players,
        )
        assert entry["options"] == game.options_from_json({}).to_json()
    assert by_name["gin"]["title"] == "Gin" and by_name["deadwood-knock"]["knock_limit"] == 11
    assert by_name["deadwood-knock"]["category_words"]["full_house"] == "a full house"
    # Revalidated by ETag, never stored stale: the same tag answers 304 without a body.
    assert response.headers["cache-control"] == "no-cache"
    etag = response.headers["etag"]
    again = client.get("/api/games", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/api/games", headers={"If-None-Match": '"other"'}).status_code == 200
    documented = client.get("/openapi.json").json()
    answer = documented["paths"]["/api/games"]["get"]["responses"]
    assert "304" in answer and "200" in answer
    assert "knock_limit" in documented["components"]["schemas"]["GameFacts"]["properties"]


def test_the_profile_sets_sleight_of_hand_where_the_game_has_it(client: TestClient) -> None:
    headers = new_player(client, "Doc")
    client.patch("/api/players/me", json={"sleight_of_hand": True}, headers=headers)

    def table_option(match_id: str) -> object:
        view = client.get(f"/api/matches/{match_id}", headers=headers).json()
        return view["observation"]["options"].get("sleight_of_hand")

    # Deadwood Knock has the table option: the profile fills it, the request overrides it.
    assert table_option(create_match(client, headers, "deadwood-knock")) is True
    plain = create_match(client, headers, "deadwood-knock", options={"sleight_of_hand": False})
    assert table_option(plain) is False
    # Gin has no such option, and the profile setting does not make its options invalid.
    gin = create_match(client, headers, "gin")
    assert table_option(gin) is None
