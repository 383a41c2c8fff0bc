"""Inference of the opponents' hidden cards (bots/inference.py): calibrated, and better
than dealing the unseen cards uniformly.

Seeded games between personalities and greedy (seeds apart from the fit's); at sampled
decisions the seat to act predicts, for every opponent and every card it has not seen,
the probability that the opponent holds it (the share of 200 deals by the sampler the
search uses). Grouped in bins of predicted probability, the predictions must match the
observed frequency within CALIBRATION_TOLERANCE (or 2.5 binomial standard errors, if
more) in every bin with at least MIN_BIN pairs, and the Brier score must beat uniform
dealing's.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from deadwood_knock.bots import Budget, SearchBot, get_bot
from deadwood_knock.bots.inference import HiddenDealer, evidence_of, marginals
from deadwood_knock.bots.view import view_of
from deadwood_knock.cards import Card
from deadwood_knock.games import get_game

CALIBRATION_TOLERANCE = 0.05
MIN_BIN = 150
BINS = 10
SAMPLES = 200
BOTS = ("greedy", "legend", "sharp", "regular", "high_roller", "tenderfoot")


def _pairs(game_name: str, players: int, games: int, uniform: bool) -> list[tuple[float, int]]:
    """(predicted probability, held) for every (decision, opponent, unseen card): the
    ``marginals`` of the card model's deals (uniform deals if ``uniform``)."""
    game = get_game(game_name)
    opts: dict[str, Any] = {"players": players}
    if game_name == "deadwood-knock":
        opts["rounds"] = 1
    rng = random.Random(4242)
    out: list[tuple[float, int]] = []
    for g in range(games):
        state = game.new_game(game.options_from_json(opts), 90_000 + g)
        bots = [get_bot(rng.choice(BOTS)) for _ in range(players)]
        for step in range(60):
            seat = game.to_act(state)
            if seat is None or game.is_over(state):
                break
            obs = game.observe(state, seat)
            legal = game.legal_actions(state)
            if step >= 4 and step % 5 == 0:
                view = view_of(obs, game_name)
                rng_m = random.Random(g * 1000 + step)
                probs = marginals(view, HiddenDealer(view, uniform), rng_m, SAMPLES)
                for s, table in probs.items():
                    held = set(state.hands[s])
                    for c, p in table.items():
                        out.append((p, int(c in held)))
            state, events = game.apply(state, bots[seat].act(game, obs, legal, rng))
            if any(e.kind in ("round_result", "hand_result", "void", "hand_void") for e in events):
                break
    return out


def _check_calibrated(model: list[tuple[float, int]], uniform: list[tuple[float, int]]) -> None:
    assert len(model) == len(uniform) > 2000
    bins: list[list[tuple[float, int]]] = [[] for _ in range(BINS)]
    for p, y in model:
        bins[min(BINS - 1, int(p * BINS))].append((p, y))
    checked = 0
    for b in bins:
        if len(b) < MIN_BIN:
            continue
        predicted = sum(p for p, _ in b) / len(b)
        observed = sum(y for _, y in b) / len(b)
        # Within the tolerance, or 2.5 binomial standard errors in a small bin.
        se = (observed * (1 - observed) / len(b)) ** 0.5
        tolerance = max(CALIBRATION_TOLERANCE, 2.5 * se)
        assert abs(predicted - observed) <= tolerance, (predicted, observed, len(b))
        checked += 1
    assert checked >= 2
    assert _brier(model) < _brier(uniform)


def _brier(pairs: list[tuple[float, int]]) -> float:
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs)


@pytest.mark.parametrize(
    ("game_name", "players", "games"),
    [("gin", 2, 40), ("knock-rummy", 3, 30), ("deadwood-knock", 4, 30)],
)
def test_sampled_hands_are_calibrated_and_beat_uniform(
    game_name: str, players: int, games: int
) -> None:
    model = _pairs(game_name, players, games, uniform=False)
    uniform = _pairs(game_name, players, games, uniform=True)
    _check_calibrated(model, uniform)


def test_evidence_reads_throws_passes_and_takes() -> None:
    """A blind draw past a top card is a pass; a pile draw is a take; throws are read."""
    game = get_game("gin")
    state = game.new_game(game.options_from_json({"players": 2}), 3)
    rng = random.Random(1)
    bot = get_bot("greedy")
    for _ in range(12):
        seat = game.to_act(state)
        assert seat is not None
        state, _ = game.apply(
            state, bot.act(game, game.observe(state, seat), game.legal_actions(state), rng)
        )
    seat = game.to_act(state)
    assert seat is not None
    view = view_of(game.observe(state, seat), "gin")
    ev = evidence_of(view)
    other = 1 - seat
    assert set(view.thrown[other]) == set(ev[other].threw)
    assert set(view.picked[other]) == set(ev[other].took)
    # Every draw is a pass or a take (the first player may pass the upcard).
    draws = sum(1 for e in view.raw["events"] if e.get("type") == "draw" and e.get("seat") == other)
    assert len(ev[other].passed) + len(ev[other].took) == draws


