"""``Game[S, A, O, P]`` tells the truth: each built-in game's declared state, action,
observation and options types (``DeadwoodKnockGame``, ``KnockRummyGame``, what
``get_game``'s overloads give) are the types its functions return at run time, and
``determinize`` takes the game's own observation back. A game registered without those
types (a test's toy game) still goes through the registry as ``Game[Any, Any]``."""

from __future__ import annotations

import random
import types
import typing
from typing import Any

import pytest

from deadwood_knock.games import GAME_NAMES, get_game, register_game, unregister_game
from deadwood_knock.games.base import Game, GameError
from deadwood_knock.games.deadwood_knock import DeadwoodKnockGame
from deadwood_knock.games.knock_rummy import KnockRummyGame

DECLARED = {
    "deadwood-knock": DeadwoodKnockGame,
    "knock-rummy": KnockRummyGame,
    "gin": KnockRummyGame,
}


def _classes(t: Any) -> tuple[type, ...]:
    """The classes an ``isinstance`` check needs for a declared type (a union's members)."""
    if isinstance(t, types.UnionType) or typing.get_origin(t) is typing.Union:
        return typing.get_args(t)
    return (t,)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_each_game_returns_its_declared_types(name: str) -> None:
    s, a, o, p = typing.get_args(DECLARED[name])
    game = get_game(name)
    options = game.options_from_json({"players": 2})
    assert isinstance(options, _classes(p))
    state = game.new_game(options, 11)
    rng = random.Random(3)
    for _ in range(30):  # a few moves in, so the observation has a history
        assert isinstance(state, _classes(s))
        seat = game.to_act(state)
        if seat is None:
            break
        observation = game.observe(state, seat)
        assert isinstance(observation, _classes(o))
        assert isinstance(observation.to_json(), dict)  # the Observation protocol
        legal = game.legal_actions(state)
        assert legal and all(isinstance(x, _classes(a)) for x in legal)
        # determinize takes the game's own observation back, and deals a state of its type
        # that the same seat sees the same way (its hand, the piles, whose turn).
        sampled = game.sample_state(observation, random.Random(5))
        assert isinstance(sampled, _classes(s))
        again = game.observe(sampled, seat)
        assert type(again) is type(observation)
        assert again.hand == observation.hand
        assert again.to_act == observation.to_act
        state, _events = game.apply(state, legal[rng.randrange(len(legal))])


def test_a_registered_game_needs_no_type_arguments() -> None:
    base = get_game("knock-rummy")
    toy: Game[Any, Any] = Game(
        name="untyped-toy",
        title="Untyped toy",
        min_players=2,
        max_players=2,
        options_from_json=base.options_from_json,
        new_game=base.new_game,
        legal_actions=base.legal_actions,
        apply=base.apply,
        observe=lambda state, seat: {"seat": seat},  # any value: no observation class
        to_act=base.to_act,
        is_over=base.is_over,
        scores=base.scores,
        action_from_json=base.action_from_json,
        position_from_json=base.position_from_json,
        position_to_json=base.position_to_json,
    )
    register_game(toy)
    try:
        found = get_game("untyped-toy")
        state = found.new_game(found.options_from_json({}), 1)
        assert found.observe(state, 1) == {"seat": 1}
        with pytest.raises(GameError, match="cannot deal a state from an observation"):
            found.sample_state({"seat": 1}, random.Random(0))
    finally:
        unregister_game("untyped-toy")
