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
    redis_url: str | None = None,
    trusted_proxies: tuple[str, ...] | None = None,
    log_level: str = "info",
) -> None:
    """Run the server with uvicorn until interrupted."""
    import logging

    import uvicorn

    from deadwood_knock.server.logsafe import escape_all_handlers

    settings = Settings.from_env(
        host=host,
        port=port,
        data_dir=Path(data_dir),
        database_url=database_url,
        redis_url=redis_url,
        trusted_proxies=trusted_proxies,
    )
    level = logging.DEBUG if log_level == "trace" else getattr(logging, log_level.upper())
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s %(message)s")
    escape_all_handlers()  # one event, one line: control characters are escaped
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=log_level,
        # Our own middleware logs method, path, status and duration; uvicorn's line
        # would add query strings.
        access_log=False,
        ws_max_size=settings.max_socket_message_bytes,
        # Rate limits read X-Forwarded-For themselves, from trusted_proxies only.
        proxy_headers=False,
    )
