"""The Deadwood Knock core, stepped in place, agrees with the public API on random games.

The public API copies a snapshot's fields into a core for every ``apply``; the bots'
playouts step one core in place, and without recording. These tests play 10,000 seeded
random games (2 to 6 seats, Sleight of Hand on and off, some with manual splits) three
ways in lockstep and compare everything either side can see: the legal actions, the
reasons given for illegal candidates, every step's events, every seat's observation, the
scores and the final state. A copied core is checked to share nothing mutable.
"""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

from deadwood_knock.cards import CARDS, DECK_54, shuffled
from deadwood_knock.games.base import derive_rng
from deadwood_knock.games.deadwood_knock import core, rules
from deadwood_knock.games.deadwood_knock.core import Core
from deadwood_knock.games.deadwood_knock.hand import scoring_split, showdown_split, shown

GAMES = 10_000

# Every action value but reveals, whose candidates depend on the hand.
CANDIDATES: list[Any] = [
    *(rules.Draw(c, src) for c in CARDS for src in rules.SOURCES),
    rules.Knock(),
    rules.Stand(),
    rules.Call(),
    rules.Fold(),
]


def _options(rng: random.Random) -> rules.DeadwoodKnockOptions:
    return rules.DeadwoodKnockOptions(
        players=rng.randint(2, 6),
        rounds=1 if rng.random() < 0.9 else 2,
        sleight_of_hand=rng.random() < 0.5,
        manual_split=rng.random() < 0.05,
    )


def _same_position(state: rules.DeadwoodKnockState, live: Core) -> None:
    frozen = live.freeze()
    assert frozen == state
    assert frozen.log == state.log  # equality skips the log


def _play(seed: int, observe_every: int) -> dict[str, int]:
    rng = random.Random(seed)
    options = _options(rng)
    n = options.players
    state = rules.new_game(options, seed)
    live = Core.new(options, seed)  # stepped in place, recording
    playout = Core.new(options, seed, record=False)  # stepped in place, as a playout
    assert live.events == list(state.log)
    seen = {"steps": 0, "palms": 0, "reshuffles": 0, "dry": 0, "reveals": 0}
    step = 0
    while not rules.is_over(state):
        legal = rules.legal_actions(state)
        assert live.legal_actions() == legal
        assert playout.legal_actions() == legal
        for candidate in rng.sample(CANDIDATES, 4):
            reason = rules.why_illegal(state, candidate)
            assert live.why_illegal(candidate) == reason
            assert playout.why_illegal(candidate) == reason
            assert (reason is None) == (candidate in legal)
        if observe_every and step % observe_every == 0:
            frozen = live.freeze()
            for seat in range(n):
                assert rules.observe(frozen, seat).to_json() == rules.observe(state, seat).to_json()
        action = rng.choice(legal)
        if rng.random() < 0.05:
            # A copy shares nothing mutable: stepping it leaves the original as it was.
            other = live.copy()
            other.step(rng.choice(legal))
            _same_position(state, live)
        state, events = rules.apply(state, action)
        assert live.step(action) == events
        assert playout.step(action) == ()
        _same_position(state, live)
        for name in ("phase", "to_act", "hands", "stock", "discard", "covers", "palmed"):
            assert getattr(playout, name) == getattr(state, name), name
        kinds = {e.kind for e in events}
        seen["palms"] += any(e.data.get("source") == "palm" for e in events)
        seen["reshuffles"] += "reshuffle" in kinds
        seen["dry"] += "stock_out" in kinds
        seen["reveals"] += "reveal" in kinds
        step += 1
        if "round_result" in kinds:
            result = next(e for e in events if e.kind == "round_result").data
            pairs = zip(result["round_scores"], result["suspicion"], strict=True)
            scored = [a + b for a, b in pairs]
            assert list(live.round_scores) == scored
            assert list(playout.round_scores) == scored
    assert rules.scores(state) == tuple(live.totals) == tuple(playout.totals)
    assert rules.winners(state) == core.winners(live)
    assert live.legal_actions() == ()
    seen["steps"] = step
    return seen


def test_core_and_public_api_agree_on_10000_random_games() -> None:
    totals = {"steps": 0, "palms": 0, "reshuffles": 0, "dry": 0, "reveals": 0}
    for seed in range(GAMES):
        # Every seat's observation on every 3rd step of every 8th game (the full state,
        # which they are read from, is compared on every step of every game).
        for key, value in _play(seed, observe_every=3 if seed % 8 == 0 else 0).items():
            totals[key] += value
    # The random games reach the rules that matter.
    assert totals["steps"] > GAMES * 20
    assert totals["palms"] > GAMES // 2
    assert totals["reshuffles"] > GAMES // 10
    assert totals["dry"] > GAMES // 10
    assert totals["reveals"] > GAMES // 10


def test_a_playout_core_ends_with_the_round() -> None:
    from deadwood_knock.bots import dk_playout

    state = rules.new_game(rules.DeadwoodKnockOptions(players=4, rounds=10), 3)
    sim = dk_playout.dealt(state)
    scores = dk_playout.playout(sim, random.Random(1))
    # The sample's match ends with this round: no next deal, no log, no round record.
    assert sim.phase == "over" and sim.to_act is None
    assert scores == list(sim.round_scores) and len(scores) == 4
    assert sim.log == state.log and sim.results == ()
    # The state it came from is untouched.
    assert state == rules.new_game(rules.DeadwoodKnockOptions(players=4, rounds=10), 3)


def test_the_deal_shuffles_as_random_shuffle_does() -> None:
    # core._shuffled_deck writes random.shuffle out for speed: the same seeds must deal
    # the same cards (recorded games replay), and leave the rng at the same point.
    for seed in range(5_000):
        fast, slow = derive_rng(seed, 3, 0), derive_rng(seed, 3, 0)
        assert core._shuffled_deck(fast) == shuffled(DECK_54, slow)
        assert fast.getrandbits(64) == slow.getrandbits(64)


def test_the_showdown_split_is_the_scoring_split() -> None:
    # hand.showdown_split is scoring_split and shown at once, for sorted hands.
    rng = random.Random(16)
    for _ in range(50_000):
        held = tuple(sorted(CARDS[c] for c in rng.sample(range(54), 8)))
        row, poker = scoring_split(held)
        assert showdown_split(held) == (row, poker, *shown(held, poker, row[4]))


def test_the_round_result_event_reads_as_its_json() -> None:
    options = rules.DeadwoodKnockOptions(players=3, rounds=1)
    state = rules.new_game(options, 7)
    choose = random.Random(7).choice
    while not rules.is_over(state):
        state, events = rules.apply(state, choose(rules.legal_actions(state)))
    (event,) = [e for e in events if e.kind == "round_result"]
    data = state.results[-1].to_json()
    assert isinstance(event.data, core.ResultJSON)
    assert event.data == data and data == event.data
    assert dict(event.data) == data and event.data["totals"] == list(state.totals)
    assert pickle.loads(pickle.dumps(event)) == event
    assert copy.deepcopy(event.data) == data and repr(event.data) == repr(data)
    assert event.to_json() == {"type": "round_result", **data}
