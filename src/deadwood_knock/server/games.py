"""Finding a game by name: the real registry plus a test hook for extra games."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from deadwood_knock.games import GAME_NAMES, get_game
from deadwood_knock.games.base import Game, GameError


def load_game(name: str, extra: Mapping[str, str] | None = None) -> Game[Any, Any]:
    """The game called ``name``; ``extra`` maps more names to ``"module:attribute"``."""
    if extra and name in extra:
        module_name, _, attribute = extra[name].partition(":")
        game = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(game, Game):
            raise GameError(f"{extra[name]} is not a Game")
        return game
    if name not in GAME_NAMES:
        names = [*GAME_NAMES, *(extra or {})]
        raise GameError(f"unknown game {name!r}; choose one of: {', '.join(names)}")
    return get_game(name)


def game_names(extra: Mapping[str, str] | None = None) -> tuple[str, ...]:
    return (*GAME_NAMES, *(extra or {}))
