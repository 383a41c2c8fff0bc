"""PettingZoo AEC environments: every seat is an agent (``player_0`` ... ``player_{n-1}``).

>>> from deadwood_knock.rl import pettingzoo_env
>>> env = pettingzoo_env("gin")
>>> env.reset(seed=42)
>>> for agent in env.agent_iter(max_iter=30):
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else (
...         env.action_space(agent).sample(obs["action_mask"]))
...     env.step(action)
>>> env.close()

Each observation is ``{"observation": float32 vector, "action_mask": int8 vector}`` (the
convention of PettingZoo's classic games); the acting agent's ``info["observation"]`` is
the engine's own observation of its seat (Knock Rummy and Gin: built when first read, see
:class:`~deadwood_knock.rl.driver.LazyInfo`). Rewards go to every seat when the score moves
(see :mod:`deadwood_knock.rl`). An illegal action ends the episode: the agent that made
it gets ``illegal_reward``, the others 0, and ``info["illegal_action"]`` says why.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import Discard, Draw
from deadwood_knock.rl.actions import IllegalIndexError
from deadwood_knock.rl.driver import (
    EnvSettings,
    LazyInfo,
    MomentInfo,
    Table,
    render_text,
    settings_from,
)
from deadwood_knock.rl.kr_fast import KrTensors, SeatView, moment_of

_new_dict = dict.__new__
_bit_count = int.bit_count

__all__ = ["CardGameAEC", "CoreTableAEC", "OrderEnforcing", "env", "raw_env"]


class CardGameAEC(AECEnv):  # type: ignore[misc]
    """One of the three games, every seat an agent. Build it with :func:`env`."""

    # An instance attribute in the base class, so no ClassVar.
    metadata: dict[str, Any] = {  # noqa: RUF012
        "render_modes": ["human", "ansi"],
        "name": "deadwood_knock_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, settings: EnvSettings, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.settings = settings
        self.render_mode = render_mode
        self.table = Table(settings)
        self.metadata = {**self.metadata, "name": f"{settings.game.replace('-', '_')}_v0"}
        n = self.table.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        self._seat = {agent: s for s, agent in enumerate(self.possible_agents)}
        low, high = self.table.encoder.bounds()
        size = self.table.codec.size
        # One space object per agent, so that seeding one agent's space touches no other.
        self._observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=low.dtype),
                    "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self._action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._names = [f"player_{s}" for s in range(n)]
        self._seed_rng: Any = None
        # (seat to act, its engine observation; None for a core table: see _select)
        self._current: tuple[int, Any] | None = None
        self._rewarded = False  # whether the last step gave anyone a reward
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    # -- the cycle ------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match. ``reset(seed=s)`` deals exactly ``new_game(options, s)``; without a
        seed the next deal comes from the last seed given (or the OS's entropy).
        ``options`` is accepted for the API; the game's options are fixed at creation."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            game_seed = int(seed)
        else:
            if self._seed_rng is None:
                self._seed_rng = np.random.default_rng()
            game_seed = int(self._seed_rng.integers(0, 2**62))
        self.table.deal(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._rewarded = False
        self._select()

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to act, with its engine observation
        (for a core table, a :class:`LazyInfo` that builds it when read)."""
        table = self.table
        seat = table.to_act
        assert seat is not None
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        if table.fast is not None:
            self._current = (seat, None)
            self.infos[agent] = LazyInfo(table.view(seat))
            return
        observation = table.observe(seat)
        self._current = (seat, observation)
        self.infos[agent] = {"observation": observation}

    def observe(self, agent: str) -> dict[str, Any]:
        seat = self._seat[agent]
        table = self.table
        if table.fast is not None:
            return table.seat_tensors(seat)
        current = self._current
        observation = current[1] if current is not None and current[0] == seat else None
        if observation is None:
            observation = table.observe(seat)
        return table.tensors(observation)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._current is not None
        seat, observation = self._current
        table = self.table
        self._cumulative_rewards[agent] = 0.0
        # Between steps only the seat to act has an info (see _select and _finish).
        self.infos[agent] = {}
        try:
            if table.fast is not None:
                engine_action = table.decode_index(action, seat)
            else:
                engine_action = table.decode(action, observation)
        except IllegalIndexError as exc:
            rewards = table.illegal_rewards(seat)
            self.infos[agent] = {"illegal_action": str(exc)}
            self._finish(rewards, terminated=True, next_seat=(seat + 1) % table.players)
            return
        if table.fast is not None:
            events: Any = table.apply_legal(engine_action)
        else:
            events = table.apply(engine_action)
        self._after_move(table, events, seat)

    def _after_move(self, table: Any, events: Any, seat: int) -> None:
        """After ``seat``'s move: the episode's end, or the rewards and the next agent."""
        moved = table.rewards_if_moved()
        over = table.episode_over(events)
        if over or table.truncated():
            self._finish(
                moved or [0.0] * table.players,
                terminated=over,
                next_seat=(seat + 1) % table.players,
            )
            return
        if moved is not None:
            for other, reward in zip(self.possible_agents, moved, strict=True):
                self.rewards[other] = reward
            self._rewarded = True
            self._select()
            self._accumulate_rewards()
        else:
            # Nobody's reward moved: only last step's rewards need clearing (adding
            # zeros to the cumulative rewards would change nothing).
            if self._rewarded:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewarded = False
            self._select()
        if self.render_mode == "human":
            self.render()

    def _finish(self, rewards: list[float], terminated: bool, next_seat: int) -> None:
        """The episode ends: everyone's last reward, final observations in ``info``."""
        table = self.table
        for other, reward in zip(self.possible_agents, rewards, strict=True):
            self.rewards[other] = reward
            if terminated:
                self.terminations[other] = True
            else:
                self.truncations[other] = True
            seat = self._seat[other]
            info = self.infos[other]
            if table.fast is not None:
                self.infos[other] = LazyInfo(table.view(seat), info)
            elif "observation" not in info:
                info["observation"] = table.observe(seat)
        self._current = None
        self.agent_selection = self.possible_agents[next_seat]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- rendering ------------------------------------------------------------------------

    def render(self) -> str | None:
        """The table in text, as the seat to act (or, at the end, seat 0) sees it."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode (human or ansi)")
            return None
        seat = self._current[0] if self._current is not None else 0
        text = render_text(self.table.game, self.table.observe(seat), self._names)
        if self.render_mode == "ansi":
            return text
        print(text + "\n")
        return None

    def close(self) -> None:
        self._current = None


class CoreTableAEC(CardGameAEC):
    """Knock Rummy and Gin: the same environment, its step and observation written for
    the core table (``table.fast``): the tensors straight from the table, the acting
    seat's info a :class:`LazyInfo`, no engine observation built unless read. The hot
    path (a legal int, the match going on, no score moving) is written out in
    :meth:`step` and :meth:`last`: a call costs about as much as the bookkeeping."""

    def __init__(self, settings: EnvSettings, render_mode: str | None = None) -> None:
        super().__init__(settings, render_mode)
        self._events: list[Any] = []
        self._currents = [(seat, None) for seat in range(self.table.players)]
        self._two = self.table.players == 2  # (the hand sizes: see step)

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.seat_tensors(self._seat[agent])

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        tensors = None
        if observe:
            table = self.table
            seat = self._seat[agent]
            fast: KrTensors = table.fast  # type: ignore[assignment]  # a core table's
            core = table._core
            key = table._version * table.players + seat
            if key == table._legal_key:
                vector, mask, _ = fast.observe(core, seat, table._legal_bits)
            else:  # the legal bits worked out with the tensors, and kept for step
                vector, mask, table._legal_bits = fast.observe(core, seat, None)
                table._legal_key = key
            tensors = {"observation": vector, "action_mask": mask}
        return (
            tensors,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _select(self) -> None:
        core = self.table._core
        seat = core.to_act
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self._current = (seat, None)
        self.infos[agent] = LazyInfo(SeatView(core, seat))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        seat = self._seat[agent]
        self._cumulative_rewards[agent] = 0.0
        # Between steps only the seat to act has an info (see _select and _finish): its
        # info is emptied below, before anything reads it (the hot path replaces it).
        fast: KrTensors = table.fast  # type: ignore[assignment]  # a core table's
        if table._version * table.players + seat == table._legal_key:
            legal = table._legal_bits
        else:
            legal = table.legal_bits(seat)
        # (No bit at or past the mask's size is set: the upper bound needs no test.)
        if type(action) is int and action >= 0 and legal >> action & 1:
            engine_action = fast.fixed[action]
        else:
            try:
                engine_action = fast.decode(action, legal)
            except IllegalIndexError as exc:
                self.infos[agent] = {"illegal_action": str(exc)}
                self._finish(
                    table.illegal_rewards(seat),
                    terminated=True,
                    next_seat=(seat + 1) % table.players,
                )
                return
        core = table._core
        events = self._events  # one list, emptied each step: nothing else keeps it
        events.clear()
        # Decoded from the legal bits: legal. KrTable.play's dispatch, with its two hot
        # moves called directly (one call less, as the public API's apply does).
        kind = type(engine_action)
        if kind is Discard:
            core._discard(seat, engine_action.card, events)
        elif kind is Draw:
            core._draw(seat, engine_action.source, events)
        else:
            core.play(engine_action, events)
        table.steps += 1
        table._version += 1
        nxt = core.to_act
        if (
            nxt is not None
            and table.plain_episodes
            and (totals := tuple(core.totals)) == table.totals
        ):
            # The hot path: the match (the episode) goes on and nobody's reward moved,
            # so only last step's rewards need clearing (adding zeros to the cumulative
            # rewards would change nothing).
            if self._rewarded:
                self.rewards = dict.fromkeys(self.agents, 0.0)
                self._rewarded = False
            if nxt != seat:  # (the same seat again: its agent and _current stand)
                self.infos[agent] = {}
                agent = self.possible_agents[nxt]
                self.agent_selection = agent
                self._current = self._currents[nxt]
            # LazyInfo(SeatView(core, nxt, totals)) without their __init__ calls, the
            # view's tuple held by the info itself (MomentInfo); for two seats, the
            # tuple written out (as moment_of makes it: keep them alike).
            info = _new_dict(MomentInfo)
            if self._two:
                seen = core.seen[nxt]
                stock = core.stock
                hands = core.hands
                known = core.known
                info._view = (  # type: ignore[assignment]  # (MomentInfo: the tuple)
                    core.opts,
                    nxt,
                    core.hand_number,
                    core.dealer,
                    nxt,
                    core.phase,
                    hands[nxt],
                    tuple(core.pile),
                    tuple(stock) if core.public else len(stock),
                    core.taken,
                    core.turnovers,
                    totals,
                    core.last_result,
                    core.winners,
                    seen,
                    len(seen),
                    _bit_count(hands[0]),
                    _bit_count(hands[1]),
                    known[0],
                    known[1],
                )
            else:
                info._view = moment_of(core, nxt, totals)  # type: ignore[assignment]
            self.infos[agent] = info
            if self.render_mode == "human":
                self.render()
            return
        self.infos[agent] = {}
        self._after_move(table, events, seat)


def raw_env(
    game: str = "deadwood-knock",
    *,
    players: int | None = None,
    reward: str = "score",
    episode: str = "match",
    illegal_reward: float | None = None,
    max_steps: int | None = None,
    render_mode: str | None = None,
    **game_options: Any,
) -> CardGameAEC:
    """The environment without PettingZoo's order-enforcing wrapper. ``game_options`` are
    the game's own (``sleight_of_hand``, ``rounds``, ``manual_split``; ``knock_limit``,
    ``high_aces``, ``target``); bad ones raise the engine's error."""
    settings = settings_from(
        game, players, reward, episode, illegal_reward, max_steps, game_options
    )
    if get_game(settings.game).facts.poker_split:
        return CardGameAEC(settings, render_mode=render_mode)
    return CoreTableAEC(settings, render_mode=render_mode)


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's :class:`OrderEnforcingWrapper` with ``last`` and ``step`` passed
    straight to the environment once it has been reset: the base class reaches each
    attribute through ``__getattr__``, which cost about half as much again as a Gin
    step. Out of order calls are still errors."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)  # the base class's error or warning

    def __str__(self) -> str:
        return str(self.env)  # as the base class names itself


def env(game: str = "deadwood-knock", **kwargs: Any) -> Any:
    """The AEC environment of ``game`` (options as :func:`raw_env`), wrapped the way
    PettingZoo wraps its classic games (calls out of order are errors)."""
    return OrderEnforcing(raw_env(game, **kwargs))
