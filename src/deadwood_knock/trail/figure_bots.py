"""A personality bot per historic figure, registered as ``figure:<id>``.

The server and every bot worker process register these when they import
:mod:`deadwood_knock.server.botpool`. The figures file is read as plain JSON
(cheap) rather than through the validated content loader, which bot workers
do not otherwise need.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from deadwood_knock.bots import personality_bot, register
from deadwood_knock.bots.base import FIGURE_PREFIX, Bot

__all__ = [
    "FIGURE_PREFIX",
    "figure_bot_name",
    "figure_display_name",
    "figure_id",
    "register_figure_bots",
]


def figure_bot_name(figure_id: str) -> str:
    return FIGURE_PREFIX + figure_id


@cache
def _figures() -> dict[str, dict[str, Any]]:
    from deadwood_knock.content.loader import CONTENT_DIR

    raw = json.loads((CONTENT_DIR / "data" / "figures.json").read_text(encoding="utf-8"))
    return {str(f["id"]): f for f in raw["figures"]}


def figure_id(bot_name: str) -> str | None:
    """The figure a ``figure:<id>`` bot plays ("luke-short"); None for other bots."""
    if not bot_name.startswith(FIGURE_PREFIX):
        return None
    key = bot_name[len(FIGURE_PREFIX) :]
    return key if key in _figures() else None


def figure_display_name(bot_name: str) -> str | None:
    """The character's name for a ``figure:<id>`` bot ("Luke Short"); None for other bots."""
    key = figure_id(bot_name)
    return None if key is None else str(_figures()[key]["name"])


def _factory(figure_id: str) -> Bot:
    return personality_bot(_figures()[figure_id], figure_bot_name(figure_id))


@cache
def register_figure_bots() -> tuple[str, ...]:
    """Register every figure's bot (once per process); returns the names."""
    names = []
    for figure_id in _figures():
        name = figure_bot_name(figure_id)
        register(name, lambda figure_id=figure_id: _factory(figure_id))  # type: ignore[misc]
        names.append(name)
    return tuple(names)
