"""One-time codes under attack (audit findings 1, 3, 5, 6 and 7): atomic tries, codes
bound to their request, separate quotas, mail after the answer, and mail outages."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from conftest import SmtpInbox, free_port, with_smtp
from dkserver_helpers import new_player
from sqlalchemy import select
from starlette.testclient import TestClient
from starlette.types import Message, Receive, Scope, Send

from deadwood_knock.persistence import Database, OtpCode
from deadwood_knock.server import Settings, create_app
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.mail import Delivery
from deadwood_knock.server.otp import RESTORE, OtpService
from deadwood_knock.server.ratelimit import MemoryRateLimiter, RedisRateLimiter

CODE = re.compile(r"\b(\d{6})\b")


def _code_in(envelope: Any) -> str:
    found = CODE.search(envelope.content.decode())
    assert found is not None
    return found.group(1)


def _link(client: TestClient, inbox: SmtpInbox, headers: dict[str, str], address: str) -> None:
    """Link ``address`` to the profile behind ``headers`` (a code by mail, then verify)."""
    seen = len(inbox.messages)
    sent = client.post("/api/backup/link", json={"email": address}, headers=headers)
    assert sent.status_code == 202, sent.text
    code = _code_in(inbox.wait_for(seen + 1)[seen])
    body = {"email": address, "code": code, "request_id": sent.json()["request_id"]}
    linked = client.post("/api/backup/link/verify", json=body, headers=headers)
    assert linked.status_code == 200, linked.text


# ----- finding 1: tries are counted atomically, on every database --------------------------


class _Capture:
    """A mailer that keeps the codes it is asked to send (the service under test alone)."""

    def __init__(self) -> None:
        self.codes: list[str] = []

    async def open(self) -> Delivery:
        outer = self

        class _Delivery:
            async def send(self, to: str, subject: str, body: str) -> None:
                outer.codes.append(CODE.findall(body)[0])

            async def close(self) -> None:
                return None

        return _Delivery()


@pytest_asyncio.fixture
async def restore_code(
    database_url: str, tmp_path: Path
) -> AsyncIterator[tuple[OtpService, Database, str, str]]:
    """The one-time-code service alone on a fresh database, one restore code made:
    (service, database, request id, the code)."""
    db = Database(database_url)
    await db.migrate()
    mailer = _Capture()
    settings = Settings(data_dir=tmp_path, database_url=database_url, secret_key="k")
    otp = OtpService(db, settings, b"secret", mailer, MemoryRateLimiter())
    try:
        request_id, after_answer = await otp.send("v@example.org", RESTORE, "owner", "p1")
        await after_answer()
        await otp.close()
        (code,) = mailer.codes
        yield otp, db, request_id, code
    finally:
        await db.dispose()


async def _guesses(otp: OtpService, request_id: str, code: str, count: int) -> list[str]:
    """``count`` guesses of ``code`` at once, each from its own client; how each ended."""

    async def guess(n: int) -> str:
        try:
            await otp.verify("v@example.org", RESTORE, code, f"c{n}", request_id=request_id)
        except ApiError as exc:
            return exc.code
        return "accepted"

    return list(await asyncio.gather(*(guess(n) for n in range(count))))


@pytest.mark.asyncio
async def test_concurrent_wrong_guesses_never_skip_the_limit(
    restore_code: tuple[OtpService, Database, str, str],
) -> None:
    """15 wrong guesses at once: exactly 5 are judged, the rest refused, and the real
    code is burnt (SQLite lost updates here: 15 judged, attempts 3, code still good)."""
    otp, db, request_id, code = restore_code
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    answers = await _guesses(otp, request_id, wrong, 15)
    assert answers.count("wrong_code") == 4, answers  # tries 1-4 say how many are left
    assert answers.count("too_many_attempts") == 11  # the 5th and every later one
    async with db.sessions() as session:
        row = await session.scalar(select(OtpCode).where(OtpCode.request_id == request_id))
    assert row is not None and row.attempts == 5
    with pytest.raises(ApiError) as burnt:
        await otp.verify("v@example.org", RESTORE, code, "owner", request_id=request_id)
    assert burnt.value.code == "too_many_attempts"


@pytest.mark.asyncio
async def test_concurrent_right_guesses_use_the_code_once(
    restore_code: tuple[OtpService, Database, str, str],
) -> None:
    otp, _db, request_id, code = restore_code
    answers = await _guesses(otp, request_id, code, 6)
    assert answers.count("accepted") == 1, answers


# ----- finding 3: nobody can block someone else's backup ---------------------------------


def test_a_new_request_never_cancels_a_pending_code(
    mail_client: tuple[TestClient, SmtpInbox],
) -> None:
    client, inbox = mail_client
    owner = new_player(client, "Owner")
    _link(client, inbox, owner, "own@example.org")
    # The owner asks for a restore code on a new device...
    mine = client.post("/api/backup/restore", json={"email": "own@example.org"}).json()
    my_code = _code_in(inbox.wait_for(2)[1])
    # ...then someone else asks too, and guesses five times against their own request.
    theirs = client.post("/api/backup/restore", json={"email": "own@example.org"}).json()
    inbox.wait_for(3)
    wrong = f"{(int(my_code) + 1) % 1_000_000:06d}"
    for _ in range(5):
        body = {"email": "own@example.org", "code": wrong, "request_id": theirs["request_id"]}
        client.post("/api/backup/restore/verify", json=body)
    # Guessing with no request, or a made-up one, judges nothing.
    no_request = client.post(
        "/api/backup/restore/verify", json={"email": "own@example.org", "code": my_code}
    )
    assert no_request.status_code == 422
    made_up = client.post(
        "/api/backup/restore/verify",
        json={"email": "own@example.org", "code": my_code, "request_id": secrets.token_urlsafe(18)},
    )
    assert made_up.status_code == 400 and made_up.json()["code"] == "code_expired"
    # The owner's code still works.
    body = {"email": "own@example.org", "code": my_code, "request_id": mine["request_id"]}
    restored = client.post("/api/backup/restore/verify", json=body)
    assert restored.status_code == 200, restored.text


def test_someone_elses_link_guesses_do_not_burn_my_link_code(
    mail_client: tuple[TestClient, SmtpInbox],
) -> None:
    client, inbox = mail_client
    me, stranger = new_player(client, "Me"), new_player(client, "Stranger")
    sent = client.post("/api/backup/link", json={"email": "me@example.org"}, headers=me)
    code = _code_in(inbox.wait_for(1)[0])
    wrong = f"{(int(code) + 1) % 1_000_000:06d}"
    for _ in range(6):
        guess = client.post(
            "/api/backup/link/verify",
            json={"email": "me@example.org", "code": wrong},
            headers=stranger,
        )
        assert guess.json()["code"] == "code_expired"  # no code of theirs to guess at
    body = {"email": "me@example.org", "code": code, "request_id": sent.json()["request_id"]}
    linked = client.post("/api/backup/link/verify", json=body, headers=me)
    assert linked.status_code == 200 and linked.json()["email"] == "me@example.org"


def test_link_and_restore_have_separate_quotas(mail_client: tuple[TestClient, SmtpInbox]) -> None:
    client, inbox = mail_client
    headers = new_player(client)
    restores = [
        client.post("/api/backup/restore", json={"email": "q@example.org"}).status_code
        for _ in range(4)
    ]
    assert restores == [202, 202, 202, 429]
    # Using up the restore quota leaves linking alone, and the other way round.
    links = [
        client.post("/api/backup/link", json={"email": "q@example.org"}, headers=headers)
        for _ in range(4)
    ]
    assert [r.status_code for r in links] == [202, 202, 202, 429]
    # Every pending link code is still good (none cancelled the one before).
    codes = [_code_in(e) for e in inbox.wait_for(3)]
    first = {
        "email": "q@example.org",
        "code": codes[0],
        "request_id": links[0].json()["request_id"],
    }
    assert client.post("/api/backup/link/verify", json=first, headers=headers).status_code == 200


# ----- finding 5: the answer comes first, and costs the same for every address -------------


class _Order:
    """ASGI wrapper noting when each answer's body went out, next to the mail's arrival."""

    def __init__(self, app: Any, log: list[str]) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def noting(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                self.log.append(f"answer {scope.get('path')}")

        await self.app(scope, receive, noting)


class _SlowInbox(SmtpInbox):
    """Counts every SMTP session and holds each message until the test lets it through."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log
        self.hellos = 0
        self.release = asyncio.Event()

    async def handle_EHLO(
        self, server: Any, session: Any, envelope: Any, hostname: str, responses: list[str]
    ) -> list[str]:
        self.hellos += 1
        session.host_name = hostname
        return responses

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await self.release.wait()
        self.log.append("mail")
        return await super().handle_DATA(server, session, envelope)


