"""Each game's rules, behind the one API of :mod:`deadwood_knock.games.base`.

Public game names, used everywhere a game is named (CLI, API, records):
``deadwood-knock``, ``knock-rummy`` and ``gin`` (the Gin Rummy preset of Knock Rummy).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, overload

from deadwood_knock.games.base import Game, GameError, RuleFacts

if TYPE_CHECKING:  # the rules load on first use (get_game), not with this package
    from deadwood_knock.games.deadwood_knock.rules import DeadwoodKnockGame
    from deadwood_knock.games.knock_rummy.rules import KnockRummyGame

GAME_NAMES: tuple[str, ...] = ("deadwood-knock", "knock-rummy", "gin")

#: Games registered at run time (a test's toy game), by name, next to the three built in.
_REGISTERED: dict[str, Game[Any, Any]] = {}


def register_game(game: Game[Any, Any]) -> None:
    """Make ``game`` known by its name to :func:`get_game` (and so to the server and its
    bot workers, which are handed :func:`registered_games` when they start)."""
    if game.name in GAME_NAMES:
        raise GameError(f"{game.name!r} is a built-in game")
    _REGISTERED[game.name] = game


def unregister_game(name: str) -> None:
    _REGISTERED.pop(name, None)


def registered_games() -> tuple[Game[Any, Any], ...]:
    """The games registered at run time (not the built-in ones)."""
    return tuple(_REGISTERED.values())


def game_names() -> tuple[str, ...]:
    """Every game's name: the built-in ones, then those registered at run time."""
    return (*GAME_NAMES, *_REGISTERED)


@overload
def get_game(name: Literal["deadwood-knock"]) -> DeadwoodKnockGame: ...
@overload
def get_game(name: Literal["knock-rummy", "gin"]) -> KnockRummyGame: ...
@overload
def get_game(name: str) -> Game[Any, Any]: ...
def get_game(name: str) -> Game[Any, Any]:
    """The rules of the game with this public name. Named by a literal, a built-in game
    comes typed with its own state, action, observation and options types."""
    found = _LOADED.get(name)
    if found is not None:
        return found
    if name == "deadwood-knock":
        from deadwood_knock.games.deadwood_knock import GAME as dk

        found = dk
    elif name == "knock-rummy":
        from deadwood_knock.games.knock_rummy import GAME as kr

        found = kr
    elif name == "gin":
        from deadwood_knock.games.knock_rummy import GIN_GAME as gin

        found = gin
    else:
        found = _REGISTERED.get(name)
        if found is not None:
            return found
        raise GameError(f"unknown game {name!r}; choose one of: {', '.join(game_names())}")
    _LOADED[name] = found
    return found


# The built-in games once their rules are loaded (on first use), by name: a lookup, where
# the imports took about a microsecond a call (the bench asks once a hand).
_LOADED: dict[str, Game[Any, Any]] = {}


def facts(name: str) -> RuleFacts:
    """The rule facts (title, tables, words, what kind of game) of a registered game: what
    a front reads instead of comparing the game's name."""
    return get_game(name).facts
