"""Cloud backup by one-time code, end to end through a real local SMTP server."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from dkserver_helpers import new_player
from starlette.testclient import TestClient

from deadwood_knock.server import Settings
from deadwood_knock.server.ratelimit import MemoryRateLimiter, RedisRateLimiter

CODE = re.compile(r"\b(\d{6})\b")


def _last_code(inbox: Any, address: str, count: int = 1) -> str:
    """The code in message number ``count`` (waiting for it: mail follows the answer)."""
    envelope = inbox.wait_for(count)[count - 1]
    assert envelope.rcpt_tos == [address]
    match = CODE.search(envelope.content.decode())
    assert match is not None
    return match.group(1)


def test_link_then_restore_on_another_device(mail_client: tuple[TestClient, Any]) -> None:
    client, inbox = mail_client
    headers = new_player(client, "Belle")
    client.patch("/api/players/me", json={"card_back": "plain-ledger"}, headers=headers)
    sent = client.post("/api/backup/link", json={"email": "Belle@Example.org "}, headers=headers)
    assert sent.status_code == 202 and sent.json()["expires_in"] == 600
    code = _last_code(inbox, "belle@example.org")
    linked = client.post(
        "/api/backup/link/verify",
        json={"email": "belle@example.org", "code": code},
        headers=headers,
    )
    assert linked.status_code == 200, linked.text
    assert linked.json()["email"] == "belle@example.org"
    # The code is spent.
    reused = client.post(
        "/api/backup/link/verify",
        json={"email": "belle@example.org", "code": code},
        headers=headers,
    )
    assert reused.status_code == 400

    # Another device: no token, just the address (and the request's id from the answer).
    asked = client.post("/api/backup/restore", json={"email": "belle@example.org"})
    assert asked.status_code == 202
    code = _last_code(inbox, "belle@example.org", 2)
    restored = client.post(
        "/api/backup/restore/verify",
        json={"email": "belle@example.org", "code": code, "request_id": asked.json()["request_id"]},
    )
    assert restored.status_code == 200, restored.text
    device = {"Authorization": f"Bearer {restored.json()['token']}"}
    me = client.get("/api/players/me", headers=device).json()
    original = client.get("/api/players/me", headers=headers).json()
    assert me == original and me["name"] == "Belle" and me["card_back"] == "plain-ledger"


def test_unknown_address_restore_looks_the_same_but_sends_nothing(
    mail_client: tuple[TestClient, Any],
) -> None:
    client, inbox = mail_client
    asked = client.post("/api/backup/restore", json={"email": "nobody@example.org"})
    assert asked.status_code == 202
    assert inbox.messages == []


def test_five_wrong_codes_burn_the_code(mail_client: tuple[TestClient, Any]) -> None:
    client, inbox = mail_client
    headers = new_player(client)
    client.post("/api/backup/link", json={"email": "a@example.org"}, headers=headers)
    code = _last_code(inbox, "a@example.org")
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    answers = [
        client.post(
            "/api/backup/link/verify",
            json={"email": "a@example.org", "code": wrong},
            headers=headers,
        ).json()
        for _ in range(5)
    ]
    assert answers[0]["code"] == "wrong_code" and "4 attempts left" in answers[0]["detail"]
    assert answers[-1]["code"] == "too_many_attempts"
    right = client.post(
        "/api/backup/link/verify",
        json={"email": "a@example.org", "code": code},
        headers=headers,
    )
    assert right.status_code == 400
    assert client.get("/api/players/me", headers=headers).json()["email"] is None


def test_codes_expire(mail_client: tuple[TestClient, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    import deadwood_knock.server.otp as otp

    client, inbox = mail_client
    headers = new_player(client)
    client.post("/api/backup/link", json={"email": "late@example.org"}, headers=headers)
    code = _last_code(inbox, "late@example.org")
    real_time = otp.time.time
    monkeypatch.setattr(otp.time, "time", lambda: real_time() + 601)
    late = client.post(
        "/api/backup/link/verify",
        json={"email": "late@example.org", "code": code},
        headers=headers,
    )
    assert late.status_code == 400 and late.json()["code"] == "code_expired"


def test_sending_is_rate_limited_per_address(mail_client: tuple[TestClient, Any]) -> None:
    client, inbox = mail_client
    headers = new_player(client)
    statuses = [
        client.post("/api/backup/link", json={"email": "x@example.org"}, headers=headers)
        for _ in range(4)
    ]
    assert [s.status_code for s in statuses] == [202, 202, 202, 429]
    assert statuses[-1].json()["code"] == "rate_limited"
    assert int(statuses[-1].headers["retry-after"]) > 0
    inbox.wait_for(3)  # mail follows the answers
    assert len(inbox.messages) == 3
    # The newest code works (a newer request never cancels an older code either).
    newest = _last_code(inbox, "x@example.org", 3)
    ok = client.post(
        "/api/backup/link/verify",
        json={"email": "x@example.org", "code": newest},
        headers=headers,
    )
    assert ok.status_code == 200


def test_sending_is_rate_limited_per_client(
    make_client: Callable[[Settings], TestClient], settings: Settings
) -> None:
    client = make_client(settings.model_copy(update={"otp_client_limit": (2, 3600)}))
    headers = new_player(client)
    codes = [
        client.post("/api/backup/link", json={"email": f"p{i}@example.org"}, headers=headers)
        for i in range(3)
    ]
    assert [c.status_code for c in codes] == [202, 202, 429]


def test_bad_addresses_and_codes(client: TestClient) -> None:
    headers = new_player(client)
    bad = client.post("/api/backup/link", json={"email": "not-an-address"}, headers=headers)
    assert bad.status_code == 422 and bad.json()["code"] == "bad_email"
    code = client.post(
        "/api/backup/link/verify",
        json={"email": "a@example.org", "code": "12ab56"},
        headers=headers,
    )
    assert code.status_code == 422 and code.json()["code"] == "bad_code"


def test_console_mail_by_default(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    headers = new_player(client)
    sent = client.post("/api/backup/link", json={"email": "c@example.org"}, headers=headers)
    assert sent.status_code == 202
    printed = ""
    deadline = time.monotonic() + 15
    while not CODE.search(printed) and time.monotonic() < deadline:
        time.sleep(0.01)  # printed after the answer
        printed += capsys.readouterr().out
    assert "c@example.org" in printed and CODE.search(printed)


@pytest.mark.asyncio
async def test_memory_rate_limiter() -> None:
    limiter = MemoryRateLimiter()
    results = [await limiter.hit("k", 2, 60) for _ in range(3)]
    assert results[:2] == [None, None] and isinstance(results[2], int)


@pytest.mark.skipif(not os.environ.get("DEADWOOD_TEST_REDIS_URL"), reason="no test Redis")
@pytest.mark.asyncio
async def test_redis_rate_limiter() -> None:
    limiter = RedisRateLimiter(
        os.environ["DEADWOOD_TEST_REDIS_URL"], prefix=f"dk:test:{os.getpid()}:"
    )
    try:
        results = [await limiter.hit("k", 2, 60) for _ in range(3)]
        assert results[:2] == [None, None] and isinstance(results[2], int)
    finally:
        await limiter.close()
