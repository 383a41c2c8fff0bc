"""Reading and sending socket frames without letting a bad one crash the handler.

A frame must be a text frame holding one JSON object, at most the size limit and
nested at most :data:`MAX_DEPTH` deep; anything else is an :class:`ApiError` the
handler answers with an error message. Depth is checked before parsing, since
``json.loads`` recurses once per level and thousands of levels exhaust the stack.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from deadwood_knock.server.errors import ApiError

#: Deeper than any message the protocol has (an action is two levels).
MAX_DEPTH = 32


class SocketClosed(Exception):
    """The client went away (or the socket closed under us)."""


def nesting_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting outside strings (a scan, no parsing)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_message(text: str, limit: int) -> dict[str, Any]:
    """One client message: a JSON object within the size and depth limits."""
    if len(text) > limit or len(text.encode("utf-8", "surrogatepass")) > limit:
        raise ApiError(413, "too_large", f"message over {limit} bytes")
    # Counting brackets is cheap; scan properly only when there could be too many.
    if text.count("[") + text.count("{") > MAX_DEPTH and nesting_depth(text) > MAX_DEPTH:
        raise ApiError(400, "too_deep", f"messages nest at most {MAX_DEPTH} levels")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise ApiError(400, "bad_json", "messages are JSON objects") from None
    if not isinstance(message, dict):
        raise ApiError(400, "bad_message", "messages are JSON objects with a type")
    return message


async def read_message(websocket: WebSocket, limit: int) -> dict[str, Any]:
    """The next message; :class:`SocketClosed` when the client is gone."""
    try:
        frame = await websocket.receive()
    except (WebSocketDisconnect, RuntimeError):
        raise SocketClosed from None
    if frame["type"] == "websocket.disconnect":
        raise SocketClosed
    text = frame.get("text")
    if text is None:
        raise ApiError(400, "bad_frame", "send JSON in text frames, not binary frames")
    return parse_message(text, limit)


async def send_safely(websocket: WebSocket, message: dict[str, Any] | str) -> bool:
    """Send (a message, or its JSON text already encoded), reporting (not raising) a socket
    that is already gone."""
    try:
        if isinstance(message, str):
            await websocket.send_text(message)
        else:
            await websocket.send_json(message)
    except (WebSocketDisconnect, RuntimeError, OSError):
        return False
    return True


async def close_safely(websocket: WebSocket, code: int) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.close(code=code)
