"""Request bodies shared by more than one router (the HTTP action and the socket's)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

CLIENT_ID_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"


class Strict(BaseModel):
    # strict: JSON true/false only for booleans ("yes" is not true), whole numbers only.
    model_config = ConfigDict(extra="forbid", strict=True)


class PostAction(Strict):
    action: dict[str, Any]
    client_action_id: str | None = Field(default=None, pattern=CLIENT_ID_PATTERN)
    #: The version the client saw; a stale one is refused (409) instead of applied.
    version: int | None = Field(default=None, ge=0)