@pytest.fixture
def slow_smtp() -> Iterator[tuple[int, _SlowInbox, list[str], Any]]:
    from aiosmtpd.controller import Controller

    log: list[str] = []
    inbox = _SlowInbox(log)
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, inbox, log, controller
    finally:
        controller.loop.call_soon_threadsafe(inbox.release.set)
        controller.stop()


def test_mail_goes_out_after_the_answer_alike_for_every_address(
    bot_pool: Any, settings: Settings, slow_smtp: tuple[int, _SlowInbox, list[str], Any]
) -> None:
    port, inbox, log, controller = slow_smtp
    app = _Order(create_app(with_smtp(settings, port), executor=bot_pool), log)
    with TestClient(app) as client:
        headers = new_player(client)
        controller.loop.call_soon_threadsafe(inbox.release.set)
        _link(client, inbox, headers, "linked@example.org")
        controller.loop.call_soon_threadsafe(inbox.release.clear)
        log.clear()
        before = inbox.hellos
        linked = client.post("/api/backup/restore", json={"email": "linked@example.org"})
        unlinked = client.post("/api/backup/restore", json={"email": "nobody@example.org"})
        # Both answered, identically, while the linked address's mail is still held back.
        assert linked.status_code == unlinked.status_code == 202
        assert linked.json().keys() == unlinked.json().keys()
        assert log == ["answer /api/backup/restore", "answer /api/backup/restore"]
        # The mail server was reached for both (an outage would show for either alike).
        assert inbox.hellos - before == 2
        controller.loop.call_soon_threadsafe(inbox.release.set)
        inbox.wait_for(2)
        assert log[-1] == "mail" and log.count("mail") == 1


