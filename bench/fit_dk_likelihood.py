"""Fit the soft playout policy of ``bots/dk_likelihood.py`` and print its parameters.

Plays seeded 4-player Deadwood Knock rounds (a table of four strong-v1 at a small
iteration budget, and tables of personalities and greedy) through the public engine and
logs every draw-and-discard turn with the real hands around it (the fit may look: it is
offline; the bot gets only the three numbers). For each turn it computes what the bot
computes on a candidate hand (``throw_scores``, ``take_gain``; a blind draw's hand before
the turn stands in as the bot's proxy does) and maximises the log-likelihood of the
observed throw (softmax, beta) and take or pass (logistic, gamma and bias) by grid
search; the two parts are separate.

    .venv/bin/python bench/fit_dk_likelihood.py --strong-rounds 12 --personality-rounds 80 --seed 31
"""

from __future__ import annotations

import argparse
import math
import random
import time
from typing import Any

import numpy as np

from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.bots.dk_likelihood import Turn, take_gain, throw_scores
from deadwood_knock.cards import Card
from deadwood_knock.games import get_game

BOTS = ("greedy", "legend", "sharp", "regular", "high_roller", "tenderfoot")


def collect(
    lineup: list[str], rounds: int, seed: int, iterations: int
) -> list[tuple[list[float], int, float | None, bool]]:
    """(throw scores, thrown index, take gain or None, took) for every turn logged."""
    game = get_game("deadwood-knock")
    rng = random.Random(seed)
    budget = Budget(iterations=iterations)
    rows: list[tuple[list[float], int, float | None, bool]] = []
    for r in range(rounds):
        names = [rng.choice(BOTS) if n == "*" else n for n in lineup]
        bots = [get_bot(n) for n in names]
        state = game.new_game(
            game.options_from_json({"players": len(lineup), "rounds": 1}), seed * 10_000 + r
        )
        while not game.is_over(state):
            seat = game.to_act(state)
            if seat is None:
                break
            obs = game.observe(state, seat)
            legal = game.legal_actions(state)
            action = bots[seat].act(game, obs, legal, rng, budget)
            before: list[Card] = list(state.hands[seat])
            top = state.discard[-1] if state.discard else None
            state, events = game.apply(state, action)
            draw = next((e for e in events if e.kind == "draw" and e.seat == seat), None)
            thrown = next((e for e in events if e.kind == "discard" and e.seat == seat), None)
            if draw is None or thrown is None:
                continue
            after: list[Card] = list(state.hands[seat])
            source = str(draw.data.get("source"))
            taken = draw.data.get("card") if source != "stock" else None
            turn = Turn(top, source, taken, thrown.data["card"])
            scores, index = throw_scores(after, turn)
            gain = take_gain(after, before, turn)
            rows.append((scores, index, gain, taken is not None))
    return rows


def fit_throw(rows: list[Any]) -> tuple[float, float]:
    best = (0.0, -math.inf)
    for beta in np.arange(0.0, 0.61, 0.01):
        ll = 0.0
        for scores, index, _g, _t in rows:
            s = np.asarray(scores) * beta
            m = s.max()
            ll += s[index] - m - math.log(np.exp(s - m).sum())
        if ll > best[1]:
            best = (float(beta), ll)
    return best


def fit_take(rows: list[Any]) -> tuple[float, float, float]:
    data = [(g, t) for _s, _i, g, t in rows if g is not None]
    gains = np.array([g for g, _ in data])
    took = np.array([1.0 if t else 0.0 for _, t in data])
    best = (0.0, 0.0, -math.inf)
    for gamma in np.arange(0.01, 1.01, 0.01):
        for bias in np.arange(-10.0, 40.5, 0.5):
            x = gamma * (gains - bias)
            ll = float((took * -np.logaddexp(0, -x) + (1 - took) * -np.logaddexp(0, x)).sum())
            if ll > best[2]:
                best = (float(gamma), float(bias), ll)
    return best


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--strong-rounds", type=int, default=12)
    ap.add_argument("--personality-rounds", type=int, default=80)
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--seed", type=int, default=31)
    args = ap.parse_args()
    t0 = time.perf_counter()
    strong = collect(["strong-v1"] * 4, args.strong_rounds, args.seed, args.iterations)
    t1 = time.perf_counter()
    pers = collect(["*"] * 4, args.personality_rounds, args.seed + 1, args.iterations)
    t2 = time.perf_counter()
    print(f"strong-v1 turns {len(strong)} ({t1 - t0:.0f}s), personality turns {len(pers)}")
    for name, rows in (("strong-v1", strong), ("personalities", pers), ("both", strong + pers)):
        beta, ll_t = fit_throw(rows)
        gamma, bias, ll_k = fit_take(rows)
        n = len(rows)
        k = sum(1 for r in rows if r[2] is not None)
        print(
            f"{name:14s} throw: beta {beta:.2f} (ll/turn {ll_t / n:.3f}, uniform "
            f"{-sum(math.log(len(r[0])) for r in rows) / n:.3f}); take: gamma {gamma:.2f} "
            f"bias {bias:.1f} (ll/turn {ll_k / max(k, 1):.3f} over {k})"
        )
    print(f"({t2 - t0:.0f}s)")


if __name__ == "__main__":
    main()
