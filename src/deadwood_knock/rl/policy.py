"""A trained policy as a bot: the arena (and the server) seat it like any other.

``predict(observation_vector, action_mask) -> index`` is all a policy needs to give;
the bot encodes its seat's engine observation exactly as the environments do and
decodes the index back to an engine action.

>>> import random
>>> import numpy as np
>>> from deadwood_knock.games import get_game
>>> bot = policy_bot("first-legal", lambda vec, mask: int(np.flatnonzero(mask)[0]))
>>> game = get_game("gin")
>>> state = game.new_game(game.options_from_json({}), 5)
>>> seat = game.to_act(state)
>>> bot.act(game, game.observe(state, seat), game.legal_actions(state), random.Random(0))
Draw(source='stock')

Seat it in the arena by registering a factory under its name:
``deadwood_knock.bots.register("first-legal", lambda: bot)``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from deadwood_knock.bots.base import Budget
from deadwood_knock.games.base import Game
from deadwood_knock.rl.actions import Mask, action_codec
from deadwood_knock.rl.observations import ObservationEncoder, Vector, observation_encoder

__all__ = ["PolicyBot", "Predict", "policy_bot"]

Predict = Callable[[Vector, Mask], int]


class PolicyBot:
    """A bot that asks ``predict`` for an action index."""

    def __init__(self, name: str, predict: Predict) -> None:
        self.name = name
        self.predict = predict
        self._encoders: dict[tuple[str, int], ObservationEncoder] = {}

    def act(
        self,
        game: Game[Any, Any],
        observation: Any,
        legal: Sequence[Any],
        rng: random.Random,
        budget: Budget | None = None,
    ) -> Any:
        key = (game.name, int(observation.options.players))
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._encoders[key] = observation_encoder(game.name, observation.options)
        codec = action_codec(game.name)
        index = self.predict(encoder.encode(observation), codec.mask(observation))
        return codec.decode(int(index), observation)


def policy_bot(name: str, predict: Predict) -> PolicyBot:
    """A bot named ``name`` that plays ``predict``'s choices."""
    return PolicyBot(name, predict)
