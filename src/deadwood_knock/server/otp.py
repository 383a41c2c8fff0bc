"""Password-free cloud backup: a 6-digit one-time code sent to an email address.

Codes are stored only as an HMAC keyed with the server secret (a bare hash of a
6-digit number could be reversed by trying all million). A code lives
``otp_ttl_seconds``, allows ``otp_max_attempts`` guesses, and a newer code for the
same address and purpose replaces it. Sending is rate-limited per address and per
client; guessing per client.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time

from sqlalchemy import select, update

from deadwood_knock.persistence import Database, OtpCode
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.mail import Mailer
from deadwood_knock.server.ratelimit import RateLimiter
from deadwood_knock.server.settings import Settings

LINK = "link"
RESTORE = "restore"
_EMAIL = re.compile(r"^[^@\s]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}\.)+[A-Za-z]{2,63}$")


def normalise_email(email: str) -> str:
    address = email.strip().lower()
    if len(address) > 254 or not _EMAIL.match(address):
        raise ApiError(422, "bad_email", "that is not an email address")
    return address


def too_many(retry_after: int, what: str) -> ApiError:
    error = ApiError(429, "rate_limited", f"too many {what}; try again in {retry_after} s")
    error.headers["Retry-After"] = str(retry_after)
    return error


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

    def _hash(self, purpose: str, email: str, code: str) -> str:
        message = f"{purpose}\0{email}\0{code}".encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()

    async def _limit(self, key: str, limits: tuple[int, int], what: str) -> None:
        retry = await self.limiter.hit(key, limits[0], limits[1])
        if retry is not None:
            raise too_many(retry, what)

    async def send(
        self, email: str, purpose: str, client: str, player_id: str | None, deliver: bool = True
    ) -> None:
        """Make and mail a code. ``deliver=False`` does all but mailing (unknown address on
        restore), so a caller cannot tell linked addresses from others."""
        address = normalise_email(email)
        await self._limit(f"otp:client:{client}", self.settings.otp_client_limit, "requests")
        await self._limit(f"otp:addr:{address}", self.settings.otp_address_limit, "codes sent")
        code = f"{secrets.randbelow(1_000_000):06d}"
        now = int(time.time())
        async with self.db.sessions() as session, session.begin():
            await session.execute(
                update(OtpCode)
                .where(
                    OtpCode.email == address, OtpCode.purpose == purpose, OtpCode.used.is_(False)
                )
                .values(used=True)
            )
            session.add(
                OtpCode(
                    email=address,
                    purpose=purpose,
                    code_hash=self._hash(purpose, address, code),
                    player_id=player_id,
                    created_at=now,
                    expires_at=now + self.settings.otp_ttl_seconds,
                    attempts=0,
                    used=False,
                )
            )
        if deliver:
            minutes = self.settings.otp_ttl_seconds // 60
            await self.mailer.send(
                address,
                f"Your Deadwood Knock code: {code}",
                f"Your code is {code}. Enter it in the game within {minutes} minutes.\n\n"
                "If you did not ask for it, ignore this message; nothing changes.",
            )

    async def verify(self, email: str, purpose: str, code: str, client: str) -> OtpCode:
        """The matching live code, now used up; a 400 saying why otherwise."""
        address = normalise_email(email)
        if not re.fullmatch(r"\d{6}", code or ""):
            raise ApiError(422, "bad_code", "the code is 6 digits")
        await self._limit(f"otp:verify:{client}", self.settings.otp_client_limit, "attempts")
        now = int(time.time())
        error: ApiError | None = None
        async with self.db.sessions() as session, session.begin():
            row = await session.scalar(
                select(OtpCode)
                .where(
                    OtpCode.email == address, OtpCode.purpose == purpose, OtpCode.used.is_(False)
                )
                .order_by(OtpCode.id.desc())
                .limit(1)
                .with_for_update()
            )
            if row is None or row.expires_at <= now:
                raise ApiError(
                    400, "code_expired", "no valid code for that address; ask for a new one"
                )
            row.attempts += 1
            if not hmac.compare_digest(row.code_hash, self._hash(purpose, address, code)):
                # Fall through so the transaction commits the counted attempt.
                left = self.settings.otp_max_attempts - row.attempts
                if left <= 0:
                    row.used = True
                    error = ApiError(400, "too_many_attempts", "wrong code; ask for a new one")
                else:
                    error = ApiError(400, "wrong_code", f"wrong code; {left} attempts left")
            else:
                row.used = True
        if error is not None:
            raise error
        return row
