"""Password-free cloud backup: a 6-digit one-time code sent to an email address.

Codes are stored only as an HMAC keyed with the server secret (a bare hash of a
6-digit number could be reversed by trying all million). A code lives
``otp_ttl_seconds`` and allows ``otp_max_attempts`` guesses, counted by one conditional
``UPDATE … RETURNING`` so concurrent guesses can never skip the count, on SQLite as on
PostgreSQL.

Each request makes its own code and answers with a ``request_id``; a newer request
never cancels a pending code. Guesses count only against the codes of whoever asked:
a restore guess names its ``request_id`` and a link guess is scoped to the profile
that asked, so nobody can use up the owner's tries. Sending is limited per address,
separately for linking and restoring, and per client; guessing per client.

Mail goes out after the answer, and every address costs the same before it: the mail
server is reached (and an outage answered with 503, costing no quota) whether or not a
message will follow.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sqlalchemy import select, update

from deadwood_knock.persistence import Database, OtpCode
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.mail import Delivery, Mailer, MailUnavailable
from deadwood_knock.server.ratelimit import RateLimiter
from deadwood_knock.server.settings import Settings

log = logging.getLogger("deadwood_knock.server.otp")

LINK = "link"
RESTORE = "restore"
#: Printable ASCII only: no spaces or control characters (a NUL cannot reach the database).
_ADDRESS = r"[!-?A-~]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.)+[A-Za-z]{2,63}"
_EMAIL = re.compile(f"^{_ADDRESS}$")
#: What the API accepts: the address, perhaps with spaces around it (they are trimmed).
EMAIL_PATTERN = rf"^[ \t]*{_ADDRESS}[ \t]*$"
CODE_PATTERN = r"^[0-9]{6}$"
REQUEST_ID_PATTERN = r"^[A-Za-z0-9_-]{16,32}$"
#: Seconds a shutdown waits for mail still going out.
DRAIN_SECONDS = 20.0


def normalise_email(email: str) -> str:
    address = email.strip().lower()
    if len(address) > 254 or not _EMAIL.match(address):
        raise ApiError(422, "bad_email", "that is not an email address")
    return address


def too_many(retry_after: int, what: str) -> ApiError:
    error = ApiError(429, "rate_limited", f"too many {what}; try again in {retry_after} s")
    error.headers["Retry-After"] = str(retry_after)
    return error


@dataclass(frozen=True, slots=True)
class CodeUse:
    """A code that has just been used up: the address and the profile it was made for."""

    email: str
    player_id: str | None


#: What a request leaves to do after its answer: send the mail (or just hang up).
AfterAnswer = Callable[[], Awaitable[None]]


class OtpService:
    def __init__(
        self,
        db: Database,
        settings: Settings,
        secret: bytes,
        mailer: Mailer,
        limiter: RateLimiter,
    ) -> None:
        self.db = db
        self.settings = settings
        self.secret = secret
        self.mailer = mailer
        self.limiter = limiter
        self._outgoing: set[asyncio.Task[None]] = set()

    def _hash(self, purpose: str, email: str, code: str) -> str:
        message = f"{purpose}\0{email}\0{code}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()

    async def _limit(self, key: str, limits: tuple[int, int], what: str) -> None:
        retry = await self.limiter.hit(key, limits[0], limits[1])
        if retry is not None:
            raise too_many(retry, what)

    async def _refund(self, keys: list[tuple[str, int]]) -> None:
        for key, window in keys:
            await self.limiter.refund(key, window)

    async def send(
        self, email: str, purpose: str, client: str, player_id: str | None, deliver: bool = True
    ) -> tuple[str, AfterAnswer]:
        """Make a code; the request's id and what to run after answering (mailing it).

        ``deliver=False`` does all the same work but mails nothing (an unknown address on
        restore), so neither the answer nor its timing tells linked addresses from others.
        A mail server that cannot be reached is a 503 that costs no quota.
        """
        address = normalise_email(email)
        client_key = (f"otp:client:{client}", self.settings.otp_client_limit[1])
        address_key = (f"otp:addr:{purpose}:{address}", self.settings.otp_address_limit[1])
        await self._limit(client_key[0], self.settings.otp_client_limit, "requests")
        try:
            await self._limit(address_key[0], self.settings.otp_address_limit, "codes sent")
        except ApiError:
            await self._refund([client_key])
            raise
        spent = [client_key, address_key]
        try:
            delivery = await self.mailer.open()
        except MailUnavailable as exc:
            await self._refund(spent)
            log.warning("mail server unavailable: %s", exc)
            error = ApiError(503, "mail_unavailable", "mail cannot be sent right now; try later")
            error.headers["Retry-After"] = "60"
            raise error from None
        code = f"{secrets.randbelow(1_000_000):06d}"
        request_id = secrets.token_urlsafe(18)
        now = int(time.time())
        try:
            async with self.db.sessions() as session, session.begin():
                session.add(
                    OtpCode(
                        email=address,
                        purpose=purpose,
                        request_id=request_id,
                        code_hash=self._hash(purpose, address, code),
                        player_id=player_id,
                        created_at=now,
                        expires_at=now + self.settings.otp_ttl_seconds,
                        attempts=0,
                        used=False,
                    )
                )
        except BaseException:
            await delivery.close()
            raise

        async def after_answer() -> None:
            self._start(self._deliver(delivery, address, code, request_id, spent, deliver))

        return request_id, after_answer

    def _start(self, work: Awaitable[None]) -> None:
        # A task of its own: the request (and a kept-alive connection) does not wait for it.
        task = asyncio.ensure_future(work)
        self._outgoing.add(task)
        task.add_done_callback(self._outgoing.discard)

    async def _deliver(
        self,
        delivery: Delivery,
        address: str,
        code: str,
        request_id: str,
        spent: list[tuple[str, int]],
        deliver: bool,
    ) -> None:
        try:
            if deliver:
                minutes = self.settings.otp_ttl_seconds // 60
                await delivery.send(
                    address,
                    f"Your Deadwood Knock code: {code}",
                    f"Your code is {code}. Enter it in the game within {minutes} minutes.\n\n"
                    "If you did not ask for it, ignore this message; nothing changes.",
                )
        except MailUnavailable as exc:
            # The code can never arrive: retire it and give the quota back.
            log.warning("a code could not be mailed: %s", exc)
            async with self.db.sessions() as session, session.begin():
                await session.execute(
                    update(OtpCode).where(OtpCode.request_id == request_id).values(used=True)
                )
            await self._refund(spent)
        finally:
            await delivery.close()

    async def close(self) -> None:
        """Let mail still going out finish (bounded), at shutdown."""
        if self._outgoing:
            await asyncio.wait(set(self._outgoing), timeout=DRAIN_SECONDS)

    async def verify(
        self,
        email: str,
        purpose: str,
        code: str,
        client: str,
        *,
        request_id: str | None = None,
        player_id: str | None = None,
    ) -> CodeUse:
        """Use up the live code of this request (or of this profile) that matches ``code``.

        One guess counts one try against every live code in that scope, atomically, before
        the guess is judged; a 400 says why a guess fails."""
        address = normalise_email(email)
        if not re.fullmatch(r"[0-9]{6}", code or ""):
            raise ApiError(422, "bad_code", "the code is 6 digits")
        await self._limit(f"otp:verify:{client}", self.settings.otp_client_limit, "attempts")
        now = int(time.time())
        most = self.settings.otp_max_attempts
        scope = [
            OtpCode.email == address,
            OtpCode.purpose == purpose,
            OtpCode.used.is_(False),
            OtpCode.expires_at > now,
        ]
        if request_id is not None:
            scope.append(OtpCode.request_id == request_id)
        if player_id is not None:
            scope.append(OtpCode.player_id == player_id)
        expected = self._hash(purpose, address, code)
        async with self.db.sessions() as session, session.begin():
            counted = (
                await session.execute(
                    update(OtpCode)
                    .where(*scope, OtpCode.attempts < most)
                    .values(attempts=OtpCode.attempts + 1)
                    .returning(OtpCode.id, OtpCode.code_hash, OtpCode.attempts)
                    .execution_options(synchronize_session=False)
                )
            ).all()
            if not counted:
                spent = await session.scalar(select(OtpCode.id).where(*scope).limit(1))
                if spent is not None:
                    raise ApiError(400, "too_many_attempts", "wrong code; ask for a new one")
                raise ApiError(
                    400, "code_expired", "no valid code for that address; ask for a new one"
                )
            matched = [row.id for row in counted if hmac.compare_digest(row.code_hash, expected)]
            if matched:
                used = (
                    await session.execute(
                        update(OtpCode)
                        .where(OtpCode.id == matched[0], OtpCode.used.is_(False))
                        .values(used=True)
                        .returning(OtpCode.email, OtpCode.player_id)
                        .execution_options(synchronize_session=False)
                    )
                ).first()
                if used is not None:
                    return CodeUse(used.email, used.player_id)
                error = ApiError(400, "code_expired", "that code was just used; ask for a new one")
            else:
                left = most - min(row.attempts for row in counted)
                if left <= 0:
                    error = ApiError(400, "too_many_attempts", "wrong code; ask for a new one")
                else:
                    error = ApiError(400, "wrong_code", f"wrong code; {left} attempts left")
        # Raised after the block, so the transaction commits the counted tries.
        raise error