def test_passes_are_the_engines_pile_top_through_turnovers() -> None:
    """Every pass the evidence reads is the top of the pile as the engine had it when the
    seat drew blind, also after Knock Rummy's turnovers (the engine's ``turn_over``
    events take the pile away; until 2026-12-06 the walk missed them and read passes
    against cards no longer on the pile)."""
    game = get_game("knock-rummy")
    after_turnover = 0
    for seed in range(3):
        state = game.new_game(game.options_from_json({"players": 3}), seed)
        rng = random.Random(seed)
        truth: list[list[Card]] = [[], [], []]
        while True:
            seat = game.to_act(state)
            assert seat is not None
            view = view_of(game.observe(state, seat), "knock-rummy")
            assert [list(ev.passed) for ev in evidence_of(view)] == truth
            after_turnover += any(e["type"] == "turn_over" for e in view.raw["events"])
            legal = game.legal_actions(state)
            # No knock: play on into the turnovers.
            action = rng.choice([a for a in legal if a.kind == "draw" or a.kind == "discard"])
            pile = state.discard_pile
            state, events = game.apply(state, action)
            if any(e.kind in ("void", "hand_result") for e in events):
                break
            turned = any(e.kind == "turn_over" for e in events)
            if action.kind == "draw" and action.source == "stock" and pile and not turned:
                truth[seat].append(pile[-1])
    assert after_turnover >= 30


def test_passes_are_the_engines_pile_top_through_a_reshuffle() -> None:
    """Deadwood Knock's reshuffle (DK7) makes the stock of the cards under the top discard
    and keeps that card as the pile: every blind draw, the one that set off the reshuffle
    and those after it too, is a pass of the engine's top card (until 2026-12-06 the walk
    forgot the top at a reshuffle and read no pass there)."""
    game = get_game("deadwood-knock")
    after_reshuffle = 0
    for seed in range(3):
        state = game.new_game(game.options_from_json({"players": 4, "rounds": 1}), seed)
        rng = random.Random(seed)
        truth: list[list[Card]] = [[] for _ in range(4)]
        while not game.is_over(state):
            seat = game.to_act(state)
            assert seat is not None
            view = view_of(game.observe(state, seat), "deadwood-knock")
            # By name: an observation writes the two jokers alike.
            assert [[str(c) for c in ev.passed] for ev in evidence_of(view)] == [
                [str(c) for c in cards] for cards in truth
            ]
            after_reshuffle += any(e["type"] == "reshuffle" for e in view.raw["events"])
            # Draws only (no knock, no stand): play on into the reshuffle and the dry stock.
            draws = [a for a in game.legal_actions(state) if type(a).__name__ == "Draw"]
            if not draws:
                break
            action = rng.choice(draws)
            pile = state.discard
            state, events = game.apply(state, action)
            if action.source == "stock" and pile:
                truth[seat].append(pile[-1])
            if any(e.kind in ("round_result", "stock_out") for e in events):
                break
    assert after_reshuffle >= 20


@pytest.mark.parametrize(
    ("game_name", "options"),
    [
        ("deadwood-knock", {"players": 4, "rounds": 1}),
        ("knock-rummy", {"players": 3}),
        ("gin", {"players": 2}),
    ],
)
def test_strong_repeats_itself_for_a_seed_with_an_iteration_budget(
    game_name: str, options: dict[str, Any]
) -> None:
    """Two runs with one seed and an iteration budget agree, move for move and value for
    value (a wall-clock limit would make them depend on the machine)."""
    game = get_game(game_name)
    state = game.new_game(game.options_from_json(options), 12)
    rng = random.Random(5)
    bot = get_bot("legend")
    for _ in range(9):
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        state, _ = game.apply(state, bot.act(game, game.observe(state, seat), legal, rng))
    seat = game.to_act(state)
    assert seat is not None
    obs, legal = game.observe(state, seat), game.legal_actions(state)
    strong = get_bot("strong")
    assert isinstance(strong, SearchBot)
    budget = Budget(iterations=40)
    runs = [strong.evaluate(game, obs, legal, random.Random(99), budget) for _ in range(2)]
    assert [(v.action, v.value, v.samples) for v in runs[0]] == [
        (v.action, v.value, v.samples) for v in runs[1]
    ]
    assert max(v.samples for v in runs[0]) == 40


def _call_position(seed: int) -> Any:
    """The first call decision of a seeded 4-player round between greedy players (greedy
    knocks as soon as it may)."""
    game = get_game("deadwood-knock")
    state = game.new_game(game.options_from_json({"players": 4, "rounds": 1}), seed)
    rng = random.Random(seed)
    bot = get_bot("greedy")
    while True:
        seat = game.to_act(state)
        assert seat is not None
        legal = game.legal_actions(state)
        if any(a.kind == "call" for a in legal):
            return state
        state, _ = game.apply(state, bot.act(game, game.observe(state, seat), legal, rng))


def test_strong_values_a_deadwood_knock_call() -> None:
    """strong searches a real call decision on the model's deals (the knocker's hand
    allows its knock): it values every legal answer and picks one."""
    state = _call_position(21)
    game = get_game("deadwood-knock")
    seat = game.to_act(state)
    assert seat is not None
    obs, legal = game.observe(state, seat), game.legal_actions(state)
    strong = get_bot("strong")
    assert isinstance(strong, SearchBot)
    values = strong.evaluate(game, obs, legal, random.Random(3), Budget(iterations=30))
    assert {v.action for v in values} == set(legal)
    assert all(v.samples > 0 for v in values)
    assert strong.act(game, obs, legal, random.Random(3)) in legal
