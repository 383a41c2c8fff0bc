"""The match socket: live events and views, and actions sent over it."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, WebSocket

from deadwood_knock.server.deps import Services, player_for_token
from deadwood_knock.server.errors import ApiError
from deadwood_knock.server.frames import SocketClosed, close_safely, read_message, send_safely
from deadwood_knock.server.schemas import PostAction
from deadwood_knock.server.views import encode, shown

router = APIRouter(prefix="/api")

log = logging.getLogger("deadwood_knock.server.socket")

AUTH_TIMEOUT = 10.0


def _socket_error(error: ApiError) -> dict[str, Any]:
    return {"type": "error", "status": error.status, **error.body()}


@router.websocket("/matches/{match_id}/ws")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    """First message ``{"type": "auth", "token": …}`` (tokens stay out of URLs and logs).

    Then the server sends ``view``; after every change, one ``event`` per event the seat
    may see and the new ``view``. The client may send ``{"type": "action", "action": …,
    "client_action_id": …, "version": …}`` (answered by ``ack`` or ``error``) and ``ping``.
    A frame that is not a JSON object (binary, too large, too deep) is answered with an
    ``error``; before authentication it also closes the socket.
    """
    svc: Services = websocket.app.state.services
    limit = svc.settings.max_socket_message_bytes
    await websocket.accept()
    try:
        message = await asyncio.wait_for(read_message(websocket, limit), AUTH_TIMEOUT)
        if message.get("type") != "auth":
            raise ApiError(401, "unauthorized", 'first send {"type": "auth", "token": …}')
        token = message.get("token")
        player = await player_for_token(svc, token if isinstance(token, str) else None)
        live, seat = await svc.matches.get_for(player, match_id)
    except (TimeoutError, SocketClosed, ApiError) as exc:
        if isinstance(exc, ApiError):
            await send_safely(websocket, _socket_error(exc))
        if not isinstance(exc, SocketClosed):
            code = 4000 + exc.status if isinstance(exc, ApiError) else 4408
            await close_safely(websocket, code)
        return

    sub = svc.hub.subscribe(match_id, seat)

    def answer(item: dict[str, Any] | str) -> None:
        try:
            sub.queue.put_nowait(item if isinstance(item, str) else encode(item))
        except asyncio.QueueFull:
            sub.overflowed = True  # the pump closes a reader this far behind

    async def pump() -> None:
        while True:
            item = await sub.queue.get()
            if not await send_safely(websocket, item):
                return
            if sub.overflowed and sub.queue.empty():
                await close_safely(websocket, 4008)
                return

    answer('{"type":"view","view":' + shown(live, seat).text + "}")
    sender = asyncio.create_task(pump())
    try:
        while True:
            try:
                message = await read_message(websocket, limit)
                kind = message.get("type")
                if kind == "ping":
                    answer({"type": "pong"})
                elif kind == "action":
                    body = PostAction.model_validate(
                        {k: v for k, v in message.items() if k != "type"}
                    )
                    live, seat = await svc.matches.get_for(player, match_id)
                    acted = await svc.matches.act(
                        live, seat, body.action, body.client_action_id, body.version
                    )
                    answer(
                        {
                            "type": "ack",
                            "client_action_id": body.client_action_id,
                            "version": acted.view["version"],
                        }
                    )
                else:
                    raise ApiError(400, "bad_message", 'type must be "action" or "ping"')
            except ApiError as exc:
                answer(_socket_error(exc))
            except ValueError as exc:  # pydantic's ValidationError
                answer(_socket_error(ApiError(422, "invalid_request", _short_validation(exc))))
    except SocketClosed:
        pass
    except Exception as exc:
        # Never a traceback that could quote a frame; the type is enough to investigate.
        log.error("match socket failed: %s", type(exc).__name__)
        await close_safely(websocket, 1011)
    finally:
        svc.hub.unsubscribe(match_id, sub)
        sender.cancel()


def _short_validation(exc: ValueError) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        return "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}" for e in errors()
        )
    return "invalid message"
