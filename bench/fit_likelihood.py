"""Fit the soft policy of ``bots/likelihood.py`` and measure its sampler against the real hands.

Plays seeded two-player games (Gin by default) between ``strong-v1`` and itself (at
``--iterations``) and between the personalities and greedy, through the public engine.
At a seat's first decision after its opponent's discard it records the opponent's real
hand (the fit may look: it is offline) and the opponent's turns as the seat saw them.

``fit``: maximum likelihood, piece by piece, of the policy's parameters: the last
discard's softmax (temperature and link weight), the last draw's logistic, the earlier
turns' softmax and logistic (the present hand standing in for the hand then). It prints
them as a ``Policy(...)``.

``--evaluate``: on records of other seeds, the samplers' predictions for the opponent's
unseen cards against its real hand: the mean log score and Brier score of the share of
``--deals`` deals holding each card, and the PIT of the real hand's count (the share of
deals counting less, ties half; 0.5 is calibrated), for the card model
(``HiddenDealer``) and the reweighted bank (``LikelihoodDealer``) at each ``--powers``.

    .venv/bin/python bench/fit_likelihood.py --seed 1 --games 30
    .venv/bin/python bench/fit_likelihood.py --seed 2 --games 12 --evaluate
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from deadwood_knock.bots import Budget, get_bot
from deadwood_knock.bots.inference import HiddenDealer
from deadwood_knock.bots.kr import count, options_of
from deadwood_knock.bots.likelihood import (
    LikelihoodDealer,
    Policy,
    Turn,
    discard_scores,
    take_gain,
    turns_of,
)
from deadwood_knock.bots.view import TableView, view_of
from deadwood_knock.games import get_game

PERSONAS = ("greedy", "legend", "sharp", "regular", "high_roller", "tenderfoot")
BIT = tuple(1 << i for i in range(52))


@dataclass
class Record:
    view: TableView
    rival: int
    hand: tuple[int, ...]  # the rival's real hand
    turns: list[Turn]
    high_aces: bool
    source: str


def collect(game_name: str, games: int, seed: int, iterations: int) -> list[Record]:
    game = get_game(game_name)
    rng = random.Random(seed)
    out: list[Record] = []
    budget = Budget(iterations=iterations)
    for g in range(games):
        # Half the games strong-v1 against itself, half between personalities.
        if g % 2 == 0:
            names = ["strong-v1", "strong-v1"]
        else:
            names = [rng.choice(PERSONAS), rng.choice(PERSONAS)]
        bots = [get_bot(n) for n in names]
        state = game.new_game(game.options_from_json({"players": 2}), seed * 100_000 + g)
        done = [0, 0]
        steps = 0
        while not game.is_over(state) and steps < 300:
            seat = game.to_act(state)
            if seat is None:
                break
            obs = game.observe(state, seat)
            legal = game.legal_actions(state)
            rival = 1 - seat
            view = view_of(obs, game_name)
            turns = turns_of(view)[rival]
            finished = sum(1 for t in turns if t.threw is not None)
            if finished > done[rival]:
                done[rival] = finished
                out.append(
                    Record(
                        view,
                        rival,
                        tuple(state.hands[rival]),
                        turns,
                        options_of(view.raw)[0],
                        names[rival],
                    )
                )
            state, events = game.apply(state, bots[seat].act(game, obs, legal, rng, budget))
            steps += 1
            if any(e.kind in ("hand_result", "hand_void") for e in events):
                done = [0, 0]
    return out


def _mask(cards: Any) -> int:
    m = 0
    for c in cards:
        m |= BIT[c]
    return m


def _softmax_ll(items: list[tuple[np.ndarray, int]], t: float) -> float:
    total = 0.0
    for scores, i in items:
        z = scores / t
        top = z.max()
        total += z[i] - top - math.log(np.exp(z - top).sum())
    return total


def _fit_softmax(
    records: list[Record], link_grid: list[float], old: bool, link_fixed: float | None
) -> tuple[float, float, float]:
    t_grid = [0.5 * 1.25**k for k in range(22)]
    best = (-1e18, 1.0, 0.0)
    for w in link_grid if link_fixed is None else [link_fixed]:
        items: list[tuple[np.ndarray, int]] = []
        for r in records:
            h = _mask(r.hand)
            done = [t for t in r.turns if t.threw is not None]
            chosen = done[-1 - 2 : -1] if old else done[-1:]
            for t in chosen:
                d = t.threw
                assert d is not None
                if h & BIT[d]:
                    continue
                banned = t.top if (t.took and not old) else None
                sc = discard_scores(h | BIT[d], banned, r.high_aces, w)
                keys = list(sc)
                items.append((np.array([sc[k] for k in keys]), keys.index(d)))
        for t in t_grid:
            ll = _softmax_ll(items, t)
            if ll > best[0]:
                best = (ll, t, w)
        print(f"  link_w {w}: n={len(items)} best so far {best}")
    return best


def _logistic_items(records: list[Record], old: bool) -> tuple[np.ndarray, np.ndarray]:
    gains: list[float] = []
    ys: list[float] = []
    for r in records:
        h = _mask(r.hand)
        done = [t for t in r.turns if t.threw is not None]
        chosen = done[-1 - 2 : -1] if old else done[-1:]
        for t in chosen:
            if t.top is None or t.threw == t.top:
                continue
            if old:
                if t.took and h & BIT[t.top]:
                    gains.append(take_gain(h ^ BIT[t.top], t.top, r.high_aces))
                elif not t.took and not h & BIT[t.top]:
                    gains.append(take_gain(h, t.top, r.high_aces))
                else:
                    continue
            else:
                d = t.threw
                assert d is not None
                hand11 = h | BIT[d]
                if t.took:
                    gains.append(take_gain(hand11 ^ BIT[t.top], t.top, r.high_aces))
                else:
                    gains.append(take_gain(h, t.top, r.high_aces))
            ys.append(1.0 if t.took else 0.0)
    return np.array(gains, dtype=float), np.array(ys)


def _fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    best = (-1e18, 0.0, 0.0)
    for a in np.arange(0.0, 2.01, 0.02):
        for b in np.arange(-8.0, 3.01, 0.05):
            z = a * x + b
            ll = float((y * -np.logaddexp(0, -z) + (1 - y) * -np.logaddexp(0, z)).sum())
            if ll > best[0]:
                best = (ll, float(a), float(b))
    return best


def fit(records: list[Record]) -> Policy:
    print("last discard:")
    _, t, w = _fit_softmax(records, [0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0], False, None)
    print("earlier discards:")
    _, t_old, _ = _fit_softmax(records, [], True, w)
    x, y = _logistic_items(records, False)
    _, a, b = _fit_logistic(x, y)
    print(f"last draw: n={len(y)} takes={int(y.sum())} a={a:.2f} b={b:.2f}")
    xo, yo = _logistic_items(records, True)
    _, ao, bo = _fit_logistic(xo, yo)
    print(f"earlier draws: n={len(yo)} takes={int(yo.sum())} a={ao:.2f} b={bo:.2f}")
    return Policy(
        discard_t=round(t, 3),
        link_w=w,
        take_a=round(a, 2),
        take_b=round(b, 2),
        old_t=round(t_old, 3),
        old_a=round(ao, 2),
        old_b=round(bo, 2),
    )


def evaluate(
    records: list[Record],
    deals: int,
    powers: list[float],
    policy: Policy,
    proposals: list[str],
    bank: int,
) -> None:
    rows: dict[str, list[tuple[float, float, float]]] = {}
    ess: dict[str, list[float]] = {}
    for k, r in enumerate(records):
        known = set(r.view.known_cards[r.rival])
        held = set(r.hand) - known
        samplers: dict[str, Any] = {"model": HiddenDealer(r.view)}
        for pw in powers:
            for prop in proposals:
                base = HiddenDealer(
                    r.view,
                    uniform=prop == "uniform",
                    keep_best=0 if prop == "flat" else 3,
                    shrink=1.0 if prop == "flat" else 0.6,
                )
                d = LikelihoodDealer(r.view, bank=bank, power=pw, policy=policy, dealer=base)
                samplers[f"sir^{pw}/{prop}/{bank}"] = d
        real = count(r.hand, r.high_aces)
        for name, dealer in samplers.items():
            rng = random.Random(k)
            freq: dict[int, float] = {}
            below = 0.0
            for _ in range(deals):
                hands, _rest = dealer.deal(rng)
                for c in hands[r.rival]:
                    freq[c] = freq.get(c, 0.0) + 1.0 / deals
                n = count(hands[r.rival], r.high_aces)
                below += 1.0 if n < real else 0.5 if n == real else 0.0
            unseen = [c for c in r.view.unseen()]
            logs = 0.0
            brier = 0.0
            for c in unseen:
                p = min(max(freq.get(c, 0.0), 0.5 / deals), 1 - 0.5 / deals)
                y = 1.0 if c in held else 0.0
                logs += math.log(p) if y else math.log(1 - p)
                brier += (p - y) ** 2
            if isinstance(dealer, LikelihoodDealer):
                w = dealer.weights()
                ess.setdefault(name, []).append(1.0 / sum(x * x for x in w))
            rows.setdefault(name, []).append(
                (logs / len(unseen), brier / len(unseen), below / deals)
            )
    for name, vals in rows.items():
        arr = np.array(vals)
        pit = arr[:, 2]
        print(
            f"{name:10s} n={len(vals)} logscore {arr[:, 0].mean():.4f} "
            f"brier {arr[:, 1].mean():.4f} PIT mean {pit.mean():.3f} "
            f"PIT<0.1 {np.mean(pit < 0.1):.3f} PIT>0.9 {np.mean(pit > 0.9):.3f}"
            + (f" ESS {np.mean(ess[name]):.1f}" if name in ess else "")
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="gin", choices=("gin", "knock-rummy"))
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--evaluate", action="store_true")
    ap.add_argument("--fit-seed", type=int, default=1, help="with --evaluate: fit on this seed")
    ap.add_argument("--fit-games", type=int, default=30)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--powers", type=float, nargs="*", default=[1.0])
    ap.add_argument("--proposals", nargs="*", default=["model"], help="model, flat, uniform")
    ap.add_argument("--bank", type=int, default=96)
    ap.add_argument("--cache", default="", help="a pickle of the records: read if it exists")
    args = ap.parse_args()
    if args.cache and os.path.exists(args.cache):
        with open(args.cache, "rb") as f:
            records = pickle.load(f)
    else:
        records = collect(args.game, args.games, args.seed, args.iterations)
        if args.cache:
            with open(args.cache, "wb") as f:
                pickle.dump(records, f)
    print(f"{len(records)} records ({args.game}, seed {args.seed})")
    if args.evaluate:
        from deadwood_knock.bots.likelihood import POLICY

        evaluate(records, args.deals, args.powers, POLICY, args.proposals, args.bank)
        return
    print(fit(records))


if __name__ == "__main__":
    main()
