"""Learning environments for Deadwood Knock, Knock Rummy and Gin (``pip install
deadwood-knock[rl]``): PettingZoo AEC (every seat an agent) and Gymnasium (one learner,
our bots in the other seats). See ``docs/rl.md``.

* :func:`pettingzoo_env` ``(game, players=..., reward=..., episode=..., **game_options)``
* ``gymnasium.make("DeadwoodKnock-v0" | "KnockRummy-v0" | "Gin-v0", players=4,
  opponents=["legend", "strong"], ...)`` once this package is imported (or
  ``gymnasium.make("deadwood_knock.rl:Gin-v0")``, which imports it)
* :func:`make_vector_env` for many copies at once (``gymnasium.vector``)
* :func:`action_codec` and :func:`observation_encoder`: the fixed action encoding and the
  observation layout
* :func:`policy_bot`: a trained policy as a bot the arena can seat

Rewards (``reward=``): ``score`` (default), the seat's change of total whenever the score
moves, i.e. once per round (Deadwood Knock) or hand (Knock Rummy, Gin); ``margin``, that
change less the mean change of the other seats; ``outcome``, +1 / 0 / -1 at the end of
the match (sole win, shared win, loss). Episodes (``episode=``): ``match`` (default) or
``round`` (one round or hand).
"""

from __future__ import annotations

from typing import Any, Final

try:
    import gymnasium
except ImportError as exc:  # pragma: no cover - the optional extra is missing
    raise ImportError(
        "deadwood_knock.rl needs the [rl] extra: pip install 'deadwood-knock[rl]'"
    ) from exc

from deadwood_knock.rl.actions import ActionCodec, IllegalIndexError, action_codec
from deadwood_knock.rl.driver import EPISODES, REWARDS, EnvSettings, Table
from deadwood_knock.rl.observations import ObservationEncoder, observation_encoder
from deadwood_knock.rl.policy import PolicyBot, policy_bot

__all__ = [
    "ENV_IDS",
    "EPISODES",
    "REWARDS",
    "ActionCodec",
    "EnvSettings",
    "IllegalIndexError",
    "ObservationEncoder",
    "PolicyBot",
    "Table",
    "action_codec",
    "make_vector_env",
    "observation_encoder",
    "pettingzoo_env",
    "policy_bot",
]

#: Registered Gymnasium ids and the game each plays.
ENV_IDS: Final = {
    "DeadwoodKnock-v0": "deadwood-knock",
    "KnockRummy-v0": "knock-rummy",
    "Gin-v0": "gin",
}


def _register() -> None:
    for env_id, game in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="deadwood_knock.rl.gym_env:CardGameEnv",
                kwargs={"game": game},
                # Illegal actions end the episode; the API checker's random actions
                # must not crash it, so passive checking stays on (the default).
            )


_register()


def pettingzoo_env(game: str = "deadwood-knock", **kwargs: Any) -> Any:
    """The PettingZoo AEC environment of ``game`` (see :func:`deadwood_knock.rl.aec.env`)."""
    from deadwood_knock.rl.aec import env

    return env(game, **kwargs)


def make_vector_env(
    env_id: str = "Gin-v0",
    num_envs: int = 4,
    vectorization_mode: str = "sync",
    **kwargs: Any,
) -> Any:
    """``num_envs`` copies of a registered environment as one ``gymnasium.vector`` env.

    ``vectorization_mode="async"`` runs each copy in its own process (worth it only with
    spare cores: each step is pure Python). ``kwargs`` go to every copy. Each copy gets
    its own seed from ``reset(seed=s)`` (``s``, ``s + 1``, ...), as gymnasium does.
    """
    if env_id not in ENV_IDS:
        raise ValueError(f"unknown env id {env_id!r}; choose one of: {', '.join(ENV_IDS)}")
    return gymnasium.make_vec(
        env_id, num_envs=num_envs, vectorization_mode=vectorization_mode, **kwargs
    )
