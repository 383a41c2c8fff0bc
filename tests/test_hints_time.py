"""Hand Focus keeps to its time: the search (or the pot's dealing) stops before a sample
(a chunk of deals) that would not fit with the reserve for the sentences after it, all
within the budget's seconds from the call; an iteration-only budget gives the hint it
always gave, sample for sample.

No test here times anything: the clocks are injected (a fake wall clock and CPU clock
that the search's own samples advance), so the stop rule's arithmetic is checked
exactly. The speed itself is measured by ``bench/decision_time.py --hints``
(docs/bench.md, "Hand Focus's time, as the server asks it").
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from deadwood_knock.bots import Budget, SearchBot
from deadwood_knock.bots.base import Deadline
from deadwood_knock.bots.dk import MIN_POT_DEALS, POT_CHUNK
from deadwood_knock.bots.hints import (
    AFTER_POT_CPU,
    AFTER_RUMMY_CPU,
    AFTER_SEARCH_CPU,
    AFTER_STAND_CPU,
    after_search_cpu,
    hand_focus,
)
from deadwood_knock.games import get_game
from test_hints import call_positions


class FakeClocks:
    """A wall clock and a CPU clock that stand still until a step advances them: each
    step takes ``step`` wall seconds and ``step / slowdown`` CPU seconds."""

    def __init__(self, step: float, slowdown: float) -> None:
        self.now = 1000.0
        self.used = 50.0
        self.step = step
        self.slowdown = slowdown
        self.steps = 0

    def wall(self) -> float:
        return self.now

    def cpu(self) -> float:
        return self.used

    def tick(self) -> None:
        self.now += self.step
        self.used += self.step / self.slowdown
        self.steps += 1


def _first_position(name: str, opts: dict[str, Any], seed: int) -> tuple[Any, Any]:
    game = get_game(name)
    state = game.new_game(game.options_from_json(opts), seed)
    return game, game.observe(state, game.to_act(state))


# --- the stop rule's arithmetic ------------------------------------------------------------


def _four_steps_in(at: float) -> Deadline:
    """A deadline at ``at`` after four steps of 0.1 s from 1000.0, at half a core, that
    keeps 0.05 CPU seconds for the work after the loop (0.1 s of wall time there)."""
    clocks = FakeClocks(step=0.1, slowdown=2.0)
    deadline = Deadline(at, 0.05, clocks.wall, clocks.cpu)
    deadline.start()
    for _ in range(4):
        clocks.tick()
    return deadline


def test_the_deadline_keeps_one_more_step_and_the_reserve_scaled_by_the_share_of_a_core() -> None:
    # 1000.4 now, 0.1 a step, reserve 0.05 * 2: one more step ends at 1000.5, the reserve
    # at 1000.6.
    deadline = _four_steps_in(1000.605)
    assert deadline.slowdown() == pytest.approx(2.0)
    assert deadline.reserve() == pytest.approx(0.1)
    assert deadline.fits(4)
    assert not deadline.fits(4, ahead=2)  # two more steps would not
    assert not _four_steps_in(1000.595).fits(4)
    # The same four steps at full speed keep only 0.05: a later step fits.
    quick = FakeClocks(step=0.1, slowdown=1.0)
    at_speed = Deadline(1000.555, 0.05, quick.wall, quick.cpu)
    at_speed.start()
    for _ in range(4):
        quick.tick()
    assert at_speed.reserve() == pytest.approx(0.05) and at_speed.fits(4)


def test_the_reserve_never_shrinks_below_the_cpu_it_needs() -> None:
    # A loop with more CPU than wall time (another thread) or none yet: slowdown 1.
    wall = iter([0.0, 0.5])
    cpu = iter([0.0, 2.0])
    d = Deadline(10.0, 0.25, lambda: next(wall), lambda: next(cpu))
    d.start()
    assert d.slowdown() == 1.0
    frozen = Deadline(10.0, 0.25, lambda: 3.0, lambda: 1.0)
    frozen.start()
    assert frozen.reserve() == 0.25 and frozen.fits(0) and frozen.fits(7, ahead=100)


def test_the_reserve_is_chosen_by_what_the_sentences_will_cost() -> None:
    assert after_search_cpu("knock-rummy", {"draw"}) == AFTER_RUMMY_CPU
    assert after_search_cpu("gin", {"discard", "knock"}) == AFTER_RUMMY_CPU
    assert after_search_cpu("deadwood-knock", {"draw", "knock"}) == AFTER_SEARCH_CPU
    assert after_search_cpu("deadwood-knock", {"draw", "stand"}) == AFTER_STAND_CPU
    assert after_search_cpu("deadwood-knock", {"call", "fold"}) == AFTER_POT_CPU


# --- the search and the pot stop by the rule -------------------------------------------------


def _ticking_search(monkeypatch: pytest.MonkeyPatch, clocks: FakeClocks) -> None:
    """Every sample the search draws advances the fake clocks by one step."""
    original = SearchBot._search

    class Ticking:
        def __init__(self, inner: Any) -> None:
            self._inner = inner

        def __getattr__(self, name: str) -> Any:
            return getattr(self._inner, name)

        def sample(self, rng: random.Random) -> Any:
            clocks.tick()
            return self._inner.sample(rng)

    def search(self: SearchBot, game: Any, observation: Any, view: Any) -> Any:
        return Ticking(original(self, game, observation, view))

    monkeypatch.setattr(SearchBot, "_search", search)


@pytest.mark.parametrize(
    ("name", "opts", "reserve"),
    [
        ("deadwood-knock", {"players": 3}, AFTER_SEARCH_CPU),
        ("knock-rummy", {"players": 2}, AFTER_RUMMY_CPU),
        ("gin", {"players": 2}, AFTER_RUMMY_CPU),
    ],
)
def test_the_search_stops_before_a_sample_that_would_not_fit(
    monkeypatch: pytest.MonkeyPatch, name: str, opts: dict[str, Any], reserve: float
) -> None:
    """1 ms a sample at a third of a core, 100.25 ms: after k samples, one more and the
    reserve (its CPU three times over) must end by 100.25 ms; the search stops at the
    first k where they would not. The budget's 300 iterations are never reached."""
    game, obs = _first_position(name, opts, seed=4)
    clocks = FakeClocks(step=0.001, slowdown=3.0)
    _ticking_search(monkeypatch, clocks)
    hint = hand_focus(
        game, obs, Budget(seconds=0.10025, iterations=300), seed=7, wall=clocks.wall, cpu=clocks.cpu
    )
    samples = {r.samples for r in hint.actions if r.value is not None}
    expected = next(k for k in range(1, 301) if k + 1 + 3000 * reserve > 100.25)
    assert samples == {expected} == {clocks.steps}
    # The old rule (stop once the time has passed) took 101 samples and then the sentences.
    assert expected < 100


