"""The game server: an authoritative HTTP + WebSocket API over the engine.

Entry points: :func:`serve` (what ``deadwood-knock serve`` calls) and
:func:`create_app` (an ASGI app, for tests and other hosts). Heavy imports are
deferred so that bot worker processes, which import :mod:`.botpool`, stay light.
"""

from __future__ import annotations

from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING

from deadwood_knock.server.settings import Settings

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["Settings", "create_app", "serve"]


def create_app(settings: Settings | None = None, *, executor: Executor | None = None) -> FastAPI:
    """The ASGI app. ``executor`` (tests) replaces the bot process pool the app would own."""
    from deadwood_knock.server.app import build_app

    return build_app(settings or Settings.from_env(), executor=executor)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: str | Path = "data",
    database_url: str | None = None,
) -> None:
    """Run the server with uvicorn until interrupted."""
    import logging

    import uvicorn

    settings = Settings.from_env(
        host=host, port=port, data_dir=Path(data_dir), database_url=database_url
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        # Our own middleware logs method, path, status and duration; uvicorn's line
        # would add query strings.
        access_log=False,
        ws_max_size=settings.max_socket_message_bytes,
        proxy_headers=False,
    )
