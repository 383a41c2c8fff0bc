"""strong's information-set MCTS for heads-up Knock Rummy and Gin (``search.ISMCTS_RUMMY``):
legal tree moves, no hidden information read, repeatable for a seed, the tree's counts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from bot_positions import played, swapped
from deadwood_knock.arena import play_match
from deadwood_knock.bots import Budget, SearchBot, ismcts, kr_playout, search
from deadwood_knock.bots.kr import options_of
from deadwood_knock.bots.strong import KrSimSearch, playout_knock_at
from deadwood_knock.bots.view import view_of
from deadwood_knock.games import get_game
from deadwood_knock.games.knock_rummy.core import (
    DISCARDS,
    DRAW_PILE,
    DRAW_STOCK,
    KNOCKS,
    OVER,
    RUMMIES,
    RUMMY_NO_DISCARD,
)

GAMES = [("knock-rummy", {"players": 2}), ("gin", {"players": 2})]


@pytest.fixture(params=[False, True], ids=["tree-root", "paired-root"])
def tree_on(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> bool:
    """The switch on for both games; the root the tree's own or the flat search's."""
    monkeypatch.setattr(search, "ISMCTS_RUMMY", frozenset({"gin", "knock-rummy"}))
    monkeypatch.setattr(search, "ISMCTS_PAIRED", request.param)
    paired: bool = request.param
    return paired


def _action(code: int) -> object:
    if code < 2:
        return (DRAW_STOCK, DRAW_PILE)[code]
    if code < 54:
        return DISCARDS[code - 2]
    if code < 106:
        return KNOCKS[code - 54]
    return RUMMIES[code - 106] if code < 158 else RUMMY_NO_DISCARD


def _positions(game_name: str, options: dict[str, Any], seed: int, steps: int) -> Iterator[Any]:
    """States of a seeded heads-up game (random moves) with a seat to act."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json(options), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over(state) or game.to_act(state) is None:
            return
        yield state
        legal = game.legal_actions(state)
        state, _ = game.apply(state, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(("game_name", "options"), GAMES)
def test_tree_moves_are_legal_on_sampled_tables(game_name: str, options: dict[str, Any]) -> None:
    """Every move a tree node offers is legal on the table it is offered on, to the hand's
    end; the codes name the engine's actions both ways."""
    game = get_game(game_name)
    offered = 0
    for seed in range(4):
        for state in _positions(game_name, options, seed, 6):
            seat = game.to_act(state)
            assert seat is not None
            view = view_of(game.observe(state, seat), game_name)
            rng = random.Random(seed)
            t = kr_playout.sample_position(view, rng)
            assert t is not None
            while t.phase != OVER:
                acts = ismcts.tree_actions(t)
                assert acts and len(acts) == len(set(acts))
                for code in acts:
                    assert t.reason(_action(code)) is None
                    assert ismcts.action_code(_action(code)) == code
                    offered += 1
                ismcts.play_code(t, acts[rng.randrange(len(acts))])
    assert offered > 100


def test_knock_rummy_tree_weighs_a_knock_at_any_count() -> None:
    """Without a knock limit the tree offers the lowest-count knock at every throw (the
    early knocks both seats make); Gin's only within its limit."""
    for game_name, options in GAMES:
        game = get_game(game_name)
        state = next(
            s
            for s in _positions(game_name, options, 2, 40)
            if game.legal_actions(s)[0].kind != "draw"
        )
        seat = game.to_act(state)
        assert seat is not None
        view = view_of(game.observe(state, seat), game_name)
        t = kr_playout.sample_position(view, random.Random(1))
        assert t is not None
        knocks = [c for c in ismcts.tree_actions(t) if 54 <= c < 106]
        legal_knocks = [a for a in game.legal_actions(state) if a.kind == "knock"]
        assert len(knocks) == (1 if legal_knocks else 0)
        if game_name == "knock-rummy":
            assert knocks


@pytest.mark.parametrize(("game_name", "options"), GAMES)
def test_doctored_hidden_cards_do_not_change_the_tree_search(
    game_name: str, options: dict[str, Any], tree_on: bool
) -> None:
    game = get_game(game_name)
    rng = random.Random(7)
    bot = SearchBot()  # registered as "strong"
    checked = 0
    for seed in range(6):
        _, state = played(game_name, options, seed, steps=rng.randrange(0, 3))
        seat = game.to_act(state)
        if seat is None or game.is_over(state) or not state.stock:
            continue
        doctored = swapped(state, 1 - seat, rng.choice)
        assert doctored.hands != state.hands
        real_obs, fake_obs = game.observe(state, seat), game.observe(doctored, seat)
        legal = game.legal_actions(state)
        a = bot.evaluate(game, real_obs, legal, random.Random(seed), Budget(iterations=6))
        b = bot.evaluate(game, fake_obs, legal, random.Random(seed), Budget(iterations=6))
        assert [(x.action, x.value, x.samples) for x in a] == [
            (x.action, x.value, x.samples) for x in b
        ]
        # The tree root keeps no per-sample draws; the paired root is the flat search's.
        assert bool(a[0].draws) == (tree_on and a[0].samples > 0)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize(("game_name", "options"), GAMES)
def test_tree_search_repeats_for_a_seed_and_plays_legal_moves(
    game_name: str, options: dict[str, Any], tree_on: bool
) -> None:
    game = get_game(game_name)
    bot = SearchBot()  # registered as "strong"
    checked = 0
    for state in _positions(game_name, options, 3, 14):
        legal = game.legal_actions(state)
        if len(legal) < 2:
            continue
        seat = game.to_act(state)
        assert seat is not None
        obs = game.observe(state, seat)
        runs = [
            bot.evaluate(game, obs, legal, random.Random(11), Budget(iterations=12))
            for _ in range(2)
        ]
        assert [(x.action, x.value, x.samples) for x in runs[0]] == [
            (x.action, x.value, x.samples) for x in runs[1]
        ]
        assert all(x.action in legal for x in runs[0])
        if not tree_on:  # every descent went through one root child
            assert sum(x.samples for x in runs[0]) == 12 * ismcts.PER_ITERATION
        else:  # the flat root: every kept candidate on each of the 12 deals, then halving
            assert max(x.samples for x in runs[0]) == 12
        checked += 1
    assert checked >= 5
    result = play_match(
        game_name, ["strong", "greedy"], {"target": 25}, seed=1, budget=Budget(iterations=3)
    )
    assert result.round_scores


def test_tree_counts_and_values_are_the_descents() -> None:
    """The root's children hold every descent once; a child is never visited more often
    than it was available; each node's mean lies within the hand scores it saw."""
    game = get_game("knock-rummy")
    state = next(
        s for i, s in enumerate(_positions("knock-rummy", {"players": 2}, 5, 10)) if i == 4
    )
    seat = game.to_act(state)
    assert seat is not None
    view = view_of(game.observe(state, seat), "knock-rummy")
    search_ = KrSimSearch(view)
    codes = [c for c in (ismcts.action_code(a) for a in game.legal_actions(state)) if c is not None]
    root = ismcts.run(
        search_.sample,
        codes,
        view.seat,
        playout_knock_at(options_of(view.raw)[2]),
        random.Random(4),
        lambda done: done < 40,
    )
    assert sum(ch.n for ch in root.children.values()) == 40 * ismcts.PER_ITERATION

    def walk(node: ismcts.Node) -> int:
        seen = 0
        for ch in node.children.values():
            assert ch.n <= ch.avail
            if ch.n:
                assert ch.sq >= ch.w * ch.w / ch.n - 1e-6
                seen += 1 + walk(ch)
        return seen

    assert walk(root) > 40  # the tree grew below the root
