"""Audit findings 6, 8, 9, 10 and 11 in-process: NUL in paths, log lines, socket frames,
strict input and the OpenAPI document, and the deployment defaults (body timeout, CSP,
API docs from npm, trusted proxies, private data files, device tokens)."""

from __future__ import annotations

import asyncio
import logging
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import SmtpInbox
from dkserver_helpers import create_match, new_player, wait_turn
from sqlalchemy import text
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from deadwood_knock.persistence import Database
from deadwood_knock.persistence.db import alembic_config
from deadwood_knock.server import Settings, create_app
from deadwood_knock.server.devices import device_label
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.frames import MAX_DEPTH, nesting_depth, parse_message
from deadwood_knock.server.logsafe import escape_controls
from deadwood_knock.server.middleware import AccessLog, BodyLimit
from deadwood_knock.server.proxies import client_address


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


# ----- finding 6: a NUL in a match id is a 404, on every database -------------------------


def test_nul_in_a_match_id_is_a_json_404(client: TestClient) -> None:
    headers = new_player(client)
    for path in ("/api/matches/a%00b", "/api/matches/a%00b/hint", "/api/matches/%00"):
        answer = client.get(path, headers=headers)
        assert answer.status_code == 404, (path, answer.text)
        assert answer.json()["code"] == "not_found"
    for path in ("/api/matches/a%00b/actions", "/api/matches/a%00b/forfeit"):
        body = {"action": {"type": "stand"}} if path.endswith("actions") else None
        answer = client.post(path, json=body, headers=headers)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    with client.websocket_connect("/api/matches/a%00b/ws") as ws:
        ws.send_json({"type": "auth", "token": _token(headers)})
        assert ws.receive_json()["status"] == 404


def test_a_crash_is_a_json_500_not_plain_text(
    make_client: Callable[[Settings], TestClient], settings: Settings
) -> None:
    client = make_client(settings)
    app = client.app

    @app.get("/api/boom-for-test")  # type: ignore[attr-defined]
    async def boom() -> None:
        raise RuntimeError("kaboom")

    # Routes added after start are matched after the catch-all mount, so move it first.
    routes = app.router.routes  # type: ignore[attr-defined]
    routes.insert(0, routes.pop())
    quiet = TestClient(app, raise_server_exceptions=False)
    answer = quiet.get("/api/boom-for-test")
    assert answer.status_code == 500
    assert answer.json() == {"detail": "internal server error", "code": "internal_error"}


# ----- finding 8: log lines cannot be forged; a client that leaves is not a 500 -----------


def test_control_characters_are_escaped_in_the_access_log(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="deadwood_knock.server.access"):
        client.get("/api/x%0a127.0.0.1 GET /api/admin 200 0.1ms%0d%00%1b[31m")
    lines = [r.getMessage() for r in caplog.records if r.name.endswith("access")]
    assert lines, "no access line"
    line = lines[-1]
    assert "\n" not in line and "\r" not in line and "\x00" not in line and "\x1b" not in line
    assert "/api/x\\n127.0.0.1 GET /api/admin 200 0.1ms\\r\\x00\\x1b[31m" in line


def test_escape_controls() -> None:
    assert escape_controls("a\nb\tc\x00d\x7f\u2028") == "a\\nb\\tc\\x00d\\x7f\\u2028"
    assert escape_controls("plain ünïcode ok") == "plain ünïcode ok"


def _access_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "deadwood_knock.server.access"]


