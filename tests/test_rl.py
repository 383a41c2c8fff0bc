"""The learning environments: PettingZoo and Gymnasium API checks, the action encoding,
observations that leak nothing, rewards, seeding, rendering, errors, and a tiny training
run of the example."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import deadwood_knock.rl as rl
from deadwood_knock.cards import CARDS
from deadwood_knock.games import get_game
from deadwood_knock.games.base import GameError
from deadwood_knock.rl import aec
from deadwood_knock.rl.actions import IllegalIndexError, action_codec
from deadwood_knock.rl.observations import observation_encoder

ROOT = Path(__file__).resolve().parents[1]

# Every game and player count, Sleight of Hand on and off, and the Knock Rummy variants.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *(
        ("deadwood-knock", {"players": n, "sleight_of_hand": s})
        for n in range(2, 7)
        for s in (0, 1)
    ),
    ("deadwood-knock", {"players": 3, "manual_split": True, "rounds": 2}),
    *(("knock-rummy", {"players": n}) for n in range(2, 6)),
    ("knock-rummy", {"players": 2, "knock_limit": 10}),
    ("knock-rummy", {"players": 3, "high_aces": True, "knock_limit": 5, "target": 50}),
    ("gin", {}),
]
CONFIGS = [
    (g, {k: bool(v) if k == "sleight_of_hand" else v for k, v in o.items()}) for g, o in CONFIGS
]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    game, options = config
    return game + "".join(f"-{k}={v}" for k, v in options.items())


# PettingZoo's checker warns about any dict observation of an environment outside its own
# list of classic games; these two are that, and nothing else may be warned about.
DICT_OBS_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


def unexpected(caught: list[warnings.WarningMessage]) -> list[str]:
    return [
        str(w.message)
        for w in caught
        if not any(str(w.message).startswith(ok) for ok in DICT_OBS_WARNINGS)
    ]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_pettingzoo_api_and_seed_tests_pass(config: tuple[str, dict[str, Any]]) -> None:
    game, options = config
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(rl.pettingzoo_env(game, **options), num_cycles=200)
        seed_test(lambda: rl.pettingzoo_env(game, **options), num_cycles=200)
    assert unexpected(caught) == []


@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("Gin-v0", {}),
        ("Gin-v0", {"opponents": ["random"], "reward": "margin", "episode": "round"}),
        ("KnockRummy-v0", {"players": 3, "opponents": "random", "knock_limit": 10}),
        ("KnockRummy-v0", {"players": 5, "reward": "outcome"}),
        ("DeadwoodKnock-v0", {"players": 4, "opponents": ["legend", "greedy", "random"]}),
        ("DeadwoodKnock-v0", {"players": 2, "sleight_of_hand": True, "manual_split": True}),
    ],
)
def test_gymnasium_check_env_passes(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_make_passes_players_and_opponents_by_name() -> None:
    env = gymnasium.make(
        "DeadwoodKnock-v0", players=4, opponents=["legend", "strong", "greedy"], seat=2
    ).unwrapped
    assert env.table.players == 4 and env.opponents == ("legend", "strong", "greedy")
    _, info = env.reset(seed=11)
    assert info["seat"] == 2 and info["observation"].seat == 2
    # Seats in table order from the learner's left: 3, 0, 1.
    assert [env._seat_bots[s].name for s in (3, 0, 1)] == ["legend", "strong", "greedy"]
    assert (
        gymnasium.make("KnockRummy-v0", players=4, opponents="random").unwrapped.opponents
        == ("random",) * 3
    )


# --- the action encoding ---------------------------------------------------------------------


def test_action_space_sizes_and_documented_indices() -> None:
    gin, kr, dk = (action_codec(g) for g in ("gin", "knock-rummy", "deadwood-knock"))
    assert gin.size == kr.size == 159 and dk.size == 419
    assert [gin.label(i) for i in (0, 1, 2, 53, 54, 105, 106, 107, 158)] == [
        "draw stock",
        "draw discard",
        "discard As",
        "discard Kc",
        "knock As",
        "knock Kc",
        "rummy",
        "rummy As",
        "rummy Kc",
    ]
    assert [dk.label(i) for i in range(4)] == ["knock", "stand", "call", "fold"]
    assert dk.label(4 + 3 * 9 + 1) == "draw discard, discard Ts"
    assert dk.label(4 + 3 * 52 + 2) == "draw palm, discard JK"
    assert dk.label(163 + 0b10110) == "reveal positions 1,2,4"
    with pytest.raises(IllegalIndexError):
        gin.label(159)


def random_states(game_name: str, options: dict[str, Any], seed: int, steps: int) -> Iterator[Any]:
    """States along a random legal playout (new matches as old ones end)."""
    game = get_game(game_name)
    opts = game.options_from_json(options)
    rng = random.Random(seed)
    state = game.new_game(opts, seed)
    for _ in range(steps):
        if game.is_over(state):
            state = game.new_game(opts, rng.getrandbits(32))
        yield state
        state, _ = game.apply(state, rng.choice(game.legal_actions(state)))


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_mask_is_exactly_the_legal_actions_and_round_trips(
    config: tuple[str, dict[str, Any]],
) -> None:
    game_name, options = config
    game = get_game(game_name)
    codec = action_codec(game_name)
    seen_kinds: set[str] = set()
    for state in random_states(game_name, options, seed=5, steps=600):
        seat = game.to_act(state)
        obs = game.observe(state, seat)
        mask = codec.mask(obs)
        legal = game.legal_actions(state)
        assert mask.dtype == np.int8 and int(mask.sum()) == len(legal)
        for action in legal:
            index = codec.encode(action, obs)
            assert mask[index] == 1 and codec.decode(index, obs) == action
            seen_kinds.add(action.kind)
        for index in np.flatnonzero(mask):
            assert codec.decode(int(index), obs) in legal
        other = (seat + 1) % obs.options.players  # not its turn: nothing is legal
        assert codec.mask(game.observe(state, other)).sum() == 0
    if options.get("manual_split"):
        assert "reveal" in seen_kinds


# --- observations ----------------------------------------------------------------------------


def hidden_shuffle(game_name: str, state: Any, viewer: int, rng: random.Random) -> Any:
    """The same position with the cards the viewer cannot see dealt differently among
    the places it cannot see into (other hands' unknown cards; the face-down stock).
    Jokers stay put: a position's JSON writes both as JK and numbers them by place."""
    game = get_game(game_name)
    data = game.position_to_json(state)
    hands = [list(h) for h in data["hands"]]
    known = [set(k) for k in data["known"]]
    slots: list[tuple[str, int, int]] = []  # (where, seat or -1, index)
    for s, hand in enumerate(hands):
        if s != viewer:
            slots += [("hand", s, i) for i, c in enumerate(hand) if c not in known[s] and c != "JK"]
    stock_key = "stock"
    if not data.get("stock_public", False):
        slots += [("stock", -1, i) for i, c in enumerate(data[stock_key]) if c != "JK"]
    cards = [hands[s][i] if where == "hand" else data[stock_key][i] for where, s, i in slots]
    rng.shuffle(cards)
    stock = list(data[stock_key])
    for (where, s, i), card in zip(slots, cards, strict=True):
        if where == "hand":
            hands[s][i] = card
        else:
            stock[i] = card
    return game.position_from_json({**data, "hands": hands, stock_key: stock})


@pytest.mark.parametrize(
    "config",
    [c for c in CONFIGS if c[1].get("players", 2) in (2, 3, 4)],
    ids=config_id,
)
def test_observation_never_changes_when_only_hidden_cards_change(
    config: tuple[str, dict[str, Any]],
) -> None:
    game_name, options = config
    game = get_game(game_name)
    codec = action_codec(game_name)
    rng = random.Random(3)
    changed_for_others = 0
    for k, state in enumerate(random_states(game_name, options, seed=9, steps=240)):
        if k % 4:
            continue
        viewer = rng.randrange(state.options.players)
        # Both states come from explicit positions, so they differ only in hidden cards.
        base = game.position_from_json(game.position_to_json(state))
        other = hidden_shuffle(game_name, base, viewer, rng)
        enc = observation_encoder(game_name, base.options)
        mine = game.observe(base, viewer), game.observe(other, viewer)
        assert np.array_equal(enc.encode(mine[0]), enc.encode(mine[1]))
        assert np.array_equal(codec.mask(mine[0]), codec.mask(mine[1]))
        # The engine observation in info, too (as JSON: a rebuilt position numbers the two
        # identical jokers by where they lie, and the JSON writes both as JK).
        assert mine[0].to_json() == mine[1].to_json()
        for seat in range(state.options.players):
            if seat != viewer:
                a, b = game.observe(base, seat), game.observe(other, seat)
                changed_for_others += not np.array_equal(enc.encode(a), enc.encode(b))
    assert changed_for_others > 0  # the shuffle did move cards other seats can see


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_observations_lie_in_the_space(config: tuple[str, dict[str, Any]]) -> None:
    game_name, options = config
    env = aec.raw_env(game_name, **options)
    env.reset(seed=1)
    space = env.observation_space(env.possible_agents[0])
    for agent in env.agent_iter(max_iter=400):
        obs, _, terminated, truncated, info = env.last()
        assert space.contains(obs)
        if not (terminated or truncated):
            assert info["observation"].seat == env.possible_agents.index(agent)
        mask = obs["action_mask"]
        env.step(None if terminated or truncated else int(np.flatnonzero(mask)[-1]))


def test_layout_documents_every_slot() -> None:
    game = get_game("deadwood-knock")
    enc = observation_encoder("deadwood-knock", game.options_from_json({"players": 3}))
    offsets = [b.offset for b in enc.layout]
    assert offsets == sorted(offsets) and offsets[0] == 0
    assert sum(b.size for b in enc.layout) == enc.size
    assert all(b.doc for b in enc.layout)
    state = game.new_game(game.options_from_json({"players": 3}), 4)
    vec = enc.encode(game.observe(state, 1))
    assert vec[enc.block("hand")].sum() == 8
    assert vec[enc.block("to_act")].tolist() == [1.0, 0.0, 0.0]  # seat 1 acts: "me"
    assert vec[enc.block("dealer")].tolist() == [0.0, 0.0, 1.0]  # seat 0: two to my left


def test_two_jokers_fill_both_joker_slots() -> None:
    game = get_game("deadwood-knock")
    enc = observation_encoder("deadwood-knock", game.options_from_json({}))
    for state in random_states("deadwood-knock", {}, seed=2, steps=3000):
        for seat in range(2):
            hand = state.hands[seat] if hasattr(state, "hands") else ()
            jokers = sum(1 for c in hand if c >= 52)
            if jokers == 2:
                vec = enc.encode(game.observe(state, seat))
                assert vec[enc.block("hand")][52:].tolist() == [1.0, 1.0]
                return
    pytest.fail("no hand with both jokers in 3000 random states")


# --- rewards, episodes, seeding --------------------------------------------------------------


def play_aec(env: Any, seed: int, pick: Callable[[np.ndarray], int]) -> dict[str, float]:
    env.reset(seed=seed)
    total: dict[str, float] = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        env.step(None if terminated or truncated else pick(obs["action_mask"]))
    assert not env.agents, "the match did not end"
    return total


def first_legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


_ENDERS = {
    i
    for g in ("gin", "deadwood-knock")
    for i, label in enumerate(action_codec(g).labels())
    if label.startswith(("knock", "rummy"))
}


def eager(seed: int) -> Callable[[np.ndarray], int]:
    """A knock or rummy whenever there is one (so hands end), else a random legal index."""
    rng = random.Random(seed)

    def pick(mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask).tolist()
        enders = [i for i in legal if i in _ENDERS and len(mask) == 159] or [
            i for i in legal if i == 0 and len(mask) == 419
        ]
        return int(enders[0] if enders else rng.choice(legal))

    return pick


@pytest.mark.parametrize(
    ("game", "options"),
    [("gin", {"target": 40}), ("knock-rummy", {"players": 3}), ("deadwood-knock", {"rounds": 3})],
)
def test_score_rewards_add_up_to_the_final_totals(game: str, options: dict[str, Any]) -> None:
    env = aec.raw_env(game, **options)
    rewards = play_aec(env, 8, eager(1))
    finals = env.infos if env.infos else {}
    assert finals == {}  # every agent stepped out
    # Replay the same match in the engine: totals must equal the summed rewards.
    e2 = aec.raw_env(game, **options)
    e2.reset(seed=8)
    pick = eager(1)
    totals = None
    for _agent in e2.agent_iter(max_iter=100_000):
        obs, _, terminated, truncated, info = e2.last()
        if terminated or truncated:
            totals = info["observation"].totals
            e2.step(None)
            continue
        e2.step(pick(obs["action_mask"]))
    assert totals is not None
    assert [rewards[a] for a in env.possible_agents] == [float(t) for t in totals]


def test_margin_and_outcome_rewards() -> None:
    margin = play_aec(aec.raw_env("knock-rummy", players=3, reward="margin"), 4, eager(2))
    score = play_aec(aec.raw_env("knock-rummy", players=3), 4, eager(2))
    agents = list(score)
    for a in agents:
        others = [score[b] for b in agents if b != a]
        assert margin[a] == pytest.approx(score[a] - sum(others) / len(others))
    outcome = play_aec(aec.raw_env("gin", reward="outcome", target=30), 2, eager(3))
    assert sorted(outcome.values()) == [-1.0, 1.0]


def test_round_episodes_end_with_the_hand() -> None:
    env = aec.raw_env("gin", episode="round")
    env.reset(seed=6)
    steps = 0
    for _agent in env.agent_iter(max_iter=10_000):
        obs, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert info["observation"].hand_number == 2 or info["observation"].over
            env.step(None)
            continue
        steps += 1
        env.step(first_legal(obs["action_mask"]))
    assert steps > 2 and not env.agents


def test_gym_rewards_sum_to_the_learners_total_and_reset_reproduces() -> None:
    env = gymnasium.make("Gin-v0", opponents="greedy", seat=1, target=50).unwrapped

    def episode(seed: int) -> tuple[float, list[int], Any]:
        obs, info = env.reset(seed=seed)
        rng = random.Random(0)
        total, actions = 0.0, []
        while True:
            action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            actions.append(action)
            obs, reward, terminated, truncated, info = env.step(action)
            total += float(reward)
            if terminated or truncated:
                return total, actions, info["observation"]

    total, actions, final = episode(21)
    assert final.over and total == final.totals[1]
    again = episode(21)
    assert again[0] == total and again[1] == actions and again[2] == final


def test_reset_seed_deals_exactly_new_game() -> None:
    game = get_game("deadwood-knock")
    env = aec.raw_env("deadwood-knock", players=5, sleight_of_hand=True)
    env.reset(seed=1234)
    state = game.new_game(game.options_from_json({"players": 5, "sleight_of_hand": True}), 1234)
    for seat, agent in enumerate(env.possible_agents):
        assert env.table.observe(seat) == game.observe(state, seat)
        assert np.array_equal(
            env.observe(agent)["observation"], env.table.vector(game.observe(state, seat))
        )
    env.reset()
    assert env.table.observe(0).hand != game.observe(state, 0).hand  # unseeded: a new deal


def test_illegal_actions_end_the_episode_with_the_penalty() -> None:
    env = gymnasium.make("Gin-v0", opponents="random").unwrapped
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward == -100.0
    assert "not legal" in info["illegal_action"] and obs["action_mask"].sum() == 0
    with pytest.raises(GameError, match="reset"):
        env.step(0)
    penv = aec.raw_env("knock-rummy", players=3, illegal_reward=-7)
    penv.reset(seed=1)
    agent = penv.agent_selection
    bad = int(np.flatnonzero(penv.observe(agent)["action_mask"] == 0)[0])
    penv.step(bad)
    assert all(penv.terminations.values())
    assert penv.rewards[agent] == -7 and sum(penv.rewards.values()) == -7
    assert "not legal" in penv.infos[agent]["illegal_action"]
    penv.reset(seed=1)
    penv.step(10**6)  # out of range: the same
    assert all(penv.terminations.values())


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "poker"}, "unknown game"),
        ({"game": "gin", "reward": "money"}, "reward must be one of"),
        ({"game": "gin", "episode": "week"}, "episode must be one of"),
        ({"game": "gin", "reward": "outcome", "episode": "round"}, "whole-match"),
        ({"game": "gin", "players": 3}, "gin is for exactly 2 players"),
        ({"game": "deadwood-knock", "players": 7}, "players must be"),
        ({"game": "deadwood-knock", "wild": True}, "unknown Deadwood Knock option"),
        ({"game": "gin", "max_steps": 0}, "max_steps"),
    ],
)
def test_bad_settings_are_clear_errors(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(GameError, match=message):
        aec.raw_env(**kwargs)


def test_bad_gym_settings_are_clear_errors() -> None:
    with pytest.raises(GameError, match="unknown bot 'sheriff'"):
        gymnasium.make("Gin-v0", opponents=["sheriff"])
    with pytest.raises(GameError, match="needs 3 opponents"):
        gymnasium.make("DeadwoodKnock-v0", players=4, opponents=["greedy", "random"])
    with pytest.raises(GameError, match="seat must be"):
        gymnasium.make("Gin-v0", seat=2)


def test_max_steps_truncates() -> None:
    env = gymnasium.make("DeadwoodKnock-v0", opponents="random", max_steps=3).unwrapped
    obs, _ = env.reset(seed=2)
    for _ in range(10):
        obs, _, terminated, truncated, _ = env.step(first_legal(obs["action_mask"]))
        if terminated or truncated:
            break
    assert truncated and not terminated


# --- rendering, vector env, policies ---------------------------------------------------------


def test_text_render_shows_the_seat_view_only() -> None:
    env = gymnasium.make("Gin-v0", opponents="greedy", seat=0, render_mode="ansi").unwrapped
    env.reset(seed=17)
    text = env.render()
    assert isinstance(text, str) and "Your hand:" in text and "Totals:" in text
    state = env.table.state
    shown = set(text.replace(".", " ").split())
    known = set(state.known[1])
    for c in state.hands[1]:
        if c not in known:
            assert CARDS[c].pretty() not in shown


def test_vector_env_steps_many_copies() -> None:
    envs = rl.make_vector_env("Gin-v0", num_envs=3, opponents="random")
    obs, _ = envs.reset(seed=5)
    assert obs["observation"].shape == (3, 433) and obs["action_mask"].shape == (3, 159)
    rng = np.random.default_rng(0)
    for _ in range(50):
        actions = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, *_ = envs.step(np.array(actions))
        assert obs["action_mask"].sum(axis=1).min() >= 1  # auto-reset keeps a legal move
    envs.close()
    with pytest.raises(ValueError, match="unknown env id"):
        rl.make_vector_env("Chess-v0")


def test_policy_bot_plays_arena_matches() -> None:
    from deadwood_knock.arena import play_match
    from deadwood_knock.bots import base

    bot = rl.policy_bot("rl-first-legal", first_legal_vec)
    base.register("rl-first-legal", lambda: bot)
    try:
        result = play_match("gin", ["rl-first-legal", "greedy"], {"target": 25}, seed=3)
    finally:
        base._REGISTRY.pop("rl-first-legal")
    assert result.lineup == ("rl-first-legal", "greedy") and result.round_scores


def first_legal_vec(vector: np.ndarray, mask: np.ndarray) -> int:
    return first_legal(mask)


# --- the example ----------------------------------------------------------------------------


def test_train_gin_smoke_run(tmp_path: Path) -> None:
    """A few hundred training steps through the whole example (needs the [train] extra,
    which ``make test`` installs)."""
    pytest.importorskip("sb3_contrib", reason="the [train] extra is not installed")
    out = tmp_path / "run"
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "train_gin.py"), "--smoke", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["settings"]["timesteps"] == 256 and summary["training_hands"] > 0
    for rival in ("random", "greedy"):
        fig = summary["arena"][rival]
        lo, hi = fig["margin_ci95"]
        assert lo <= fig["margin_per_hand"] <= hi
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "model.zip").stat().st_size > 0
    assert "ppo-gin vs random" in done.stdout
