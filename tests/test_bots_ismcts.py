"""strong-mcts (information-set MCTS at heads-up Gin): legal, repeatable, its tree's moves."""

from __future__ import annotations

import random

from deadwood_knock.arena import play_match
from deadwood_knock.bots import Budget, get_bot, kr_playout
from deadwood_knock.bots.ismcts import _play, tree_actions
from deadwood_knock.bots.strong import gin_choice
from deadwood_knock.bots.view import view_of
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import DISCARDS, DRAW_PILE, DRAW_STOCK, KNOCKS, OVER


def _gin_states(seed: int, steps: int) -> list[tuple[object, object]]:
    game = get_game("gin")
    state = game.new_game(game.options_from_json({"players": 2}), seed)
    rng = random.Random(seed)
    out = []
    for _ in range(steps):
        if game.is_over(state) or game.to_act(state) is None:
            break
        out.append((game, state))
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])
    return out


def test_strong_mcts_is_deterministic_and_legal_with_an_iteration_budget() -> None:
    bot = get_bot("strong-mcts")
    checked = 0
    for game, state in _gin_states(3, 12):
        seat = game.to_act(state)  # type: ignore[attr-defined]
        legal = game.legal_actions(state)  # type: ignore[attr-defined]
        if len(legal) < 2:
            continue
        obs = game.observe(state, seat)  # type: ignore[attr-defined]
        runs = [
            bot.evaluate(game, obs, legal, random.Random(11), Budget(iterations=12))  # type: ignore[attr-defined]
            for _ in range(2)
        ]
        assert [(av.action, av.value, av.samples) for av in runs[0]] == [
            (av.action, av.value, av.samples) for av in runs[1]
        ]
        assert runs[0][0].action in legal
        checked += 1
    assert checked >= 6


def test_strong_mcts_keeps_the_gin_anchor_without_evidence() -> None:
    bot = get_bot("strong-mcts")
    for game, state in _gin_states(5, 8):
        seat = game.to_act(state)  # type: ignore[attr-defined]
        legal = game.legal_actions(state)  # type: ignore[attr-defined]
        if len(legal) < 2:
            continue
        obs = game.observe(state, seat)  # type: ignore[attr-defined]
        want = gin_choice(view_of(obs, "gin"), legal)
        got = bot.act(game, obs, legal, random.Random(3), Budget(iterations=1))  # type: ignore[attr-defined]
        assert got == want


def test_tree_moves_are_legal_on_sampled_tables() -> None:
    """Every move a tree node offers is legal on the table it is offered on, down to the
    end of the hand."""
    codes = {0: DRAW_STOCK, 1: DRAW_PILE}
    for seed in range(4):
        for game, state in _gin_states(seed, 6):
            seat = game.to_act(state)  # type: ignore[attr-defined]
            view = view_of(game.observe(state, seat), "gin")  # type: ignore[attr-defined]
            rng = random.Random(seed)
            t = kr_playout.sample_position(view, rng)
            assert t is not None
            while t.phase != OVER:
                acts = tree_actions(t)
                assert acts
                for code in acts:
                    a = codes.get(code) or (DISCARDS[code - 2] if code < 54 else KNOCKS[code - 54])
                    assert t.reason(a) is None
                _play(t, acts[rng.randrange(len(acts))])


def test_strong_mcts_plays_legal_gin_matches() -> None:
    for seed in range(2):
        result = play_match(
            "gin", ["strong-mcts", "greedy"], {"target": 25}, seed=seed, budget=Budget(iterations=3)
        )
        assert result.round_scores


def test_strong_mcts_paired_is_deterministic_and_legal_with_an_iteration_budget() -> None:
    bot = get_bot("strong-mcts-paired")
    checked = 0
    for game, state in _gin_states(4, 10):
        seat = game.to_act(state)  # type: ignore[attr-defined]
        legal = game.legal_actions(state)  # type: ignore[attr-defined]
        if len(legal) < 2:
            continue
        obs = game.observe(state, seat)  # type: ignore[attr-defined]
        runs = [
            bot.evaluate(game, obs, legal, random.Random(2), Budget(iterations=10))  # type: ignore[attr-defined]
            for _ in range(2)
        ]
        assert [(av.action, av.value) for av in runs[0]] == [
            (av.action, av.value) for av in runs[1]
        ]
        assert runs[0][0].action in legal
        checked += 1
    assert checked >= 5
    result = play_match(
        "gin", ["strong-mcts-paired", "greedy"], {"target": 25}, seed=1, budget=Budget(iterations=3)
    )
    assert result.round_scores
