"""Server settings: constructor arguments, with ``DEADWOOD_*`` environment variables as defaults."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

ENV_PREFIX = "DEADWOOD_"


class Settings(BaseModel):
    """Everything the server can be told. See docs/server.md for the environment names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = "127.0.0.1"
    port: int = 8000
    data_dir: Path = Path("data")
    #: ``None``: an SQLite file in ``data_dir``.
    database_url: str | None = None
    #: Keys the one-time-code hashes; ``None``: a random key kept in ``data_dir/secret.key``.
    secret_key: str | None = None
    #: ``None``: in-memory rate limits (one process). Otherwise a Redis URL.
    redis_url: str | None = None
    cors_origins: tuple[str, ...] = ()
    max_body_bytes: int = 16_384
    max_socket_message_bytes: int = 16_384

    #: Seconds a bot "thinks" before its move is applied (0: at once); jittered ±40%.
    bot_pacing: float = 0.0
    bot_workers: int = Field(default=2, ge=1)
    #: Wall-clock budget passed to a bot for one decision.
    bot_seconds: float = 1.0
    #: Wall-clock budget for one Hand Focus hint (the strong bot's search for a person).
    hint_seconds: float = Field(default=0.25, gt=0, le=2.0)
    #: Bot actions in a row (no person acting between them) after which the server stops
    #: driving that match's bots; a safety net against a position bots could cycle in forever.
    max_bot_streak: int = Field(default=5000, ge=1)
    recent_events: int = Field(default=30, ge=0)

    #: ``None``: mail is printed to the console.
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_username: str | None = None
    smtp_password: str | None = None
    #: "starttls", "tls" (implicit) or "none".
    smtp_security: str = "starttls"
    mail_from: str = "Deadwood Knock <no-reply@localhost>"

    otp_ttl_seconds: int = 600
    otp_max_attempts: int = 5
    #: (codes, window seconds) an address may be sent.
    otp_address_limit: tuple[int, int] = (3, 600)
    #: (requests, window seconds) one client may make (sends and verifications).
    otp_client_limit: tuple[int, int] = (20, 3600)

    #: Test hook: extra games by name -> "module:attribute" of a ``Game``.
    extra_games: Mapping[str, str] = Field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``DEADWOOD_*`` variables; explicit ``overrides`` (not ``None``) win."""
        source = os.environ if env is None else env
        values: dict[str, Any] = {}
        for name, field in cls.model_fields.items():
            if name == "extra_games":
                continue
            raw = source.get(ENV_PREFIX + name.upper())
            if raw is None or raw == "":
                continue
            if name == "cors_origins":
                values[name] = tuple(o.strip() for o in raw.split(",") if o.strip())
            elif field.annotation == tuple[int, int]:
                first, _, second = raw.partition(",")
                values[name] = (int(first), int(second))
            else:
                values[name] = raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls.model_validate(values)

    @property
    def effective_database_url(self) -> str:
        from deadwood_knock.persistence.db import default_sqlite_url, normalise_url

        if self.database_url:
            return normalise_url(self.database_url)
        return default_sqlite_url(self.data_dir)