# ----- finding 6: NUL in an address is a 422, on every database ---------------------------


def test_nul_in_an_address_is_refused(client: TestClient) -> None:
    headers = new_player(client)
    for body in ({"email": "a\u0000b@example.org"}, {"email": "ab@exa\u0000mple.org"}):
        restore = client.post("/api/backup/restore", json=body)
        assert restore.status_code == 422 and restore.json()["code"] == "bad_email"
        link = client.post("/api/backup/link", json=body, headers=headers)
        assert link.status_code == 422 and link.json()["code"] == "bad_email"


# ----- finding 7: a mail outage is a 503 and costs no quota --------------------------------


def test_mail_outage_is_a_503_that_costs_no_quota(
    make_client: Callable[[Settings], TestClient], settings: Settings
) -> None:
    from aiosmtpd.controller import Controller

    port = free_port()  # nothing listens there yet
    client = make_client(with_smtp(settings, port).model_copy(update={"smtp_timeout_seconds": 3}))
    headers = new_player(client)
    for _ in range(5):  # more than the address's quota of 3
        down = client.post("/api/backup/link", json={"email": "d@example.org"}, headers=headers)
        assert down.status_code == 503, down.text
        assert down.json()["code"] == "mail_unavailable" and down.headers["retry-after"]
        restore = client.post("/api/backup/restore", json={"email": "d@example.org"})
        assert restore.status_code == 503 and restore.json()["code"] == "mail_unavailable"
    inbox = SmtpInbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        up = [
            client.post("/api/backup/link", json={"email": "d@example.org"}, headers=headers)
            for _ in range(3)
        ]
        assert [r.status_code for r in up] == [202, 202, 202]
        assert len(inbox.wait_for(3)) == 3
    finally:
        controller.stop()


