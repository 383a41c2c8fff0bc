"""Gymnasium single-agent environments: one learning seat, our bots in the others.

>>> import gymnasium
>>> import deadwood_knock.rl
>>> env = gymnasium.make("Gin-v0", opponents=["random"])
>>> obs, info = env.reset(seed=3)
>>> sorted(obs), obs["observation"].shape, int(obs["action_mask"].sum()) > 0
(['action_mask', 'observation'], (433,), True)
>>> mask = env.unwrapped.action_masks()
>>> obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))
>>> env.close()

The bots are chosen by name as in the arena (``opponents``: one name for every other
seat, or one per seat in table order from the learner's left); each sees only its own
seat's observation, with an RNG derived from the deal seed, so ``reset(seed=s)`` replays
the same match for the same actions. The learner's seat is ``seat`` (an int), or, with
``seat=None`` (the default), drawn for each episode from the environment's RNG, so a
policy learns every position at the table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.bots.base import Bot
from deadwood_knock.games.base import GameError
from deadwood_knock.rl.actions import IllegalIndexError, Mask
from deadwood_knock.rl.driver import (
    EnvSettings,
    LazyInfo,
    Table,
    bot_rngs,
    render_text,
    settings_from,
)

__all__ = ["DEFAULT_OPPONENT", "CardGameEnv"]

DEFAULT_OPPONENT = "greedy"
#: A guard against a table that never comes back to the learner (a bug, not a game).
_MAX_BOT_MOVES = 100_000


class CardGameEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One learner against bots. ``gymnasium.make("Gin-v0", ...)`` builds one; the keyword
    arguments are the same as this constructor's."""

    # An instance attribute in the base class, so no ClassVar.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi"],
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str = "deadwood-knock",
        *,
        players: int | None = None,
        opponents: str | Sequence[str] | None = None,
        seat: int | None = None,
        reward: str = "score",
        episode: str = "match",
        illegal_reward: float | None = None,
        max_steps: int | None = None,
        budget: Budget | None = None,
        render_mode: str | None = None,
        **game_options: Any,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise GameError(f"render_mode must be one of {self.metadata['render_modes']}")
        names = _opponent_names(opponents, players)
        if players is None:
            players = 1 + len(names)
        settings = settings_from(
            game, players, reward, episode, illegal_reward, max_steps, game_options
        )
        self.settings: EnvSettings = settings
        self.table = Table(settings)
        n = self.table.players
        if len(names) == 1 and n > 2:
            names = names * (n - 1)
        if len(names) != n - 1:
            raise GameError(f"{game} with {n} players needs {n - 1} opponents, got {len(names)}")
        self.opponents: tuple[str, ...] = tuple(names)
        self._bots: list[Bot] = [get_bot(name) for name in names]  # unknown names fail here
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise GameError(f"seat must be 0..{n - 1} or None, not {seat!r}")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.budget = budget
        self.render_mode = render_mode
        low, high = self.table.encoder.bounds()
        size = self.table.codec.size
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)
        self._seat_bots: dict[int, Bot] = {}
        self._rngs: list[random.Random] = []
        self._observation: Any = None
        self._pending = 0.0  # reward earned while the bots played before our first move
        self._names: list[str] = []

    # -- the cycle ------------------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new episode. ``reset(seed=s)`` deals exactly ``new_game(options, s)`` (and seats
        the learner from ``s`` too); ``options`` is accepted for the API only."""
        super().reset(seed=seed)
        n = self.table.players
        for _attempt in range(1000):
            game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**62))
            seed = None  # a re-deal (see below) draws from the seeded RNG
            if self.fixed_seat is None:
                self.seat = int(self.np_random.integers(0, n))
            others = [(self.seat + k) % n for k in range(1, n)]
            self._seat_bots = dict(zip(others, self._bots, strict=True))
            self._names = [
                "learner" if s == self.seat else f"{self._seat_bots[s].name}_{s}" for s in range(n)
            ]
            self.table.deal(game_seed)
            self._rngs = bot_rngs(game_seed, n)
            ended = self._play_bots()
            self._pending = self.table.rewards()[self.seat]
            # A round episode that ended before the learner's first decision (in Knock
            # Rummy a bot may knock at once) gives it nothing to learn: deal again.
            if not ended or self.settings.episode == "match":
                break
        observation = self._observe()
        if self.render_mode == "human":
            self.render()
        return self._tensors(observation), self._info(observation)

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        observation = self._observation
        if observation is None or self.table.to_act != self.seat:
            raise GameError("step() after the episode ended: call reset() first")
        table = self.table
        try:
            if table.fast is not None:
                engine_action = table.decode_index(action, self.seat)
            else:
                engine_action = table.decode(action, observation)
        except IllegalIndexError as exc:
            reward = table.illegal_rewards(self.seat)[self.seat]
            info = self._info(observation, illegal_action=str(exc))
            self._observation = None
            return self._tensors(observation, ended=True), reward, True, False, info
        if table.fast is not None:
            events: Any = table.apply_legal(engine_action)
        else:
            events = table.apply(engine_action)
        ended = self.table.episode_over(events) or self._play_bots()
        reward = self._pending + self.table.rewards()[self.seat]
        self._pending = 0.0
        terminated = ended
        truncated = not terminated and self.table.truncated()
        observation = self._observe()
        info = self._info(observation)
        if terminated or truncated:
            self._observation = None
        if self.render_mode == "human":
            self.render()
        return (
            self._tensors(observation, ended=terminated or truncated),
            reward,
            terminated,
            truncated,
            info,
        )

    def _play_bots(self) -> bool:
        """Bots act until the learner's turn; True if the episode ended on the way."""
        table = self.table
        game = table.game
        for _ in range(_MAX_BOT_MOVES):
            seat = table.to_act
            if seat is None or seat == self.seat:
                return table.over
            observation = table.observe(seat)
            action = self._seat_bots[seat].act(
                game, observation, observation.legal_actions, self._rngs[seat], self.budget
            )
            events = table.apply(action)
            if table.episode_over(events):
                return True
        raise GameError(f"the bots made {_MAX_BOT_MOVES} moves without the learner's turn")

    def _observe(self) -> Any:
        """The learner's engine observation now; for a core table (Knock Rummy, Gin) a
        :class:`SeatView` of it instead, built into the observation only if read."""
        table = self.table
        self._observation = (
            table.view(self.seat) if table.fast is not None else table.observe(self.seat)
        )
        return self._observation

    def _info(self, observation: Any, **extra: Any) -> dict[str, Any]:
        if self.table.fast is not None:
            return LazyInfo(observation, seat=self.seat, **extra)
        return {"observation": observation, "seat": self.seat, **extra}

    def _tensors(self, observation: Any, ended: bool = False) -> dict[str, Any]:
        table = self.table
        if table.fast is not None:
            tensors = table.seat_tensors(self.seat)  # the table is where the view was taken
        else:
            tensors = table.tensors(observation)
        if ended:  # nothing is legal once the episode is over
            tensors["action_mask"] = np.zeros_like(tensors["action_mask"])
        return tensors

    def action_masks(self) -> Mask:
        """The legal-action mask of the learner now (sb3-contrib's MaskablePPO calls it)."""
        table = self.table
        if self._observation is None:
            return np.zeros(table.codec.size, dtype=np.int8)
        if table.fast is not None:
            return table.fast.mask(table.legal_bits(self.seat))
        return table.mask(self._observation)

    # -- rendering ------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table in text, as the learner's seat sees it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (human or ansi)")
            return None
        text = render_text(self.table.game, self.table.observe(self.seat), self._names)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None


def _opponent_names(opponents: str | Sequence[str] | None, players: int | None) -> list[str]:
    if opponents is None:
        return [DEFAULT_OPPONENT] * (1 if players is None else max(players - 1, 1))
    if isinstance(opponents, str):
        return [opponents] * (1 if players is None else max(players - 1, 1))
    names = [str(name) for name in opponents]
    if not names:
        raise GameError("name at least one opponent")
    return names
