"""Server settings: constructor arguments, with ``DEADWOOD_*`` environment variables as defaults."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

ENV_PREFIX = "DEADWOOD_"


class Settings(BaseModel):
    """Everything the server can be told. See docs/server.md for the environment names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    data_dir: Path = Path("data")
    #: ``None``: an SQLite file in ``data_dir``.
    database_url: str | None = None
    #: Keys the one-time-code hashes; ``None``: a random key kept in ``data_dir/secret.key``.
    secret_key: str | None = None
    #: ``None``: in-memory rate limits (one process). Otherwise a Redis URL.
    redis_url: str | None = None
    cors_origins: tuple[str, ...] = ()
    #: Addresses or networks (``10.0.0.0/8``) of reverse proxies whose ``X-Forwarded-For``
    #: is believed: rate limits then key on the client the proxy names. Empty: the peer.
    trusted_proxies: tuple[str, ...] = ()
    max_body_bytes: int = Field(default=16_384, ge=1_024, le=1_048_576)
    #: Seconds a client may take to send a request body (a slow body gets 408).
    body_timeout_seconds: float = Field(default=10.0, gt=0, le=300)
    max_socket_message_bytes: int = Field(default=16_384, ge=1_024, le=1_048_576)
    #: Interactive API docs at ``/docs`` (Swagger UI from the npm-installed package).
    api_docs: bool = True
    #: Days a device token may go unused before it stops working (0: never; an anonymous
    #: profile has no other way back in, so expiry is opt-in).
    token_idle_days: int = Field(default=0, ge=0, le=3650)

    #: Seconds a bot "thinks" before its move is applied (0: at once); jittered ±40%.
    bot_pacing: float = Field(default=0.0, ge=0, le=30)
    bot_workers: int = Field(default=2, ge=1, le=64)
    #: Wall-clock budget passed to a bot for one decision; ``None``: the bot's own default
    #: (``strong``: 0.15 s in Deadwood Knock, 0.18 s in Knock Rummy and Gin, at most 600
    #: iterations), so a search seat costs the worker pool what it costs in the arena.
    bot_seconds: float | None = Field(default=None, gt=0, le=60)
    #: Wall-clock budget for one Hand Focus hint (the strong bot's search for a person).
    hint_seconds: float = Field(default=0.25, gt=0, le=2.0)
    #: Bot actions in a row (no person acting between them) after which the server stops
    #: driving that match's bots; a safety net against a position bots could cycle in forever.
    max_bot_streak: int = Field(default=5000, ge=1)
    recent_events: int = Field(default=30, ge=0, le=1000)
    #: Per-player quotas (429 beyond them), so one player cannot take the bots from others:
    #: matches still being played at once,
    max_active_matches: int = Field(default=20, ge=1, le=10_000)
    #: (new matches, window seconds),
    match_create_limit: tuple[int, int] = (30, 60)
    #: and (hint searches, window seconds; a repeated request for one position is free).
    hint_limit: tuple[int, int] = (60, 60)

    #: ``None``: mail is printed to the console.
    smtp_host: str | None = None
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_username: str | None = None
    smtp_password: str | None = None
    #: "starttls", "tls" (implicit) or "none".
    smtp_security: Literal["starttls", "tls", "none"] = "starttls"
    #: Seconds for reaching the mail server and for each SMTP exchange.
    smtp_timeout_seconds: float = Field(default=10.0, gt=0, le=120)
    mail_from: str = "Deadwood Knock <no-reply@localhost>"

    otp_ttl_seconds: int = Field(default=600, ge=60, le=86_400)
    otp_max_attempts: int = Field(default=5, ge=1, le=20)
    #: (codes, window seconds) an address may be sent, counted apart for linking and
    #: restoring so neither can use up the other.
    otp_address_limit: tuple[int, int] = (3, 600)
    #: (requests, window seconds) one client may make (sends and verifications).
    otp_client_limit: tuple[int, int] = (20, 3600)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from ``DEADWOOD_*`` variables; explicit ``overrides`` (not ``None``) win."""
        source = os.environ if env is None else env
        values: dict[str, Any] = {}
        for name, field in cls.model_fields.items():
            raw = source.get(ENV_PREFIX + name.upper())
            if raw is None or raw == "":
                continue
            if name in ("cors_origins", "trusted_proxies"):
                values[name] = tuple(o.strip() for o in raw.split(",") if o.strip())
            elif field.annotation == tuple[int, int]:
                first, _, second = raw.partition(",")
                values[name] = (int(first), int(second))
            else:
                values[name] = raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls.model_validate(values)

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for item in value:
            ipaddress.ip_network(item, strict=False)  # a ValueError names the bad entry
        return value

    @property
    def effective_database_url(self) -> str:
        from deadwood_knock.persistence.db import default_sqlite_url, normalise_url

        if self.database_url:
            return normalise_url(self.database_url)
        return default_sqlite_url(self.data_dir)