def test_a_refused_message_retires_its_code_and_gives_the_quota_back(
    mail_client: tuple[TestClient, SmtpInbox],
) -> None:
    client, inbox = mail_client
    headers = new_player(client)
    inbox.refuse = "550 mailbox unavailable"
    refused = client.post("/api/backup/link", json={"email": "r@example.org"}, headers=headers)
    assert refused.status_code == 202  # answered before the server said no
    request_id = refused.json()["request_id"]

    async def wait_retired() -> None:
        db = Database(client.app.state.services.db.url)  # type: ignore[attr-defined]
        try:
            for _ in range(500):
                async with db.sessions() as session:
                    used = await session.scalar(
                        select(OtpCode.used).where(OtpCode.request_id == request_id)
                    )
                if used:
                    return
                await asyncio.sleep(0.02)
            raise AssertionError("the refused code was never retired")
        finally:
            await db.dispose()

    asyncio.run(wait_retired())
    inbox.refuse = None
    # The refused send cost nothing: three more fit in the address's quota of three.
    statuses = [
        client.post("/api/backup/link", json={"email": "r@example.org"}, headers=headers)
        for _ in range(3)
    ]
    assert [s.status_code for s in statuses] == [202, 202, 202]


def test_link_purposes_do_not_mix(mail_client: tuple[TestClient, SmtpInbox]) -> None:
    """A link code is no restore code (the purposes are hashed apart)."""
    client, inbox = mail_client
    headers = new_player(client)
    sent = client.post("/api/backup/link", json={"email": "m@example.org"}, headers=headers)
    code = _code_in(inbox.wait_for(1)[0])
    body = {"email": "m@example.org", "code": code, "request_id": sent.json()["request_id"]}
    wrong_purpose = client.post("/api/backup/restore/verify", json=body)
    assert wrong_purpose.status_code == 400 and wrong_purpose.json()["code"] == "code_expired"
    assert client.post("/api/backup/link/verify", json=body, headers=headers).status_code == 200


@pytest.mark.asyncio
async def test_memory_limiter_refunds_within_the_window() -> None:
    limiter = MemoryRateLimiter()
    assert [await limiter.hit("k", 2, 600) for _ in range(2)] == [None, None]
    await limiter.refund("k", 600)
    assert await limiter.hit("k", 2, 600) is None
    assert isinstance(await limiter.hit("k", 2, 600), int)
    await limiter.refund("never-hit", 600)  # nothing to give back: no error, no credit
    assert [await limiter.hit("never-hit", 1, 600) for _ in range(2)][1] is not None


@pytest.mark.skipif(not os.environ.get("DEADWOOD_TEST_REDIS_URL"), reason="no test Redis")
@pytest.mark.asyncio
async def test_redis_limiter_refunds_within_the_window() -> None:
    limiter = RedisRateLimiter(
        os.environ["DEADWOOD_TEST_REDIS_URL"],
        prefix=f"dk:test:{os.getpid()}:{secrets.token_hex(4)}:",
    )
    try:
        assert [await limiter.hit("k", 2, 600) for _ in range(2)] == [None, None]
        await limiter.refund("k", 600)
        assert await limiter.hit("k", 2, 600) is None
        assert isinstance(await limiter.hit("k", 2, 600), int)
        await limiter.refund("never-hit", 600)
        assert [await limiter.hit("never-hit", 1, 600) for _ in range(2)][1] is not None
    finally:
        await limiter.close()
