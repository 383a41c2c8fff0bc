"""Each game's rules, behind the one API of :mod:`deadwood_knock.games.base`.

Public game names, used everywhere a game is named (CLI, API, records):
``deadwood-knock``, ``knock-rummy`` and ``gin`` (the Gin Rummy preset of Knock Rummy).
"""

from __future__ import annotations

from typing import Any

from deadwood_knock.games.base import Game, GameError, RuleFacts

GAME_NAMES: tuple[str, ...] = ("deadwood-knock", "knock-rummy", "gin")


def get_game(name: str) -> Game[Any, Any]:
    """The rules of the game with this public name."""
    if name == "deadwood-knock":
        from deadwood_knock.games.deadwood_knock import GAME as dk

        return dk
    if name == "knock-rummy":
        from deadwood_knock.games.knock_rummy import GAME as kr

        return kr
    if name == "gin":
        from deadwood_knock.games.knock_rummy import GIN_GAME as gin

        return gin
    raise GameError(f"unknown game {name!r}; choose one of: {', '.join(GAME_NAMES)}")


def facts(name: str) -> RuleFacts:
    """The rule facts (title, tables, words, what kind of game) of a registered game: what
    a front reads instead of comparing the game's name."""
    return get_game(name).facts
