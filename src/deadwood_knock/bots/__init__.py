"""Opponents. A bot sees only its seat's observation and the legal actions.

The registry maps public bot names to factories; every consumer (server, arena,
terminal client) asks it for bots by name, and an unknown name is an error that
lists the valid ones.
"""

from __future__ import annotations

from deadwood_knock.bots.base import BOT_NAMES, Bot, Budget, UnknownBotError, get_bot

__all__ = ["BOT_NAMES", "Bot", "Budget", "UnknownBotError", "get_bot"]
