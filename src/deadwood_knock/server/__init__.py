"""The game server: an authoritative HTTP + WebSocket API over the engine.

Entry points: :func:`serve` (what ``deadwood-knock serve`` calls) and
:func:`create_app` (an ASGI app, for tests and other hosts). Heavy imports are
deferred so that bot worker processes, which import :mod:`.botpool`, stay light.
"""

from __future__ import annotations

from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING

from deadwood_knock.server.settings import ENV_PREFIX, Settings

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = ["ServeError", "Settings", "create_app", "serve"]


def create_app(settings: Settings | None = None, *, executor: Executor | None = None) -> FastAPI:
    """The ASGI app. ``executor`` (tests) replaces the bot process pool the app would own."""
    from deadwood_knock.server.app import build_app

    return build_app(settings or Settings.from_env(), executor=executor)


class ServeError(ValueError):
    """The server cannot start as asked (the message says why and what to do)."""


def check_several_processes(settings: Settings, workers: int) -> None:
    """Several processes share matches through PostgreSQL (the log, the leases) and Redis
    (events, rate limits): refuse anything else instead of serving a split truth."""
    if workers < 1:
        raise ServeError(f"--workers must be at least 1, not {workers}")
    if workers == 1:
        return
    problems = []
    if not settings.effective_database_url.startswith("postgresql"):
        problems.append("PostgreSQL (--database-url postgresql://…); SQLite is one process only")
    if not settings.redis_url:
        problems.append("Redis (--redis-url redis://…) for match events and rate limits")
    if problems:
        raise ServeError(f"--workers {workers} needs " + " and ".join(problems))


def settings_env(settings: Settings) -> dict[str, str]:
    """``DEADWOOD_*`` variables that rebuild ``settings`` with :meth:`Settings.from_env` (how
    the worker processes uvicorn starts get the settings)."""
    env: dict[str, str] = {}
    defaults = Settings()
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if value is None or value == getattr(defaults, name):
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, tuple):
            text = ",".join(str(v) for v in value)
        else:
            text = str(value)
        env[ENV_PREFIX + name.upper()] = text
    return env


#: The log level the worker processes use (``serve`` sets it for them).
LOG_LEVEL_ENV = ENV_PREFIX + "LOG_LEVEL"


def _configure_logging(log_level: str, workers: int) -> None:
    import logging

    from deadwood_knock.server.logsafe import escape_all_handlers

    level = logging.DEBUG if log_level == "trace" else getattr(logging, log_level.upper())
    # With several processes each line names its process.
    where = " %(process)d" if workers > 1 else ""
    logging.basicConfig(
        level=level, format=f"%(asctime)s{where} %(levelname)s %(name)s %(message)s"
    )
    escape_all_handlers()  # one event, one line: control characters are escaped


def app_from_env() -> FastAPI:
    """The app of one of several server processes (uvicorn's factory, in each worker)."""
    import os

    _configure_logging(os.environ.get(LOG_LEVEL_ENV, "info"), workers=2)
    return create_app(Settings.from_env())


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: str | Path = "data",
    database_url: str | None = None,
    redis_url: str | None = None,
    trusted_proxies: tuple[str, ...] | None = None,
    log_level: str = "info",
    workers: int = 1,
) -> None:
    """Run the server with uvicorn until interrupted: ``workers`` processes behind one
    address (several need PostgreSQL and Redis; :class:`ServeError` otherwise)."""
    import os

    import uvicorn

    settings = Settings.from_env(
        host=host,
        port=port,
        data_dir=Path(data_dir),
        database_url=database_url,
        redis_url=redis_url,
        trusted_proxies=trusted_proxies,
    )
    check_several_processes(settings, workers)
    _configure_logging(log_level, workers)
    common = {
        "host": settings.host,
        "port": settings.port,
        "log_level": log_level,
        # Our own middleware logs method, path, status and duration; uvicorn's line
        # would add query strings.
        "access_log": False,
        "ws_max_size": settings.max_socket_message_bytes,
        # Rate limits read X-Forwarded-For themselves, from trusted_proxies only.
        "proxy_headers": False,
    }
    if workers <= 1:
        uvicorn.run(create_app(settings), **common)  # type: ignore[arg-type]
        return
    from deadwood_knock.server.app import private_data_dir, server_secret

    # Made once here, so the workers do not race to create the key file.
    private_data_dir(settings.data_dir)
    server_secret(settings)
    os.environ.update(settings_env(settings))
    os.environ[LOG_LEVEL_ENV] = log_level
    uvicorn.run(
        "deadwood_knock.server:app_from_env",
        factory=True,
        workers=workers,
        **common,  # type: ignore[arg-type]
    )
