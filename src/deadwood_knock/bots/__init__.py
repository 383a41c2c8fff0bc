"""Opponents. A bot sees only its seat's observation and the legal actions.

The registry maps public bot names to factories; every consumer (server, arena,
terminal client) asks it for bots by name, and an unknown name is an error that
lists the valid ones. Built in: ``random``, ``greedy``, ``strong`` (search; ``strong-v1``
its frozen predecessor), the ladder ``tenderfoot`` … ``legend`` and a few styles
(``flush-chaser``, ``cautious``, …).
"""

from __future__ import annotations

from deadwood_knock.bots.base import (
    BOT_NAMES,
    Bot,
    Budget,
    RandomBot,
    UnknownBotError,
    bot_names,
    get_bot,
    register,
    resolve_bot_name,
)
from deadwood_knock.bots.ismcts import IsmctsBot, PairedIsmctsBot
from deadwood_knock.bots.personality import (
    LADDER,
    PERSONALITIES,
    GreedyBot,
    PersonalityBot,
    PersonalityParams,
    personality_bot,
)
from deadwood_knock.bots.search import SearchBot
from deadwood_knock.bots.strong import StrongBot

__all__ = [
    "BOT_NAMES",
    "LADDER",
    "PERSONALITIES",
    "Bot",
    "Budget",
    "GreedyBot",
    "IsmctsBot",
    "PairedIsmctsBot",
    "PersonalityBot",
    "PersonalityParams",
    "RandomBot",
    "SearchBot",
    "StrongBot",
    "UnknownBotError",
    "bot_names",
    "get_bot",
    "personality_bot",
    "register",
    "resolve_bot_name",
]


def _personality_factory(name: str) -> PersonalityBot:
    return personality_bot(PERSONALITIES[name], name)


def _register_builtins() -> None:
    register("greedy", GreedyBot)
    register("strong", SearchBot)
    # Today's search bot before issue #17, frozen: the yardstick for the new one.
    register("strong-v1", StrongBot)
    # Information-set MCTS at heads-up Gin (else ``strong``): measured, issue #17.
    register("strong-mcts", IsmctsBot)
    register("strong-mcts-paired", PairedIsmctsBot)
    for name in PERSONALITIES:
        register(name, lambda name=name: _personality_factory(name))  # type: ignore[misc]


_register_builtins()
