"""The position of a seeded 3-player game (``strong`` in seat 0, two legends, 200
iterations a decision, one generator seeded by the seed) before its ``step``-th action:
the finder's (``find.py``) positions, for ``diag.py`` and ``decomp.py``."""

from __future__ import annotations

import random
from typing import Any

from deadwood_knock.bots.base import Budget, get_bot
from deadwood_knock.games import get_game


def replay(seed: int, step: int) -> tuple[Any, Any, Any]:
    """(game, observation, legal actions) at the ``step``-th action of ``seed``."""
    game = get_game("deadwood-knock")
    bots = [get_bot("strong"), get_bot("legend"), get_bot("legend")]
    state = game.new_game(game.options_from_json({"players": 3}), seed)
    rng = random.Random(seed)
    for n in range(1, step + 1):
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        obs = game.observe(state, seat)
        if n == step:
            return game, obs, legal
        state, _ = game.apply(state, bots[seat].act(game, obs, legal, rng, Budget(iterations=200)))
    raise AssertionError("unreachable")
