"""The strong bot's search, sample for sample, as before issue 17's speed pass (branch
``fast17``): at a fixed iteration budget every seeded position below gives the same
chosen action and the same per-candidate values and samples (each candidate's every
playout value, hashed) as the code before the pass did. The speed pass changed how the
inference model's weighted deal and the rummy playouts' best-discard look-up are
computed, never what they compute or how they draw from the random stream.

``EXPECTED`` was recorded on main at 91fc814 (before the pass), with::

    git worktree add --detach /tmp/fast17base 91fc814
    PYTHONPATH=/tmp/fast17base/src .venv/bin/python tests/test_search_same.py

which prints the table; the same command on this tree must print the same one.

The heads-up Knock Rummy positions (4 and 9) run with ``search.KR_RIVAL_CHANCE`` off: the
playout rival's knock by a fitted chance (the eighteenth Gin/Knock Rummy pass, kept after
these values were recorded) changes them by design, and ``tests/test_rival_chance.py``
checks that the switch off is this path, sample for sample, and what the switch on does.
"""

from __future__ import annotations

import hashlib
import math
import random
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from bot_positions import played
from deadwood_knock.bots import dk_playout, get_bot
from deadwood_knock.bots.base import Budget
from deadwood_knock.cards import Card
from deadwood_knock.games import get_game

#: (game, options, deal seed, steps played by the legend, or "call": the first call
#: decision of a round between greedy players).
POSITIONS: list[tuple[str, dict[str, Any], int, int | str]] = [
    ("deadwood-knock", {"players": 4, "rounds": 1}, 12, 9),
    ("deadwood-knock", {"players": 4, "rounds": 1}, 31, 14),
    ("deadwood-knock", {"players": 3, "rounds": 1}, 7, 5),
    ("deadwood-knock", {"players": 4, "rounds": 1}, 4242, "call"),
    ("knock-rummy", {"players": 2}, 12, 9),
    ("knock-rummy", {"players": 3}, 5, 6),
    ("gin", {"players": 2}, 12, 9),
    ("gin", {"players": 2}, 40, 16),
    ("deadwood-knock", {"players": 6, "rounds": 1}, 3, 20),
    ("knock-rummy", {"players": 2}, 77, 20),
    ("gin", {"players": 2}, 3, 24),
]
ITERATIONS = 24


def _without_the_rival_chance() -> None:
    from deadwood_knock.bots import search

    search.KR_RIVAL_CHANCE = 0  # see the module docstring


@pytest.fixture(autouse=True)
def _search_as_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    from deadwood_knock.bots import search

    monkeypatch.setattr(search, "KR_RIVAL_CHANCE", 0)


def _position(game_name: str, options: dict[str, Any], seed: int, steps: int | str) -> Any:
    if steps == "call":  # the first call decision of a round between greedy players
        return played(
            game_name, options, seed, 400, until=lambda _g, s: getattr(s, "phase", "") == "call"
        )
    return played(game_name, options, seed, steps, bots=("legend",))


def search_figures(index: int) -> tuple[str, float, int, str]:
    """Position ``index``'s chosen action, its value and samples, and a digest of every
    candidate's action, value, samples and per-sample values, best first."""
    game_name, options, seed, steps = POSITIONS[index]
    game, state = _position(game_name, options, seed, steps)
    seat = game.to_act(state)
    assert seat is not None
    obs, legal = game.observe(state, seat), game.legal_actions(state)
    ranked = get_bot("strong").evaluate(
        game, obs, legal, random.Random(1000 + index), Budget(iterations=ITERATIONS)
    )
    text = repr([(repr(v.action), v.value, v.samples, v.draws) for v in ranked])
    best = ranked[0]
    return (
        repr(best.action),
        best.value,
        best.samples,
        hashlib.sha256(text.encode()).hexdigest()[:16],
    )