def test_the_budget_counts_from_the_call_not_from_the_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Time spent before the search (here 40 ms, as if the process waited for a core)
    comes out of the same budget."""
    game, obs = _first_position("knock-rummy", {"players": 2}, seed=4)
    clocks = FakeClocks(step=0.001, slowdown=1.0)
    _ticking_search(monkeypatch, clocks)
    original = SearchBot._priors

    def slow_priors(self: SearchBot, *args: Any) -> Any:
        clocks.now += 0.040
        return original(self, *args)

    monkeypatch.setattr(SearchBot, "_priors", slow_priors)
    hint = hand_focus(
        game, obs, Budget(seconds=0.10025, iterations=300), seed=7, wall=clocks.wall, cpu=clocks.cpu
    )
    samples = {r.samples for r in hint.actions if r.value is not None}
    expected = next(k for k in range(1, 301) if 40 + k + 1 + 1000 * AFTER_RUMMY_CPU > 100.25)
    assert samples == {expected}


def test_the_pot_stops_before_a_chunk_of_deals_that_would_not_fit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1 ms a deal at full speed, 0.2 s: the pot looks at the clock every POT_CHUNK deals
    from MIN_POT_DEALS on and stops when the next chunk and the reserve would end late:
    after d deals, d + 25 + 1 ms must end by 200 ms, so it deals 175 (175 + 26 > 200)."""
    from deadwood_knock.bots import dk

    game, state, seat, _share = next(call_positions(1, seed=5))
    obs = game.observe(state, seat)
    clocks = FakeClocks(step=0.001, slowdown=1.0)
    original = dk._dealt

    def ticking(*args: Any) -> Any:
        clocks.tick()
        return original(*args)

    monkeypatch.setattr(dk, "_dealt", ticking)
    hint = hand_focus(game, obs, Budget(seconds=0.2), seed=1, wall=clocks.wall, cpu=clocks.cpu)
    assert hint.pot is not None
    reserve_ms = 1000 * AFTER_POT_CPU
    expected = next(
        d for d in range(MIN_POT_DEALS, 400, POT_CHUNK) if d + POT_CHUNK + reserve_ms > 200 + 1e-6
    )
    assert hint.pot.deals == clocks.steps == expected == 175
    assert f"of {expected} deals" in hint.explanation


