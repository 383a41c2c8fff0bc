"""``search.KR_ITERATIONS`` (issue #17, the twentieth Knock Rummy pass): in Knock Rummy
(not the Gin option) ``strong`` searches that many iterations per decision in place of
the cap of the budget it is handed (the time limit kept); ``strong-v1`` is untouched.
Off (``None``, the play): today's values. On: the values of the larger budget, sample for
sample; Gin and strong-v1 as they were; a seed repeats; nothing hidden read."""

from __future__ import annotations

import random
from typing import Any

from bot_positions import discard_position
from deadwood_knock.bots import Budget, get_bot, search
from deadwood_knock.bots.strong import StrongBot

HAND = "7h 8h 9h 4s 4d Js Qs Kd 2c 3d 9s"


def _values(bot: Any, game: Any, state: Any, iterations: int, seed: int = 11) -> list[Any]:
    obs, legal = game.observe(state, 0), game.legal_actions(state)
    ranked = bot.evaluate(game, obs, legal, random.Random(seed), Budget(iterations=iterations))
    return [(str(av.action), av.draws) for av in ranked]


def test_off_in_play() -> None:
    assert search.KR_ITERATIONS is None
    assert search.kr_budget(search.KR_BUDGET) is search.KR_BUDGET


def test_kr_budget_keeps_the_time_limit(monkeypatch: Any) -> None:
    monkeypatch.setattr(search, "KR_ITERATIONS", 800)
    assert search.kr_budget(search.KR_BUDGET) == Budget(seconds=0.18, iterations=800)
    assert search.kr_budget(Budget(iterations=400)) == Budget(iterations=800)


def test_on_is_the_larger_budget_sample_for_sample(monkeypatch: Any) -> None:
    """With the switch at 40, strong handed a 16-iteration budget plays its 40-iteration
    search exactly; at the budget's own cap it is the switch-off search."""
    game, state = discard_position("knock-rummy", HAND, "5h")
    off16 = _values(search.SearchBot(), game, state, 16)
    off40 = _values(search.SearchBot(), game, state, 40)
    assert off16 != off40
    assert sum(len(d) for _, d in off40) > sum(len(d) for _, d in off16)
    monkeypatch.setattr(search, "KR_ITERATIONS", 40)
    assert _values(search.SearchBot(), game, state, 16) == off40
    monkeypatch.setattr(search, "KR_ITERATIONS", 16)
    assert _values(search.SearchBot(), game, state, 16) == off16


def test_on_leaves_gin_and_strong_v1(monkeypatch: Any) -> None:
    gin, gin_state = discard_position("gin", HAND, "5h")
    kr, kr_state = discard_position("knock-rummy", HAND, "5h")
    before = (
        _values(search.SearchBot(), gin, gin_state, 16),
        _values(StrongBot(), kr, kr_state, 16),
        _values(get_bot("strong-v1"), kr, kr_state, 16),
    )
    monkeypatch.setattr(search, "KR_ITERATIONS", 40)
    after = (
        _values(search.SearchBot(), gin, gin_state, 16),
        _values(StrongBot(), kr, kr_state, 16),
        _values(get_bot("strong-v1"), kr, kr_state, 16),
    )
    assert after == before


def test_on_with_no_budget_keeps_the_time_limit(monkeypatch: Any) -> None:
    """Handed no budget, strong's Knock Rummy search gets ``KR_BUDGET``'s time limit and
    the switch's cap."""
    seen: list[Budget] = []
    real = StrongBot.evaluate

    def spy(self: Any, game: Any, obs: Any, legal: Any, rng: Any, budget: Any, cull: Any) -> Any:
        seen.append(budget)
        return real(self, game, obs, legal, rng, budget, cull)

    monkeypatch.setattr(StrongBot, "evaluate", spy)
    monkeypatch.setattr(search, "KR_ITERATIONS", 30)
    game, state = discard_position("knock-rummy", HAND, "5h")
    search.SearchBot().evaluate(
        game, game.observe(state, 0), game.legal_actions(state), random.Random(3)
    )
    assert seen == [Budget(seconds=search.KR_BUDGET.seconds, iterations=30)]


def test_on_repeats_and_reads_nothing_hidden(monkeypatch: Any) -> None:
    """Doctored states: other hidden cards behind the same observation give the same
    values, sample for sample, and a seed repeats."""
    monkeypatch.setattr(search, "KR_ITERATIONS", 30)
    runs, rivals = [], []
    for shift in (0, 7, 19, 0):
        game, state = discard_position("knock-rummy", HAND, "5h", shift=shift)
        runs.append(_values(search.SearchBot(), game, state, 16))
        rivals.append(state.hands[1])
    assert len(set(rivals)) == 3
    assert runs[0] == runs[1] == runs[2] == runs[3]