EXPECTED: list[tuple[str, float, int, str]] = [
    ("Draw(select=9s, source='stock')", -7.708333333333332, 24, "841e35d8c7823f5d"),
    ("Fold()", -7.166666666666668, 24, "4c7fd3bb476b7417"),
    ("Draw(select=Jh, source='stock')", 25.875, 24, "1c3fe568bf972a52"),
    ("Fold()", 2.930555555555555, 24, "b2a133496d492d17"),
    ("Knock(discard=Jd)", 9.166666666666666, 24, "724f3c2af020f596"),
    ("Draw(source='stock')", 1.7013888888888886, 24, "de780eafe76a3f20"),
    ("Discard(card=Jd)", 5.0625, 24, "90ee3221718c5661"),
    ("Draw(source='stock')", 5.583333333333333, 24, "08024581a3c35ba5"),
    ("Fold()", 3.8999999999999986, 24, "3a19b9974a7b7983"),
    ("Draw(source='stock')", 9.65625, 24, "a295e490b7d74069"),
    ("Draw(source='stock')", 17.333333333333332, 24, "1fa53665d29fa16a"),
]


@pytest.mark.parametrize("index", range(len(POSITIONS)))
def test_search_values_are_as_before_the_speed_pass(index: int) -> None:
    assert search_figures(index) == EXPECTED[index]


def _weighted_pick_before(
    pool: Sequence[Card], weights: Sequence[float], k: int, rng: random.Random
) -> list[Card]:
    """``inference._weighted_pick`` as it was before the pass: (key, index) pairs sorted."""
    if k <= 0:
        return []
    if k >= len(pool):
        return list(pool)
    keyed = sorted(
        ((math.log(rng.random() or 1e-300) / w, i) for i, w in enumerate(weights)),
        reverse=True,
    )
    return [pool[i] for _, i in keyed[:k]]


class _Ties(random.Random):
    """A stream with many equal draws, so that equal keys must break the same way."""

    def random(self) -> float:
        return (0.5, 0.25, 0.0)[self.getrandbits(2) % 3]


def test_weighted_pick_draws_as_before() -> None:
    from deadwood_knock.bots.inference import _weighted_pick

    source = random.Random(17)
    for trial in range(400):
        n = source.randint(1, 45)
        pool = [Card(c) for c in source.sample(range(54), n)]
        weights = [1.0 if trial % 4 == 0 else math.exp(source.uniform(-3.0, 2.0)) for _ in pool]
        k = source.randint(0, n + 1)
        kind = _Ties if trial % 5 == 0 else random.Random
        old, new = kind(trial), kind(trial)
        assert _weighted_pick(pool, weights, k, new) == _weighted_pick_before(pool, weights, k, old)
        assert new.getrandbits(32) == old.getrandbits(32)  # the same draws taken


def test_best_discard_mask_is_best_discard_count() -> None:
    # Imported here: the file's own command also runs on the tree before the pass.
    from deadwood_knock.games.knock_rummy.melds import (
        best_discard_count,
        best_discard_mask,
        hand_mask,
    )

    source = random.Random(23)
    for trial in range(3000):
        cards = source.sample(range(52), source.choice((2, 8, 11, 11, 11, 12)))
        high = trial % 2 == 1
        assert best_discard_mask(hand_mask(cards), high) == best_discard_count(cards, high)


def test_dk_playout_hands_stay_in_card_order() -> None:
    """The playout policy's look-ups skip the sort (``dk_playout._quick_sorted``): every
    hand the core holds, at every move, is in card order."""
    game = get_game("deadwood-knock")
    for seed in range(12):
        state = game.new_game(game.options_from_json({"players": 2 + seed % 5}), seed)
        core = dk_playout.dealt(state)
        rng = random.Random(seed)
        while core.phase != "over":
            assert all(list(h) == sorted(h) for h in core.hands)
            dk_playout.policy_move(core, rng)


if __name__ == "__main__":
    _without_the_rival_chance()
    for i in range(len(POSITIONS)):
        print(f"    {search_figures(i)!r},", file=sys.stdout, flush=True)
