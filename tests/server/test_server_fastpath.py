"""POST /api/matches/{id}/actions is taken before FastAPI's routing (``ActionFastPath``):
its answers must be the route's own, for a good action and for every refusal."""

from __future__ import annotations

import json
from typing import Any

import pytest
from dkserver_helpers import create_match, new_player, wait_turn
from starlette.routing import Match
from starlette.testclient import TestClient

from deadwood_knock.server.routes import matches as match_routes
from deadwood_knock.server.routes.matches import ActionFastPath, post_action

#: The fast path takes only this content type; the route also reads this one as JSON, so
#: a request sent with it is answered by the route itself.
TAKEN = "application/json"
ROUTED = "application/json; charset=utf-8"


def _post(
    client: TestClient, path: str, body: Any, content_type: str, headers: dict[str, str]
) -> tuple[int, dict[str, str], Any]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = client.post(path, content=data, headers={**headers, "Content-Type": content_type})
    kept = {k: v for k, v in response.headers.items() if k not in ("date", "content-length")}
    return response.status_code, kept, response.json()


def _endpoints_matching(routes: list[Any], scope: dict[str, Any]) -> list[Any]:
    found = []
    for route in routes:
        match, _child = route.matches(scope)
        if match is Match.FULL:
            inner = getattr(route, "routes", None) or getattr(
                getattr(route, "original_router", None), "routes", None
            )
            found += _endpoints_matching(inner, scope) if inner else [route]
    return found


def test_no_route_ahead_of_the_action_route_takes_its_requests(client: TestClient) -> None:
    scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/matches/" + "a" * 32 + "/actions",
        "root_path": "",
        "headers": [],
        "query_string": b"",
    }
    endpoints = _endpoints_matching(list(client.app.router.routes), scope)  # type: ignore[attr-defined]
    # The first route that matches is the action route (then the static mounts).
    assert getattr(endpoints[0], "endpoint", None) is post_action
    assert any(m.cls is ActionFastPath for m in client.app.user_middleware)  # type: ignore[attr-defined]


def test_the_fast_path_answers_as_the_route_does(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The fast path checks tokens through its module's name: count the requests it took.
    taken: list[str] = []
    check = match_routes.authenticate_id  # type: ignore[attr-defined]

    async def counted(*args: Any) -> Any:
        taken.append(args[1])
        return await check(*args)

    monkeypatch.setattr(match_routes, "authenticate_id", counted)
    headers = new_player(client)
    match_id = create_match(client, headers, "deadwood-knock")
    path = f"/api/matches/{match_id}/actions"
    other = f"/api/matches/{'f' * 32}/actions"
    view = wait_turn(client, headers, match_id)
    action = view["legal_actions"][0]
    stale = view["version"] + 5
    refusals: list[tuple[str, Any, dict[str, str]]] = [
        (path, {"action": action, "version": stale}, headers),  # 409 version_conflict
        (path, {"action": {"type": "nonsense"}}, headers),  # 422 bad_action
        (path, {"action": action, "extra": 1}, headers),  # 422 from the model
        (path, {"action": action, "version": "1"}, headers),  # 422 strict int
        (path, {"action": action, "client_action_id": "a b"}, headers),  # 422 pattern
        (path, b"{not json", headers),  # 422 json_invalid
        (path, b"[1, 2]", headers),  # 422 not an object
        (path, {"action": action}, {"Authorization": "Bearer nope"}),  # 401 unknown token
        (path, {"action": action}, {"Authorization": "Basic abc"}),  # 401 no bearer
        (path, {"action": action}, {}),  # 401 no token
        (other, {"action": action}, headers),  # 404 not found
        ("/api/matches/a%00b/actions", {"action": action}, headers),  # 404 bad id
    ]
    for where, body, sent in refusals:
        fast = _post(client, where, body, TAKEN, sent)
        routed = _post(client, where, body, ROUTED, sent)
        assert fast == routed, (where, body)
        assert fast[0] >= 400
    # Taken: the ones with a good body and a bearer token (the version conflict, the bad
    # action, the unknown token and the two unknown matches); the rest went to the route.
    assert (
        taken == [headers["Authorization"][7:]] * 2 + ["nope"] + [headers["Authorization"][7:]] * 2
    )
    # A good action through each: the answer is the seat's view at the new version.
    for content_type in (TAKEN, ROUTED):
        view = wait_turn(client, headers, match_id)
        if view["status"] == "finished":
            break
        version = view["version"]
        body = {"action": view["legal_actions"][0], "version": version}
        status, kept, answer = _post(client, path, body, content_type, headers)
        assert status == 200
        assert kept["content-type"] == "application/json"
        assert kept["cache-control"] == "no-store"  # the middleware still runs
        assert answer["version"] == version + 1
        again = _post(client, path, body, content_type, headers)  # now stale: 409
        assert again[0] == 409
        assert again[2]["code"] == "version_conflict"
    assert len(taken) == 5 + 2
