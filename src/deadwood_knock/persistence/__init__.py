"""Storage for the server: SQLAlchemy 2 async models, engine set-up and migrations.

The schema is owned by the Alembic migrations shipped in ``migrations/``; they are
applied programmatically at start (:meth:`Database.migrate`), on SQLite (aiosqlite)
and PostgreSQL (asyncpg) alike.
"""

from __future__ import annotations

from deadwood_knock.persistence.db import Database, default_sqlite_url, normalise_url
from deadwood_knock.persistence.models import (
    Base,
    Device,
    Match,
    MatchAction,
    MatchLease,
    MatchSeat,
    OtpCode,
    Player,
)

__all__ = [
    "Base",
    "Database",
    "Device",
    "Match",
    "MatchAction",
    "MatchLease",
    "MatchSeat",
    "OtpCode",
    "Player",
    "default_sqlite_url",
    "normalise_url",
]
