"""Fixtures for the server tests: an app per test on SQLite (and PostgreSQL when
DEADWOOD_TEST_DATABASE_URL is set), one shared bot process pool, a real SMTP server."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import socket
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from dkserver_toy_game import GAME as TOY_GAME
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from starlette.testclient import TestClient

from deadwood_knock.games import register_game
from deadwood_knock.server import Settings, create_app
from deadwood_knock.server.botpool import register_games

# The test-only toy game, registered like any game. The bot workers get it when they
# start (spawned processes inherit sys.path, which holds this folder).
register_game(TOY_GAME)
TABLES = (
    "match_leases",
    "match_actions",
    "match_seats",
    "devices",
    "otp_codes",
    "matches",
    "players",
)


def _backends() -> list[str]:
    return ["sqlite", "postgres"] if os.environ.get("DEADWOOD_TEST_DATABASE_URL") else ["sqlite"]


async def _reset_postgres(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        for table in (*TABLES, "alembic_version"):
            await conn.execute(text(f"DROP TABLE IF EXISTS {table} CASCADE"))
    await engine.dispose()


@pytest.fixture(scope="session")
def bot_pool() -> Iterator[ProcessPoolExecutor]:
    pool = ProcessPoolExecutor(
        max_workers=2,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=register_games,
        initargs=((TOY_GAME,),),
    )
    yield pool
    pool.shutdown(cancel_futures=True)


@pytest.fixture(params=_backends())
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}"
    url = os.environ["DEADWOOD_TEST_DATABASE_URL"]
    asyncio.run(_reset_postgres(url))
    return url


@pytest.fixture
def settings(tmp_path: Path, database_url: str) -> Settings:
    return Settings(
        data_dir=tmp_path / "data",
        database_url=database_url,
        bot_pacing=0.0,
        bot_seconds=0.2,
        secret_key="test secret",
    )


@pytest.fixture
def make_client(bot_pool: ProcessPoolExecutor) -> Iterator[Callable[[Settings], TestClient]]:
    opened: list[TestClient] = []

    def make(settings: Settings) -> TestClient:
        client = TestClient(create_app(settings, executor=bot_pool))
        client.__enter__()
        opened.append(client)
        return client

    yield make
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[[Settings], TestClient], settings: Settings) -> TestClient:
    return make_client(settings)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class SmtpInbox:
    """Collects messages. Mail goes out after the API's answer, so tests wait for it."""

    def __init__(self) -> None:
        self.messages: list[Any] = []
        self.arrived = threading.Condition()
        #: An aiosmtpd reply for DATA instead of accepting ("550 ..." makes delivery fail).
        self.refuse: str | None = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse is not None:
            return self.refuse
        with self.arrived:
            self.messages.append(envelope)
            self.arrived.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 15.0) -> list[Any]:
        """The first ``count`` messages, once that many have arrived."""
        with self.arrived:
            arrived = self.arrived.wait_for(lambda: len(self.messages) >= count, timeout)
        assert arrived, f"expected {count} messages, got {len(self.messages)}"
        return self.messages[:count]


@pytest.fixture
def smtp_server() -> Iterator[tuple[int, SmtpInbox]]:
    """A real SMTP server on localhost (aiosmtpd) collecting what it receives."""
    from aiosmtpd.controller import Controller

    inbox = SmtpInbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield port, inbox
    finally:
        controller.stop()


def with_smtp(settings: Settings, port: int) -> Settings:
    """``settings`` mailing through the local SMTP server on ``port`` (no TLS)."""
    return settings.model_copy(
        update={"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_security": "none"}
    )


@pytest.fixture
def mail_client(
    make_client: Callable[[Settings], TestClient],
    settings: Settings,
    smtp_server: tuple[int, SmtpInbox],
) -> tuple[TestClient, SmtpInbox]:
    """A client of a server that mails through :func:`smtp_server`, and its inbox."""
    port, inbox = smtp_server
    return make_client(with_smtp(settings, port)), inbox
