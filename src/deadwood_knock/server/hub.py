"""Fan-out of match updates to the WebSockets watching a match.

In one process the hub hands each watcher its messages directly. With Redis configured
(several processes), each update is also published on a Redis channel, and every other
process hands it to its own watchers: a socket on any process sees every event.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

log = logging.getLogger("deadwood_knock.server.hub")

QUEUE_LIMIT = 1000
#: Seats are the keys of an update's messages (integers, written as strings, as json does).
_KEYS = orjson.OPT_NON_STR_KEYS
CHANNEL_PREFIX = "dk:match:"

#: seat -> the messages for that seat's watchers (its events, then its new view), as the
#: JSON text sent: encoded once per seat, whatever the number of watchers.
SeatMessages = dict[int, list[str]]


@dataclass(eq=False)
class Subscriber:
    seat: int
    queue: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=QUEUE_LIMIT))
    overflowed: bool = False


class Hub:
    def __init__(self) -> None:
        self._subs: dict[str, set[Subscriber]] = {}
        self.bridge: RedisBridge | None = None

    def subscribe(self, match_id: str, seat: int) -> Subscriber:
        sub = Subscriber(seat)
        self._subs.setdefault(match_id, set()).add(sub)
        return sub

    def unsubscribe(self, match_id: str, sub: Subscriber) -> None:
        subs = self._subs.get(match_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[match_id]

    def watching(self, match_id: str) -> int:
        return len(self._subs.get(match_id, ()))

    def watched_seats(self, match_id: str) -> set[int]:
        return {sub.seat for sub in self._subs.get(match_id, ())}

    def publish(self, match_id: str, per_seat: SeatMessages, version: int) -> None:
        """Hand the messages to this process's watchers, and to the others' through Redis."""
        self.deliver(match_id, per_seat)
        if self.bridge is not None:
            self.bridge.send(match_id, per_seat, version)

    def deliver(self, match_id: str, per_seat: SeatMessages) -> None:
        for sub in list(self._subs.get(match_id, ())):
            for message in per_seat.get(sub.seat, ()):
                try:
                    sub.queue.put_nowait(message)
                except asyncio.QueueFull:
                    # A reader this far behind is dropped; it reconnects and gets a fresh view.
                    sub.overflowed = True
                    break


class RedisBridge:
    """Match updates between processes over Redis pub/sub (one pattern subscription)."""

    def __init__(
        self, url: str, hub: Hub, on_remote: Callable[[str, int], None] | None = None
    ) -> None:
        self.url = url
        self.hub = hub
        self.on_remote = on_remote
        self.origin = secrets.token_hex(8)
        #: How this process's own updates begin (see :meth:`send`).
        self._own = b'{"o":"' + self.origin.encode() + b'",'
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._redis: Any = None
        self.prefix = CHANNEL_PREFIX

    async def start(self) -> None:
        import redis.asyncio as redis

        self._redis = redis.from_url(self.url)
        # Pub/sub channels are shared by every database of a Redis server: the database
        # number keeps two deployments on one Redis apart.
        db = self._redis.connection_pool.connection_kwargs.get("db", 0)
        self.prefix = f"{CHANNEL_PREFIX}{db}:"
        pubsub = self._redis.pubsub()
        await pubsub.psubscribe(self.prefix + "*")
        self._tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._send_loop()),
        ]
        self.hub.bridge = self

    def send(self, match_id: str, per_seat: SeatMessages, version: int) -> None:
        # One sender task keeps a match's updates in order. The origin comes first, so a
        # process knows its own updates (every subscriber gets them back) without parsing
        # the views inside. orjson: the views are JSON text, escaped again in here.
        update = {"o": self.origin, "v": version, "s": per_seat}
        try:
            body = orjson.dumps(update, option=_KEYS)
        except TypeError:  # text orjson refuses (a lone surrogate): json writes it
            body = json.dumps(update).encode()
        self._outbox.put_nowait((self.prefix + match_id, body))

    async def _send_loop(self) -> None:
        while True:
            channel, body = await self._outbox.get()
            try:
                await self._redis.publish(channel, body)
            except Exception as exc:
                log.error("could not publish a match update: %s", type(exc).__name__)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.error("match updates from Redis failed: %s", type(exc).__name__)
                await asyncio.sleep(1.0)
                continue
            if message is None or message.get("type") != "pmessage":
                continue
            data = message["data"]
            if isinstance(data, bytes) and data.startswith(self._own):
                continue  # our own: delivered locally already
            channel = message["channel"]
            channel = channel.decode() if isinstance(channel, bytes) else channel
            body = orjson.loads(data)
            if body.get("o") == self.origin:
                continue  # our own: delivered locally already
            match_id = channel[len(self.prefix) :]
            if self.on_remote is not None:
                self.on_remote(match_id, int(body.get("v", 0)))
            per_seat = {int(seat): messages for seat, messages in body["s"].items()}
            self.hub.deliver(match_id, per_seat)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await self._redis.aclose()
        self.hub.bridge = None
