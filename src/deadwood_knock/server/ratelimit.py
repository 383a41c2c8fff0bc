"""Fixed-window rate limits: in memory by default, Redis when configured (several processes)."""

from __future__ import annotations

import time
from typing import Any, Protocol

from deadwood_knock.server.errors import ApiError


class RateLimiter(Protocol):
    async def hit(self, key: str, limit: int, window: int) -> int | None:
        """Count one use of ``key``; ``None`` if allowed, else seconds until it is."""
        ...

    async def refund(self, key: str, window: int) -> None:
        """Take back one use of ``key`` in the current window (a request that failed on
        our side, such as a mail outage, should cost the client nothing)."""
        ...

    async def close(self) -> None: ...


class MemoryRateLimiter:
    def __init__(self) -> None:
        self._windows: dict[str, tuple[int, int]] = {}

    async def hit(self, key: str, limit: int, window: int) -> int | None:
        now = int(time.time())
        start = now - now % window
        stored_start, count = self._windows.get(key, (start, 0))
        if stored_start != start:
            count = 0
        if count >= limit:
            return start + window - now or 1
        self._windows[key] = (start, count + 1)
        if len(self._windows) > 100_000:
            # Forget windows that have ended so memory stays bounded.
            self._windows = {k: v for k, v in self._windows.items() if v[0] >= start - 86_400}
        return None

    async def refund(self, key: str, window: int) -> None:
        now = int(time.time())
        stored = self._windows.get(key)
        if stored is not None and stored[0] == now - now % window and stored[1] > 0:
            self._windows[key] = (stored[0], stored[1] - 1)

    async def close(self) -> None:
        return None


_REFUND = """
local n = redis.call('GET', KEYS[1])
if n and tonumber(n) > 0 then return redis.call('DECR', KEYS[1]) end
return 0
"""


class RedisRateLimiter:
    def __init__(self, url: str, prefix: str = "dk:rl:") -> None:
        import redis.asyncio as redis

        self._redis: Any = redis.from_url(url)
        self._prefix = prefix

    async def hit(self, key: str, limit: int, window: int) -> int | None:
        now = int(time.time())
        start = now - now % window
        name = f"{self._prefix}{key}:{start}"
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.incr(name)
            pipe.expire(name, window + 1)
            count, _ = await pipe.execute()
        if int(count) > limit:
            return start + window - now or 1
        return None

    async def refund(self, key: str, window: int) -> None:
        now = int(time.time())
        name = f"{self._prefix}{key}:{now - now % window}"
        # Never below zero, and never recreate a window that has expired.
        await self._redis.eval(_REFUND, 1, name)

    async def close(self) -> None:
        await self._redis.aclose()


def make_rate_limiter(redis_url: str | None) -> RateLimiter:
    return RedisRateLimiter(redis_url) if redis_url else MemoryRateLimiter()


async def check_quota(limiter: RateLimiter, key: str, limit: tuple[int, int], what: str) -> None:
    """A per-player quota: a 429 ``quota_exceeded`` with ``Retry-After`` beyond ``limit``
    (count, window seconds)."""
    retry = await limiter.hit(key, limit[0], limit[1])
    if retry is not None:
        error = ApiError(
            429,
            "quota_exceeded",
            f"too many {what} (at most {limit[0]} in {limit[1]} s); try again in {retry} s",
        )
        error.headers["Retry-After"] = str(retry)
        raise error
