"""Tables. Every change to them ships as a migration in ``migrations/versions``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Player(Base):
    """A profile. Anonymous until an email address is linked for cloud backup."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), default="")
    likeness: Mapped[str] = mapped_column(String(40), default="")
    card_back: Mapped[str] = mapped_column(String(40), default="")
    large_print: Mapped[bool] = mapped_column(Boolean, default=False)
    sleight_of_hand: Mapped[bool] = mapped_column(Boolean, default=False)
    email: Mapped[str | None] = mapped_column(String(254), unique=True, nullable=True)
    stats: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Trail progress (issue 6); "restart progress" clears only this.
    progress: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class Device(Base):
    """One bearer token of a player; only its SHA-256 is stored.

    ``id`` is the device's public handle (listing and revoking), unrelated to the token.
    """

    __tablename__ = "devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    id: Mapped[str] = mapped_column(String(32), unique=True)
    player_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    #: What the device said it was when the token was made ("Firefox on Android").
    label: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    #: Epoch seconds of the last request with this token (kept to the hour).
    last_used_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class Match(Base):
    """A match; its state is the replay of (game, options, seed, actions)."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Secret: it fixes the stock order. Never leaves the server.
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True, default="active")
    # Number of actions in the log; bumped in the same transaction as each append.
    version: Mapped[int] = mapped_column(Integer, default=0)
    table_id: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class MatchSeat(Base):
    """Who sits where: a player or a bot."""

    __tablename__ = "match_seats"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(
        String(32), ForeignKey("players.id", ondelete="SET NULL"), nullable=True, index=True
    )
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)


class MatchAction(Base):
    """The event log: action number ``version`` of a match, appended before it is acknowledged.

    The primary key (match, version) is the optimistic lock: two writers that both
    saw version n cannot both append n + 1.
    """

    __tablename__ = "match_actions"
    __table_args__ = (UniqueConstraint("match_id", "client_action_id"),)

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    version: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    client_action_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), server_default=func.now())


class MatchLease(Base):
    """Which server process drives a match's bots, until when (several processes)."""

    __tablename__ = "match_leases"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    holder: Mapped[str] = mapped_column(String(32))
    #: Epoch seconds; the holder renews it while it drives, another takes it once past.
    expires_at: Mapped[float] = mapped_column(Float, index=True)


class OtpCode(Base):
    """A one-time code for linking or restoring by email; only its keyed hash is stored."""

    __tablename__ = "otp_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254), index=True)
    purpose: Mapped[str] = mapped_column(String(16))
    #: Handed to whoever asked for the code; a restore guess must name it, so nobody
    #: else's guesses can use up this code's tries.
    request_id: Mapped[str | None] = mapped_column(String(32), unique=True, nullable=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    # Epoch seconds: avoids time-zone differences between SQLite and PostgreSQL.
    created_at: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[int] = mapped_column(BigInteger)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    used: Mapped[bool] = mapped_column(Boolean, default=False)
