"""Alembic environment for sqlite+aiosqlite and postgresql+asyncpg.

Normally the server passes an open connection (``config.attributes["connection"]``);
run from the ``alembic`` command line, it makes its own async engine.
"""

from __future__ import annotations

import asyncio
from typing import Any

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from deadwood_knock.persistence.models import Base

target_metadata = Base.metadata


def _config() -> Any:
    return context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        # SQLite cannot ALTER most things; batch mode rebuilds tables instead.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_async(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(_run)
    await engine.dispose()


def run_migrations_online() -> None:
    config = _config()
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
    else:
        asyncio.run(_run_async(config.get_main_option("sqlalchemy.url") or ""))


def main() -> None:
    if context.is_offline_mode():
        url = _config().get_main_option("sqlalchemy.url")
        context.configure(url=url, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
    else:
        run_migrations_online()


try:
    _config()
except AttributeError:
    pass  # imported outside Alembic (e.g. by pytest's doctest collection): nothing to run
else:
    main()
