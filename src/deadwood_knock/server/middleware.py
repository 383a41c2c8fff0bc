"""Pure ASGI middleware: access log without bodies, request size and time limits,
security headers."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deadwood_knock.server.logsafe import escape_controls

access_log = logging.getLogger("deadwood_knock.server.access")

#: Logged for a client that left before an answer was sent (nginx's "client closed request").
CLIENT_CLOSED = 499


class AccessLog:
    """One line per request: method, path, status, milliseconds. Never bodies or queries.

    The path is escaped, so a ``%0a`` cannot start a forged line. A client that went
    away before its answer is logged as 499, not as a server error; 500 means the app
    raised or answered nothing.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 0
        gone = False

        async def receive_wrapper() -> Message:
            nonlocal gone
            message = await receive()
            if message["type"] in ("http.disconnect", "websocket.disconnect"):
                gone = True
            return message

        async def send_wrapper(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "websocket.accept":
                status = 101
            elif message["type"] == "websocket.close" and not status:
                status = 403  # refused before the handshake completed
            await send(message)

        failed = True
        try:
            await self.app(scope, receive_wrapper, send_wrapper)
            failed = False
        finally:
            if not status:
                status = CLIENT_CLOSED if gone and not failed else 500
            method = scope.get("method", "WS")
            path = escape_controls(scope.get("path", "")[:200])
            took = (time.perf_counter() - started) * 1000
            access_log.info("%s %s %s %.1fms", method, path, status, took)


async def _send_json(send: Send, status: int, body: dict[str, Any], close: bool = False) -> None:
    payload = json.dumps(body).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(payload)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))  # the rest of the body is not awaited
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413), declared or streamed, and bodies
    that take longer than ``timeout`` seconds to arrive (408), so a slow client cannot
    hold a connection open."""

    def __init__(self, app: ASGIApp, limit: int, timeout: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = {"detail": f"request body over {self.limit} bytes", "code": "too_large"}
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    await _send_json(
                        send, 400, {"detail": "bad content-length", "code": "bad_request"}
                    )
                    return
                if declared > self.limit:
                    await _send_json(send, 413, too_large)
                    return
        # Bodies are small: read one fully (refusing it past the limit) before the app runs,
        # so the app never sees a partial body.
        chunks: list[bytes] = []
        received = 0
        more = scope.get("method") not in ("GET", "HEAD", "OPTIONS", "DELETE")
        gone: Message | None = None
        try:
            async with asyncio.timeout(self.timeout if more else None):
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        gone = message  # the client went away
                        break
                    received += len(message.get("body", b""))
                    if received > self.limit:
                        await _send_json(send, 413, too_large)
                        return
                    chunks.append(message.get("body", b""))
                    more = message.get("more_body", False)
        except TimeoutError:
            slow = {"detail": f"request body not sent within {self.timeout:g} s", "code": "timeout"}
            await _send_json(send, 408, slow, close=True)
            return
        if gone is not None:
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


class SecurityHeaders:
    def __init__(self, app: ASGIApp, script_hashes: tuple[str, ...] = ()) -> None:
        self.app = app
        # The web client's inline import map is allowed by its hash, nothing else inline.
        extra = f"; script-src 'self' {' '.join(script_hashes)}" if script_hashes else ""
        self.csp = (_CSP + extra).encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [
                    (b"x-content-type-options", b"nosniff"),
                    (b"x-frame-options", b"DENY"),
                    (b"referrer-policy", b"no-referrer"),
                    (b"cross-origin-opener-policy", b"same-origin"),
                    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
                ]
                # Everything, the API docs included, is served from here.
                headers.append((b"content-security-policy", self.csp))
                # The API is never stored, unless a route says otherwise (/api/games:
                # public facts, revalidated by ETag).
                own = any(k.lower() == b"cache-control" for k, _ in headers)
                if path.startswith("/api/") and not own:
                    headers.append((b"cache-control", b"no-store"))
                elif not own:
                    # The client's files are revalidated on every load (a 304 by ETag when
                    # unchanged): a browser's heuristic caching would otherwise keep old ES
                    # modules beside new ones for hours after an update.
                    headers.append((b"cache-control", b"no-cache"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_wrapper)