@pytest.mark.asyncio
async def test_a_client_that_leaves_is_logged_as_499(caplog: pytest.LogCaptureFixture) -> None:
    async def never_reached(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("the body never arrived, so the app must not run")

    app = AccessLog(BodyLimit(never_reached, limit=1024))
    scope: Scope = {"type": "http", "method": "POST", "path": "/api/players", "headers": []}
    messages: list[Message] = [{"type": "http.disconnect"}]

    async def receive() -> Message:
        return messages.pop(0)

    async def send(message: Message) -> None:
        raise AssertionError("nothing is sent to a client that left")

    with caplog.at_level(logging.INFO, logger="deadwood_knock.server.access"):
        await app(scope, receive, send)
    assert _access_lines(caplog)[-1].startswith("POST /api/players 499 ")


@pytest.mark.asyncio
async def test_an_app_that_raises_is_still_logged_as_500(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def broken(scope: Scope, receive: Receive, send: Send) -> None:
        raise RuntimeError("bug")

    scope: Scope = {"type": "http", "method": "GET", "path": "/api/x", "headers": []}

    async def receive() -> Message:
        return {"type": "http.request", "body": b""}

    async def send(message: Message) -> None:
        return None

    with (
        caplog.at_level(logging.INFO, logger="deadwood_knock.server.access"),
        pytest.raises(RuntimeError),
    ):
        await AccessLog(broken)(scope, receive, send)
    assert _access_lines(caplog)[-1].startswith("GET /api/x 500 ")


def test_a_refused_socket_is_not_logged_as_500(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        caplog.at_level(logging.INFO, logger="deadwood_knock.server.access"),
        client.websocket_connect("/api/matches/abc/ws") as ws,
    ):
        ws.send_json({"type": "auth", "token": "nope"})
        assert ws.receive_json()["status"] == 401
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    lines = [line for line in _access_lines(caplog) if line.startswith("WS ")]
    assert lines and " 500 " not in lines[-1]


# ----- finding 9: bad socket frames get an error, never a crash ----------------------------


def test_frame_parsing_limits() -> None:
    deep = "[" * 5000 + "]" * 5000
    assert nesting_depth(deep) == 5000
    assert nesting_depth('{"a": "[[[[[[[[", "b": [1, {"c": 2}]}') == 3
    assert nesting_depth('"\\"[[[" ') == 0
    for frame, code in (
        (deep, "too_deep"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "too_deep"),
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('"text"', "bad_message"),
        ("x" * 20_000, "too_large"),
        ("é" * 9000, "too_large"),  # 9000 characters, 18000 bytes
    ):
        with pytest.raises(ApiError) as caught:
            parse_message(frame, 16_384)
        assert caught.value.code == code, frame[:20]
    nested = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)  # inside the object: MAX_DEPTH
    assert parse_message('{"type": "ping", "x": ' + nested + "}", 1024)["type"] == "ping"


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("[" * 5000 + "]" * 5000, "too_deep"),
        ('{"type": "auth", "token": ' + "[" * 5000 + "]" * 5000 + "}", "too_deep"),
        (b"\x00\x01binary", "bad_frame"),
        ("not json", "bad_json"),
    ],
)
def test_a_bad_first_frame_is_answered_and_closed(
    client: TestClient, frame: str | bytes, code: str
) -> None:
    headers = new_player(client)
    match_id = create_match(client, headers, "toy")
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        if isinstance(frame, bytes):
            ws.send_bytes(frame)
        else:
            ws.send_text(frame)
        answer = ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == code
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4000 + answer["status"]


def test_bad_frames_after_auth_are_answered_and_the_socket_lives_on(client: TestClient) -> None:
    headers = new_player(client)
    match_id = create_match(client, headers, "toy", options={"turns": 5})
    wait_turn(client, headers, match_id)
    with client.websocket_connect(f"/api/matches/{match_id}/ws") as ws:
        ws.send_json({"type": "auth", "token": _token(headers)})
        assert ws.receive_json()["type"] == "view"
        ws.send_text("[" * 5000 + "]" * 5000)
        assert ws.receive_json()["code"] == "too_deep"
        ws.send_text('{"type": "action", "action": ' + "{" * 4000 + "}" * 4000 + "}")
        assert ws.receive_json()["code"] == "too_deep"
        ws.send_bytes(b'{"type": "ping"}')
        assert ws.receive_json()["code"] == "bad_frame"
        ws.send_text("[]")
        assert ws.receive_json()["code"] == "bad_message"
        ws.send_json({"type": "action", "action": {"type": "x"}, "version": "3"})
        assert ws.receive_json()["code"] == "invalid_request"
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}


