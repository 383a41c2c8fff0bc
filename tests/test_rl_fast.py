"""The Knock Rummy and Gin environments' fast path (``deadwood_knock.rl.kr_fast``): tensors
written from the core table equal the reference encoding of the engine observation at
every step, the lazy ``info`` observation equals the engine's even when read after the
table moved on, the melded cards equal ``arrange``'s, and nothing hidden reaches them."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.melds import arrange
from deadwood_knock.games.knock_rummy.rules import observe_table, table_of
from deadwood_knock.rl import aec
from deadwood_knock.rl.driver import LazyInfo
from deadwood_knock.rl.kr_fast import KrTensors, melded_count
from deadwood_knock.rl.observations import observation_encoder

KR_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("gin", {}),
    ("knock-rummy", {"players": 2}),
    ("knock-rummy", {"players": 4, "knock_limit": 10}),
    ("knock-rummy", {"players": 5, "knock_limit": 0}),
    ("knock-rummy", {"players": 3, "high_aces": True, "knock_limit": 5, "target": 50}),
]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    game, options = config
    return game + "".join(f"-{k}={v}" for k, v in options.items())


def mask_of(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


@pytest.mark.parametrize("high", [False, True])
def test_melded_cards_and_count_are_arranges(high: bool) -> None:
    rng = random.Random(11)
    dense = [r + 13 * s for s in range(4) for r in range(6)]  # many sets and runs
    for k in range(4000):
        hand = sorted(rng.sample(dense if k % 2 else range(52), rng.choice((10, 11))))
        arrangement = arrange(tuple(hand), high)
        melded = mask_of(c for meld in arrangement.melds for c in meld)
        assert melded_count(mask_of(hand), high) == (arrangement.deadwood_points, melded)


@pytest.mark.parametrize("high", [False, True])
def test_the_vectors_melded_cards_and_count_are_arranges(high: bool) -> None:
    """The tensors take the melded cards and the count from whole per-suit tables (and a
    rank held three or four times by trying its sets in arrange's order): the same as
    arrange's layout, on hands rich in sets."""
    env = aec.raw_env("knock-rummy", players=2, high_aces=high)
    env.reset(seed=3)
    core, fast = env.table._core, env.table.fast
    assert fast is not None
    at = {b.name: b.offset for b in env.table.encoder.layout}
    rng = random.Random(12)
    dense = [r + 13 * s for s in range(4) for r in range(5)]  # four suits of five ranks
    for k in range(3000):
        hand = sorted(rng.sample(dense if k % 3 else range(52), rng.choice((10, 11))))
        core.hands[0] = mask_of(hand)
        vector = fast.vector(core, 0)
        arrangement = arrange(tuple(hand), high)
        melded = {c for meld in arrangement.melds for c in meld}
        got = {c for c in range(52) if vector[at["melded"] + c]}
        assert got == melded, hand
        assert vector[at["count"]] == np.float32(min(arrangement.deadwood_points / 100, 1.0))


@pytest.mark.parametrize("config", KR_CONFIGS, ids=config_id)
def test_fast_tensors_and_lazy_info_equal_the_engine_observation(
    config: tuple[str, dict[str, Any]],
) -> None:
    game_name, options = config
    env = aec.raw_env(game_name, **options)
    table = env.table
    rng = random.Random(5)
    env.reset(seed=3)
    # (info, the engine's observation when it was given), read only at the end.
    given: list[tuple[Any, Any]] = []
    public_seen = 0
    for _ in range(1500):
        agent = env.agent_selection
        obs, _, terminated, truncated, info = env.last()
        for seat in range(table.players):  # every seat's tensors, its turn or not
            engine = table.observe(seat)
            reference = table.tensors(engine)
            fast = table.seat_tensors(seat)
            assert np.array_equal(fast["observation"], reference["observation"])
            assert fast["observation"].dtype == np.float32
            assert np.array_equal(fast["action_mask"], reference["action_mask"])
            assert fast["action_mask"].dtype == np.int8
        public_seen += table.observe(0).public_stock is not None
        given.append((info, table.observe(env.possible_agents.index(agent))))
        if terminated or truncated:
            env.reset(seed=rng.getrandbits(32))
            continue
        legal = np.flatnonzero(obs["action_mask"])
        # Mostly draw and discard, so that hands run long and the stock is turned over.
        quiet = [int(i) for i in legal if i < 54]
        env.step(rng.choice(quiet) if quiet and rng.random() < 0.95 else int(rng.choice(legal)))
    for info, engine in given:
        assert info["observation"] == engine
    if options.get("knock_limit") == 0:
        assert public_seen > 0  # the public-stock blocks were exercised


def test_lazy_info_reads_like_a_dict() -> None:
    env = aec.raw_env("gin")
    env.reset(seed=1)
    info = env.infos[env.agent_selection]
    seat = env.possible_agents.index(env.agent_selection)
    engine = observe_table(env.table._core, seat)
    assert isinstance(info, dict) and isinstance(info, LazyInfo)
    assert "observation" in info and info.get("observation") == engine
    for kind in (dict, copy.copy, copy.deepcopy, lambda i: pickle.loads(pickle.dumps(i))):
        info = LazyInfo(env.table.view(seat), extra=1)
        plain = kind(info)
        assert type(plain) is dict and plain == {"observation": engine, "extra": 1}
    info = LazyInfo(env.table.view(seat))
    assert list(info) == ["observation"] and len(info) == 1 and info == {"observation": engine}
    assert LazyInfo(None) == {} and "observation" not in LazyInfo(None)


@pytest.mark.parametrize("config", KR_CONFIGS, ids=config_id)
def test_fast_path_never_sees_hidden_cards(config: tuple[str, dict[str, Any]]) -> None:
    """Two tables that differ only in cards the viewer cannot see give the same tensors
    and the same lazy observation."""
    from test_rl import hidden_shuffle, random_states

    game_name, options = config
    game = get_game(game_name)
    opts = game.options_from_json(options)
    fast = KrTensors(
        observation_encoder(game_name, opts), aec.raw_env(game_name, **options).table.codec, opts
    )
    rng = random.Random(4)
    moved = 0
    for k, state in enumerate(random_states(game_name, options, seed=9, steps=400)):
        if k % 4:
            continue
        viewer = rng.randrange(opts.players)
        base = game.position_from_json(game.position_to_json(state))
        other = hidden_shuffle(game_name, base, viewer, rng)
        a, b = table_of(base), table_of(other)
        a.track_seen()
        b.track_seen()
        assert np.array_equal(fast.vector(a, viewer), fast.vector(b, viewer))
        assert fast.legal_bits(a, viewer) == fast.legal_bits(b, viewer)
        from deadwood_knock.rl.kr_fast import SeatView

        assert SeatView(a, viewer).observation() == SeatView(b, viewer).observation()
        moved += a.hands != b.hands
    assert moved > 0  # the shuffle did move hidden cards


@pytest.mark.parametrize("config", KR_CONFIGS[:3], ids=config_id)
def test_gym_fast_path_equals_the_engine_observation(config: tuple[str, dict[str, Any]]) -> None:
    import gymnasium

    import deadwood_knock.rl as rl

    game_name, options = config
    env_id = next(k for k, v in rl.ENV_IDS.items() if v == game_name)
    env = gymnasium.make(env_id, opponents="random", **options).unwrapped
    table = env.table
    rng = random.Random(2)
    obs, info = env.reset(seed=6)
    given = []
    for _ in range(300):
        engine = table.observe(env.seat)
        reference = table.tensors(engine)
        assert np.array_equal(obs["observation"], reference["observation"])
        assert np.array_equal(obs["action_mask"], reference["action_mask"])
        assert np.array_equal(env.action_masks(), reference["action_mask"])
        given.append((info, engine))
        obs, _, terminated, truncated, info = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            given.append((info, table.observe(env.seat)))
            obs, info = env.reset(seed=rng.getrandbits(32))
    for info, engine in given:
        assert info["observation"] == engine and info["seat"] == engine.seat
