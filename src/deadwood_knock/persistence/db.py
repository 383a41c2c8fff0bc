"""Engine, sessions and programmatic migrations."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event, make_url, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

MIGRATIONS = Path(__file__).with_name("migrations")
SQLITE_FILE = "deadwood-knock.sqlite3"
#: Connections of the asyncpg pool for the hot statements (each holds one for one short
#: statement): few, so several processes stay well inside PostgreSQL's connection limit.
RAW_POOL_SIZE = 10


def default_sqlite_url(data_dir: Path) -> str:
    return f"sqlite+aiosqlite:///{(data_dir / SQLITE_FILE).resolve()}"


def normalise_url(url: str) -> str:
    """Pick the async driver when a URL names only the database kind."""
    for plain, driver in (
        ("postgres://", "postgresql+asyncpg://"),
        ("postgresql://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    # ConfigParser interpolation would choke on a % in a password.
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


#: Key of the PostgreSQL advisory lock that lets one process at a time migrate.
MIGRATION_LOCK = 0x646B6D67


def _upgrade(connection: Connection, cfg: Config) -> None:
    if connection.dialect.name == "postgresql":
        # Several server processes may start at once: one migrates, the others wait and
        # then find nothing to do. The lock ends with the transaction.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


def quiet_driver_logs() -> None:
    """Cap the SQL loggers at WARNING, whatever the root level.

    At DEBUG, SQLAlchemy logs result rows and aiosqlite logs each call with its arguments;
    both would print players' cards. hide_parameters covers only statements' parameters.
    """
    for name in (
        "sqlalchemy.engine",
        "sqlalchemy.engine.Engine",
        "sqlalchemy.pool",
        "aiosqlite",
        "asyncpg",
    ):
        logging.getLogger(name).setLevel(logging.WARNING)


def private_sqlite_file(url: str) -> None:
    """Make the SQLite file (it holds emails) readable by its owner only: created 0600
    before SQLite opens it (its -wal and -shm files take the same mode), and tightened
    if an older start left it wider."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return
    path = Path(database)
    if not path.parent.is_dir():
        return  # SQLite will say so when it opens
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if file.exists() and file.stat().st_mode & 0o077:
            file.chmod(0o600)


class Database:
    """One async engine plus a session factory."""

    def __init__(self, url: str) -> None:
        quiet_driver_logs()
        self.url = normalise_url(url)
        self.is_sqlite = self.url.startswith("sqlite")
        if self.is_sqlite:
            private_sqlite_file(self.url)
        # Bound parameters hold match actions (cards): never put them in a log or an error.
        kwargs: dict[str, Any] = {"hide_parameters": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"timeout": 30}
        else:
            # The hot statements (actions, token checks) use the asyncpg pool (`raw`), so
            # this one serves the rarer work: at most 30 connections, so that two processes
            # and their raw pools stay inside PostgreSQL's default limit of 100 (more
            # connections do not make two cores faster). A ping before every checkout would
            # cost each transaction another round trip, so stale connections are recycled
            # instead. A burst (a thousand players starting at once on a busy machine) waits
            # for a connection rather than failing with a 500, as it did in the load test.
            kwargs.update(pool_size=20, max_overflow=10, pool_recycle=1800, pool_timeout=90)
        self.engine: AsyncEngine = create_async_engine(self.url, **kwargs)
        if self.is_sqlite:
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        self.sessions: async_sessionmaker[AsyncSession] = async_sessionmaker(
            self.engine, expire_on_commit=False
        )
        #: Sessions for reads that need no transaction: each statement stands alone, with no
        #: BEGIN before it and no ROLLBACK after (on PostgreSQL two round trips fewer).
        self.reads: async_sessionmaker[AsyncSession] = async_sessionmaker(
            self.engine.execution_options(isolation_level="AUTOCOMMIT"), expire_on_commit=False
        )

        self._raw: Any = None
        self._raw_lock: Any = None

    async def raw(self) -> Any:
        """PostgreSQL only: a small asyncpg pool for the hot statements (appending an action,
        checking a token), hand-written SQL without SQLAlchemy's per-statement work, which
        was a quarter of the server's time per action under load. ``None`` on SQLite."""
        if self.is_sqlite:
            return None
        if self._raw is None:
            import asyncio

            import asyncpg

            if self._raw_lock is None:
                self._raw_lock = asyncio.Lock()
            async with self._raw_lock:
                if self._raw is None:
                    url = make_url(self.url).set(drivername="postgresql")
                    self._raw = await asyncpg.create_pool(
                        url.render_as_string(hide_password=False),
                        min_size=1,
                        max_size=RAW_POOL_SIZE,
                        max_inactive_connection_lifetime=1800,
                        # Our statements are single autocommit statements that leave no
                        # session state: no reset query (a round trip) at every release.
                        reset=_keep_session,
                    )
        return self._raw

    async def migrate(self) -> None:
        """Bring the schema to the newest migration (idempotent)."""
        cfg = alembic_config(self.url)
        async with self.engine.begin() as conn:
            await conn.run_sync(_upgrade, cfg)

    async def dispose(self) -> None:
        if self._raw is not None:
            await self._raw.close()
            self._raw = None
        await self.engine.dispose()


async def _keep_session(_connection: Any) -> None:
    return None


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers proceed during a write; foreign keys are off by default in SQLite.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