# ----- finding 10: bounded options, strict booleans, an exact document -------------------


def test_booleans_and_numbers_are_strict(client: TestClient) -> None:
    headers = new_player(client)
    for value in ("yes", "true", 1, 0):
        bad = client.patch("/api/players/me", json={"large_print": value}, headers=headers)
        assert bad.status_code == 422, value
        assert bad.json()["code"] == "invalid_request" and "large_print" in bad.json()["detail"]
    assert client.get("/api/players/me", headers=headers).json()["large_print"] is False
    good = client.patch("/api/players/me", json={"large_print": True}, headers=headers)
    assert good.status_code == 200 and good.json()["large_print"] is True
    match_id = create_match(client, headers, "toy")
    view = wait_turn(client, headers, match_id)
    stringly = client.post(
        f"/api/matches/{match_id}/actions",
        json={"action": view["legal_actions"][0], "version": str(view["version"])},
        headers=headers,
    )
    assert stringly.status_code == 422


@pytest.mark.parametrize("rounds", [10**100, 101, 0, True, "10"])
def test_deadwood_knock_rounds_are_bounded(client: TestClient, rounds: Any) -> None:
    headers = new_player(client)
    body = {"game": "deadwood-knock", "opponents": ["random"], "options": {"rounds": rounds}}
    answer = client.post("/api/matches", json=body, headers=headers)
    assert answer.status_code == 422 and answer.json()["code"] == "bad_options"


def test_openapi_has_the_bearer_scheme_and_error_bodies(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    schemes = doc["components"]["securitySchemes"]
    assert any(s["type"] == "http" and s["scheme"] == "bearer" for s in schemes.values())
    error = doc["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"detail", "code"}
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    me = doc["paths"]["/api/players/me"]
    assert me["get"]["security"] and "401" in me["get"]["responses"]
    patch = me["patch"]["responses"]
    assert patch["422"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }
    assert {"200", "400", "401", "408", "413", "422"} <= set(patch)
    restore = doc["paths"]["/api/backup/restore"]["post"]["responses"]
    assert {"202", "429", "503"} <= set(restore) and "security" not in doc["paths"][
        "/api/backup/restore"
    ]["post"]
    view = doc["paths"]["/api/matches/{match_id}"]["get"]["responses"]
    assert view["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/MatchView")
    assert "404" in view


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/api/players/me", {"GET", "PATCH"}),
        ("/api/matches", {"GET", "POST"}),
        ("/api/players/me/devices/" + "a" * 32, {"DELETE"}),
    ],
)
def test_unsupported_methods_name_every_allowed_method(
    client: TestClient, path: str, expected: set[str]
) -> None:
    put = client.put(path, json={})
    assert put.status_code == 405 and put.json()["code"] == "method_not_allowed"
    allowed = set(put.headers["allow"].split(", "))
    assert expected <= allowed
    # Every method named is answered; every other one is refused (405, or 404 from the
    # web client's catch-all for GET and HEAD).
    for method in METHODS:
        status = client.request(method, path, json={}).status_code
        if method in allowed:
            assert status != 405, (method, status)
        else:
            assert status in (404, 405), (method, status)


# ----- finding 11: deployment defaults ---------------------------------------------------


