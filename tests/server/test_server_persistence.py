"""The shipped migrations build exactly the models' schema, on each backend, idempotently."""

from __future__ import annotations

from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.engine import Connection

from deadwood_knock.persistence import Base, Database, normalise_url


def _diff(connection: Connection) -> list[Any]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, Base.metadata))


@pytest.mark.asyncio
async def test_migrations_match_models(database_url: str) -> None:
    db = Database(database_url)
    try:
        await db.migrate()
        await db.migrate()  # a second start is a no-op
        async with db.engine.connect() as conn:
            differences = await conn.run_sync(_diff)
        assert differences == []
    finally:
        await db.dispose()


def test_urls_get_async_drivers() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert normalise_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert normalise_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"