# --- an iteration-only budget: the hint it always gave ---------------------------------------

#: ``hand_focus(game, first position, Budget(iterations=30), seed=7)``'s values and samples,
#: from the code before the stop rule (lead 9b8090f, 2026-12-07).
TODAY = {
    "deadwood-knock": [
        ("discard 8♦, take from the stock", -2.966667),
        ("discard A♥, take from the stock", -9.766667),
        ("discard 9♠, take from the stock", -9.9),
        ("discard 8♦, take from the pile", -9.95),
        ("discard 9♠, take from the pile", -12.516667),
        ("knock", -16.566667),
    ],
    "knock-rummy": [("draw from the pile", 14.5), ("draw from the stock", 8.166667)],
    "gin": [("draw from the pile", 10.858333), ("draw from the stock", 7.791667)],
}


@pytest.mark.parametrize(
    ("name", "opts"),
    [("deadwood-knock", {"players": 3}), ("knock-rummy", {"players": 2}), ("gin", {"players": 2})],
)
def test_an_iteration_budget_gives_todays_hint_sample_for_sample(
    name: str, opts: dict[str, Any]
) -> None:
    game, obs = _first_position(name, opts, seed=4)
    hint = hand_focus(game, obs, Budget(iterations=30), seed=7)
    got = [(r.words, r.value, r.samples) for r in hint.actions if r.value is not None]
    assert [(w, s) for w, _v, s in got] == [(w, 30) for w, _v in TODAY[name]]
    for (_w, value, _s), (_t, today) in zip(got, TODAY[name], strict=True):
        assert value == pytest.approx(today, abs=1e-6)
    # The same search the bot runs: each move's value and samples.
    legal = [game.action_from_json(a) for a in obs.to_json()["legal_actions"]]
    values = SearchBot().evaluate(
        game, obs, legal, random.Random(7), Budget(iterations=30), cull=False
    )
    searched = {json.dumps(av.action.to_json()): (av.value, av.samples) for av in values}
    ranked = {json.dumps(r.action): (r.value, r.samples) for r in hint.actions if r.samples}
    assert ranked == searched
    # With seconds as well, on a clock that stands still, the cap alone ends the search:
    # the same hint.
    timed = hand_focus(
        game, obs, Budget(seconds=0.25, iterations=30), seed=7, wall=lambda: 5.0, cpu=lambda: 1.0
    )
    assert timed.to_json() == hint.to_json()


def test_a_stall_in_the_first_sample_does_not_end_the_hint_on_one_deal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seen in play on a busy machine: "Search: … over 1 deal". The first sample took
    120 ms of wall time (the process waited for a core), the rest 1 ms each: timed by that
    one sample the next would not fit, and the search stopped there. It now takes
    ``MIN_STOP_SAMPLES`` before it looks at the clock, and then times the samples by their
    average, so it goes on while they fit."""
    from deadwood_knock.bots.strong import MIN_STOP_SAMPLES

    game, obs = _first_position("deadwood-knock", {"players": 3}, seed=4)
    clocks = FakeClocks(step=0.001, slowdown=1.0)
    stalled = [False]
    original_tick = clocks.tick

    def tick() -> None:
        if not stalled[0]:
            stalled[0] = True
            clocks.now += 0.120
        original_tick()

    monkeypatch.setattr(clocks, "tick", tick)
    _ticking_search(monkeypatch, clocks)
    hint = hand_focus(
        game, obs, Budget(seconds=0.25, iterations=300), seed=7, wall=clocks.wall, cpu=clocks.cpu
    )
    samples = {r.samples for r in hint.actions if r.value is not None}
    assert len(samples) == 1
    (n,) = samples
    assert n > MIN_STOP_SAMPLES  # it looked at the clock after them, and went on
    assert f"over {n} deals" in hint.explanation
    # Still within the time: the samples end, with the reserve, by the 250 ms.
    assert clocks.now - 1000.0 <= 0.25