@pytest.mark.asyncio
async def test_a_slow_body_gets_408() -> None:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        raise AssertionError("the app must not see a partial body")

    limited = BodyLimit(app, limit=1024, timeout=0.2)
    scope: Scope = {
        "type": "http",
        "method": "POST",
        "path": "/api/players",
        "headers": [(b"content-length", b"100")],
    }
    first = True

    async def receive() -> Message:
        nonlocal first
        if first:
            first = False
            return {"type": "http.request", "body": b"{", "more_body": True}
        await asyncio.sleep(3600)  # a client that never sends the rest
        raise AssertionError

    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    await asyncio.wait_for(limited(scope, receive, send), 10)
    assert sent[0]["status"] == 408
    assert (b"connection", b"close") in sent[0]["headers"]
    assert b'"code": "timeout"' in sent[1]["body"]


def test_csp_allows_sockets_to_this_origin_only(client: TestClient) -> None:
    for path in ("/api/health", "/", "/docs"):
        csp = client.get(path).headers["content-security-policy"]
        directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
        assert directives["connect-src"] == "'self'", path
        assert "ws:" not in csp and "wss:" not in csp and "http" not in csp


def test_api_docs_come_from_the_npm_package(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "//" not in page.text.replace("<!doctype", "")  # no other host, no CDN
    assert "<script>" not in page.text  # nothing inline: the CSP allows none
    assert "script-src 'self'" in page.headers["content-security-policy"]
    bundle = client.get("/docs/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and "SwaggerUIBundle" in bundle.text
    assert client.get("/docs/swagger-ui.css").status_code == 200
    assert "/openapi.json" in client.get("/docs/start.js").text
    assert client.get("/redoc").status_code == 404
    assert client.get("/docs/index.html").status_code == 404  # only the files the page uses
    assert client.get("/docs/swagger-ui-bundle.js?path=/etc/passwd").text == bundle.text


def test_api_docs_can_be_turned_off(
    make_client: Callable[[Settings], TestClient], settings: Settings
) -> None:
    client = make_client(settings.model_copy(update={"api_docs": False}))
    assert client.get("/docs").status_code in (404, 405)
    assert client.get("/docs/swagger-ui-bundle.js").status_code == 404
    assert client.get("/openapi.json").status_code == 200


def test_client_address_believes_only_trusted_proxies() -> None:
    trusted = ("127.0.0.1", "10.0.0.0/8")
    assert client_address("203.0.113.9", ["198.51.100.1"], trusted) == "203.0.113.9"
    assert client_address("127.0.0.1", ["198.51.100.1"], trusted) == "198.51.100.1"
    # A forged left-hand entry is skipped: the rightmost untrusted hop is the client.
    assert client_address("127.0.0.1", ["6.6.6.6, 198.51.100.1, 10.1.2.3"], trusted) == (
        "198.51.100.1"
    )
    assert client_address("127.0.0.1", ["6.6.6.6", "198.51.100.2"], trusted) == "198.51.100.2"
    assert client_address("127.0.0.1", ["junk, 198.51.100.1"], trusted) == "198.51.100.1"
    assert client_address("127.0.0.1", ["198.51.100.1, junk"], trusted) == "127.0.0.1"
    assert client_address("127.0.0.1", [], trusted) == "127.0.0.1"
    assert client_address("127.0.0.1", ["198.51.100.1"], ()) == "127.0.0.1"
    assert client_address(None, [], trusted) == "unknown"
    assert client_address("::1", ["2001:db8::7"], ("::1",)) == "2001:db8::7"


def test_settings_refuse_a_bad_proxy_entry() -> None:
    with pytest.raises(ValueError, match="not-an-address"):
        Settings(trusted_proxies=("not-an-address",))
    env = {"DEADWOOD_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}
    assert Settings.from_env(env).trusted_proxies == ("127.0.0.1", "10.0.0.0/8")


def _players_allowed(client: TestClient, forwarded_for: str, tries: int = 61) -> int:
    made = 0
    for _ in range(tries):
        answer = client.post("/api/players", headers={"X-Forwarded-For": forwarded_for})
        if answer.status_code == 201:
            made += 1
        else:
            assert answer.status_code == 429
    return made


def test_rate_limits_key_on_the_client_a_trusted_proxy_names(
    bot_pool: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    frozen = time.time()
    monkeypatch.setattr(time, "time", lambda: frozen)  # one rate-limit window throughout
    trusting = settings.model_copy(update={"trusted_proxies": ("127.0.0.1",)})
    with TestClient(create_app(trusting, executor=bot_pool), client=("127.0.0.1", 4000)) as c:
        assert _players_allowed(c, "198.51.100.1") == 60
        assert _players_allowed(c, "198.51.100.2", 1) == 1  # another client behind the proxy
    # Not trusted: the header is ignored, everyone shares the peer's quota.
    with TestClient(create_app(settings, executor=bot_pool), client=("127.0.0.1", 4000)) as c:
        assert _players_allowed(c, "198.51.100.1") == 60
        assert _players_allowed(c, "198.51.100.2", 1) == 0


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_data_files_are_private(
    make_client: Callable[[Settings], TestClient], tmp_path: Path
) -> None:
    data = tmp_path / "fresh" / "data"
    client = make_client(Settings(data_dir=data, bot_seconds=0.2))  # SQLite, generated key
    new_player(client)  # a write, so the WAL exists
    assert _mode(data) == 0o700
    files = sorted(p.name for p in data.iterdir())
    assert "deadwood-knock.sqlite3" in files and "secret.key" in files
    for name in files:
        assert _mode(data / name) == 0o600, name


def test_an_older_wider_sqlite_file_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    path.write_bytes(b"")
    path.chmod(0o644)
    Database(f"sqlite+aiosqlite:///{path}")
    assert _mode(path) == 0o600


# ----- tokens: listed and revoked from the profile -----------------------------------------


def test_device_labels() -> None:
    android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126 Mobile"
    assert device_label(android) == "Chrome on Android"
    assert device_label("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Version/17.0 Safari/604") == (
        "Safari on iPhone"
    )
    assert device_label("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Firefox/128.0") == (
        "Firefox on Linux"
    )
    assert device_label("python-httpx/0.27.0") == "python-httpx"
    assert device_label("\x00\n<script>/1") == "script"
    assert device_label(None) == "Unknown device"


def _second_device(client: TestClient, inbox: SmtpInbox, headers: dict[str, str]) -> str:
    """Link an address, restore on "another device"; that device's token."""
    import re

    def code(count: int) -> str:
        found = re.search(r"\b(\d{6})\b", inbox.wait_for(count)[-1].content.decode())
        assert found is not None
        return found.group(1)

    sent = client.post("/api/backup/link", json={"email": "dev@example.org"}, headers=headers)
    body = {"email": "dev@example.org", "code": code(1), "request_id": sent.json()["request_id"]}
    assert client.post("/api/backup/link/verify", json=body, headers=headers).status_code == 200
    asked = client.post("/api/backup/restore", json={"email": "dev@example.org"})
    body = {"email": "dev@example.org", "code": code(2), "request_id": asked.json()["request_id"]}
    restored = client.post(
        "/api/backup/restore/verify",
        json=body,
        headers={"User-Agent": "Mozilla/5.0 (iPad; CPU OS 17_0) Version/17.0 Safari/604"},
    )
    assert restored.status_code == 200
    token: str = restored.json()["token"]
    return token


def test_devices_are_listed_and_other_devices_signed_out(
    mail_client: tuple[TestClient, SmtpInbox],
) -> None:
    client, inbox = mail_client
    first = new_player(client, "Doc")
    second = {"Authorization": f"Bearer {_second_device(client, inbox, first)}"}
    listed = client.get("/api/players/me/devices", headers=first)
    assert listed.status_code == 200
    devices = listed.json()["devices"]
    assert len(devices) == 2
    assert [d["current"] for d in devices].count(True) == 1
    labels = {d["label"] for d in devices}
    assert "Safari on iPad" in labels
    assert all(d["created_at"] and d["last_used_at"] for d in devices)
    # The token never appears; the id is a separate handle.
    assert _token(first) not in listed.text and _token(second) not in listed.text
    from_second = client.get("/api/players/me/devices", headers=second).json()["devices"]
    assert {d["id"] for d in from_second} == {d["id"] for d in devices}
    assert next(d for d in from_second if d["current"])["label"] == "Safari on iPad"

    signed_out = client.post("/api/players/me/devices/sign-out-others", headers=first)
    assert signed_out.status_code == 200 and signed_out.json() == {"revoked": 1}
    gone = client.get("/api/players/me", headers=second)
    assert gone.status_code == 401 and gone.json()["code"] == "unauthorized"
    assert client.get("/api/players/me", headers=first).status_code == 200
    (mine,) = client.get("/api/players/me/devices", headers=first).json()["devices"]
    assert mine["current"] is True


def test_a_device_can_be_revoked_by_id_and_only_its_own_player(client: TestClient) -> None:
    me, other = new_player(client), new_player(client)
    (mine,) = client.get("/api/players/me/devices", headers=me).json()["devices"]
    not_yours = client.delete(f"/api/players/me/devices/{mine['id']}", headers=other)
    assert not_yours.status_code == 404 and not_yours.json()["code"] == "not_found"
    assert client.get("/api/players/me", headers=me).status_code == 200
    bad = client.delete("/api/players/me/devices/..%2F..%2Fetc", headers=me)
    assert bad.status_code in (404, 405, 422)
    bye = client.delete(f"/api/players/me/devices/{mine['id']}", headers=me)
    assert bye.status_code == 200 and bye.json() == {"revoked": 1}
    assert client.get("/api/players/me", headers=me).status_code == 401  # signed out here


def test_idle_tokens_expire_when_configured(
    make_client: Callable[[Settings], TestClient],
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import deadwood_knock.server.devices as devices

    client = make_client(settings.model_copy(update={"token_idle_days": 30}))
    headers = new_player(client)
    real = devices.time.time
    monkeypatch.setattr(devices.time, "time", lambda: real() + 29 * 86_400)
    assert client.get("/api/players/me", headers=headers).status_code == 200  # and touched
    monkeypatch.setattr(devices.time, "time", lambda: real() + 58 * 86_400)
    assert client.get("/api/players/me", headers=headers).status_code == 200
    monkeypatch.setattr(devices.time, "time", lambda: real() + 89 * 86_400)
    expired = client.get("/api/players/me", headers=headers)
    assert expired.status_code == 401 and expired.json()["code"] == "token_expired"
    monkeypatch.setattr(devices.time, "time", real)
    assert client.get("/api/players/me", headers=headers).status_code == 401  # deleted


@pytest.mark.asyncio
async def test_migration_0002_gives_existing_tokens_a_handle(database_url: str) -> None:
    from alembic import command

    db = Database(database_url)
    cfg = alembic_config(db.url)

    def to(revision: str) -> Callable[[Any], None]:
        def run(connection: Any) -> None:
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, revision)

        return run

    try:
        async with db.engine.begin() as conn:
            await conn.run_sync(to("0001"))
            await conn.execute(
                text(
                    "INSERT INTO players (id, name, likeness, card_back, large_print, "
                    "sleight_of_hand, stats, progress) "
                    "VALUES ('p1', 'Old', '', '', false, false, '{}', '{}')"
                )
            )
            for token_hash in ("a" * 64, "b" * 64):
                await conn.execute(
                    text("INSERT INTO devices (token_hash, player_id) VALUES (:t, 'p1')"),
                    {"t": token_hash},
                )
        await db.migrate()
        async with db.engine.connect() as conn:
            rows = (await conn.execute(text("SELECT id, label FROM devices"))).all()
        assert len(rows) == 2 and len({r.id for r in rows}) == 2
        assert all(len(r.id) == 32 and r.label == "" for r in rows)
    finally:
        await db.dispose()
